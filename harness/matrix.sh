#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/matrix.sh [NAME...]
#
# The cross-architecture build matrix: the kernels of group "matrix" in
# configs/kernels.list (or the NAMEs given), each built from a clean build
# directory, with its result, its time and its compiler warnings in
# build/kernels/NAME/warnings; then the report, build/matrix/report.txt,
# with the warnings the series introduced (those of NAME-patched that
# NAME-pristine does not have). A kernel already built from the same
# commit and configuration is not built again: its build log, and so its
# warnings, are still those of a clean build.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; esac
if [ $# -eq 0 ]; then
	names=$(kernel_list "$KERNELS_LIST" matrix) || exit 1
	set -- $names
fi
for n in "$@"; do kernel_row "$n"; done

failed=0
for n in "$@"; do
	# From a clean build directory: an incremental build prints the
	# warnings of the files it recompiles only, and would miss a
	# warning the series brought in an earlier run. ccache replays the
	# warnings of what it has cached, so a clean rebuild stays cheap.
	info "matrix: $n"
	"$h/build.sh" --clean "$n" || failed=$((failed + 1))
	kdir=$KERNELS_DIR/$n
	"$h/warnings.sh" "$kdir/logs/build.log" >"$kdir/warnings" 2>/dev/null || : >"$kdir/warnings"
done

rc=0
"$h/matrix-report.sh" "$@" || rc=$?
[ "$rc" -ne 3 ] || die "the series introduced compiler warnings (see $BUILD_DIR/matrix/report.txt)"
[ "$rc" -eq 0 ] || exit "$rc"
[ "$failed" -eq 0 ] || die "$failed matrix build(s) failed (see $BUILD_DIR/matrix/report.txt)"
