# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests; installed as /lib/chopblock.sh in the guest. The
# checks (fail, ok, skip, soft_checks) are the KTAP library's, harness/ktap.sh,
# installed as /lib/ktap.sh.
. /lib/ktap.sh

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
