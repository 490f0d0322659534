#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kmemleak guest (the kernel "kmemleak" of configs/kernels.list), before the pktcdvd tests: forget
# what boot left unreferenced, so that the scan afterwards reports only
# what the tests leaked.
. /lib/chopblock.sh
k=/sys/kernel/debug/kmemleak
[ -w $k ] || fail "no $k: this kernel has no kmemleak"
echo scan >$k
echo clear >$k
echo "kmemleak: boot's objects cleared"
