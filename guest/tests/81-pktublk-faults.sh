#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 300
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; pktublk)
#
# pktublk when the drive fails (the emulator's debugfs mmc_rw_emu/faults),
# on a CD-RW and on a DVD+RW:
#  - a medium error on a whole-packet write and on a gathered partial
#    one: the writer gets EIO, and neither the disc nor a read through
#    the device shows the data the drive did not take; the same for
#    the first packet of a run of four, which the daemon's drive thread
#    writes (-p on) while it copies the next ones;
#  - a unit attention: the command is sent again and the write succeeds;
#  - a write slower than the daemon's timeout (-t 7: SG_IO raises any
#    timeout to at least 7 s, BLK_MIN_SG_TIMEOUT): the SCSI layer
#    aborts it before the drive ran it, the writer gets EIO, the data is
#    nowhere, and the daemon and the drive go on serving.
. /lib/chopblock.sh
soft_checks

NAME=flt0
PKT=/dev/pktcdvd/$NAME
FAULTS=/sys/kernel/debug/mmc_rw_emu/faults
P=				# frames a packet, set per disc below
PB=				# bytes a packet
M=				# the disc, for the messages

pktublk_needs

trap 'pktublk_teardown $NAME' EXIT

# pattern CHAR BYTES: a file of one repeated character.
pattern() {
	head -c "$2" /dev/zero | tr '\0' "$1" >/tmp/pat.$1
}

# sum DEV BYTES_OFFSET BYTES
sum() {
	dd if="$1" bs=2048 skip=$(($2 / 2048)) count=$(($3 / 2048)) \
		iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1
}

# not_there WHAT CHAR OFFSET BYTES: the data is neither on the disc nor
# read through the device.
not_there() {
	want=$(md5sum </tmp/pat.$2 | cut -d' ' -f1)
	[ "$(sum "$MRE_SR" "$3" "$4")" != "$want" ] &&
		[ "$(sum $PKT "$3" "$4")" != "$want" ] &&
		ok "$M: $1: the data is not on the disc nor read through $PKT" ||
		fail "$M: $1: the data the drive refused is there"
}

is_there() {
	want=$(md5sum </tmp/pat.$2 | cut -d' ' -f1)
	[ "$(sum "$MRE_SR" "$3" "$4")" = "$want" ] &&
		[ "$(sum $PKT "$3" "$4")" = "$want" ] &&
		ok "$M: $1: the data is on the disc and read through $PKT" ||
		fail "$M: $1: the data is not on the disc"
}

# writer_got_eio WHAT: the failed dd of WHAT ended with EIO (strerror's
# "Input/output error" in its message), not with another error.
writer_got_eio() {
	if grep -q 'Input/output error' /tmp/dd.err; then
		ok "$M: $1: the writer got EIO ($(grep -m1 'Input/output error' /tmp/dd.err))"
	else
		fail "$M: $1 failed, but not with EIO: $(tr '\n' ' ' </tmp/dd.err)"
	fi
}

