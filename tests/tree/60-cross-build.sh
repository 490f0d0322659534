#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The patched tree cross-builds for arm64 with ARCH_RENESAS, the surviving
# Renesas drivers and everything else of the series arm64 can build
# (kernel cover-arm64 of configs/kernels.list: the board fragments plus
# configs/coverage/arm64.config), where the #ifdef CONFIG_ARM paths an
# x86_64 COMPILE_TEST build never sees are compiled; and the build warns in
# no file the series touched. (make cover builds the 32-bit arm one, make
# matrix the pristine tree too and compares every warning; both are too
# slow for here.)
. "$(dirname "$0")/../lib.sh"
"$root/harness/matrix.sh" cover-arm64 || fail "the arm64 cross build failed"
git -C "$TREE_DIR" diff --name-only "$BASELINE_TAG" "$SERIES_BRANCH" >"$scratch/touched"
[ -s "$scratch/touched" ] || fail "the series touches no file?"
for n in cover-arm64; do
	w=$KERNELS_DIR/$n/warnings
	[ -f "$w" ] || fail "no warning list for $n"
	cut -d: -f1 "$w" | grep -xFf "$scratch/touched" >"$scratch/hits" || true
	if [ -s "$scratch/hits" ]; then
		grep -F -f "$scratch/hits" "$w"
		fail "the $n build warns in files the series touched"
	fi
	ok "$n: built, $(grep -c . "$w") warning(s), none in the $(grep -c . "$scratch/touched") files the series touched"
done
