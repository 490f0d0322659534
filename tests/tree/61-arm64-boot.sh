#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The patched arm64 kernel (built by 60-cross-build) boots on QEMU's virt
# machine under TCG and passes the guest tests that apply to arm64.
. "$(dirname "$0")/../lib.sh"
"$root/harness/kernel.sh" arm64-patched || fail "the arm64 guest failed"
res=$(tail -n 1 "$KERNELS_DIR/arm64-patched/logs/ktap-result.txt")
case $res in
*" passed, 0 failed"*) ;;
*) fail "arm64 guest: $res" ;;
esac
[ "${res%% *}" -gt 0 ] || fail "arm64 guest: no test ran"
ok "arm64 guest: $res"
