# SPDX-License-Identifier: GPL-2.0
#
# The one KTAP library of chopblock's shell tests, host and guest alike
# (the guest has it as /lib/ktap.sh). POSIX sh: busybox ash sources it too.
# Sourced, never run. Documentation/dev-tools/ktap.rst is the format;
# harness/ktap.awk is its parser and accepts exactly what this emits:
#
#   KTAP version 1          ktap_header
#   1..N                    ktap_plan N, right after the version line
#   # text                  ktap_diag / ktap_diag_file
#   ok N name               ktap_result 0 name
#   ok N name # SKIP why    ktap_result 4 name why
#   not ok N name # TIMEOUT ktap_timeout name seconds
#   not ok N name           ktap_result RC name [why]
#   N passed, N failed[, N skipped]    ktap_totals (not KTAP: the summary)
#
# A producer that knows its tests only as it runs them calls ktap_defer
# first: results then wait in a buffer, and ktap_finished prints the
# header, the plan, the results and the totals in KTAP's order.
#
# The second half holds the checks a single test makes: fail, ok, skip,
# soft_checks. A test's exit status is its result: 0 passes, 4 skips
# (kselftest's KSFT_SKIP), anything else fails.

KTAP_N=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0
KTAP_BUF=

_ktap_out() {
	if [ -n "$KTAP_BUF" ]; then
		printf '%s\n' "$*" >>"$KTAP_BUF"
	else
		printf '%s\n' "$*"
	fi
}

ktap_header() {
	echo "KTAP version 1"
}

ktap_plan() {
	echo "1..$1"
}

ktap_defer() {
	KTAP_BUF=$(mktemp "${TMPDIR:-/tmp}/ktap.XXXXXX")
}

# ktap_diag TEXT: one diagnostic line.
ktap_diag() {
	_ktap_out "# $*"
}

# ktap_diag_file FILE [LINES]: a file (its last LINES lines) as diagnostics.
ktap_diag_file() {
	[ -f "$1" ] || return 0
	if [ -n "${2:-}" ]; then
		tail -n "$2" "$1"
	else
		cat "$1"
	fi | while IFS= read -r _ktap_l; do _ktap_out "# $_ktap_l"; done
}

# ktap_result RC NAME [WHY]: the result line of one test from its exit
# status; WHY is the skip reason (RC 4) or the failure reason.
ktap_result() {
	_ktap_rc=$1 _ktap_name=$2 _ktap_why=${3:-}
	KTAP_N=$((KTAP_N + 1))
	case $_ktap_rc in
	0)
		KTAP_PASS=$((KTAP_PASS + 1))
		_ktap_out "ok $KTAP_N $_ktap_name" ;;
	4)
		KTAP_SKIP=$((KTAP_SKIP + 1))
		_ktap_out "ok $KTAP_N $_ktap_name # SKIP ${_ktap_why:-no reason given}" ;;
	*)
		KTAP_FAIL=$((KTAP_FAIL + 1))
		_ktap_out "not ok $KTAP_N $_ktap_name${_ktap_why:+ # $_ktap_why}" ;;
	esac
}

ktap_pass() {
	ktap_result 0 "$@"
}

# ktap_fail NAME [WHY]
ktap_fail() {
	ktap_result 1 "$@"
}

# ktap_skip NAME WHY
ktap_skip() {
	ktap_result 4 "$@"
}

# ktap_timeout NAME SECONDS: a test killed at its timeout.
ktap_timeout() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	_ktap_out "not ok $KTAP_N $1 # TIMEOUT after ${2}s"
}

ktap_totals() {
	if [ "$KTAP_SKIP" -gt 0 ]; then
		echo "$KTAP_PASS passed, $KTAP_FAIL failed, $KTAP_SKIP skipped"
	else
		echo "$KTAP_PASS passed, $KTAP_FAIL failed"
	fi
	[ "$KTAP_FAIL" -eq 0 ]
}

# ktap_finished: a deferred run's whole output, then the totals. Returns 1
# when a test failed.
ktap_finished() {
	if [ -n "$KTAP_BUF" ]; then
		ktap_header
		ktap_plan "$KTAP_N"
		cat "$KTAP_BUF"
		rm -f "$KTAP_BUF"
		KTAP_BUF=
	fi
	ktap_totals
}

# ---- inside one test ----

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 4
}

ok() {
	echo "ok: $*"
}

# From here on fail() records the failure and the test goes on, so that one
# failed check does not hide the result of the others; the test ends with
# "exit $failed".
soft_checks() {
	failed=0
	fail() {
		echo "FAIL: $*"
		failed=1
	}
}
