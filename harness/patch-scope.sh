#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/patch-scope.sh [--series FILE] [--scopes FILE]
#
# One logical change per patch: every file a patch of the series touches
# must belong to the subsystem its subject names. The subject's prefix
# (before its last ": ") picks a row of patches/scopes (see there); a file
# that matches none of the row's patterns, or a prefix without a row, is
# reported as PATCH: FILE, one line each. Exit 1 when anything was
# reported, with "N patches, N files outside their subject's scope" last.
#
#   --series FILE  the quilt series file (default patches/series)
#   --scopes FILE  the scope table (default patches/scopes)
#   --help         this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=$PATCH_DIR/series scopes=$PATCH_DIR/scopes
while [ $# -gt 0 ]; do
	case $1 in
	--series) series=${2:?--series needs a file}; shift ;;
	--scopes) scopes=${2:?--scopes needs a file}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	*) die "patch-scope.sh: unknown argument $1 (see --help)" ;;
	esac
	shift
done
[ -f "$scopes" ] || die "scope table $scopes is missing"
patches=$(series_patches "$series")
dir=$(dirname "$series")

# The keys and their patterns, one row a line: KEY<TAB>PATTERNS.
table=$(awk '/^[[:space:]]*(#|$)/ { next }
	{
		key = $1; i = 2
		# A key is the words up to the first pattern (one with a "/" or
		# a "*", or a file name with a dot).
		while (i <= NF && $i !~ /[\/*.]|^Makefile$|^MAINTAINERS$/) key = key " " $(i++)
		pats = ""
		for (; i <= NF; i++) pats = pats " " $i
		if (pats == "") { print "chopblock: error: " FILENAME ":" NR ": row " key " has no patterns" > "/dev/stderr"; exit 1 }
		print key "\t" substr(pats, 2)
	}' "$scopes") || exit 1

# The row for a subject prefix: the longest key equal to it or starting
# it at a ":", "/" or " " boundary (selftests covers selftests/seccomp,
# perf covers "perf bench sched-messaging").
row_for() {
	local prefix=$1 key pats best= bestpats=
	while IFS=$'\t' read -r key pats; do
		if [ "$prefix" = "$key" ] || [[ $prefix == "$key"[:/\ ]* ]]; then
			[ "${#key}" -le "${#best}" ] || best=$key bestpats=$pats
		fi
	done <<<"$table"
	[ -z "$best" ] || printf '%s\t%s\n' "$best" "$bestpats"
}

n=0 bad=0
for p in $patches; do
	n=$((n + 1))
	f=$dir/$p
	# The subject header, unfolded, without its [PATCH ...] tag.
	subject=$(awk '/^Subject:/ { s = $0; getline; while ($0 ~ /^[ \t]/) { s = s $0; getline } print s; exit }' "$f" |
		sed 's/^Subject: *//; s/^\[[^]]*\] *//')
	case $subject in
	*": "*) prefix=${subject%: *} ;;
	*) echo "$p: subject '$subject' names no subsystem"; bad=$((bad + 1)); continue ;;
	esac
	row=$(row_for "$prefix")
	if [ -z "$row" ]; then
		echo "$p: no row of $(basename "$scopes") for the prefix '$prefix'"
		bad=$((bad + 1))
		continue
	fi
	read -r -a pats <<<"${row#*$'\t'}"
	while IFS= read -r file; do
		in=0
		for pat in "${pats[@]}"; do
			# shellcheck disable=SC2053 # the pattern is meant to glob
			[[ $file == $pat ]] && { in=1; break; }
		done
		[ "$in" -eq 1 ] && continue
		echo "$p: $file is outside '${row%%$'\t'*}'"
		bad=$((bad + 1))
	done < <(sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|\1\n\2|p' "$f" | sort -u)
done
echo "$n patches, $bad files outside their subject's scope"
[ "$bad" -eq 0 ]
