#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kmemleak guest (tests/tree/62-kmemleak.sh), before the drive tests:
# forget what boot left unreferenced, so that the scan afterwards reports
# only what the tests leaked.
. /lib/chopblock.sh
k=/sys/kernel/debug/kmemleak
[ -w $k ] || fail "no $k: this kernel has no kmemleak"
# A kmemleak that is off refuses a scan (EPERM): the kernel was booted
# without kmemleak=on.
echo scan 2>/dev/null >$k || fail "kmemleak is off (boot with kmemleak=on)"
echo clear >$k
echo "kmemleak: boot's objects cleared"
