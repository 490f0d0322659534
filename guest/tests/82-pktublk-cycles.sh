#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 240
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; pktublk)
#
# 20 set up / write / tear down cycles of pktublk on the emulated CD-RW:
# each one serves, each teardown leaves no ublk device, link, state or
# locked door, and the kernel log stays clean. Under kmemleak
# (tests/tree/62-kmemleak.sh) the scan after it finds no leak.
. /lib/chopblock.sh
soft_checks

NAME=cyc0
PKT=/dev/pktcdvd/$NAME
CYCLES=20

pktublk_needs

trap 'pktublk_teardown $NAME' EXIT

mre_load profile=0xa size_mb=8 || { fail "mmc_rw_emu did not load"; exit 1; }
head -c 10240 /dev/urandom >/tmp/cyc.data
want=$(md5sum </tmp/cyc.data | cut -d' ' -f1)
good=0
c=1
while [ $c -le $CYCLES ]; do
	if ! out=$(pktublk $NAME "$MRE_SR" 2>&1); then
		fail "cycle $c: pktublk $NAME $MRE_SR: $out"
		break
	fi
	# 5 frames from frame 3c: a partial packet, now and then two.
	dd if=/tmp/cyc.data of=$PKT bs=2048 seek=$((3 * c)) count=5 \
		oflag=direct conv=notrunc 2>/dev/null || fail "cycle $c: write"
	got=$(dd if=$PKT bs=2048 skip=$((3 * c)) count=5 iflag=direct 2>/dev/null |
		md5sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "cycle $c: read back $got, expected $want"
	if ! out=$(pktublk -d $NAME 2>&1); then
		fail "cycle $c: pktublk -d $NAME: $out"
		break
	fi
	left=$(ls /dev/ublkb* /dev/ublkc* $PKT /run/pktublk/*.state 2>/dev/null)
	[ -z "$left" ] || fail "cycle $c: left behind: $left"
	[ "$(mre_stat door_locked)" = 0 ] || fail "cycle $c: door locked"
	[ "$got" = "$want" ] && [ -z "$left" ] && good=$((good + 1))
	c=$((c + 1))
done
[ $good -eq $CYCLES ] && ok "$CYCLES cycles: set up, write, read back, tear down, nothing left" ||
	fail "$good of $CYCLES cycles clean"
[ "$(mre_stat writes_rejected)" = 0 ] || fail "the drive rejected writes"
rmmod mmc_rw_emu || fail "rmmod mmc_rw_emu"
check_kernel_log
exit $failed
