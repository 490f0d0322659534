#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of make bench's pktcdvd guest (harness/bench-pktcdvd.sh): write
# and read throughput of the emulated CD-RW (modules/mmc_rw_emu) through
# pktcdvd, through pktublk (its user-space successor on ublk) and straight
# through sr, beside brd, a plain RAM block device,
# in the same guest. Each figure is the best of $RUNS runs of dd with
# O_DIRECT and 1 MiB blocks over $MB MiB, timed with /proc/uptime
# (10 ms resolution, about 1% of the shortest run). Prints "# bench: NAME MB/s" lines in a one-test
# KTAP suite; the host computes the ratios.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
dmesg -n 1
echo "chopblock: userspace reached"
. /lib/chopblock.sh
MB=256
RUNS=3

now() { cut -d' ' -f1 /proc/uptime; }

# bench NAME dd-arguments...: best MB/s of $RUNS runs.
bench() {
	name=$1
	shift
	best=0
	for i in $(seq $RUNS); do
		t0=$(now)
		dd bs=1048576 count=$MB "$@" 2>/tmp/dd.err || { cat /tmp/dd.err; return 1; }
		t1=$(now)
		best=$(awk -v a="$t0" -v b="$t1" -v mb=$MB -v best="$best" \
			'BEGIN { d = b - a; if (d < 0.01) d = 0.01; r = mb / d;
				 printf "%.1f", (r > best ? r : best) }')
	done
	echo "# bench: $name $best"
}

run() {
	insmod /lib/modules/brd.ko rd_nr=1 rd_size=$((MB * 1024 + 1024)) || return 1
	wait_for /dev/ram0 || return 1
	bench brd-write if=/dev/zero of=/dev/ram0 oflag=direct || return 1
	bench brd-read if=/dev/ram0 of=/dev/null iflag=direct || return 1
	rmmod brd

	mre_load profile=0xa size_mb=$((MB + 8)) || return 1
	pktsetup pktcdvd0 "$MRE_SR" || return 1
	wait_for /dev/pktcdvd/pktcdvd0 || return 1
	bench pktcdvd-write if=/dev/zero of=/dev/pktcdvd/pktcdvd0 oflag=direct || return 1
	bench pktcdvd-read if=/dev/pktcdvd/pktcdvd0 of=/dev/null iflag=direct || return 1
	bench sr-read if="$MRE_SR" of=/dev/null iflag=direct || return 1
	pktsetup -d pktcdvd0
	# pktublk, its user-space successor, on the same drive.
	pktublk ublk0 "$MRE_SR" >/dev/null || return 1
	bench pktublk-write if=/dev/zero of=/dev/pktcdvd/ublk0 oflag=direct || return 1
	bench pktublk-read if=/dev/pktcdvd/ublk0 of=/dev/null iflag=direct || return 1
	pktublk -d ublk0 || return 1
	echo "# bench: rejected-writes $(mre_stat writes_rejected)"
	rmmod mmc_rw_emu
}

echo "KTAP version 1"
echo "1..1"
if run; then
	echo "ok 1 bench-pktcdvd"
else
	echo "not ok 1 bench-pktcdvd"
fi
echo "chopblock: tests done"
sync
reboot -f
