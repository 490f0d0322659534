#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 240
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; udftools)
#
# pktcdvd end to end on the emulated rewritable drive (modules/mmc_rw_emu),
# once with a CD-RW and once with a DVD+RW in it:
#  - the module loads and the sr driver attaches its drive;
#  - pktsetup binds pktcdvd0 to it; the deprecation warning is in the log
#    exactly once (an earlier test may have printed it) with the series,
#    and not at all on a kernel without the deprecation patch;
#  - mkudffs formats the disc through /dev/pktcdvd/pktcdvd0, the UDF file
#    system is mounted read-write on it, files of several sizes are
#    written, synced and unmounted;
#  - the packet device is removed and set up again, the file system is
#    mounted again through it, and read-only straight from the sr device:
#    every checksum is equal; reading the first MiBs through pktcdvd gives
#    the bytes the sr device gives;
#  - the drive's counters: writes arrived, each a whole aligned packet
#    (the drive rejects anything else, and rejected none);
#  - writing small blocks straight to the sr device fails, and the drive
#    counts the rejected writes: what pktcdvd is for;
#  - pktsetup -d, then rmmod: the module's references, its SCSI host, its
#    sr device and its memory are gone, and the kernel log has no warning.
. /lib/chopblock.sh
soft_checks

NAME=pktcdvd0
PKT=/dev/pktcdvd/$NAME
MNT=/mnt/udf
SGIO=/tests/80-mmc-emu-sgio

# Without these two fixes of the series, pktcdvd puts partial packets at
# the wrong frames (mkudffs' result does not mount) and hits a BUG_ON()
# on a bio that crosses more than two packets: this test would only find
# those bugs again. 80-mmc-emu-sgio tests the drive on any kernel.
needs_patch "^pktcdvd: put each bio's data at its own frames" "pktcdvd frame placement fix"
needs_patch "^pktcdvd: split a write bio at every packet boundary" "pktcdvd bio split fix"
[ -f "$MRE_KO" ] || skip "$MRE_KO is not in the initramfs"
for tool in pktsetup mkudffs insmod rmmod md5sum; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not in PATH"
done
[ -d /sys/module/mmc_rw_emu ] && fail "mmc_rw_emu is loaded already" && exit 1
if grep -q '^pktcdvd: .*deprecated' /etc/chopblock/series 2>/dev/null; then
	want_warnings=1
else
	want_warnings=0
fi
mkdir -p $MNT

bound() { [ -e "/sys/class/pktcdvd/$NAME" ]; }
cleanup() {
	umount $MNT 2>/dev/null
	bound && pktsetup -d $NAME
	[ -d /sys/module/mmc_rw_emu ] && rmmod mmc_rw_emu
}
trap cleanup EXIT

# After a failure: leave nothing behind for the next profile.
unload() {
	umount $MNT 2>/dev/null
	bound && pktsetup -d $NAME
	rmmod mmc_rw_emu
}

vmalloc_kb() { awk '$1 == "VmallocUsed:" { print $2 }' /proc/meminfo; }

