#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every patch of the series passes the tree's scripts/checkpatch.pl
# without errors. Warnings are listed, not fatal: removals trip a few
# (for example "does MAINTAINERS need updating?") that are expected.
. "$(dirname "$0")/../lib.sh"
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCH_DIR/series" | awk '{ print $1 }')
[ -n "$patches" ] || { echo "SKIP: the series is empty"; exit 4; }
errors=0 warnings=0 n=0
for p in $patches; do
	n=$((n + 1))
	out=$(cd "$TREE_DIR" && perl scripts/checkpatch.pl --no-color --showfile --summary-file \
		"$PATCH_DIR/$p" 2>&1)
	e=$(echo "$out" | sed -n 's/^total: \([0-9]*\) errors.*/\1/p')
	w=$(echo "$out" | sed -n 's/^total: [0-9]* errors, \([0-9]*\) warnings.*/\1/p')
	[ -n "$e" ] || fail "checkpatch gave no verdict on $p: $(echo "$out" | tail -n 3)"
	printf '%-75s %s errors, %s warnings\n' "$p" "$e" "$w"
	[ "$e" -eq 0 ] || echo "$out" | grep -A3 '^ERROR' | sed 's/^/    /'
	[ "$w" -eq 0 ] || echo "$out" | grep '^WARNING' | sort | uniq -c | sed 's/^/    /'
	errors=$((errors + e)) warnings=$((warnings + w))
done
echo "$n patches: $errors errors, $warnings warnings"
[ "$errors" -eq 0 ] || fail "checkpatch found $errors errors"
