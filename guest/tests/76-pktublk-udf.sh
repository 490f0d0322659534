#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 300
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; udftools, pktublk)
#
# pktublk, the user-space successor of pktcdvd (pktublk/), end to end on
# the emulated rewritable drive, for a CD-RW and a DVD+RW: test 75's
# sequence with the daemon in place of the driver.
#  - pktublk NAME /dev/srN sets up /dev/pktcdvd/NAME, a link to a ublk
#    device of 2 KiB blocks whose physical block, io_min, io_opt, chunk
#    and request size are one packet, with a volatile write cache; the
#    door is locked and the speed set while it runs;
#  - mkudffs through it, a read-write UDF mount, files of 1, 2048,
#    102,400 and 1,052,929 bytes, unmount, pktublk -d;
#  - set up again, mount again, checksums; the first 4 MiB read through
#    the device equal the sr device's; pktublk -d, then a read-only
#    mount of the sr device itself: checksums;
#  - the drive's counters: every write a whole aligned packet, none
#    rejected, blocks written = packets x packet size; a SYNCHRONIZE
#    CACHE for the flushes, so that after sync nothing is left only in
#    the drive's write cache, which pktublk turns on and off again;
#  - after teardown: no ublk device, no link, the door unlocked, the
#    speed as it was; rmmod leaves nothing; the kernel log is clean.
. /lib/chopblock.sh
soft_checks

NAME=cdw0
PKT=/dev/pktcdvd/$NAME
MNT=/mnt/udf

pktublk_needs mkudffs insmod rmmod md5sum
mkdir -p $MNT

cleanup() {
	umount $MNT 2>/dev/null
	[ -e /run/pktublk/$NAME.state ] && pktublk -d $NAME
	[ -d /sys/module/mmc_rw_emu ] && rmmod mmc_rw_emu
}
trap cleanup EXIT

unload() {
	umount $MNT 2>/dev/null
	[ -e /run/pktublk/$NAME.state ] && pktublk -d $NAME
	cat /run/pktublk/$NAME.log 2>/dev/null | tail -n 20
	rmmod mmc_rw_emu
}

# queue_is ATTR WANT: a queue limit of the ublk device.
queue_is() {
	got=$(cat "/sys/block/$ublk/queue/$1" 2>/dev/null)
	[ "$got" = "$2" ] && ok "$ublk: $1 = $2" ||
		fail "$ublk: $1 = ${got:-?}, expected $2"
}

setup() {
	if out=$(pktublk $NAME "$MRE_SR" 2>&1); then
		ok "pktublk $NAME $MRE_SR: $out"
	else
		fail "pktublk $NAME $MRE_SR: $out"
		return 1
	fi
	target=$(readlink $PKT)
	ublk=${target#/dev/}
	case $ublk in
	ublkb[0-9]*) ok "$PKT -> $target" ;;
	*) fail "$PKT is not a link to a ublk device (${target:-none})"; return 1 ;;
	esac
	wait_for "/sys/block/$ublk" 5 || fail "/sys/block/$ublk did not appear"
}

teardown() {
	if out=$(pktublk -d $NAME 2>&1); then
		ok "pktublk -d $NAME"
	else
		fail "pktublk -d $NAME: $out"
	fi
	[ -e $PKT ] && fail "$PKT still exists after pktublk -d"
	[ -e "/dev/$ublk" ] && fail "/dev/$ublk still exists after pktublk -d"
	[ -e "/sys/block/$ublk" ] && fail "/sys/block/$ublk still exists"
	[ "$(mre_stat door_locked)" = 0 ] || fail "the door is still locked"
}

