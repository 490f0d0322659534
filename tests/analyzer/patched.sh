#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Acceptance test on a tree with the SuperH removal series applied:
# nothing of what "dead --remove-arch sh" finds in the pristine tree is
# left, and "check" finds no new dangling reference against the pristine
# tree.  KTAP output, last line "N passed, M failed".
#
# usage: patched.sh PATCHED-TREE PRISTINE-TREE [path/to/chopblock]

tree=${1:?usage: patched.sh PATCHED PRISTINE [chopblock]}
base=${2:?usage: patched.sh PATCHED PRISTINE [chopblock]}
cb=${3:-}
. "$(dirname "$0")/common.sh"

run() {	# run DESCRIPTION cmd...: exit status 0 passes, the output explains
	local d=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		ktap_pass "$d"
	else
		not_ok "$d" "$(head -n 60 "$tmp/out")"
	fi
}

run "nothing of arch/sh is left (dead --remove-arch sh --baseline)" \
	"$cb" dead --tree "$tree" --baseline "$base" --remove-arch sh
run "no new dangling reference (check --baseline)" \
	"$cb" check --tree "$tree" --baseline "$base"

ktap_finished
