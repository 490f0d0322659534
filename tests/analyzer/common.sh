# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the analyzer's tests of this directory once they have read
# their arguments, cb (the chopblock to test) possibly still empty. Sets
# here (this directory), cb (default: analyzer/chopblock) and tmp (a
# scratch directory, removed at exit), and starts a deferred KTAP run with
# harness/ktap.sh: the tests report with ktap_pass, ktap_fail, ktap_skip,
# ktap_diag and not_ok, and ktap_finished prints the whole of it, last line
# "N passed, N failed[, N skipped]", and fails if a test failed.

here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/../../harness/ktap.sh"
cb=${cb:-$here/../../analyzer/chopblock}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The results wait in a file of tmp, so that an early exit leaves nothing.
TMPDIR=$tmp ktap_defer

# not_ok NAME [TEXT]: a failed test, TEXT (any number of lines) under it
# as diagnostics.
not_ok() {
	ktap_fail "$1"
	[ -n "${2:-}" ] || return 0
	printf '%s\n' "$2" >"$tmp/diag"
	ktap_diag_file "$tmp/diag"
}
