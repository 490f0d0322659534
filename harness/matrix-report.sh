#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The report of the build matrix (build/matrix/report.txt) from what
# harness/matrix.sh left in build/matrix: per configuration and tree the
# result, the build time and the warnings; then every warning that the
# patched build has and the pristine build of the same configuration has
# not, i.e. what the series introduced (the goal is none).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

MATRIX_DIR=${CHOPBLOCK_MATRIX_DIR:-$BUILD_DIR/matrix}
report=$MATRIX_DIR/report.txt
introduced_total=0
{
	echo "chopblock build matrix ($(date -u +%Y-%m-%dT%H:%MZ))"
	printf '  %-10s %-9s %-7s %8s %9s  %s\n' config tree result seconds warnings commit
	for r in "$MATRIX_DIR"/*.result; do
		[ -e "$r" ] || continue
		b=$(basename "$r" .result)
		read -r result secs commit <"$r"
		w=$(grep -c . "${r%.result}.warnings" 2>/dev/null || true)
		printf '  %-10s %-9s %-7s %8s %9s  %s\n' "${b%-*}" "${b##*-}" "$result" \
			"$secs" "${w:-0}" "$commit"
	done
	for p in "$MATRIX_DIR"/*-patched.result; do
		[ -e "$p" ] || continue
		n=$(basename "$p" -patched.result)
		if [ ! -e "$MATRIX_DIR/$n-pristine.warnings" ]; then
			echo "  $n: no pristine build to compare warnings with"
			continue
		fi
		new=$(LC_ALL=C comm -13 "$MATRIX_DIR/$n-pristine.warnings" \
			"$MATRIX_DIR/$n-patched.warnings")
		if [ -z "$new" ]; then
			echo "  $n: warnings introduced by the series: none"
		else
			echo "  $n: warnings introduced by the series: $(echo "$new" | grep -c .)"
			echo "$new" | sed 's/^/    /'
			introduced_total=$((introduced_total + $(echo "$new" | grep -c .)))
		fi
	done
} >"$report"
cat "$report"
[ "$introduced_total" -eq 0 ] || exit 3
