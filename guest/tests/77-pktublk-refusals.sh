#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 180
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; pktublk)
#
# pktublk refuses what it cannot serve with one line naming the reason and
# a non-zero exit, and leaves nothing behind: no ublk device, no
# /dev/pktcdvd link, no state, the door unlocked.
#  - not an MMC device (a disk; a character device);
#  - a read-only disc (QEMU's CD-ROM; the emulator with profile=0x8);
#  - a write-once disc (the emulator as a CD-R);
#  - a CD-RW not formatted for fixed packets (fixed_packets=0);
#  - packets over 128 frames (packet_blocks=256);
#  - a track recorded up to a next writable address that is not on a
#    packet boundary (free_blocks=40);
#  - no ublk driver (/dev/ublk-control hidden);
#  - io_uring disabled (kernel.io_uring_disabled = 2);
#  - NAME already in use (by a daemon, or in /dev/pktcdvd by something
#    else); a second daemon on the same drive.
# And what it must not refuse: a track recorded only up to its next
# writable address (the device ends there, its last packet writable), a
# drive without a caching mode page.
. /lib/chopblock.sh
soft_checks

NAME=cdr0

pktublk_needs

cleanup() {
	[ -e /dev/ublk-control.hidden ] && mv /dev/ublk-control.hidden /dev/ublk-control
	[ -f /tmp/iou ] && cat /tmp/iou >/proc/sys/kernel/io_uring_disabled
	for s in /run/pktublk/*.state; do
		[ -e "$s" ] || continue
		n=${s##*/}
		pktublk -d "${n%.state}"
	done
	[ -d /sys/module/mmc_rw_emu ] && rmmod mmc_rw_emu
}
trap cleanup EXIT

# nothing_left NAME: no trace of a set up of NAME.
nothing_left() {
	left=""
	[ -e "/dev/pktcdvd/$1" ] && left="$left /dev/pktcdvd/$1"
	[ -e "/run/pktublk/$1.state" ] && left="$left /run/pktublk/$1.state"
	for u in /dev/ublkb* /dev/ublkc*; do
		[ -e "$u" ] && left="$left $u"
	done
	if [ -d /sys/module/mmc_rw_emu ] && [ "$(mre_stat door_locked)" != 0 ]; then
		left="$left (door locked)"
	fi
	[ -z "$left" ] || echo "$left"
}

# refuse WHAT PATTERN ARGS...: pktublk ARGS fails with one line matching
# PATTERN and leaves nothing behind.
refuse() {
	what=$1 pattern=$2
	shift 2
	pktublk "$@" >/tmp/out 2>&1
	rc=$?
	line=$(cat /tmp/out)
	echo "pktublk $*: exit $rc: $line"
	if [ "$rc" -eq 0 ]; then
		fail "$what: pktublk $* succeeded"
		pktublk -d "$1" >/dev/null 2>&1
		return
	fi
	n=$(wc -l </tmp/out)
	[ "$n" -eq 1 ] || fail "$what: $n lines of output, not one"
	echo "$line" | grep -q -i -E "$pattern" ||
		fail "$what: the reason does not match '$pattern'"
	left=$(nothing_left "$1")
	[ -z "$left" ] || fail "$what: left behind:$left"
	[ "$rc" -ne 0 ] && [ "$n" -eq 1 ] && [ -z "$left" ] &&
		echo "$line" | grep -q -i -E "$pattern" && ok "$what: refused, nothing left"
}

