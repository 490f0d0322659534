#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every chopblock test, as one KTAP run.
#   1. tests/host/*:  host-side tests that need no kernel build (harness
#      error paths, KTAP parser, analyzer unit tests);
#   2. the main job (harness/run.sh): apply, build, boot; each guest test
#      counts as one test;
#   3. tests/tree/*:  tests on the patched tree and the built kernel
#      (remnants, checkpatch, hung and crashed guests, analyzer on 6.12).
# A test exits 0 to pass, 4 to skip, anything else to fail. Full output of
# each goes to build/logs/tests/; a failure prints its tail. The last line
# is "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/harness/lib.sh"
logs=$LOG_DIR/tests
mkdir -p "$logs"

pass=0 failed=0 skipped=0 n=0
host_tests=("$root"/tests/host/*.sh)
tree_tests=("$root"/tests/tree/*.sh)

result() {
	local rc=$1 name=$2 log=$3

	n=$((n + 1))
	case $rc in
	0) pass=$((pass + 1)); echo "ok $n $name" ;;
	4) skipped=$((skipped + 1)); echo "ok $n $name # SKIP $(tail -n 1 "$log")" ;;
	*) failed=$((failed + 1))
	   tail -n 15 "$log" | sed -u 's/^/# /'
	   echo "not ok $n $name" ;;
	esac
}

run_test() {
	local t=$1 name log rc=0

	name=$(basename "${t%.sh}")
	log=$logs/$name.log
	local start=$SECONDS
	"$t" >"$log" 2>&1 </dev/null || rc=$?
	echo "# $name: $((SECONDS - start))s"
	result "$rc" "$name" "$log"
}

echo "KTAP version 1"
echo "# host tests"
for t in "${host_tests[@]}"; do [ -x "$t" ] && run_test "$t"; done

echo "# main job: harness/run.sh (log: $logs/run.log)"
rc=0
CHOPBLOCK_PROGRESS_INTERVAL=30 "$root/harness/run.sh" 2>&1 | tee "$logs/run.log" | sed -u 's/^/# /'
rc=${PIPESTATUS[0]}
# Each guest test is a test of its own here.
if [ -f "$LOG_DIR/ktap-result.txt" ] && [ -f "$LOG_DIR/console.log" ]; then
	while IFS= read -r line; do
		case "$line" in
		"ok "*" # SKIP"*) n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n guest:${line#ok * }" ;;
		"ok "*) n=$((n + 1)); pass=$((pass + 1)); echo "ok $n guest:$(echo "$line" | cut -d' ' -f3-)" ;;
		"not ok "*) n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n guest:$(echo "$line" | cut -d' ' -f4-)" ;;
		esac
	done < <(tr -d '\r' <"$LOG_DIR/console.log" | grep -E '^(not )?ok [0-9]+ ')
	grep -q '^ERROR: ' "$LOG_DIR/ktap-result.txt" &&
		{ n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n guest-run # $(grep '^ERROR: ' "$LOG_DIR/ktap-result.txt")"; }
fi
[ "$rc" -eq 0 ] || { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n main-job # harness/run.sh exit status $rc"; }
[ "$rc" -ne 0 ] || { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n main-job"; }

echo "# tree tests"
for t in "${tree_tests[@]}"; do [ -x "$t" ] && run_test "$t"; done

echo "1..$n"
if [ "$skipped" -gt 0 ]; then
	echo "$pass passed, $failed failed, $skipped skipped"
else
	echo "$pass passed, $failed failed"
fi
[ "$failed" -eq 0 ]
