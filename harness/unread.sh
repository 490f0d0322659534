#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/unread.sh KBUILD TREE FROM TO
#
# Did the kernel build in KBUILD, made from TREE at commit FROM, read none
# of the files that differ between FROM and TO? Then building TO with the
# same .config would compile, link and warn exactly as that build did,
# and make bisect need not build TO (harness/build.sh --unless-unread).
# Exit 0 when it read none of them; 1, naming the first file it may have
# read, when it did; 2 on bad input.
#
# What a build reads, as Kbuild itself tracks it:
#  - every source and header its .cmd files name (the compiler's
#    dependency lists, linker scripts included);
#  - the Makefiles, Kbuild files and anything else that is not C, assembly
#    or a header, in every directory it descended into (each has its own
#    output directory in KBUILD);
#  - scripts/, tools/ and the top-level Makefile and Kbuild, always.
# Kconfig files are the caller's: build.sh compares the .config instead.
# A header added anywhere counts as read: it may now be found first on
# the include path. A source file added in a directory that is built is
# compiled only if a Makefile there changed, and a changed Makefile is
# read.
#
#   --help   this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; esac
[ $# -eq 4 ] || { echo "usage: harness/unread.sh KBUILD TREE FROM TO (see --help)" >&2; exit 2; }
kbuild=$1 tree=$2 from=$3 to=$4
[ -d "$kbuild" ] && [ -f "$kbuild/.config" ] ||
	{ echo "unread.sh: $kbuild holds no kernel build" >&2; exit 2; }
tree=$(cd "$tree" && pwd -P)
changes=$(git -C "$tree" diff --no-renames --name-status "$from" "$to") ||
	{ echo "unread.sh: cannot compare $from and $to in $tree" >&2; exit 2; }
[ -n "$changes" ] || exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tree's files the .cmd files name, relative to the tree.
# They are absolute in command lines, and relative to KBUILD in the
# dependency lists (ccache's base directory makes them so).
kbuild=$(cd "$kbuild" && pwd -P)
rel=$(realpath --relative-to="$kbuild" "$tree")
find "$kbuild" -name '*.cmd' -print0 |
	xargs -0 -r cat -- |
	tr ' \t=:' '\n\n\n\n' |
	sed -n -e "s|^-*[A-Za-z]*$tree/||p" -e "s|^$rel/||p" |
	LC_ALL=C sort -u >"$tmp/read"

while IFS=$'\t' read -r status path; do
	dir=$(dirname "$path") base=$(basename "$path")
	case $path in
	scripts/* | tools/*) echo "$path (the build's own tools)"; exit 1 ;;
	esac
	case $base in
	Kconfig*) continue ;;
	esac
	if [ "$dir" = . ]; then
		case $base in
		Makefile | Kbuild) echo "$path (the top-level Makefile)"; exit 1 ;;
		esac
		continue
	fi
	case $base in
	*.h)
		[ "$status" != A ] || { echo "$path (a new header)"; exit 1; }
		;;
	*.c | *.S | *.s | *.rs | *.lds | *.lds.S) ;;
	*)
		# Not a source file: a Makefile, or something a Makefile names,
		# of a directory the build descended into.
		[ ! -d "$kbuild/$dir" ] || { echo "$path (in $dir/, which the build descended into)"; exit 1; }
		continue
		;;
	esac
	if grep -qxF -- "$path" "$tmp/read"; then
		echo "$path (a dependency of the build)"
		exit 1
	fi
done <<<"$changes"
exit 0
