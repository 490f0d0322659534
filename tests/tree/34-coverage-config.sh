#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The coverage fragments (configs/coverage/*.config) are what
# harness/coverage-config.sh generates from the series today, and every
# line of each takes: main and cover-arm64-rest are checked where they
# are built; cover-arm64 and cover-arm, which only make cover builds, are
# configured here.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
[ -x "$root/analyzer/chopblock" ] || fail "the analyzer is not built (make analyzer)"
"$root/harness/coverage-config.sh" --check >"$scratch/log" 2>&1 ||
	fail "a coverage fragment is stale: $(tail -n 3 "$scratch/log")"
ok "configs/coverage/*.config are current"
n=$(coverage_kernels main check cover | wc -l)
[ "$n" -ge 4 ] || fail "$n kernels with a coverage fragment in configs/kernels.list, not 4"
ok "$n kernels carry a coverage fragment: $(coverage_kernels main check cover | tr '\n' ' ')"
for k in $(coverage_kernels cover); do
	"$root/harness/configure.sh" --out "$scratch/$k" "$k" >"$scratch/$k.log" 2>&1 ||
		fail "$k: $(grep -m3 'did not take' "$scratch/$k.log" || tail -n 1 "$scratch/$k.log")"
	ok "$k: every line of its fragments takes"
done
