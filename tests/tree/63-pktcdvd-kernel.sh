#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel "pktcdvd" of configs/kernels.list, the series up to the
# pktcdvd deprecation (the last point that has the driver), builds and
# boots, and passes its guest tests with none skipped: pktcdvd end to
# end on the emulated CD-RW and DVD+RW (75), and pktcdvd against pktublk
# on the same workload, byte-identical discs (77).
. "$(dirname "$0")/../lib.sh"
kdir=$KERNELS_DIR/pktcdvd
"$root/harness/kernel.sh" pktcdvd || fail "the pktcdvd guest failed (logs: $kdir/logs)"
res=$(tail -n 1 "$kdir/logs/ktap-result.txt")
case $res in
*" passed, 0 failed") ;;
*) fail "pktcdvd guest: $res" ;;
esac
[ "${res%% *}" -gt 0 ] || fail "pktcdvd guest: no test ran"
for t in 50-pktcdvd-bind 70-pktcdvd-deprecation 75-pktcdvd-udf 77-pktcdvd-pktublk-same-disc; do
	tr -d '\r' <"$kdir/logs/console.log" | grep -q "^ok [0-9]* $t\$" ||
		fail "guest test $t did not pass (or was skipped) on the pktcdvd kernel"
done
ok "pktcdvd guest: $res"
