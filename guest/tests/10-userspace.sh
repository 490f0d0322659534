#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Userspace runs as PID 1's child, with /proc and /sys mounted and the
# kernel clean so far: nothing tainted, no Oops, BUG or WARNING at boot.
. /lib/chopblock.sh
[ -r /proc/version ] || fail "no /proc/version"
echo "kernel: $(cat /proc/version)"
check_kernel_log
