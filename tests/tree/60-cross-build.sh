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
n=cover-arm64
touched_warnings "$n" >"$scratch/hits"
if [ -s "$scratch/hits" ]; then
	cat "$scratch/hits"
	fail "the $n build warns in files the series touched"
fi
ok "$n: built, $(grep -c . "$KERNELS_DIR/$n/warnings") warning(s), none in a file the series touched"
