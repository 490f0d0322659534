#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/cover.sh
#
# make cover: what make check's coverage proof leaves to an opt-in run.
# Builds the kernels of group "cover" in configs/kernels.list (the full
# arm64 and the 32-bit arm coverage kernels) from clean build directories,
# fails when one warns in a file the series touched (as make check's
# 60-cross-build does for cover-arm64-rest), then reports what every
# coverage kernel compiled (make check's main and cover-arm64-rest too,
# built when they are not) and holds the
# report to make check's goals: every file an architecture of them can
# compile is compiled, and at least 95% of the changed lines of the C
# files. The report is build/coverage/report.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")
case ${1:-} in
--help | -h) usage_from_header; exit 0 ;;
"") ;;
*) die "cover.sh: no arguments (see --help)" ;;
esac

mapfile -t cover < <(coverage_kernels cover)
[ "${#cover[@]}" -gt 0 ] || die "no kernel of group cover carries a coverage fragment in $KERNELS_LIST"
"$h/matrix.sh" "${cover[@]}"
bad=0
for n in "${cover[@]}"; do
	hits=$(touched_warnings "$n")
	if [ -n "$hits" ]; then
		echo "$hits" >&2
		echo "chopblock: error: the $n build warns in files the series touched" >&2
		bad=1
	else
		info "cover: $n: built, $(grep -c . "$KERNELS_DIR/$n/warnings") warning(s), none in a file the series touched"
	fi
done

mapfile -t all < <(coverage_kernels main check cover)
for n in "${all[@]}"; do "$h/build.sh" "$n"; done
"$h/coverage.sh" --min-lines 95 --all-compilable "${all[@]}" || bad=1
info "cover: report: $BUILD_DIR/coverage/report.txt"
exit "$bad"
