#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The emulated drive, sr, ublk and pktublk leak nothing. The main kernel
# has kmemleak built in but off (configs/80-kmemleak.config); this boots it
# again with kmemleak=on and a guest of its own that runs tests 76 (pktublk
# end to end), 80 and 82 (20 pktublk set up / tear down cycles) between
# guest/kmemleak's clear and scan, which must find no unreferenced object.
# No second kernel is built: about 60 s of guest.
. "$(dirname "$0")/../lib.sh"
kdir=$KERNELS_DIR/main
out=$kdir/kmemleak
"$root/harness/build.sh" main >/dev/null || fail "the main kernel did not build (logs: $kdir/logs)"
"$root/harness/modules.sh" "$kdir" >/dev/null || fail "the test modules did not build"
"$root/harness/initramfs.sh" "$kdir" --out "$out" \
	--tests 'tests/76-*,tests/80-*,tests/82-*,tests/99-*,kmemleak/*' >/dev/null 2>&1 ||
	fail "the kmemleak guest could not be packed"
"$root/harness/boot.sh" "$kdir" --guest "$out" --logs "$out/logs" \
	--append kmemleak=on >"$out/boot.out" 2>&1 ||
	fail "the kmemleak guest failed ($(tail -1 "$out/boot.out"); logs: $out/logs)"
console=$out/logs/console.log
tr -d '\r' <"$console" | grep -q '^ok [0-9]* 74-kmemleak-clear$' ||
	fail "kmemleak did not run (test 74 did not pass)"
tr -d '\r' <"$console" | grep -q '^ok [0-9]* 85-kmemleak-scan$' ||
	fail "the kmemleak scan did not pass"
tr -d '\r' <"$console" | grep -q '^ok [0-9]* 76-pktublk-udf$' ||
	fail "test 76 (pktublk end to end) did not pass (or skipped) under kmemleak"
tr -d '\r' <"$console" | grep -q '^ok [0-9]* 82-pktublk-cycles$' ||
	fail "test 82 (pktublk cycles) did not pass (or skipped) under kmemleak"
ok "$(tr -d '\r' <"$console" | grep -m1 '^# kmemleak: .* after the drive tests' | sed 's/^# //')"