# faults_once PROFILE MEDIA FRAMES: every fault on one kind of disc.
faults_once() {
	M=$2 P=$3
	PB=$((P * 2048))
	echo "== $M, packets of $P frames"
	mre_load profile="$1" packet_blocks=$P size_mb=8 || { fail "$M: mmc_rw_emu did not load"; return; }
	[ -e $FAULTS ] || { fail "$M: the emulator has no $FAULTS"; rmmod mmc_rw_emu; return; }
	if out=$(pktublk -t 7 -p on $NAME "$MRE_SR" 2>&1); then
		ok "$M: pktublk -t 7 -p on $NAME $MRE_SR: $out"
	else
		fail "$M: pktublk $NAME $MRE_SR: $out"
		rmmod mmc_rw_emu
		return
	fi

	# A medium error on a whole packet.
	pattern A $PB
	f0=$(mre_stat writes_failed)
	echo "write_error 1" >$FAULTS
	if dd if=/tmp/pat.A of=$PKT bs=$PB seek=4 count=1 oflag=direct conv=notrunc 2>/tmp/dd.err; then
		fail "$M: a whole-packet write with a medium error succeeded"
	else
		writer_got_eio "a whole-packet write with a medium error"
	fi
	[ $(($(mre_stat writes_failed) - f0)) -eq 1 ] || fail "$M: the drive failed $(($(mre_stat writes_failed) - f0)) writes, not 1"
	not_there "medium error, whole packet" A $((4 * PB)) $PB

	# A medium error on the first packet of a run of four, which the
	# drive thread writes (-p on) while the others are being copied.
	pattern F $((4 * PB))
	f0=$(mre_stat writes_failed)
	echo "write_error 1" >$FAULTS
	if dd if=/tmp/pat.F of=$PKT bs=$((4 * PB)) seek=3 count=1 oflag=direct conv=notrunc 2>/tmp/dd.err; then
		fail "$M: a run of four packets with a medium error succeeded"
	else
		writer_got_eio "a run of four packets with a medium error"
	fi
	[ $(($(mre_stat writes_failed) - f0)) -eq 1 ] || fail "$M: the drive failed $(($(mre_stat writes_failed) - f0)) writes, not 1"
	head -c $PB /tmp/pat.F >/tmp/pat.G
	not_there "medium error, first packet of a run" G $((12 * PB)) $PB

	# A medium error on a gathered partial packet (read-modify-write).
	pattern B 2048
	echo "write_error 1" >$FAULTS
	if dd if=/tmp/pat.B of=$PKT bs=2048 seek=$((5 * P + 3)) count=1 oflag=direct conv=notrunc 2>/tmp/dd.err; then
		fail "$M: a one-frame write with a medium error succeeded"
	else
		writer_got_eio "a one-frame write with a medium error"
	fi
	not_there "medium error, one frame" B $(((5 * P + 3) * 2048)) 2048

	# A unit attention: sent again.
	pattern C $PB
	echo unit_attention >$FAULTS
	if dd if=/tmp/pat.C of=$PKT bs=$PB seek=6 count=1 oflag=direct conv=notrunc 2>/tmp/dd.err; then
		ok "$M: a write after a unit attention succeeded"
	else
		fail "$M: a write after a unit attention: $(tail -n 1 /tmp/dd.err)"
	fi
	is_there "unit attention" C $((6 * PB)) $PB

	# Slower than the timeout.
	pattern D $PB
	echo "delay 12000 1" >$FAULTS
	t0=$(date +%s)
	if dd if=/tmp/pat.D of=$PKT bs=$PB seek=7 count=1 oflag=direct conv=notrunc 2>/tmp/dd.err; then
		fail "$M: a write slower than the timeout succeeded after $(($(date +%s) - t0)) s"
	else
		writer_got_eio "a write slower than the timeout (after $(($(date +%s) - t0)) s)"
	fi
	not_there "slower than the timeout (aborted before the drive ran it)" D $((7 * PB)) $PB
	pattern E $PB
	if dd if=/tmp/pat.E of=$PKT bs=$PB seek=8 count=1 oflag=direct conv=notrunc 2>/tmp/dd.err; then
		ok "$M: the next write succeeded"
	else
		fail "$M: the next write after a timeout: $(tail -n 1 /tmp/dd.err)"
	fi
	is_there "after a timeout" E $((8 * PB)) $PB
	[ "$(mre_stat writes_rejected)" = 0 ] || fail "$M: the drive rejected $(mre_stat writes_rejected) writes"
	cat $FAULTS
	tail -n 12 /run/pktublk/$NAME.log

	if out=$(pktublk -d $NAME 2>&1); then
		ok "$M: pktublk -d $NAME"
	else
		fail "$M: pktublk -d $NAME: $out"
	fi
	[ "$(mre_stat door_locked)" = 0 ] || fail "$M: door still locked"
	rmmod mmc_rw_emu || fail "$M: rmmod mmc_rw_emu"
}

faults_once 0xa CD-RW 32
faults_once 0x1a DVD+RW 16
check_kernel_log
exit $failed
