#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two chopblock binaries side by side, run alternately three times each
# on the same trees, with the median wall and CPU time (user+sys, the
# Kconfig parser's children included) of every command:
#   dead --remove-arch sh without and with the Kconfig cache, check, and
#   check --baseline; both binaries also with --no-leftovers.
#
# usage: bench-compare.sh PRISTINE PATCHED BEFORE AFTER

pristine=${1:?usage: bench-compare.sh PRISTINE PATCHED BEFORE AFTER}
patched=${2:?usage: bench-compare.sh PRISTINE PATCHED BEFORE AFTER}
before=${3:?usage: bench-compare.sh PRISTINE PATCHED BEFORE AFTER}
after=${4:?usage: bench-compare.sh PRISTINE PATCHED BEFORE AFTER}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CHOPBLOCK_CACHE=$tmp/cache

t() {	# t NAME WHO CMD...: one timed run, one line of $tmp/runs
	local name=$1 who=$2
	shift 2
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" >/dev/null 2>&1
	echo "$name $who $(tail -n 1 "$tmp/t")" >>"$tmp/runs"
}

echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
for i in 1 2 3; do
	CHOPBLOCK_CACHE=off t dead-cold before "$before" dead --tree "$pristine" --remove-arch sh
	CHOPBLOCK_CACHE=off t dead-cold before-noleft "$before" dead --tree "$pristine" --remove-arch sh --no-leftovers
	CHOPBLOCK_CACHE=off t dead-cold after "$after" dead --tree "$pristine" --remove-arch sh
	CHOPBLOCK_CACHE=off t dead-cold after-noleft "$after" dead --tree "$pristine" --remove-arch sh --no-leftovers
done
"$before" dead --tree "$pristine" --remove-arch sh >/dev/null 2>&1
"$after" dead --tree "$pristine" --remove-arch sh >/dev/null 2>&1
for i in 1 2 3; do
	t dead-cached before "$before" dead --tree "$pristine" --remove-arch sh
	t dead-cached before-noleft "$before" dead --tree "$pristine" --remove-arch sh --no-leftovers
	t dead-cached after "$after" dead --tree "$pristine" --remove-arch sh
	t dead-cached after-noleft "$after" dead --tree "$pristine" --remove-arch sh --no-leftovers
	t check before "$before" check --tree "$pristine"
	t check after "$after" check --tree "$pristine"
	t check-baseline before "$before" check --tree "$patched" --baseline "$pristine"
	t check-baseline before-noleft "$before" check --tree "$patched" --baseline "$pristine" --no-leftovers
	t check-baseline after "$after" check --tree "$patched" --baseline "$pristine"
	t check-baseline after-noleft "$after" check --tree "$patched" --baseline "$pristine" --no-leftovers
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
python3 - "$tmp/runs" <<'PY'
import collections, statistics, sys
runs = collections.OrderedDict()
for l in open(sys.argv[1]):
    n, who, wall, user, sys_ = l.split()
    runs.setdefault((n, who), []).append((float(wall), float(user) + float(sys_)))
for (n, who), v in runs.items():
    print("%-15s %-13s wall %6.2f s  cpu %6.2f s  (runs: %s)" % (
        n, who, statistics.median(x[0] for x in v),
        statistics.median(x[1] for x in v),
        ", ".join("%.2f/%.2f" % x for x in v)))
PY
