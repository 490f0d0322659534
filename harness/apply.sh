#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Apply patches/series to a fresh branch cut from the pristine baseline.
# The branch is recreated on every run, so a rerun is idempotent, and a
# patch that does not apply leaves the tree at the pristine commit, never
# half-patched: git am is aborted and the checkout reset.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SERIES=${CHOPBLOCK_SERIES:-$PATCH_DIR/series}

git -C "$TREE_DIR" rev-parse -q --verify "refs/tags/$BASELINE_TAG" >/dev/null ||
	die "no pristine baseline in $TREE_DIR (run harness/tree.sh)"
[ -f "$SERIES" ] || die "series file $SERIES is missing"

# Quilt's format: one patch per line, relative to the series file's folder,
# optionally followed by a -pN option; # starts a comment. Validate all of it
# before touching the tree.
patches=()
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	line=${line%%#*}
	read -r -a words <<<"$line" || true
	[ "${#words[@]}" -eq 0 ] && continue
	if [ "${#words[@]}" -gt 2 ] || { [ "${#words[@]}" -eq 2 ] && [ "${words[1]}" != -p1 ]; }; then
		die "$SERIES:$lineno: malformed line '$line' (expected: PATCH [-p1])"
	fi
	case "${words[0]}" in
	/* | *..*) die "$SERIES:$lineno: patch path '${words[0]}' must be relative and inside patches/" ;;
	esac
	p=$(dirname "$SERIES")/${words[0]}
	[ -f "$p" ] || die "$SERIES:$lineno: patch ${words[0]} does not exist"
	grep -q '^From [0-9a-f]\{40\} ' "$p" ||
		die "$SERIES:$lineno: ${words[0]} is not a git format-patch file"
	for seen in "${patches[@]+"${patches[@]}"}"; do
		[ "$seen" != "$p" ] || die "$SERIES:$lineno: patch ${words[0]} is listed twice"
	done
	patches+=("$p")
done <"$SERIES"

cd "$TREE_DIR"
git am --abort >/dev/null 2>&1 || true
tree_git checkout -q -f -B "$SERIES_BRANCH" "$BASELINE_TAG"
# Only ignored build products could be left; the tree is built out of tree,
# but a stray in-tree file must not leak into the next run.
git clean -q -f -d -x >/dev/null

mkdir -p "$LOG_DIR"
log=$LOG_DIR/apply.log
: >"$log"
n=0
for p in "${patches[@]+"${patches[@]}"}"; do
	n=$((n + 1))
	name=${p#"$(dirname "$SERIES")"/}
	if ! tree_git am -q --keep-cr --committer-date-is-author-date "$p" >>"$log" 2>&1; then
		files=$(git diff --name-only --diff-filter=U 2>/dev/null; sed -n 's/^error: patch failed: \(.*\):[0-9]*$/\1/p; s/^error: \(.*\): does not exist in index$/\1/p; s/^error: \(.*\): already exists in index$/\1/p' "$log" | sort -u)
		files=$(echo "$files" | sort -u | grep . | tr '\n' ' ' | sed 's/ $//')
		tree_git am --abort >/dev/null 2>&1 || true
		tree_git checkout -q -f -B "$SERIES_BRANCH" "$BASELINE_TAG"
		tail_log "$log" 15
		die "patch $name (#$n) does not apply: rejected in ${files:-unknown files}; tree reset to $BASELINE_TAG"
	fi
	echo "applied $name" >>"$log"
done
info "apply: $n patch(es) applied on branch $SERIES_BRANCH"
git diff --shortstat "$BASELINE_TAG" HEAD >"$LOG_DIR/series-shortstat.txt"
echo "$n" >"$LOG_DIR/series-count.txt"
