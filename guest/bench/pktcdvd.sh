#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of make bench's pktcdvd guest (harness/bench-pktcdvd.sh): write
# and read throughput of the emulated CD-RW (modules/mmc_rw_emu) through
# pktcdvd, through pktublk (its user-space successor on ublk) and straight
# through sr, beside brd, a plain RAM block device, in the same guest.
# Each figure is one run of dd with O_DIRECT and 1 MiB blocks over $MB MiB,
# timed with /proc/uptime (10 ms resolution, about 1% of the shortest
# run). brd and sr run $RUNS times. pktcdvd and pktublk run in $ROUNDS
# rounds, each writing and then reading the disc through both, the first
# one in turn, so that a slower spell of the host weighs on both alike;
# the host takes the ratio of each round and their median. Prints
# "# bench: NAME MB/s" lines in a one-test KTAP suite.
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
ROUNDS=5

now() { cut -d' ' -f1 /proc/uptime; }

# timed NAME dd-arguments...: one run, printed as "# bench: NAME MB/s".
timed() {
	name=$1
	shift
	t0=$(now)
	dd bs=1048576 count=$MB "$@" 2>/tmp/dd.err || { cat /tmp/dd.err; return 1; }
	t1=$(now)
	awk -v a="$t0" -v b="$t1" -v mb=$MB -v n="$name" \
		'BEGIN { d = b - a; if (d < 0.01) d = 0.01; printf "# bench: %s %.1f\n", n, mb / d }'
}

# runs NAME dd-arguments...: $RUNS runs, NAME-1 to NAME-$RUNS.
runs() {
	what=$1
	shift
	for i in $(seq $RUNS); do
		timed "$what-$i" "$@" || return 1
	done
}

# through WRITER ROUND: write and read the disc through pktcdvd or pktublk.
through() {
	case $1 in
	pktcdvd)
		pktsetup pktcdvd0 "$MRE_SR" || return 1
		wait_for /dev/pktcdvd/pktcdvd0 || return 1
		dev=/dev/pktcdvd/pktcdvd0 ;;
	pktublk)
		pktublk ublk0 "$MRE_SR" >/dev/null || return 1
		dev=/dev/pktcdvd/ublk0 ;;
	esac
	timed "$1-write-$2" if=/dev/zero of=$dev oflag=direct || return 1
	timed "$1-read-$2" if=$dev of=/dev/null iflag=direct || return 1
	case $1 in
	pktcdvd) pktsetup -d pktcdvd0 ;;
	pktublk) pktublk -d ublk0 ;;
	esac
}

run() {
	echo "# bench: cpus $(grep -c ^processor /proc/cpuinfo)"
	insmod /lib/modules/brd.ko rd_nr=1 rd_size=$((MB * 1024 + 1024)) || return 1
	wait_for /dev/ram0 || return 1
	runs brd-write if=/dev/zero of=/dev/ram0 oflag=direct || return 1
	runs brd-read if=/dev/ram0 of=/dev/null iflag=direct || return 1
	rmmod brd

	mre_load profile=0xa size_mb=$((MB + 8)) || return 1
	runs sr-read if="$MRE_SR" of=/dev/null iflag=direct || return 1
	for r in $(seq $ROUNDS); do
		if [ $((r % 2)) = 1 ]; then
			through pktcdvd "$r" && through pktublk "$r" || return 1
		else
			through pktublk "$r" && through pktcdvd "$r" || return 1
		fi
	done
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
