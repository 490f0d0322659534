#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/export.sh [--topics FILE] BRANCH
#
# Export the commits pristine..BRANCH of the tree (build/tree) as the
# series: patches/topics says, in order, which folder each run of commits
# goes to; each folder gets git format-patch files numbered on their own
# (one posting per topic), and patches/series lists them all, a section
# comment per topic. Refuses, changing nothing, when the counts in the
# topics file do not add up to the branch's commits.
#
#   --topics FILE  the topic table (default patches/topics)
#   --help         this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"

topics=$PATCH_DIR/topics branch=
while [ $# -gt 0 ]; do
	case $1 in
	--topics) topics=${2:?--topics needs a file}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "export.sh: unknown option $1 (see --help)" ;;
	*) [ -z "$branch" ] || die "export.sh: one branch, not '$branch' and '$1'"; branch=$1 ;;
	esac
	shift
done
[ -n "$branch" ] || die "export.sh: which branch? (see --help)"
[ -f "$topics" ] || die "topic table $topics is missing"
git -C "$TREE_DIR" rev-parse -q --verify "$branch^{commit}" >/dev/null || die "no branch $branch in $TREE_DIR"
mapfile -t commits < <(git -C "$TREE_DIR" rev-list --reverse "$BASELINE_TAG..$branch")
mapfile -t rows < <(grep -v '^[[:space:]]*\(#\|$\)' "$topics")
sum=0
for r in "${rows[@]}"; do
	read -r dir count title <<<"$r"
	[[ $count =~ ^[1-9][0-9]*$ ]] && [ -n "$title" ] || die "$topics: malformed row '$r' (expected: DIR COMMITS TITLE)"
	sum=$((sum + count))
done
[ "$sum" -eq "${#commits[@]}" ] ||
	die "$topics counts $sum commits, $branch has ${#commits[@]} on top of $BASELINE_TAG"

out=$(mktemp -d "$BUILD_DIR/export.XXXXXX")
trap 'rm -rf "$out"' EXIT
{
	echo "# chopblock series, applied in this order with git am onto the pristine"
	echo "# linux-source-6.12 tree. Quilt format: one patch per line, relative to"
	echo "# patches/; comment lines start with #. Written by harness/export.sh"
	echo "# from patches/topics: each section is a posting of its own."
} >"$out/series"
i=0
for r in "${rows[@]}"; do
	read -r dir count title <<<"$r"
	first=${commits[$i]} last=${commits[$((i + count - 1))]}
	git -C "$TREE_DIR" format-patch -q --no-signature -o "$out/$dir" "$first^..$last"
	echo "# --- $dir: $title ---" >>"$out/series"
	(cd "$out" && ls "$dir"/*.patch) >>"$out/series"
	i=$((i + count))
done
# Only now touch patches/: the old patch files go, the new ones come.
for r in "${rows[@]}"; do read -r dir _ <<<"$r"; echo "$dir"; done >"$out/dirs"
for d in "$PATCH_DIR"/*/; do
	[ -n "$(ls "$d"*.patch 2>/dev/null)" ] && rm -f "$d"*.patch && rmdir --ignore-fail-on-non-empty "$d"
done
while read -r d; do mkdir -p "$PATCH_DIR/$d" && mv "$out/$d"/*.patch "$PATCH_DIR/$d/"; done <"$out/dirs"
mv "$out/series" "$PATCH_DIR/series"
info "export: ${#commits[@]} patches of $branch in ${#rows[@]} topics ($PATCH_DIR/series)"
