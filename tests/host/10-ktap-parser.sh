#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The host's KTAP check accepts a clean run and rejects failures, skips
# reported honestly, missing and short plans, bad numbering, an unfinished
# run and a crashed guest.
. "$(dirname "$0")/../lib.sh"
parse() { awk -f "$root/harness/ktap.awk"; }

# expect_verdict EXIT LASTLINE: feed stdin to the parser.
expect_verdict() {
	local want_rc=$1 want_last=$2 out rc=0
	out=$(parse) || rc=$?
	[ "$rc" -eq "$want_rc" ] || fail "exit $rc, expected $want_rc, output: $out"
	[ "$(echo "$out" | tail -n 1)" = "$want_last" ] ||
		fail "last line '$(echo "$out" | tail -n 1)', expected '$want_last'"
	ok "$want_last (exit $rc)"
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
