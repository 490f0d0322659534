#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's kernel packaging applies its patches with quilt, so
# patches/series must stay a quilt series: `quilt push -a` with no fuzz,
# on a checkout of the pristine baseline, applies every patch it lists,
# and leaves exactly the tree that git am made (the series branch).
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
command -v quilt >/dev/null || fail "quilt is not installed (harness/deps.sh installs it)"
git -C "$TREE_DIR" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
	fail "no branch $SERIES_BRANCH in $TREE_DIR: the series was not applied"

wt=$scratch/quilt
trap 'git -C "$TREE_DIR" worktree remove --force "$wt" 2>/dev/null; rm -rf "$scratch"' EXIT
git -C "$TREE_DIR" worktree add -q --detach "$wt" "$BASELINE_TAG" ||
	fail "cannot check out $BASELINE_TAG of $TREE_DIR in $wt"
ln -s "$root/patches" "$wt/patches"

want=$(series_patches | wc -l)
# --quiltrc=/dev/null: a user's ~/.quiltrc must not change the verdict.
(cd "$wt" && quilt --quiltrc=/dev/null push -a --fuzz=0) >"$scratch/push.log" 2>&1 ||
	{ tail -n 15 "$scratch/push.log"; fail "quilt push -a failed: $(grep -m1 -i 'fail\|reject\|does not apply' "$scratch/push.log" || tail -n 1 "$scratch/push.log")"; }
got=$(grep -c '^Applying patch ' "$scratch/push.log" || true)
[ "$got" -eq "$want" ] || fail "quilt applied $got patches, patches/series lists $want"
if grep -q '^Hunk .* succeeded at .* (offset\|with fuzz' "$scratch/push.log"; then
	grep '^Hunk .* succeeded' "$scratch/push.log" | head
	fail "quilt needed offsets or fuzz: a patch no longer fits the lines git am put it on"
fi
ok "quilt push -a --fuzz=0: $got patches applied"

# Compare with the series branch: quilt's own files go, everything else
# (ignored files included: Debian's tree ignores everything) is staged.
rm -rf "$wt/.pc" "$wt/patches"
git -C "$wt" add -f -A
diff=$(git -C "$wt" diff --cached --stat "$SERIES_BRANCH" --)
[ -z "$diff" ] || { echo "$diff" | tail -n 15; fail "the tree quilt made differs from branch $SERIES_BRANCH"; }
ok "the tree quilt made is the series branch, file for file"
