#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The emulated drive, sr and pktcdvd leak nothing: the kernel "kmemleak"
# of configs/kernels.list (the main configuration plus kmemleak) runs
# guest tests 75 and 80 between guest/kmemleak's clear and scan, which
# must find no unreferenced object. Measured here: the extra kernel build
# takes about 3 minutes the first time (ccache warm), the guest about 20 s.
. "$(dirname "$0")/../lib.sh"
"$root/harness/kernel.sh" kmemleak || fail "the kmemleak guest failed (logs: $KERNELS_DIR/kmemleak/logs)"
console=$KERNELS_DIR/kmemleak/logs/console.log
tr -d '\r' <"$console" | grep -q '^ok [0-9]* 85-kmemleak-scan$' ||
	fail "the kmemleak scan did not pass"
tr -d '\r' <"$console" | grep -q '^ok [0-9]* 75-pktcdvd-udf$' ||
	fail "test 75 did not pass (or skipped) under kmemleak"
ok "$(tr -d '\r' <"$console" | grep -m1 '^# kmemleak: .* after the pktcdvd tests' | sed 's/^# //')"
