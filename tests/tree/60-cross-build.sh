#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The patched tree cross-builds for arm64 as a Renesas board (ARCH_RENESAS)
# with what of the series main's x86_64 COMPILE_TEST build leaves to arm64
# (kernel cover-arm64-rest of configs/kernels.list: the board fragments
# plus configs/coverage/arm64-beyond-x86_64.config): the files x86_64
# cannot build, and the touched files with a changed #if branch, such as
# the PFC core under DEBUG_PINCTRL; and the build warns in no file the
# series touched. (make cover builds the full arm64 and 32-bit arm ones,
# make matrix the pristine tree too and compares every warning; both are
# too slow for here.) 59-distcc has built it over distcc by now: matrix.sh
# finds it up to date and reads the warnings of that clean build.
. "$(dirname "$0")/../lib.sh"
"$root/harness/matrix.sh" cover-arm64-rest || fail "the arm64 cross build failed"
n=cover-arm64-rest
touched_warnings "$n" >"$scratch/hits"
if [ -s "$scratch/hits" ]; then
	cat "$scratch/hits"
	fail "the $n build warns in files the series touched"
fi
ok "$n: built, $(grep -c . "$KERNELS_DIR/$n/warnings") warning(s), none in a file the series touched"
