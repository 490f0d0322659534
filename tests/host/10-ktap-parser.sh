#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The host's KTAP check accepts a clean run and rejects failures, skips
# reported honestly, missing, misplaced and short plans, bad numbering, an
# unfinished run and a crashed guest; it reads what the two KTAP libraries,
# harness/ktap.sh and guest/ktap.h, emit, and those two agree.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
parse() { awk -f "$root/harness/ktap.awk"; }

# expect_verdict EXIT LASTLINE [LINE]: feed stdin to the parser; LINE, if
# given, must be one line of its output.
expect_verdict() {
	local want_rc=$1 want_last=$2 want_line=${3:-} out rc=0
	out=$(parse) || rc=$?
	[ "$rc" -eq "$want_rc" ] || fail "exit $rc, expected $want_rc, output: $out"
	[ "$(echo "$out" | tail -n 1)" = "$want_last" ] ||
		fail "last line '$(echo "$out" | tail -n 1)', expected '$want_last'"
	[ -z "$want_line" ] || echo "$out" | grep -qxF -- "$want_line" ||
		fail "no line '$want_line' in: $out"
	ok "$want_last (exit $rc)${want_line:+: $want_line}"
}

# ktap_sh CMDS: what the shell commands CMDS print with harness/ktap.sh
# sourced, in POSIX sh (busybox ash sources it in the guest), followed by
# guest/init's end marker. A shell of its own keeps the library's counters
# and checks apart from this test's.
ktap_sh() {
	TMPDIR=$scratch sh -c '. "$1" && eval "$2"; echo "chopblock: tests done"' \
		sh "$root/harness/ktap.sh" "$1"
}

printf 'boot noise\nKTAP version 1\n1..2\n# diag\nok 1 a\nok 2 b\nchopblock: tests done\n' |
	expect_verdict 0 "2 passed, 0 failed"
printf 'KTAP version 1\n1..2\nok 1 a\nnot ok 2 b # exit status 1\nchopblock: tests done\n' |
	expect_verdict 1 "1 passed, 1 failed"
printf 'KTAP version 1\n1..2\nok 1 a\nok 2 b # SKIP no device\nchopblock: tests done\n' |
	expect_verdict 0 "1 passed, 0 failed, 1 skipped"
printf 'KTAP version 1\nok 1 a\nchopblock: tests done\n' |
	expect_verdict 1 "0 passed, 1 failed"
printf 'KTAP version 1\n1..3\nok 1 a\nok 2 b\n' |
	expect_verdict 1 "2 passed, 1 failed"
printf 'KTAP version 1\n1..2\nok 1 a\nok 3 b\nchopblock: tests done\n' |
	expect_verdict 1 "2 passed, 0 failed"
printf 'KTAP version 1\n1..1\nok 1 a\n' |
	expect_verdict 1 "1 passed, 0 failed"
printf 'Linux version 6.12\nKernel panic - not syncing: Attempted to kill init!\n' |
	expect_verdict 1 "0 passed, 1 failed"
printf '' | expect_verdict 1 "0 passed, 1 failed"

# A plan anywhere else than right after the version line, or a second one.
printf 'KTAP version 1\n# diag\n1..1\nok 1 a\nchopblock: tests done\n' |
	expect_verdict 1 "0 passed, 1 failed" \
		'ERROR: the plan line "1..1" is not right after the version line'
printf 'KTAP version 1\n1..1\nok 1 a\n1..1\nchopblock: tests done\n' |
	expect_verdict 1 "1 passed, 0 failed" 'ERROR: a second plan line "1..1"'
printf 'KTAP version 1\n1..1\nok 1 a\nKTAP version 1\nchopblock: tests done\n' |
	expect_verdict 1 "1 passed, 0 failed" 'ERROR: a second KTAP version line'
# A timeout is a failure.
printf 'KTAP version 1\n1..2\nok 1 a\nnot ok 2 b # TIMEOUT after 3s\nchopblock: tests done\n' |
	expect_verdict 1 "1 passed, 1 failed" "FAIL: not ok 2 b # TIMEOUT after 3s"

# What harness/ktap.sh emits.
ktap_sh 'ktap_header; ktap_plan 2; ktap_diag hello; ktap_pass a; ktap_result 0 b' |
	expect_verdict 0 "2 passed, 0 failed"
ktap_sh 'ktap_header; ktap_plan 2; ktap_pass a; ktap_skip b "no device"' |
	expect_verdict 0 "1 passed, 0 failed, 1 skipped" "SKIP: ok 2 b # SKIP no device"
ktap_sh 'ktap_header; ktap_plan 2; ktap_pass a; ktap_result 1 b "exit status 1"' |
	expect_verdict 1 "1 passed, 1 failed" "FAIL: not ok 2 b # exit status 1"
ktap_sh 'ktap_header; ktap_plan 2; ktap_result 4 a; ktap_fail b' |
	expect_verdict 1 "0 passed, 1 failed, 1 skipped" "FAIL: not ok 2 b"
