#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 360
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; pktublk)
#
# 20 set up / write / tear down cycles of pktublk on the emulated CD-RW,
# and 20 on the emulated DVD+RW:
# each one serves, each teardown leaves no ublk device, link, state,
# locked door or write cache turned on, and the kernel log stays clean.
# Under kmemleak (tests/tree/62-kmemleak.sh) the scan after it finds no
# leak.
. /lib/chopblock.sh
soft_checks

NAME=cyc0
PKT=/dev/pktcdvd/$NAME
CYCLES=20

pktublk_needs

trap 'pktublk_teardown $NAME' EXIT

head -c 10240 /dev/urandom >/tmp/cyc.data
want=$(md5sum </tmp/cyc.data | cut -d' ' -f1)

# cycles PROFILE MEDIA: CYCLES cycles on one kind of disc.
cycles() {
	M=$2
	mre_load profile="$1" size_mb=8 || { fail "$M: mmc_rw_emu did not load"; return; }
	good=0
	c=1
	while [ $c -le $CYCLES ]; do
		if ! out=$(pktublk $NAME "$MRE_SR" 2>&1); then
			fail "$M: cycle $c: pktublk $NAME $MRE_SR: $out"
			break
		fi
		# 5 frames from frame 3c: a partial packet, now and then two.
		dd if=/tmp/cyc.data of=$PKT bs=2048 seek=$((3 * c)) count=5 \
			oflag=direct conv=notrunc 2>/dev/null || fail "$M: cycle $c: write"
		got=$(dd if=$PKT bs=2048 skip=$((3 * c)) count=5 iflag=direct 2>/dev/null |
			md5sum | cut -d' ' -f1)
		[ "$got" = "$want" ] || fail "$M: cycle $c: read back $got, expected $want"
		if ! out=$(pktublk -d $NAME 2>&1); then
			fail "$M: cycle $c: pktublk -d $NAME: $out"
			break
		fi
		left=$(ls /dev/ublkb* /dev/ublkc* $PKT /run/pktublk/*.state 2>/dev/null)
		[ -z "$left" ] || fail "$M: cycle $c: left behind: $left"
		[ "$(mre_stat door_locked)" = 0 ] || fail "$M: cycle $c: door locked"
		[ "$(mre_stat write_cache)" = 0 ] || fail "$M: cycle $c: write cache left on"
		[ "$got" = "$want" ] && [ -z "$left" ] && good=$((good + 1))
		c=$((c + 1))
	done
	[ $good -eq $CYCLES ] && ok "$M: $CYCLES cycles: set up, write, read back, tear down, nothing left" ||
		fail "$M: $good of $CYCLES cycles clean"
	[ "$(mre_stat writes_rejected)" = 0 ] || fail "$M: the drive rejected writes"
	rmmod mmc_rw_emu || fail "$M: rmmod mmc_rw_emu"
}

cycles 0xa CD-RW
cycles 0x1a DVD+RW
check_kernel_log
exit $failed
