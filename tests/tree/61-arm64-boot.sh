#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's arm64 coverage kernel (cover-arm64-rest, built by
# 60-cross-build: the touched Renesas drivers x86_64 cannot build, and the
# pin controller core with DEBUG_PINCTRL, built in) boots on
# QEMU's virt machine under TCG and passes the guest tests that apply to
# arm64, the kernel log check included.
. "$(dirname "$0")/../lib.sh"
"$root/harness/kernel.sh" cover-arm64-rest || fail "the arm64 guest failed"
res=$(tail -n 1 "$KERNELS_DIR/cover-arm64-rest/logs/ktap-result.txt")
case $res in
*" passed, 0 failed"*) ;;
*) fail "arm64 guest: $res" ;;
esac
[ "${res%% *}" -gt 0 ] || fail "arm64 guest: no test ran"
ok "arm64 guest: $res"
