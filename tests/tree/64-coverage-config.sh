#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The coverage fragments (configs/coverage/*.config) are what
# harness/coverage-config.sh generates from the series today. (That every
# line of each takes is checked where they are built: main, and
# cover-arm64 and cover-arm in 60-cross-build.)
. "$(dirname "$0")/../lib.sh"
[ -x "$root/analyzer/chopblock" ] || fail "the analyzer is not built (make analyzer)"
"$root/harness/coverage-config.sh" --check >"$scratch/log" 2>&1 ||
	fail "a coverage fragment is stale: $(tail -n 3 "$scratch/log")"
ok "configs/coverage/*.config are current"
n=$(coverage_kernels | wc -l)
[ "$n" -ge 3 ] || fail "$n kernels with a coverage fragment in configs/kernels.list, not 3"
ok "$n kernels carry a coverage fragment: $(coverage_kernels | tr '\n' ' ')"
