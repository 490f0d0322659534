#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kmemleak guest (tests/tree/62-kmemleak.sh), after tests 76, 80 and 82 loaded,
# used and unloaded the emulated drive many times: kmemleak reports
# objects only once they are 5 s old, so wait, then scan twice.
. /lib/chopblock.sh
k=/sys/kernel/debug/kmemleak
[ -w $k ] || fail "no $k: this kernel has no kmemleak"
sleep 6
echo scan >$k
sleep 1
echo scan >$k
n=$(grep -c '^unreferenced object' $k)
echo "kmemleak: $n unreferenced object(s) after the drive tests"
head -n 80 $k
[ "$n" -eq 0 ] || fail "kmemleak reports $n leaked object(s)"
