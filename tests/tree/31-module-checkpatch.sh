#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The out-of-tree test modules (modules/*/*.c) pass the tree's
# scripts/checkpatch.pl --no-tree -f without errors or warnings, and were
# built: harness/modules.sh compiles them with W=1 and -Werror.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
n=0
for src in "$root"/modules/*/*.c; do
	[ -f "$src" ] || continue
	n=$((n + 1))
	out=$(perl "$TREE_DIR/scripts/checkpatch.pl" --no-tree --no-color -f "$src" 2>&1)
	verdict=$(echo "$out" | grep -E '^total: [0-9]+ errors, [0-9]+ warnings' | tail -n 1)
	echo "${src#"$root"/}: $verdict"
	[ -n "$verdict" ] || fail "checkpatch gave no verdict on $src"
	echo "$verdict" | grep -q '^total: 0 errors, 0 warnings' ||
		{ echo "$out" | grep -E '^(ERROR|WARNING):' | head; fail "checkpatch: ${src#"$root"/}: $verdict"; }
	ko=$KERNELS_DIR/main/modules/$(basename "$(dirname "$src")")/$(basename "${src%.c}").ko
	[ -f "$ko" ] || fail "$ko was not built"
	ok "${src#"$root"/} checkpatch-clean and built"
done
[ "$n" -gt 0 ] || fail "no module sources in modules/"
