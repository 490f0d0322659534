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
here=$(cd "$(dirname "$0")" && pwd)
cb=${3:-$here/../../analyzer/chopblock}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
pass=0
fail=0
lines=()

run() {	# run DESCRIPTION cmd...: exit status 0 passes, the output explains
	local d=$1
	shift
	n=$((n + 1))
	"$@" >"$tmp/out" 2>&1
	case $? in
	0)	pass=$((pass + 1)); lines+=("ok $n $d") ;;
	*)	fail=$((fail + 1)); lines+=("not ok $n $d")
		while IFS= read -r l; do lines+=("# $l"); done < <(head -n 60 "$tmp/out") ;;
	esac
}

run "nothing of arch/sh is left (dead --remove-arch sh --baseline)" \
	"$cb" dead --tree "$tree" --baseline "$base" --remove-arch sh
run "no new dangling reference (check --baseline)" \
	"$cb" check --tree "$tree" --baseline "$base"

echo "KTAP version 1"
echo "1..$n"
printf '%s\n' "${lines[@]}"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
