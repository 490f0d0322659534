#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/apply.sh [--series FILE]
#
# Apply patches/series (or FILE, a quilt series file) to a fresh branch
# cut from the pristine baseline, after validating the whole series file
# (harness/lib.sh series_patches). The branch is recreated from the
# baseline unless the same series is applied there already (the same
# patches, the checkout clean), so a rerun is idempotent, and a patch that
# does not apply leaves the tree at the pristine commit, never
# half-patched: git am is aborted and the checkout reset.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=$PATCH_DIR/series
case ${1:-} in
--series) series=${2:?--series needs a file} ;;
--help | -h) usage_from_header; exit 0 ;;
"") ;;
*) die "apply.sh: unknown argument $1 (see --help)" ;;
esac

git -C "$TREE_DIR" rev-parse -q --verify "refs/tags/$BASELINE_TAG" >/dev/null ||
	die "no pristine baseline in $TREE_DIR (run harness/tree.sh)"
# Validate all of the series before touching the tree.
names=$(series_patches "$series") || exit 1
patches=()
for p in $names; do patches+=("$(dirname "$series")/$p"); done

cd "$TREE_DIR"
# Applied already, by a run that left the branch, the checkout and the
# patches as they are: nothing to do. Applying again would rewrite every
# file the series touches with a new mtime, and kbuild would recompile,
# in every kernel built from this tree or seeded from one of its builds,
# all that includes them, although the commits come out the same.
git_dir=$(git rev-parse --git-dir)
stamp=$git_dir/chopblock-applied
sum=$({ git rev-parse "$BASELINE_TAG^{commit}"; cat "$series" "${patches[@]+"${patches[@]}"}"; } |
	sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$sum" ] &&
   [ "$(git symbolic-ref -q HEAD)" = "refs/heads/$SERIES_BRANCH" ] &&
   [ "$(git rev-parse HEAD)" = "$(sed -n 2p "$stamp")" ] &&
   [ ! -d "$git_dir/rebase-apply" ] &&
   [ -z "$(git status --porcelain --untracked-files=no)" ] &&
   [ -z "$(git clean -n -d -x)" ]; then
	info "apply: ${#patches[@]} patch(es) already applied on branch $SERIES_BRANCH"
	exit 0
fi
rm -f "$stamp"
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
	name=${p#"$(dirname "$series")"/}
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
printf '%s\n%s\n' "$sum" "$(git rev-parse HEAD)" >"$stamp"
info "apply: $n patch(es) applied on branch $SERIES_BRANCH"
