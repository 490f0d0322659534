#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fixes first, for stable: the first topic of patches/topics is the one
# whose title says "for stable", its patches open patches/series, and
# each carries what stable and the bug's reporters need in its trailer
# block: Fixes: with a 12-digit hash and the subject in quotes, Cc: stable,
# and a Link: to the public report. A synthetic patch missing each of
# them fails first, so that the check itself is known to look.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"

# trailer_problems PATCH: one line for each trailer the fix lacks.
trailer_problems() {
	awk '/^---$/ { exit } { print }' "$1" >"$scratch/msg"
	grep -Eq '^Fixes: [0-9a-f]{12,40} \(".+"\)$' "$scratch/msg" ||
		echo "no Fixes: <12-digit hash> (\"subject\") line"
	grep -q '^Cc: stable@vger\.kernel\.org$' "$scratch/msg" ||
		echo "no Cc: stable@vger.kernel.org line"
	grep -Eq '^Link: https?://[^ ]+$' "$scratch/msg" ||
		echo "no Link: to the report"
	return 0
}

good=$scratch/good.patch
printf '%s\n' "Subject: [PATCH] x: fix y" "" "Why." "" \
	'Fixes: 0123456789ab ("x: add y")' "Cc: stable@vger.kernel.org" \
	"Link: https://example.org/bug/1" "Signed-off-by: A <a@example.org>" "---" >"$good"
[ -z "$(trailer_problems "$good")" ] || fail "a fix with all three trailers was refused: $(trailer_problems "$good")"
for t in Fixes Cc Link; do
	grep -v "^$t: " "$good" >"$scratch/no-$t.patch"
	[ -n "$(trailer_problems "$scratch/no-$t.patch")" ] || fail "a fix without $t: passed"
done
# A trailer after the --- line is not in the commit message.
awk '/^Fixes: / { held = $0; next } { print } /^---$/ { print held }' "$good" >"$scratch/late.patch"
[ -n "$(trailer_problems "$scratch/late.patch")" ] || fail "a Fixes: line below --- passed"
ok "the trailer check refuses a fix without Fixes:, Cc: stable or Link:"

topics=$root/patches/topics series=$root/patches/series
read -r dir count title < <(grep -v '^[[:space:]]*\(#\|$\)' "$topics" | head -n 1)
case $title in *"for stable"*) ;; *) fail "the first topic of $topics is '$dir' ($title), not the fixes for stable" ;; esac
mapfile -t first < <(grep -v '^[[:space:]]*\(#\|$\)' "$series" | head -n "$count")
for p in "${first[@]}"; do
	[ "${p%%/*}" = "$dir" ] || fail "patches/series opens with $p, not the $count patches of $dir"
done
ok "the $count patches of $dir ($title) open the series"
for p in "${first[@]}"; do
	problems=$(trailer_problems "$root/patches/$p")
	[ -z "$problems" ] || fail "$p: $(echo "$problems" | paste -sd ';')"
done
ok "each of them has Fixes:, Cc: stable and a Link: to its report"
