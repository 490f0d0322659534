#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every topic of the series is postable on its own (harness/post.sh): a
# cover letter from patches/covers/, To:/Cc: from the tree's
# get_maintainer.pl on every mail, and the posting taken by
# git send-email --dry-run and by b4 am, with as many patches as the
# topic has commits, [PATCH net-next] exactly on the networking-only
# patches, and applying to the pristine tree with only the
# topics patches/prerequisites names before it.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
"$root/harness/post.sh" >"$scratch/out" 2>&1 || { tail -n 15 "$scratch/out"; fail "$(tail -n 1 "$scratch/out")"; }
n=$(grep -c '^chopblock: post: .* ok (' "$scratch/out" || true)
t=$(grep -cv '^\(#\|$\)' "$root/patches/topics")
[ "$n" -eq "$t" ] || fail "$n of $t topics postable"
for d in "$BUILD_DIR"/post/*/; do
	for p in "$d"[0-9][0-9][0-9][0-9]-*.patch; do
		grep -q '^\(To\|Cc\): .*@' "$p" || fail "no To:/Cc: in $p"
	done
	grep -q 'BLURB HERE\|SUBJECT HERE' "$d"0000-cover-letter.patch && fail "cover letter of $d not filled in"
done
# netdev's patchwork takes a patch for net-next only with that tag; no
# other patch may carry it.
tagged=0
for p in "$BUILD_DIR"/post/*/[0-9][0-9][0-9][0-9]-*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	netonly=$(awk '/^diff --git a\// { n++; if ($3 !~ /^a\/(drivers\/net|net|include\/net)\//) other = 1 }
		END { print (n > 0 && !other) ? 1 : 0 }' "$p")
	if grep -q '^Subject: \[PATCH net-next ' "$p"; then
		[ "$netonly" -eq 1 ] || fail "$p is tagged net-next but touches more than networking"
		tagged=$((tagged + 1))
	else
		[ "$netonly" -eq 0 ] || fail "$p touches only networking but is not tagged net-next"
	fi
done
[ "$tagged" -gt 0 ] || fail "no patch is tagged net-next: the check looked at nothing"
ok "$tagged networking-only patches are [PATCH net-next], and no other"
ok "$t topics postable: $(grep '^chopblock: post: ' "$scratch/out" | sed 's/^chopblock: post: \([^:]*\): \([0-9]*\) mails.*/\1 \2/' | tr '\n' ',' | sed 's/,$//; s/,/, /g') mails"
