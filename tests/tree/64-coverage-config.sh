#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The coverage fragments (configs/coverage/*.config) are what
# harness/coverage-config.sh generates from the series today, and every
# line of each takes: tinyconfig, the fragment and olddefconfig, checked
# line by line (harness/configure.sh; nothing is compiled).
. "$(dirname "$0")/../lib.sh"
[ -x "$root/analyzer/chopblock" ] || fail "the analyzer is not built (make analyzer)"
"$root/harness/coverage-config.sh" --check || fail "a coverage fragment is stale"
ok "configs/coverage/*.config are current"
pids=()
names=()
for n in $("$root/harness/kernels.sh" | grep '^cover-'); do
	"$root/harness/configure.sh" "$n" >"$scratch/$n.log" 2>&1 &
	pids+=($!)
	names+=("$n")
done
[ "${#names[@]}" -ge 3 ] || fail "fewer than 3 cover-* kernels in configs/kernels.list"
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || fail "${names[$i]}: $(grep 'error' "$scratch/${names[$i]}.log" | head -n 5)"
	ok "${names[$i]}: every line of its fragment takes"
done