run_profile() {
	profile=$1 media=$2 packet=$3
	echo "== profile $profile ($media), packets of $packet blocks"
	if mre_load profile="$profile" size_mb=32; then
		ok "mmc_rw_emu loaded, drive at $MRE_SR"
	else
		fail "mmc_rw_emu did not load or its sr device did not appear"
		return
	fi
	rs0=$(mre_stat read_speed)
	ws0=$(mre_stat write_speed)
	r0=$(mre_stat writes_rejected)
	w0=$(mre_stat writes)
	s0=$(mre_stat syncs)

	setup || { unload; return; }
	bytes=$((packet * 2048))
	queue_is logical_block_size 2048
	queue_is physical_block_size $bytes
	queue_is minimum_io_size $bytes
	queue_is optimal_io_size $bytes
	queue_is chunk_sectors $((packet * 4))
	queue_is max_sectors_kb $((packet * 2))
	queue_is write_cache "write back"
	[ "$(mre_stat write_cache)" = 1 ] && ok "the drive's write cache is on while pktublk runs" ||
		fail "the drive's write cache is off while pktublk runs"
	[ "$(mre_stat door_locked)" = 1 ] && ok "the door is locked while pktublk runs" ||
		fail "the door is not locked while pktublk runs"
	[ "$(mre_stat write_speed)" != "$ws0" ] && ok "write speed set to $(mre_stat write_speed) kB/s" ||
		fail "the write speed was not set"
	pktublk -s | grep -q "^$NAME: " && ok "pktublk -s lists $NAME" ||
		fail "pktublk -s does not list $NAME: $(pktublk -s)"

	# Format and fill.
	# What the README tells users: the medium and the packet length,
	# which mkudffs cannot ask the ublk device for; without them it
	# takes the device for a hard disk. The block size it detects.
	mkudffs --no-write $PKT 2>&1 | grep -E '^(blocksize|blocks|udfrev)=' | tr '\n' ' '; echo
	if mkudffs --media-type="$media" --packetlen="$packet" \
		--label=chopblock $PKT >/tmp/mkudffs.out 2>&1; then
		ok "mkudffs --media-type=$media --packetlen=$packet $PKT"
		grep -E '^(blocksize|blocks|udfrev)=|type=SPARING' /tmp/mkudffs.out | tr '\n' ' '; echo
	else
		cat /tmp/mkudffs.out
		fail "mkudffs on $PKT"
	fi
	if mount -t udf -o rw $PKT $MNT; then
		ok "mounted $PKT read-write as UDF"
	else
		fail "mount -t udf $PKT"
		dmesg | tail -n 10
		unload
		return
	fi
	dd if=/dev/urandom of=$MNT/f1 bs=1 count=1 2>/dev/null
	dd if=/dev/urandom of=$MNT/f2 bs=2048 count=1 2>/dev/null
	dd if=/dev/urandom of=$MNT/f3 bs=1024 count=100 2>/dev/null
	dd if=/dev/urandom of=$MNT/f4 bs=4097 count=257 2>/dev/null
	for f in f1 f2 f3 f4; do
		md5sum <$MNT/$f | cut -d' ' -f1 >/tmp/udf-$f.md5
	done
	sync
	# sync(2) writes UDF's dirty pages but sends no flush: udf_sync_fs()
	# has none. fsync() does (generic_file_fsync), so after it nothing
	# written may be left in pktublk's gathered packets or the drive's
	# cache.
	sync $MNT/f4 $MNT || fail "fsync $MNT/f4 $MNT"
	u=$(mre_stat unsynced_blocks)
	[ "$u" = 0 ] && ok "after fsync no block is left only in the drive's cache" ||
		fail "after fsync $u blocks are only in the drive's cache"
	out=$(pktublk -d $NAME 2>&1) && fail "pktublk -d succeeded while mounted" ||
		ok "pktublk -d refused while mounted: $out"
	umount $MNT || fail "umount $MNT"
	teardown

	[ "$(mre_stat write_cache)" = 0 ] && ok "the drive's write cache is off again" ||
		fail "the drive's write cache is still on after teardown"

	# What the drive saw.
	w=$(($(mre_stat writes) - w0))
	r=$(($(mre_stat writes_rejected) - r0))
	s=$(($(mre_stat syncs) - s0))
	bw=$(mre_stat blocks_written)
	pw=$(mre_stat packets_written)
	echo "drive: $w write commands, $pw packets, $bw blocks, $r rejected, $s syncs"
	[ "$w" -gt 0 ] || fail "no write reached the drive"
	[ "$r" -eq 0 ] && ok "the drive rejected none of pktublk's writes" ||
		fail "the drive rejected $r of pktublk's writes"
	# The drive rejects any write that is not whole aligned packets
	# (writes_rejected); pktublk may send several packets in one command.
	[ "$w" -le "$pw" ] && ok "$w write commands carried $pw whole packets" ||
		fail "$w write commands for $pw packets"
	[ "$bw" -eq $((pw * packet)) ] && ok "blocks written = $pw packets x $packet" ||
		fail "$bw blocks written in $pw packets of $packet"
	[ "$s" -gt 0 ] && ok "flushes reached the drive as SYNCHRONIZE CACHE ($s)" ||
		fail "no SYNCHRONIZE CACHE reached the drive"

	# Read back through a new device, then straight from sr.
	setup || { unload; return; }
	echo 3 >/proc/sys/vm/drop_caches
	if mount -t udf -o rw $PKT $MNT; then
		check_files $MNT "through $PKT after a new set up"
		umount $MNT || fail "second umount"
	else
		fail "second mount of $PKT"
	fi
	a=$(head -c 4194304 $PKT | md5sum | cut -d' ' -f1)
	b=$(head -c 4194304 "$MRE_SR" | md5sum | cut -d' ' -f1)
	[ "$a" = "$b" ] && ok "the first 4 MiB read through $PKT equal $MRE_SR's" ||
		fail "reading 4 MiB: $PKT gives $a, $MRE_SR gives $b"
	teardown
	[ "$(mre_stat read_speed)" = "$rs0" ] && [ "$(mre_stat write_speed)" = "$ws0" ] &&
		ok "speeds restored ($rs0/$ws0)" ||
		fail "speeds $(mre_stat read_speed)/$(mre_stat write_speed), were $rs0/$ws0"
	if mount -t udf -o ro "$MRE_SR" $MNT; then
		check_files $MNT "read-only from $MRE_SR"
		umount $MNT
	else
		fail "mount -t udf -o ro $MRE_SR"
	fi
	left=$(ls /run/pktublk 2>/dev/null | grep -v '\.log$')
	[ -z "$left" ] || fail "left in /run/pktublk: $left"
	ls /dev/ublkb* /dev/ublkc* 2>/dev/null && fail "ublk devices left"

	l0=$(dmesg | wc -l)
	if rmmod mmc_rw_emu; then
		ok "rmmod mmc_rw_emu"
	else
		fail "rmmod mmc_rw_emu"
	fi
	dmesg | tail -n +$((l0 + 1)) | grep -E 'WARNING|BUG|Oops|Call Trace|leak' &&
		fail "kernel log after rmmod"
	cat /run/pktublk/$NAME.log 2>/dev/null | tail -n 5
}

run_profile 0xa cdrw 32
run_profile 0x1a dvdrw 16
check_kernel_log
exit $failed
