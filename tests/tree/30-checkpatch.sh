#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every patch of the series passes the tree's scripts/checkpatch.pl
# without errors. Warnings are listed, not fatal: removals trip a few
# (for example "does MAINTAINERS need updating?") that are expected.
#
# One checkpatch error is a known false positive, and only that one is
# discounted, each occurrence listed: checkpatch's signature check runs on
# diff lines too, so a removed assembly label ending in "by:" (arch/sh has
# resume_rstandby: and test_ustandby:) is read as a "Signed-off-by:"-style
# tag with no address.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
patches=$(series_patches) || fail "patches/series is malformed"
[ -n "$patches" ] || { echo "SKIP: the series is empty"; exit 4; }
# checkpatch.pl is single-threaded: run it on every core, one output file
# a patch, then read the outputs in series order.
mkdir -p "$scratch/cp"
i=0
for p in $patches; do
	i=$((i + 1))
	printf '%s\0%s\0' "$PATCH_DIR/$p" "$scratch/cp/$i"
done | (cd "$TREE_DIR" && xargs -0 -n 2 -P "$(nproc)" sh -c \
	'perl scripts/checkpatch.pl --no-color --showfile "$1" >"$2" 2>&1' checkpatch)
errors=0 warnings=0 discounted=0 n=0
for p in $patches; do
	n=$((n + 1))
	out=$(cat "$scratch/cp/$n")
	verdict=$(echo "$out" | grep -E '^total: [0-9]+ errors, [0-9]+ warnings' | tail -n 1)
	[ -n "$verdict" ] || fail "checkpatch gave no verdict on $p: $(echo "$out" | tail -n 3)"
	# Classify each ERROR by the quoted line that follows it.
	read -r e fp w < <(echo "$out" | awk -v q="'" '
		/: ERROR: / { if (err) e++; err = $0; next }
		err != "" && /^[-+ ]/ {
			if (err ~ ("ERROR: Unrecognized email address: " q q "$") &&
			    $0 ~ /^-[A-Za-z0-9_]+by:$/)
				fp++
			else
				e++
			err = ""
		}
		/: WARNING: / { w++ }
		END { if (err != "") e++; print e + 0, fp + 0, w + 0 }')
	printf '%-75s %s errors, %s warnings%s\n' "$p" "$e" "$w" \
		"$([ "$fp" -eq 0 ] || echo ", $fp known false positives")"
	[ "$e" -eq 0 ] || echo "$out" | grep -A3 ': ERROR: ' | sed 's/^/    /'
	[ "$fp" -eq 0 ] || echo "$out" | grep -A2 "ERROR: Unrecognized email address: ''" |
		grep -E '^-[A-Za-z0-9_]+by:$' | sed 's/^/    discounted, removed label: /'
	[ "$w" -eq 0 ] || echo "$out" | grep -o 'WARNING: .*' | sort | uniq -c | sed 's/^/    /'
	errors=$((errors + e)) warnings=$((warnings + w)) discounted=$((discounted + fp))
done
echo "$n patches: $errors errors, $warnings warnings ($discounted known false positives discounted)"
[ "$errors" -eq 0 ] || fail "checkpatch found $errors errors"
