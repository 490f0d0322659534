#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What make check's kernels (main, cover-arm64-rest) compiled of what
# the series changes, read from their .o.cmd files (harness/coverage.sh):
# every surviving file that x86_64 or arm64 can compile is compiled by
# one of them, and at least 95% of the changed lines of the surviving C
# files lie in branches one of them compiled. The report, with the reason
# for each file and hunk left out, is build/coverage/report.txt.
. "$(dirname "$0")/../lib.sh"
for n in $(coverage_kernels); do need_kernel "$n"; done
"$root/harness/coverage.sh" --min-lines 95 --all-compilable >"$scratch/out" 2>&1 ||
	fail "$(tail -n 1 "$scratch/out")"
r=$BUILD_DIR/coverage/report.txt
ok "$(grep -m1 'compiled by any kernel' "$r" | sed 's/^ *//') C files"
ok "$(grep -m1 'changed lines compiled' "$r" | sed 's/^ *//') of the C files"
