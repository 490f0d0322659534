#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The compiler, linker and modpost warnings of a kernel build log, one a
# line, sorted and unique, in a form that compares across trees: without
# line and column numbers (the series moves lines) and without the tree's
# location, "drivers/tty/serial/sh-sci.c: warning: text [-Wflag]".
#
#   harness/warnings.sh BUILD_LOG
set -euo pipefail
log=${1:?usage: warnings.sh BUILD_LOG}
[ -r "$log" ] || { echo "chopblock: error: cannot read build log $log" >&2; exit 1; }
{ grep -E '(: warning: |^WARNING: )' "$log" || true; } |
	sed -E -e 's#^([^ :]*/)?(tree|pristine)/##' -e 's#^(\.\./)+##' \
		-e 's#^([^: ]+):[0-9]+(:[0-9]+)?: #\1: #' |
	LC_ALL=C sort -u
