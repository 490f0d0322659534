# SPDX-License-Identifier: GPL-2.0
#
# The test runner's pool, for tests/run.sh. Sourced after harness/lib.sh
# and harness/ktap.sh.
# run_test TEST LOGDIR runs one test and reports it as a KTAP result
# (exit 0 passes, 4 skips with the log's last line as reason, anything
# else fails with the log's tail); finish_all waits for those still
# running. POOL_JOBS, a shell variable set before sourcing: how many run
# side by side (default nproc).
#
# A test whose header says "chopblock-parallel: yes" runs beside the
# others that say so, nproc of them at a time: it compiles no kernel,
# boots nothing that a busy machine would time out, and writes only to
# its scratch directory (the trees and kernels it reads are not changed
# while it runs). Most such tests keep one core busy: side by side, two
# take the time of one. Every other test runs alone, once those running
# have finished. Results are reported as the tests end.
parallel_ok() {
	[ "$(header_tag "$1" chopblock-parallel)" = yes ]
}

declare -A running=() started=() logdir=()
POOL_JOBS=${POOL_JOBS:-$(nproc)}

# report_test TEST RC SECONDS LOGDIR
report_test() {
	local t=$1 rc=$2 name log

	name=$(basename "${t%.sh}")
	log=$4/$name.log
	ktap_diag "$name: ${3}s"
	case $rc in
	0) ktap_pass "$name" ;;
	4) ktap_skip "$name" "$(tail -n 1 "$log")" ;;
	*) ktap_diag_file "$log" 15
	   ktap_fail "$name" "exit status $rc" ;;
	esac
}

# finish_one: wait for one of the tests running side by side to end,
# report it. (bash's wait -n misses a job that ended before it was called:
# look, then wait for that one.)
finish_one() {
	local pid rc

	while :; do
		for pid in "${!running[@]}"; do
			kill -0 "$pid" 2>/dev/null && continue
			rc=0
			wait "$pid" || rc=$?
			report_test "${running[$pid]}" "$rc" $((SECONDS - started[$pid])) "${logdir[$pid]}"
			unset "running[$pid]" "started[$pid]" "logdir[$pid]"
			return
		done
		sleep 1
	done
}

# finish_all: wait for every test still running, report each.
finish_all() {
	while [ "${#running[@]}" -gt 0 ]; do finish_one; done
}

# run_test TEST LOGDIR: run TEST (its output in LOGDIR/NAME.log), side by
# side with others when it says so, and report it as it ends.
run_test() {
	local t=$1 logs=$2 name rc=0 start=$SECONDS

	name=$(basename "${t%.sh}")
	if [ ! -x "$t" ]; then
		ktap_fail "$name" "not executable (chmod +x $t)"
		return
	fi
	if parallel_ok "$t"; then
		while [ "${#running[@]}" -ge "$POOL_JOBS" ]; do finish_one; done
		"$t" >"$logs/$name.log" 2>&1 </dev/null &
		running[$!]=$t started[$!]=$SECONDS logdir[$!]=$logs
		return
	fi
	finish_all
	start=$SECONDS
	"$t" >"$logs/$name.log" 2>&1 </dev/null || rc=$?
	report_test "$t" "$rc" $((SECONDS - start)) "$logs"
}

