#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Acceptance test on a tree with the SuperH removal series applied:
# nothing of what "dead --remove-arch sh" finds in the pristine tree is
# left, and "check" finds no new dangling reference against the pristine
# tree.  KTAP output, last line "N passed, M failed".
#
# usage: patched.sh PATCHED-TREE PRISTINE-TREE [path/to/chopblock [KEPT]]
#
# KEPT: a file of symbols the series keeps on purpose (patches/kept),
# one a line with the reason after it; dead gets --keep for each.

tree=${1:?usage: patched.sh PATCHED PRISTINE [chopblock]}
base=${2:?usage: patched.sh PATCHED PRISTINE [chopblock]}
cb=${3:-}
kept=${4:-}
keep=()
if [ -n "$kept" ]; then
	[ -f "$kept" ] || { echo "patched.sh: no file $kept" >&2; exit 2; }
	while read -r sym _; do
		case $sym in "" | \#*) continue ;; esac
		keep+=(--keep "$sym")
	done <"$kept"
fi
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
	"$cb" dead --tree "$tree" --baseline "$base" --remove-arch sh "${keep[@]}"
run "no new dangling reference (check --baseline)" \
	"$cb" check --tree "$tree" --baseline "$base"

ktap_finished
