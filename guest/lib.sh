# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests; installed as /lib/chopblock.sh in the guest. The
# checks (fail, ok, skip, soft_checks) are the KTAP library's, harness/ktap.sh,
# installed as /lib/ktap.sh.
. /lib/ktap.sh

# The series' deprecation warnings, exactly as the kernel prints them:
# pkt_setup_dev() behind pktcdvd's "pktcdvd: " pr_fmt, and jfs_fill_super()
# with the device's name for the %s.
PKTCDVD_DEPRECATION='pktcdvd: deprecated, and removed upstream in Linux 6.17: pktublk, a packet writer in user space on ublk, replaces it; please report remaining use to linux-block@vger.kernel.org'
JFS_DEPRECATION='JFS (%s): JFS is deprecated and will be removed from the kernel in the first release of 2028; please report any remaining use to jfs-discussion@lists.sourceforge.net'

# Skip, saying why, on a kernel built without the patch that adds what the
# test checks (the pristine baseline of an empty series, for instance):
# $1 matches the patch's subject, $2 names it.
needs_patch() {
	grep -q "$1" /etc/chopblock/series 2>/dev/null ||
		skip "this kernel does not carry the $2 patch"
}

# The kernel log must hold no Oops, BUG, WARNING or panic, and the kernel
# must not be tainted.
check_kernel_log() {
	bad=$(dmesg | grep -E 'Oops|BUG:|WARNING:|Kernel panic|general protection|Call Trace' | head -n 5)
	[ -z "$bad" ] || fail "kernel log: $bad"
	taint=$(cat /proc/sys/kernel/tainted)
	# Bit 12 (O): an out-of-tree module was loaded. The only ones in the
	# guest are the test modules of modules/ (mmc_rw_emu); any other
	# taint still fails.
	if [ $((taint & 4096)) -ne 0 ]; then
		echo "tainted O (4096): out-of-tree test module loaded: $(ls /lib/modules 2>/dev/null | tr '\n' ' ')"
		taint=$((taint & ~4096))
	fi
	# Bit 2 (S): ips_module_init() taints on purpose on any architecture
	# but x86, saying so in the log; the arm64 coverage kernel builds ips
	# in because the series changes that very message. Only that line
	# excuses the bit.
	ips_untested='ips: This driver has only been tested on the x86/x86_64 platforms'
	if [ $((taint & 4)) -ne 0 ] && dmesg | grep -q -F "$ips_untested"; then
		echo "tainted S (4) by ips on purpose: '$ips_untested'"
		taint=$((taint & ~4))
	fi
	[ "$taint" = 0 ] || fail "kernel is tainted ($taint)"
	echo "kernel log clean, not tainted"
}
# Wait up to $2 seconds (default 10) for a path to exist.
wait_for() {
	i=0
	while [ ! -e "$1" ]; do
		i=$((i + 1))
		[ $i -le $((${2:-10} * 10)) ] || return 1
		sleep 0.1
	done
}

# The emulated rewritable drive (modules/mmc_rw_emu), for the pktcdvd
# tests and the bench: load it with the given parameters and set MRE_SR to
# its /dev/srN once the sr driver has attached it.
MRE_KO=/lib/modules/mmc_rw_emu.ko
MRE_STATS=/sys/kernel/debug/mmc_rw_emu/stats
mre_load() {
	MRE_SR=""
	insmod "$MRE_KO" "$@" || return 1
	i=0
	while [ $i -lt 100 ]; do
		for b in /sys/devices/mmc_rw_emu/host*/target*/*/block/*; do
			[ -e "$b" ] && MRE_SR=/dev/${b##*/}
		done
		[ -n "$MRE_SR" ] && [ -b "$MRE_SR" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# One counter of the emulated drive.
mre_stat() {
	awk -v k="$1" '$1 == k { print $2 }' "$MRE_STATS"
}

# The start of every pktublk test: the emulated drive, pktublk and the
# other tools named must be in the guest, the kernel must have ublk, and
# the drive must not be loaded yet (a test before this one left it).
pktublk_needs() {
	[ -f "$MRE_KO" ] || skip "$MRE_KO is not in the initramfs"
	for tool in pktublk "$@"; do
		command -v "$tool" >/dev/null 2>&1 || skip "$tool not in PATH"
	done
	[ -e /dev/ublk-control ] || skip "no /dev/ublk-control: kernel without CONFIG_BLK_DEV_UBLK"
	if [ -d /sys/module/mmc_rw_emu ]; then
		fail "mmc_rw_emu is loaded already"
		exit 1
	fi
}

# pktublk_teardown NAME: what a pktublk test leaves at exit: the device
# NAME torn down, the emulated drive unloaded.
pktublk_teardown() {
	[ -e "/run/pktublk/$1.state" ] && pktublk -d "$1"
	[ -d /sys/module/mmc_rw_emu ] && rmmod mmc_rw_emu
}

# check_files DIR WHAT: each of the files f1..f4 the UDF tests wrote has the
# checksum recorded in /tmp/udf-F.md5 when it was written.
check_files() {
	for f in f1 f2 f3 f4; do
		got=$(md5sum <"$1/$f" 2>/dev/null | cut -d' ' -f1)
		want=$(cat /tmp/udf-$f.md5)
		if [ "$got" = "$want" ]; then
			ok "$2: $f ($(wc -c <"$1/$f") bytes) checksum equal"
		else
			fail "$2: $f checksum ${got:-unreadable}, expected $want"
		fi
	done
}
