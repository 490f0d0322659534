#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: packages, tree, series, build, initramfs, boot and guest
# tests, then the report. Each step fails with a one-line reason.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

"$h/deps.sh"
"$h/tree.sh"
"$h/apply.sh"
rm -f "$LOG_DIR/ktap-result.txt" "$LOG_DIR/userspace-seconds" "$KBUILD_DIR/chopblock-build-seconds"
if ! "$h/build.sh"; then
	"$h/report.sh" FAILED >/dev/null
	exit 1
fi
"$h/modules.sh"
"$h/initramfs.sh"
rc=0
"$h/boot.sh" || rc=$?
echo
"$h/report.sh" ok
tail -n 1 "$LOG_DIR/ktap-result.txt" 2>/dev/null || echo "0 passed, 1 failed"
exit $rc
