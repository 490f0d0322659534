#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/matrix-report.sh [--kernels DIR] [--out FILE] NAME...
#
# The report of the build matrix from the manifests and warning lists of
# the kernels NAME... (build/kernels/NAME): per kernel the result, the
# build time and the warnings; then, for every NAME-patched whose
# NAME-pristine is there too, each warning the patched build has and the
# pristine build has not, i.e. what the series introduced (the goal is
# none). Exit status 3 when there is one.
#
#   --kernels DIR  where the kernels are (default build/kernels)
#   --out FILE     the report (default build/matrix/report.txt)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernels=$KERNELS_DIR report=$BUILD_DIR/matrix/report.txt names=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=${2:?--kernels needs a directory}; shift ;;
	--out) report=${2:?--out needs a file}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "matrix-report.sh: unknown option $1 (see --help)" ;;
	*) names+=("$1") ;;
	esac
	shift
done
[ "${#names[@]}" -gt 0 ] || die "matrix-report.sh: which kernels? (see --help)"
mkdir -p "$(dirname "$report")"
introduced_total=0
{
	echo "chopblock build matrix ($(date -u +%Y-%m-%dT%H:%MZ))"
	printf '  %-16s %-7s %8s %9s  %s\n' kernel result seconds warnings commit
	for n in "${names[@]}"; do
		d=$kernels/$n
		if [ ! -f "$d/manifest" ]; then
			printf '  %-16s %-7s\n' "$n" "not built"
			continue
		fi
		w=$(grep -c . "$d/warnings" 2>/dev/null || true)
		c=$(manifest "$d" commit)
		printf '  %-16s %-7s %8s %9s  %s\n' "$n" "$(manifest "$d" result)" \
			"$(manifest "$d" seconds)" "${w:-0}" "${c:0:12}"
	done
	for n in "${names[@]}"; do
		case $n in *-patched) ;; *) continue ;; esac
		base=${n%-patched}
		if [ ! -e "$kernels/$base-pristine/warnings" ]; then
			echo "  $base: no pristine build to compare warnings with"
			continue
		fi
		new=$(LC_ALL=C comm -13 "$kernels/$base-pristine/warnings" "$kernels/$n/warnings")
		if [ -z "$new" ]; then
			echo "  $base: warnings introduced by the series: none"
		else
			echo "  $base: warnings introduced by the series: $(echo "$new" | grep -c .)"
			echo "$new" | sed 's/^/    /'
			introduced_total=$((introduced_total + $(echo "$new" | grep -c .)))
		fi
	done
} >"$report"
cat "$report"
[ "$introduced_total" -eq 0 ] || exit 3
