#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The patched tree cross-builds for arm64 and arm with ARCH_RENESAS, the
# surviving Renesas drivers and everything else of the series those
# architectures can build (kernels cover-arm64 and cover-arm of
# configs/kernels.list: the board fragments plus configs/coverage/), where
# the #ifdef CONFIG_ARM paths an x86_64 COMPILE_TEST build never sees are
# compiled; and neither build warns in a file the series touched. (make
# matrix also builds the pristine tree and compares every warning; that is
# too slow for here.)
. "$(dirname "$0")/../lib.sh"
"$root/harness/matrix.sh" cover-arm64 cover-arm || fail "a cross build failed"
git -C "$TREE_DIR" diff --name-only "$BASELINE_TAG" "$SERIES_BRANCH" >"$scratch/touched"
[ -s "$scratch/touched" ] || fail "the series touches no file?"
for n in cover-arm64 cover-arm; do
	w=$KERNELS_DIR/$n/warnings
	[ -f "$w" ] || fail "no warning list for $n"
	cut -d: -f1 "$w" | grep -xFf "$scratch/touched" >"$scratch/hits" || true
	if [ -s "$scratch/hits" ]; then
		grep -F -f "$scratch/hits" "$w"
		fail "the $n build warns in files the series touched"
	fi
	ok "$n: built, $(grep -c . "$w") warning(s), none in the $(grep -c . "$scratch/touched") files the series touched"
done