run_profile() {
	profile=$1 media=$2 packet=$3
	echo "== profile $profile ($media), packets of $packet blocks"
	vm0=$(vmalloc_kb)
	if mre_load profile="$profile" size_mb=32; then
		ok "mmc_rw_emu loaded, drive at $MRE_SR"
	else
		fail "mmc_rw_emu did not load or its sr device did not appear"
		return
	fi
	dmesg | grep -E 'mmc_rw_emu|scsi-1 drive|scsi3-mmc' | tail -n 3
	sr=${MRE_SR#/dev/}
	[ "$(mre_stat packet_blocks)" = "$packet" ] ||
		fail "drive reports packets of $(mre_stat packet_blocks) blocks, expected $packet"
	[ "$(cat /sys/block/$sr/ro)" = 0 ] ||
		fail "$MRE_SR is read-only: the cdrom layer did not see a writer"

	# Bind.
	if pktsetup $NAME "$MRE_SR"; then
		ok "pktsetup $NAME $MRE_SR"
	else
		fail "pktsetup $NAME $MRE_SR"
		unload
		return
	fi
	n=$(dmesg | grep -c -F "$PKTCDVD_DEPRECATION")
	if [ "$n" -eq "$want_warnings" ]; then
		ok "deprecation warning in the log $n time(s), as expected for this kernel"
	else
		fail "deprecation warning in the log $n time(s), expected $want_warnings"
	fi
	wait_for $PKT 5 || fail "$PKT did not appear"

	# Format and fill.
	r0=$(mre_stat writes_rejected)
	w0=$(mre_stat writes)
	if mkudffs --media-type="$media" --packetlen="$packet" --label=chopblock \
		$PKT >/tmp/mkudffs.out 2>&1; then
		ok "mkudffs --media-type=$media --packetlen=$packet $PKT"
	else
		cat /tmp/mkudffs.out
		fail "mkudffs on $PKT"
	fi
	if mount -t udf -o rw $PKT $MNT; then
		ok "mounted $PKT read-write as UDF"
		grep " $MNT " /proc/mounts
	else
		fail "mount -t udf $PKT"
		dmesg | tail -n 10
		cat "$MRE_STATS"
		udfinfo $PKT 2>&1 | head -n 20
		udfinfo "$MRE_SR" 2>&1 | head -n 20
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
	umount $MNT || fail "umount $MNT"
	pktsetup -d $NAME || fail "pktsetup -d $NAME"

	# What the drive saw.
	w=$(($(mre_stat writes) - w0))
	r=$(($(mre_stat writes_rejected) - r0))
	bw=$(mre_stat blocks_written)
	pw=$(mre_stat packets_written)
	echo "drive: $w write commands, $pw packets, $bw blocks, $r rejected"
	[ "$w" -gt 0 ] || fail "no write reached the drive"
	[ "$r" -eq 0 ] && ok "the drive rejected none of pktcdvd's writes" ||
		fail "the drive rejected $r of pktcdvd's writes"
	[ "$bw" -eq $((pw * packet)) ] && ok "every block written was part of a whole packet" ||
		fail "$bw blocks written in $pw packets of $packet"

	# Read back through a new packet device, then straight from sr.
	pktsetup $NAME "$MRE_SR" || fail "second pktsetup $NAME $MRE_SR"
	wait_for $PKT 5
	echo 3 >/proc/sys/vm/drop_caches
	if mount -t udf -o rw $PKT $MNT; then
		check_files $MNT "through $PKT after remount"
		umount $MNT || fail "second umount"
	else
		fail "second mount of $PKT"
	fi
	a=$(head -c 4194304 $PKT | md5sum | cut -d' ' -f1)
	b=$(head -c 4194304 "$MRE_SR" | md5sum | cut -d' ' -f1)
	[ "$a" = "$b" ] && ok "the first 4 MiB read through $PKT equal $MRE_SR's" ||
		fail "reading 4 MiB: $PKT gives $a, $MRE_SR gives $b"
	pktsetup -d $NAME || fail "second pktsetup -d $NAME"
	if mount -t udf -o ro "$MRE_SR" $MNT; then
		check_files $MNT "read-only from $MRE_SR"
		umount $MNT
	else
		fail "mount -t udf -o ro $MRE_SR"
	fi

	# Small writes straight to the drive are rejected.
	r0=$(mre_stat writes_rejected)
	if dd if=/dev/zero of="$MRE_SR" bs=2048 count=1 oflag=direct 2>/tmp/dd.err; then
		fail "a 2 KiB write to $MRE_SR succeeded"
	else
		echo "dd bs=2048 count=1 to $MRE_SR: $(tail -n 1 /tmp/dd.err)"
		if grep -q 'Read-only file system' /tmp/dd.err; then
			# The cdrom layer opens a CD-RW for writing only when it is
			# Mount Rainier formatted; ask the drive directly.
			ok "the cdrom layer refuses to open a $media for writing"
			out=$($SGIO write "$MRE_SR" 0 1)
			echo "SG_IO WRITE(10) of 1 block at 0: $out"
			echo "$out" | grep -q 'status=0x02 sense=5/24/00' ||
				fail "WRITE(10) of 1 block not rejected with 5/24/00"
			out=$($SGIO write "$MRE_SR" 1 "$packet")
			echo "SG_IO WRITE(10) of $packet blocks at 1: $out"
			echo "$out" | grep -q 'status=0x02 sense=5/21/02' ||
				fail "misaligned WRITE(10) not rejected with 5/21/02"
			want=2
		elif grep -q 'I/O error' /tmp/dd.err; then
			ok "a 2 KiB write to $MRE_SR fails with EIO"
			want=1
			dd if=/dev/zero of="$MRE_SR" bs=$((packet * 2048)) count=1 \
				seek=1 oflag=direct 2>/tmp/dd.err &&
				ok "a whole aligned packet written straight to $MRE_SR is accepted" ||
				fail "a whole aligned packet to $MRE_SR: $(tail -n 1 /tmp/dd.err)"
		else
			fail "the small write failed for another reason"
			want=1
		fi
		r=$(($(mre_stat writes_rejected) - r0))
		[ "$r" -eq "$want" ] && ok "the drive counted $r rejected write(s)" ||
			fail "the drive counted $r rejected writes, expected $want"
	fi

	# Unload: nothing of the module stays behind.
	host=$(ls -d /sys/devices/mmc_rw_emu/host* 2>/dev/null | head -n 1)
	host=${host##*/}
	refs=$(cat /sys/module/mmc_rw_emu/refcnt)
	[ "$refs" = 0 ] || fail "mmc_rw_emu still has $refs reference(s) before rmmod"
	l0=$(dmesg | wc -l)
	if rmmod mmc_rw_emu; then
		ok "rmmod mmc_rw_emu"
	else
		fail "rmmod mmc_rw_emu"
		return
	fi
	dmesg | tail -n +$((l0 + 1)) | grep -E 'WARNING|BUG|Oops|Call Trace|leak' &&
		fail "kernel log after rmmod"
	for p in /sys/module/mmc_rw_emu /sys/devices/mmc_rw_emu \
		"/sys/class/scsi_host/$host" /sys/block/"$sr" \
		/sys/kernel/debug/mmc_rw_emu; do
		[ -e "$p" ] && fail "$p still exists after rmmod"
	done
	vm1=$(vmalloc_kb)
	echo "VmallocUsed: ${vm0} kB before loading, ${vm1} kB after rmmod"
	[ $((vm1 - vm0)) -lt 1024 ] ||
		fail "VmallocUsed grew by $((vm1 - vm0)) kB: the disc was not freed"
	ok "module, SCSI host $host, $sr and the disc's memory are gone"
}

run_profile 0xa cdrw 32
run_profile 0x1a dvdrw 16
check_kernel_log
exit $failed
