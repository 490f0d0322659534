#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/warnings.sh [--errors] BUILD_LOG
#
# The compiler, linker and modpost warnings of a kernel build log, one a
# line, sorted and unique, in a form that compares across trees: without
# line and column numbers (the series moves lines) and without the tree's
# location, "drivers/tty/serial/sh-sci.c: warning: text [-Wflag]".
# With --errors, the errors (": error: ", ": fatal error: ", modpost's
# "ERROR: ") instead.
set -euo pipefail
what='(: warning: |^WARNING: )'
if [ "${1:-}" = --errors ]; then
	what='(: (fatal )?error: |^ERROR: )'
	shift
fi
case ${1:-} in
--help | -h) sed -n '3,/^[^#]/{/^#/!q; s/^# \{0,1\}//; p}' "$0"; exit 0 ;;
"") echo "chopblock: error: warnings.sh: which build log? (see --help)" >&2; exit 1 ;;
esac
log=$1
[ -r "$log" ] || { echo "chopblock: error: cannot read build log $log" >&2; exit 1; }
{ grep -E "$what" "$log" || true; } |
	sed -E -e 's#^([^ :]*/)?(tree|pristine)/##' -e 's#^(\.\./)+##' \
		-e 's#^([^: ]+):[0-9]+(:[0-9]+)?: #\1: #' |
	LC_ALL=C sort -u
