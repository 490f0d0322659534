#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A malformed series file, or a patch that does not apply, stops apply.sh
# with a one-line error naming the line, or the patch and the rejected
# file, and leaves the tree exactly at the pristine baseline.
. "$(dirname "$0")/../lib.sh"
"$root/harness/tree.sh" >/dev/null 2>&1 || fail "harness/tree.sh failed"
apply() { "$root/harness/apply.sh" --series "$1"; }
pristine_tree() {
	[ "$(git -C "$TREE_DIR" rev-parse HEAD)" = "$(git -C "$TREE_DIR" rev-parse "$BASELINE_TAG^{commit}")" ] ||
		fail "tree is not at $BASELINE_TAG after a failed apply"
	[ -z "$(git -C "$TREE_DIR" status --porcelain --untracked-files=no)" ] ||
		fail "tree has modified files after a failed apply"
	[ ! -d "$TREE_DIR/.git/rebase-apply" ] || fail "git am was left in progress"
	ok "tree is pristine and clean"
}
mkdir -p "$scratch/p"

printf 'a.patch -p1 extra\n' >"$scratch/p/series"
expect_error "series:1: malformed line" apply "$scratch/p/series"
printf 'a.patch -p0\n' >"$scratch/p/series"
expect_error "series:1: malformed line" apply "$scratch/p/series"
printf '# comment\n\nmissing.patch\n' >"$scratch/p/series"
expect_error "series:3: patch missing.patch does not exist" apply "$scratch/p/series"
printf '../escape.patch\n' >"$scratch/p/series"
expect_error "must be relative and inside patches" apply "$scratch/p/series"
echo "not a patch" >"$scratch/p/plain.patch"
printf 'plain.patch\n' >"$scratch/p/series"
expect_error "plain.patch is not a git format-patch file" apply "$scratch/p/series"

# Two patches in git format-patch's mail format, made without a checkout:
# the first applies, the second's context is wrong for README, so it must
# be rejected naming README, and the first one must not stay applied.
make_patch() { # NAME FILE SED-EXPRESSION
	git -C "$TREE_DIR" show "$BASELINE_TAG:$2" >"$scratch/a"
	sed "$3" "$scratch/a" >"$scratch/b"
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: Test <test@example.org>"
		echo "Date: Thu, 1 Jan 2026 00:00:00 +0000"
		echo "Subject: [PATCH] test: $1"
		echo
		echo "---"
		echo "diff --git a/$2 b/$2"
		diff -u --label "a/$2" --label "b/$2" "$scratch/a" "$scratch/b"
		echo "-- "
		echo "2.39.5"
	} >"$scratch/p/$1.patch"
}
make_patch 0001-test-good COPYING '$a chopblock test line'
make_patch 0002-test-bad README '1s/.*/this is not the first line/'
# A series applied already is not applied again: the same patches on a
# clean checkout of the branch leave every file, and its mtime, alone
# (kbuild would otherwise recompile what includes them); a changed patch
# is applied afresh.
printf '0001-test-good.patch\n' >"$scratch/p/good-series"
apply "$scratch/p/good-series" >/dev/null 2>&1 || fail "a series of one good patch did not apply"
before=$(stat -c %Y.%y "$TREE_DIR/COPYING")
sleep 1
out=$(apply "$scratch/p/good-series" 2>&1) || fail "the second apply of the same series failed: $out"
echo "$out" | grep -q 'already applied' || fail "the same series was applied again: $out"
[ "$(stat -c %Y.%y "$TREE_DIR/COPYING")" = "$before" ] || fail "COPYING was rewritten by the second apply"
ok "the same series on a clean checkout is not applied again"
sed -i 's/chopblock test line/chopblock test line, changed/' "$scratch/p/0001-test-good.patch"
out=$(apply "$scratch/p/good-series" 2>&1) || fail "the changed patch did not apply: $out"
echo "$out" | grep -q 'already applied' && fail "a changed patch was not applied afresh"
tail -n 1 "$TREE_DIR/COPYING" | grep -qx 'chopblock test line, changed' || fail "COPYING does not have the changed line"
ok "a changed patch is applied afresh"
echo stray >>"$TREE_DIR/COPYING"
out=$(apply "$scratch/p/good-series" 2>&1) || fail "apply failed on a modified checkout: $out"
echo "$out" | grep -q 'already applied' && fail "a modified checkout counted as applied"
[ -z "$(git -C "$TREE_DIR" status --porcelain --untracked-files=no)" ] || fail "the modified file survived the apply"
ok "a modified checkout is applied afresh"

# Break the second patch's context.
sed -i 's/^-Linux kernel$/-Linux kernel, but not this one/' "$scratch/p/0002-test-bad.patch"
printf '0001-test-good.patch\n0002-test-bad.patch\n' >"$scratch/p/series"
expect_error "patch 0002-test-bad.patch \(#2\) does not apply: rejected in README" apply "$scratch/p/series"
pristine_tree
