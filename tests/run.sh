#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tests/run.sh
#
# make check: every chopblock test, as one KTAP run (harness/ktap.sh).
#   1. tests/host/*:  host-side tests that need no kernel build (harness
#      error paths, KTAP parser, analyzer unit tests), beside the build of
#      the main kernel;
#   2. the main job (harness/run.sh): apply, build, boot; each guest test
#      of the main kernel counts as one test ("guest:NAME"), and one that
#      never reported is "not ok ... # not run";
#   3. tests/tree/*:  tests on the patched tree and the built kernels
#      (remnants, checkpatch, hung and crashed guests, analyzer on 6.12,
#      the other kernels of configs/kernels.list).
# A test exits 0 to pass, 4 to skip, anything else to fail. Full output of
# each goes to build/logs/tests/; a failure prints its tail. Tests marked
# "chopblock-parallel: yes" run side by side (harness/test-pool.sh). The last
# line is "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/harness/lib.sh"
. "$root/harness/ktap.sh"
. "$root/harness/test-pool.sh"
case ${1:-} in --help | -h) usage_from_header; exit 0 ;; "") ;; *) die "tests/run.sh takes no arguments" ;; esac
logs=$LOG_DIR/tests
mkdir -p "$logs"

host_tests=() tree_tests=() guest_names=()
# Every *.sh is a test: one that is not executable fails (run_test) rather
# than dropping out of the count unnoticed.
for t in "$root"/tests/host/*.sh; do host_tests+=("$t"); done
for t in "$root"/tests/tree/*.sh; do tree_tests+=("$t"); done
kernel_row main
main_console=$KERNELS_DIR/main/logs/console.log
for t in $(guest_tests "$K_ARCH" "$K_TESTS"); do
	t=${t##*/}
	guest_names+=("${t%.*}")
done

ktap_header
ktap_plan $((${#host_tests[@]} + ${#guest_names[@]} + 1 + ${#tree_tests[@]}))
# The host tests run beside the main kernel's build, one at a time: the
# build keeps both cores busy only while it compiles, and its configure
# and link steps leave one idle. The tests that change the tree (those
# not marked parallel, such as 30-series-errors) run first, alone, before
# the series is applied; the boot waits for the host tests, so that no
# guest test runs on a loaded machine. The main job then finds its kernel
# built (build.sh builds a kernel at most once) and reports that build.
ktap_diag "host tests, beside the main kernel's build"
for t in "${host_tests[@]}"; do parallel_ok "$t" || run_test "$t" "$logs"; done
rm -f "$main_console"
: >"$logs/run.log"
build_pid=
if "$root/harness/deps.sh" >>"$logs/run.log" 2>&1 && "$root/harness/tree.sh" >>"$logs/run.log" 2>&1 &&
   "$root/harness/apply.sh" >>"$logs/run.log" 2>&1; then
	: >"$logs/main-build.log"
	"$root/harness/build.sh" main >>"$logs/main-build.log" 2>&1 &
	build_pid=$!
	# Its progress, as the main job would show it.
	tail -n +1 -f --pid="$build_pid" "$logs/main-build.log" | sed -u 's/^/# /' &
fi
# Otherwise the main job below fails on the same step and says why.
for t in "${host_tests[@]}"; do
	parallel_ok "$t" || continue
	POOL_JOBS=$(nproc)
	[ -z "$build_pid" ] || ! kill -0 "$build_pid" 2>/dev/null || POOL_JOBS=1
	run_test "$t" "$logs"
done
finish_all
POOL_JOBS=$(nproc)
[ -z "$build_pid" ] || wait "$build_pid" || true
wait
cat "$logs/main-build.log" >>"$logs/run.log"

ktap_diag "main job: harness/run.sh (log: $logs/run.log)"
"$root/harness/run.sh" 2>&1 | tee -a "$logs/run.log" | sed -u 's/^/# /'
rc=${PIPESTATUS[0]}
# Each guest test is a test of its own here, found by name in the guest's
# KTAP output.
for g in "${guest_names[@]}"; do
	line=$(tr -d '\r' <"$main_console" 2>/dev/null | grep -E "^(not )?ok [0-9]+ $g( # .*)?$" | head -n 1)
	case $line in
	"") ktap_fail "guest:$g" "not run" ;;
	"not ok "*" # "*) ktap_fail "guest:$g" "${line#* # }" ;;
	"not ok "*) ktap_fail "guest:$g" ;;
	"ok "*" # SKIP"*) ktap_skip "guest:$g" "${line#* # SKIP }" ;;
	*) ktap_pass "guest:$g" ;;
	esac
done
if [ "$rc" -eq 0 ]; then
	ktap_pass main-job
else
	err=$(grep -h '^ERROR: ' "$KERNELS_DIR/main/logs/ktap-result.txt" 2>/dev/null | head -n 1)
	ktap_fail main-job "harness/run.sh exit status $rc${err:+: $err}"
fi

ktap_diag "tree tests"
for t in "${tree_tests[@]}"; do run_test "$t" "$logs"; done
finish_all
ktap_totals