# Not MMC: a disk, a character device.
disk=
for b in /sys/block/sd* /sys/block/vd* /sys/block/ram*; do
	[ -e "$b" ] && disk=/dev/${b##*/} && break
done
if [ -n "$disk" ] && [ -b "$disk" ]; then
	refuse "a disk ($disk)" "not an MMC device" $NAME "$disk"
else
	echo "no disk in this guest to try"
fi
refuse "a character device" "not a block device" $NAME /dev/null

# QEMU's own CD drive holds a CD-ROM.
for b in /sys/block/sr*; do
	[ -e "$b" ] || continue
	qsr=/dev/${b##*/}
	refuse "QEMU's CD-ROM ($qsr)" "read-only disc" $NAME "$qsr"
	break
done

emu() {
	if mre_load "$@" size_mb=8; then
		echo "mmc_rw_emu $* at $MRE_SR"
		return 0
	fi
	fail "mmc_rw_emu $* did not load"
	return 1
}

emu profile=0x8 && refuse "a CD-ROM" "read-only disc" $NAME "$MRE_SR"
rmmod mmc_rw_emu
emu profile=0x9 && refuse "a CD-R" "write-once disc" $NAME "$MRE_SR"
rmmod mmc_rw_emu
emu profile=0xa fixed_packets=0 &&
	refuse "a CD-RW of variable packets" "not formatted for fixed packets" $NAME "$MRE_SR"
rmmod mmc_rw_emu
emu profile=0xa packet_blocks=256 &&
	refuse "packets of 256 frames" "packets of 256 frames, over the 128" $NAME "$MRE_SR"
rmmod mmc_rw_emu

emu profile=0xa free_blocks=40 &&
	refuse "a next writable address inside a packet" "next writable address 4056 is not on a packet boundary" $NAME "$MRE_SR"
rmmod mmc_rw_emu

# A track recorded up to its next writable address, on a drive without a
# caching page: the device ends at the NWA, its last packet can be
# written, and the missing page is no reason to refuse.
if emu profile=0xa free_blocks=512 caching_page=0 &&
	out=$(pktublk $NAME "$MRE_SR" 2>&1); then
	ublk=$(readlink /dev/pktcdvd/$NAME)
	ublk=${ublk#/dev/}
	wait_for "/sys/block/$ublk" 5
	size=$(($(cat /sys/block/$ublk/size) * 512))
	[ "$size" -eq $(((4096 - 512) * 2048)) ] &&
		ok "recorded up to the NWA: $size bytes, 3584 frames" ||
		fail "recorded up to the NWA: $size bytes, not 3584 frames"
	r0=$(mre_stat writes_rejected)
	dd if=/dev/urandom of=/tmp/last bs=65536 count=1 2>/dev/null
	dd if=/tmp/last of=/dev/pktcdvd/$NAME bs=65536 seek=111 oflag=direct conv=fsync 2>/dev/null ||
		fail "writing the last packet before the NWA"
	[ "$(mre_stat writes_rejected)" = "$r0" ] &&
		[ "$(dd if="$MRE_SR" bs=65536 skip=111 count=1 2>/dev/null | md5sum)" = "$(md5sum </tmp/last)" ] &&
		ok "the last packet before the NWA written and on the disc" ||
		fail "the last packet before the NWA did not reach the disc"
	grep -q "no caching mode page" /run/pktublk/$NAME.log &&
		[ "$(mre_stat write_cache)" = 0 ] &&
		ok "no caching page: set up anyway, the cache left alone" ||
		fail "no caching page: $(grep -i cach /run/pktublk/$NAME.log)"
	pktublk -d $NAME || fail "pktublk -d $NAME"
	left=$(nothing_left $NAME)
	[ -z "$left" ] || fail "left behind:$left"
else
	fail "a track recorded up to its NWA: ${out:-mmc_rw_emu did not load}"
fi
rmmod mmc_rw_emu

emu profile=0xa || exit 1
mv /dev/ublk-control /dev/ublk-control.hidden
refuse "no ublk driver" "no ublk driver" $NAME "$MRE_SR"
mv /dev/ublk-control.hidden /dev/ublk-control

cat /proc/sys/kernel/io_uring_disabled >/tmp/iou
echo 2 >/proc/sys/kernel/io_uring_disabled
refuse "io_uring disabled" "io_uring is disabled" $NAME "$MRE_SR"
cat /tmp/iou >/proc/sys/kernel/io_uring_disabled
rm -f /tmp/iou

# In use: the name, the drive.
if out=$(pktublk $NAME "$MRE_SR" 2>&1); then
	ok "pktublk $NAME $MRE_SR: $out"
	target=$(readlink /dev/pktcdvd/$NAME)
	pktublk $NAME /dev/null >/tmp/out 2>&1 && fail "NAME in use: second set up succeeded"
	echo "pktublk $NAME /dev/null: $(cat /tmp/out)"
	[ "$(wc -l </tmp/out)" -eq 1 ] && grep -q "$NAME is in use" /tmp/out &&
		ok "NAME in use: refused" || fail "NAME in use: $(cat /tmp/out)"
	pktublk other "$MRE_SR" >/tmp/out 2>&1 && fail "second daemon on $MRE_SR succeeded"
	echo "pktublk other $MRE_SR: $(cat /tmp/out)"
	[ "$(wc -l </tmp/out)" -eq 1 ] && grep -q "already served by another pktublk" /tmp/out &&
		ok "a second daemon on the same drive: refused" ||
		fail "second daemon: $(cat /tmp/out)"
	[ -e /dev/pktcdvd/other ] && fail "/dev/pktcdvd/other exists"
	# A name that something else (pktcdvd, say) holds in /dev/pktcdvd.
	ln -s /dev/null /dev/pktcdvd/foreign
	pktublk foreign /dev/null >/tmp/out 2>&1 && fail "a foreign /dev/pktcdvd name was taken"
	echo "pktublk foreign /dev/null: $(cat /tmp/out)"
	[ "$(wc -l </tmp/out)" -eq 1 ] && grep -q "foreign is in use (/dev/pktcdvd/foreign exists)" /tmp/out &&
		[ "$(readlink /dev/pktcdvd/foreign)" = /dev/null ] &&
		ok "a name /dev/pktcdvd already has: refused, left alone" ||
		fail "foreign name: $(cat /tmp/out)"
	rm -f /dev/pktcdvd/foreign
	[ "$(readlink /dev/pktcdvd/$NAME)" = "$target" ] && [ -b "$target" ] &&
		ok "the first set up still serves $target" ||
		fail "the first set up was disturbed"
	pktublk -d $NAME || fail "pktublk -d $NAME"
	left=$(nothing_left $NAME)
	[ -z "$left" ] && ok "torn down, nothing left" || fail "left behind:$left"
else
	fail "pktublk $NAME $MRE_SR: $out"
	cat /run/pktublk/$NAME.log
fi
rmmod mmc_rw_emu || fail "rmmod mmc_rw_emu"
check_kernel_log
exit $failed
