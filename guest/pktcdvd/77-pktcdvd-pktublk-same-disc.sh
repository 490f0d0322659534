#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-timeout: 240
# chopblock-arch: x86_64 (the module is built for the x86_64 kernel; udftools, pktublk)
#
# Differential: pktcdvd and pktublk, its successor, leave the same disc.
# On the kernel before the series removes pktcdvd, for a CD-RW and a
# DVD+RW: one deterministic block workload (single frames, partial
# packets, writes across two and three packet boundaries, an overwrite,
# unaligned buffered writes, O_DIRECT and page cache) goes once through
# /dev/pktcdvd/NAME of pktcdvd and once through pktublk's, each on a
# freshly loaded drive. After teardown the first 4 MiB of the sr device
# must be byte-identical, and different from the blank disc (a workload
# that reached neither would compare equal too). The drive must have
# rejected no write in either run.
. /lib/chopblock.sh
soft_checks

NAME=diff0
PKT=/dev/pktcdvd/$NAME
PAT=/tmp/pattern

pktublk_needs pktsetup md5sum seq
needs_patch "^pktcdvd: put each bio's data at its own frames" "pktcdvd frame placement fix"
needs_patch "^pktcdvd: split a write bio at every packet boundary" "pktcdvd bio split fix"
[ -d /sys/class/pktcdvd ] || skip "this kernel has no pktcdvd"

cleanup() {
	[ -e "/sys/class/pktcdvd/$NAME" ] && pktsetup -d $NAME
	pktublk_teardown $NAME
}
trap cleanup EXIT

# Distinct bytes at every offset, the same in every run: a misplaced
# frame shows.
seq 1 600000 >$PAT

# put FRAME FRAMES SOURCE-FRAME: FRAMES 2 KiB frames from the pattern at
# FRAME, with O_DIRECT.
put() {
	dd if=$PAT of=$PKT bs=2048 seek="$1" count="$2" skip="$3" \
		oflag=direct conv=notrunc 2>/dev/null
}

# bytes OFFSET LENGTH SOURCE: LENGTH bytes at byte OFFSET through the page
# cache, neither end on a frame boundary.
bytes() {
	dd if=$PAT of=$PKT bs=1 seek="$1" count="$2" skip="$3" \
		conv=notrunc 2>/dev/null
}

workload() {
	put 5 1 0 &&			# one frame inside the first packet
	put 30 3 7 &&			# across the first packet boundary
	put 64 32 40 &&			# a whole packet on the boundary (CD-RW)
	put 100 70 90 &&		# across two or more boundaries
	put 5 1 300 &&			# overwrite the first frame
	put 1000 96 400 &&		# three CD-RW packets, six DVD packets
	bytes $((2048 * 300 + 100)) 5000 1234567 &&
	bytes $((2048 * 1200 - 7)) 3000 2345678 &&
	sync
}

disc_md5() {
	echo 3 >/proc/sys/vm/drop_caches
	head -c 4194304 "$MRE_SR" | md5sum | cut -d' ' -f1
}

# one_run WRITER PROFILE: the workload through WRITER (pktcdvd or pktublk)
# on a fresh drive; sets BLANK and DISC to the md5 of the disc before and
# after.
one_run() {
	writer=$1
	BLANK= DISC=
	mre_load profile="$2" size_mb=32 || {
		fail "$writer: mmc_rw_emu did not load"
		return 1
	}
	BLANK=$(disc_md5)
	r0=$(mre_stat writes_rejected)
	case $writer in
	pktcdvd) pktsetup $NAME "$MRE_SR" && wait_for $PKT 5 ;;
	pktublk) pktublk $NAME "$MRE_SR" >/dev/null ;;
	esac || {
		fail "$writer: setting up $NAME on $MRE_SR failed"
		rmmod mmc_rw_emu
		return 1
	}
	if workload; then
		ok "$writer: the workload ran through $PKT"
	else
		fail "$writer: a write of the workload failed"
	fi
	case $writer in
	pktcdvd) pktsetup -d $NAME ;;
	pktublk) pktublk -d $NAME ;;
	esac || fail "$writer: tearing $NAME down failed"
	DISC=$(disc_md5)
	r=$(($(mre_stat writes_rejected) - r0))
	[ "$r" -eq 0 ] && ok "$writer: the drive rejected no write" ||
		fail "$writer: the drive rejected $r writes"
	rmmod mmc_rw_emu || fail "$writer: rmmod mmc_rw_emu"
}

for p in 0xa:cdrw 0x1a:dvd+rw; do
	profile=${p%%:*} media=${p#*:}
	echo "== $media (profile $profile)"
	one_run pktcdvd "$profile" || continue
	blank1=$BLANK disc1=$DISC
	one_run pktublk "$profile" || continue
	echo "$media: blank $blank1 / $BLANK; pktcdvd $disc1, pktublk $DISC"
	[ "$blank1" = "$BLANK" ] ||
		fail "$media: the two fresh discs differ: the comparison means nothing"
	[ "$disc1" != "$blank1" ] ||
		fail "$media: pktcdvd's run left the disc blank"
	[ "$disc1" = "$DISC" ] && ok "$media: pktcdvd and pktublk left identical discs" ||
		fail "$media: the discs differ (pktcdvd $disc1, pktublk $DISC)"
done
check_kernel_log
