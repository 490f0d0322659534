#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 420
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; pktublk)
#
# kill -9 of the pktublk daemon in the middle of writing, on a CD-RW and
# on a DVD+RW:
#  - a writer writes numbered blocks of 3 frames (some across a packet
#    boundary) with O_DIRECT, each followed by a flush, and notes each one
#    the device acknowledged; the daemon is killed while it writes;
#  - the writer does not hang: it gets an error and ends;
#  - the ublk block device goes away;
#  - every acknowledged block is on the disc (read from the sr device);
#  - pktublk -d cleans up what the dead daemon left (its ublk device
#    number, link, state), syncs the drive's cache and unlocks the door;
#    the drive can be set up again and serves the same data.
. /lib/chopblock.sh
soft_checks

NAME=crash0
PKT=/dev/pktcdvd/$NAME

pktublk_needs

cleanup() {
	[ -n "$wpid" ] && kill -9 "$wpid" 2>/dev/null
	[ -e /run/pktublk/$NAME.state ] && pktublk -d $NAME
	[ -d /sys/module/mmc_rw_emu ] && rmmod mmc_rw_emu
}
trap cleanup EXIT

# block I: 6144 bytes that say which block they are.
block() {
	printf 'pktublk crash test block %08d\n' "$1"
	head -c $((6144 - 34)) /dev/zero |
		tr '\0' "$(echo ABCDEFGHIJKLMNOPQRSTUVWXYZ | cut -c $((1 + $1 % 26)))"
}

# crash_once PROFILE MEDIA: the whole sequence on one kind of disc.
crash_once() {
	echo "== profile $1 ($2)"
	mre_load profile="$1" size_mb=8 || { fail "$2: mmc_rw_emu did not load"; return; }
	if out=$(pktublk $NAME "$MRE_SR" 2>&1); then
		ok "$2: pktublk $NAME $MRE_SR: $out"
	else
		fail "$2: pktublk $NAME $MRE_SR: $out"
		rmmod mmc_rw_emu
		return
	fi
	ublk=$(readlink $PKT)
	pid=$(awk '$1 == "pid" { print $2 }' /run/pktublk/$NAME.state)
	echo "daemon pid $pid, device $ublk"

	: >/tmp/acked
	(
		i=1
		while [ $i -lt 400 ]; do
			block $i >/tmp/blk
			# dd creates a regular file where the device node vanished:
			# such a write is no acknowledgement, and the file must go.
			[ -b "$ublk" ] || exit 0
			dd if=/tmp/blk of=$PKT bs=6144 seek=$i count=1 oflag=direct \
				conv=notrunc,fsync 2>/dev/null || exit 0
			if [ ! -b "$ublk" ]; then
				[ -f "$ublk" ] && rm -f "$ublk"
				exit 0
			fi
			echo $i >>/tmp/acked
			i=$((i + 1))
		done
	) &
	wpid=$!
	i=0
	while [ "$(wc -l </tmp/acked)" -lt 20 ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	n0=$(wc -l </tmp/acked)
	kill -9 "$pid"
	echo "killed the daemon after $n0 acknowledged blocks"
	i=0
	while kill -0 "$wpid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$wpid" 2>/dev/null; then
		fail "$2: the writer still runs 60 s after the kill"
	else
		ok "$2: the writer ended after the kill"
	fi
	wpid=
	n=$(wc -l </tmp/acked)
	echo "$n blocks acknowledged in all"
	i=0
	sysblk=/sys/block/${ublk#/dev/}
	while [ -e "$sysblk" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$sysblk" ] && fail "$2: $sysblk still exists 60 s after the kill" ||
		ok "$2: the block device ${ublk#/dev/} went away after $((i / 10)) s"

	# The acknowledged blocks are on the disc.
	bad=0
	for i in $(cat /tmp/acked); do
		block "$i" | md5sum >/tmp/want
		dd if="$MRE_SR" bs=6144 skip="$i" count=1 iflag=direct 2>/dev/null | md5sum >/tmp/got
		cmp -s /tmp/want /tmp/got || { bad=$((bad + 1)); echo "block $i is not on the disc"; }
	done
	[ "$bad" -eq 0 ] && [ "$n" -gt 0 ] && ok "$2: all $n acknowledged blocks are on the disc" ||
		fail "$2: $bad of $n acknowledged blocks are not on the disc"
	[ "$(mre_stat writes_rejected)" = 0 ] || fail "$2: the drive rejected writes"

	# Clean up and set up again.
	pktublk -s
	if out=$(pktublk -d $NAME 2>&1); then
		ok "$2: pktublk -d $NAME after the crash: ${out:-done}"
	else
		fail "$2: pktublk -d $NAME after the crash: $out"
	fi
	[ "$(mre_stat door_locked)" = 0 ] && ok "$2: door unlocked" || fail "$2: door still locked"
	[ "$(mre_stat unsynced_blocks)" = 0 ] && ok "$2: the drive's write cache synced" ||
		fail "$2: $(mre_stat unsynced_blocks) blocks left only in the drive's write cache"
	[ "$(mre_stat read_speed)/$(mre_stat write_speed)" = 65535/65535 ] &&
		ok "$2: speed back to the drive's maximum" ||
		fail "$2: speed $(mre_stat read_speed)/$(mre_stat write_speed) after the clean up"
	[ -e $PKT ] && fail "$2: $PKT still exists"
	ls /dev/ublkb* /dev/ublkc* 2>/dev/null && fail "$2: ublk devices left"
	if out=$(pktublk $NAME "$MRE_SR" 2>&1); then
		ok "$2: set up again: $out"
		last=$(tail -n 1 /tmp/acked)
		block "$last" | md5sum >/tmp/want
		dd if=$PKT bs=6144 skip="$last" count=1 2>/dev/null | md5sum >/tmp/got
		cmp -s /tmp/want /tmp/got && ok "$2: block $last reads back through the new device" ||
			fail "$2: block $last differs through the new device"
		pktublk -d $NAME || fail "$2: pktublk -d $NAME"
	else
		fail "$2: set up again: $out"
	fi
	rmmod mmc_rw_emu || fail "$2: rmmod mmc_rw_emu"
}

crash_once 0xa CD-RW
crash_once 0x1a DVD+RW
check_kernel_log
exit $failed
