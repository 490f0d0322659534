#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The runner's pool (harness/test-pool.sh), on synthetic tests with a
# pool of two: tests marked "chopblock-parallel: yes" run side by side,
# no more than two at once; an unmarked test starts only after they have
# ended, and runs alone; every test is reported once, a failure with its
# log's tail, a skip with its reason, a test that ends at once too (bash's
# wait -n would miss it), and one that is not executable as a failure.
# The KTAP output parses, and its totals are right.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
t=$scratch/tests s=$scratch/stamps
mkdir -p "$t" "$s" "$scratch/logs"
# mk NAME PARALLEL BODY: a test that stamps its start and end.
mk() {
	{
		echo '#!/bin/bash'
		echo "# test $1"
		[ "$2" = no ] || echo '# chopblock-parallel: yes'
		echo "date +%s.%N >$s/$1.start"
		echo "$3"
		echo 'rc=$?'
		echo "date +%s.%N >$s/$1.end"
		echo 'exit $rc'
	} >"$t/$1.sh"
	chmod +x "$t/$1.sh"
}
# 1-slow outlasts 2-fails by seconds, so that 3-quick starts in its time
# even on a loaded machine (the pool looks once a second).
mk 1-slow yes 'sleep 6'
mk 2-fails yes 'sleep 1; echo "the reason it failed"; false'
mk 3-quick yes 'echo "SKIP: nothing to do here"; exit 4'
mk 4-alone no 'sleep 1'
mk 5-after yes 'true'
mk 6-noexec yes 'true'
chmod -x "$t/6-noexec.sh"

out=$(bash -c '
	. "$1/harness/lib.sh"
	. "$1/harness/ktap.sh"
	POOL_JOBS=2
	. "$1/harness/test-pool.sh"
	ktap_header
	ktap_plan 6
	for x in "$2"/*.sh; do run_test "$x" "$3"; done
	finish_all
	ktap_totals' sh "$root" "$t" "$scratch/logs") || true
echo "$out"

at() { cat "$s/$1.$2"; }
before() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
before "$(at 2-fails start)" "$(at 1-slow end)" || fail "the two marked tests did not run side by side"
ok "two marked tests ran side by side"
before "$(at 2-fails end)" "$(at 3-quick start)" && before "$(at 3-quick start)" "$(at 1-slow end)" ||
	fail "the third marked test did not wait for a free place, or did not take it"
ok "a third waited for a place in the pool of two, and took the first one free"
before "$(at 1-slow end)" "$(at 4-alone start)" || fail "the unmarked test started while marked ones ran"
before "$(at 4-alone end)" "$(at 5-after start)" || fail "a marked test started while the unmarked one ran"
ok "the unmarked test ran alone"

echo "$out" | grep -qx 'not ok [0-9]* 2-fails # exit status 1' || fail "the failure is not reported"
echo "$out" | grep -qx '# the reason it failed' || fail "the failure's log tail is not shown"
echo "$out" | grep -qx 'ok [0-9]* 3-quick # SKIP SKIP: nothing to do here' || fail "the skip is not reported with its reason"
echo "$out" | grep -qx 'ok [0-9]* 1-slow' || fail "the slow test is not reported"
echo "$out" | grep -qx 'ok [0-9]* 5-after' || fail "the test that ended at once is not reported"
echo "$out" | grep -qx "not ok [0-9]* 6-noexec # not executable (chmod +x $t/6-noexec.sh)" ||
	fail "the test that is not executable is not a failure"
ok "each result is reported: a failure with its log's tail, a skip with its reason"
[ "$(echo "$out" | grep -cE '^(not )?ok ')" -eq 6 ] || fail "not 6 results"
[ "$(echo "$out" | tail -n 1)" = "3 passed, 2 failed, 1 skipped" ] || fail "totals: $(echo "$out" | tail -n 1)"
verdict=$(echo "$out" | awk -f "$root/harness/ktap.awk" | tail -n 1)
[ "$verdict" = "3 passed, 2 failed, 1 skipped" ] || fail "the KTAP parser reads: $verdict"
ok "6 results, each numbered once, and the parser agrees on the totals"