ktap_sh 'ktap_header; ktap_plan 2; ktap_pass a; ktap_timeout b 3' |
	expect_verdict 1 "1 passed, 1 failed" "FAIL: not ok 2 b # TIMEOUT after 3s"
ktap_sh 'ktap_header; ktap_plan 3; ktap_pass a' |
	expect_verdict 1 "1 passed, 2 failed" "ERROR: short plan: 1 of 3 tests reported"
# Deferred: the results wait for ktap_finished, which puts the version and
# plan lines before them.
ktap_sh 'ktap_defer; ktap_diag starting; ktap_pass a; ktap_skip b why; ktap_finished' |
	expect_verdict 0 "1 passed, 0 failed, 1 skipped" "SKIP: ok 2 b # SKIP why"
printf 'line one\nline two\n' >"$scratch/diag"
ktap_sh "ktap_defer; ktap_pass a; ktap_diag_file $scratch/diag; ktap_fail b why; ktap_timeout c 5; ktap_finished" |
	expect_verdict 1 "1 passed, 2 failed" "FAIL: not ok 3 c # TIMEOUT after 5s"
! ls "$scratch" | grep -q '^ktap\.' || fail "ktap_finished left its buffer behind"

# What guest/ktap.h emits: for the same calls, what harness/ktap.sh emits.
command -v gcc >/dev/null || fail "gcc is missing"
# cc_ktap NAME: compile NAME.c of scratch on guest/ktap.h as guest tests are.
cc_ktap() {
	gcc -O2 -Wall -Wextra -Werror -I "$root/guest" -o "$scratch/$1" "$scratch/$1.c" ||
		fail "$1.c does not compile on guest/ktap.h"
}
cat >"$scratch/producer.c" <<'END_OF_C'
#include "ktap.h"

int main(void)
{
	ktap_header();
	ktap_plan(5);
	ktap_diag("%d diagnostic, %s", 1, "then results");
	ktap_pass("a");
	ktap_result(4, "b", "no device");
	ktap_result(1, "c", "exit status 1");
	ktap_fail("d", NULL);
	ktap_timeout("e", 3);
	return ktap_totals();
}
END_OF_C
cc_ktap producer
rc=0
"$scratch/producer" >"$scratch/c.out" || rc=$?
[ "$rc" = 1 ] || fail "the C producer exited $rc, expected 1"
TMPDIR=$scratch sh -c '. "$1" && eval "$2"' sh "$root/harness/ktap.sh" '
	ktap_header; ktap_plan 5; ktap_diag "1 diagnostic, then results"
	ktap_pass a; ktap_result 4 b "no device"; ktap_result 1 c "exit status 1"
	ktap_fail d; ktap_timeout e 3; ktap_totals' >"$scratch/sh.out"
cmp -s "$scratch/c.out" "$scratch/sh.out" ||
	fail "guest/ktap.h and harness/ktap.sh differ: $(diff "$scratch/sh.out" "$scratch/c.out")"
ok "guest/ktap.h prints what harness/ktap.sh prints"
{ cat "$scratch/c.out"; echo "chopblock: tests done"; } |
	expect_verdict 1 "1 passed, 3 failed, 1 skipped" "FAIL: not ok 5 e # TIMEOUT after 3s"

# expect_checks EXIT SHELL-CHECKS C-CHECKS: the checks inside one test,
# through harness/ktap.sh and guest/ktap.h, print the same and exit EXIT.
expect_checks() {
	local want_rc=$1 rc=0
	printf '#include "ktap.h"\n\nint main(void)\n{\n%s\n\treturn 0;\n}\n' "$3" >"$scratch/checks.c"
	cc_ktap checks
	"$scratch/checks" >"$scratch/checks.c.out" || rc=$?
	[ "$rc" = "$want_rc" ] || fail "the C checks exited $rc, expected $want_rc: $3"
	rc=0
	sh -c '. "$1" && eval "$2"' sh "$root/harness/ktap.sh" "$2" >"$scratch/checks.sh.out" || rc=$?
	[ "$rc" = "$want_rc" ] || fail "the shell checks exited $rc, expected $want_rc: $2"
	cmp -s "$scratch/checks.c.out" "$scratch/checks.sh.out" ||
		fail "checks differ: $(diff "$scratch/checks.sh.out" "$scratch/checks.c.out")"
	ok "checks, exit $want_rc: $(tr '\n' ' ' <"$scratch/checks.sh.out")"
}
expect_checks 0 'ok one; ok two 2' '	ok("one");
	ok("two %d", 2);'
expect_checks 1 'ok one; fail bad 0x1f; ok never' '	ok("one");
	fail("bad 0x%x", 31);
	ok("never");'
expect_checks 4 'skip no /dev/sg0; ok never' '	skip("no %s", "/dev/sg0");
	ok("never");'
expect_checks 1 'soft_checks; fail a; ok b; fail c; exit $failed' '	soft_checks();
	fail("a");
	ok("b");
	fail("c");
	return failed;'
