#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/boot.sh [OPTIONS] KERNEL
#
# Boot a built kernel (a name of configs/kernels.list or its directory,
# build/kernels/NAME) in QEMU with its guest initramfs (harness/initramfs.sh).
# The machine, console and devices come from configs/arches.list (x86_64:
# QEMU's pc with a scratch disk, a CD drive and an OHCI controller with a
# USB keyboard). The guest runs its KTAP tests and reboots, which
# -no-reboot turns into QEMU exiting; a board that cannot reset is stopped
# once the guest is done. KVM is used only when a probe proves it runs
# guest code; otherwise TCG. A hard timeout kills a hung guest.
# Prints the KTAP verdict; the last line is "N passed, N failed". Writes
# LOGS/console.log, LOGS/ktap-result.txt and LOGS/boot (key=value: accel,
# userspace seconds, verdict).
#
#   --guest DIR    the initramfs directory (default KERNEL/guest)
#   --logs DIR     where the console and results go (default KERNEL/logs)
#   --timeout S    the hard timeout in seconds (default: 120 s to boot and
#                  shut down, plus every guest test's own timeout)
#   --accel A      kvm or tcg instead of probing
#   --append ARGS  more kernel command line (kmemleak=on)
#   --smp N        virtual CPUs (default 1; make bench's pktcdvd guest
#                  uses the host's two cores)
#   --help         this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"

guest= logs= timeout= accel= kdir= append= smp=1
while [ $# -gt 0 ]; do
	case $1 in
	--guest) guest=${2:?--guest needs a directory}; shift ;;
	--logs) logs=${2:?--logs needs a directory}; shift ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift ;;
	--accel) accel=${2:?--accel needs kvm or tcg}; shift ;;
	--append) append=${2:?--append needs arguments}; shift ;;
	--smp) smp=${2:?--smp needs a number of CPUs}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "boot.sh: unknown option $1 (see --help)" ;;
	*) [ -z "$kdir" ] || die "boot.sh: one kernel, not '$kdir' and '$1'"; kdir=$(kernel_dir "$1") ;;
	esac
	shift
done
[ -n "$kdir" ] || die "boot.sh: which kernel? (see --help)"
case $accel in "" | kvm | tcg) ;; *) die "boot.sh: --accel is kvm or tcg, not '$accel'" ;; esac
case $smp in [1-9] | [1-9][0-9]) ;; *) die "boot.sh: --smp is a number of CPUs (1-99), not '$smp'" ;; esac
[ "$(manifest "$kdir" result)" = ok ] || die "the kernel in $kdir did not build; nothing to boot"
ARCH=$(manifest "$kdir" arch)
KERNEL=$(manifest "$kdir" image)
guest=${guest:-$kdir/guest}
logs=${logs:-$kdir/logs}
CONSOLE=$logs/console.log
KVM_GRACE=20

qemu_bin=$(arch_fact "$ARCH" qemu)
[ "$qemu_bin" != - ] || die "cannot boot ARCH=$ARCH (configs/arches.list has no QEMU for it)"
command -v "$qemu_bin" >/dev/null || die "$qemu_bin is missing (install $(arch_fact "$ARCH" packages | tr ',' '\n' | grep qemu))"
[ -f "$KERNEL" ] || die "no kernel image at $KERNEL (run harness/build.sh)"
[ -f "$guest/initramfs.cpio.gz" ] || die "no initramfs in $guest (run harness/initramfs.sh)"
mkdir -p "$logs"
rm -f "$logs/boot" "$logs/ktap-result.txt"

# A hung test is guest/init's to report (its per-test timeouts): the hard
# timeout leaves room for every test to use up its own.
if [ -z "$timeout" ]; then
	timeout=120
	for t in "$guest"/root/tests/*; do
		[ -e "$t" ] || continue
		s=$(awk -v t="${t##*/}" '$1 == t { print $2 }' "$guest/root/etc/chopblock/timeouts" 2>/dev/null)
		timeout=$((timeout + ${s:-60}))
	done
fi

# /dev/kvm can exist and even open while KVM cannot run a guest (nested
# virtualization switched off, for instance). Ask SeaBIOS: it prints
# "Running on KVM" on its debug port only once guest code really ran. The
# probe takes the CPU model the boots take (-cpu host): some hosts' KVM
# refuses that model's MSRs while it runs QEMU's default one.
probe_kvm() {
	local out=$logs/kvm-probe.log

	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	rm -f "$out"
	# In a subshell: an aborting QEMU is then an exit status, not a
	# job-control "Aborted" message on our standard error.
	(timeout 5 qemu-system-x86_64 -accel kvm -cpu host -M pc -m 64 -display none \
		-nodefaults -no-user-config -chardev file,id=dbg,path="$out" \
		-device isa-debugcon,iobase=0x402,chardev=dbg; :) >/dev/null 2>&1 &
	local pid=$! i
	for i in $(seq 50); do
		grep -q '^Running on KVM' "$out" 2>/dev/null && break
		sleep 0.1
	done
	pkill -TERM -P "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	grep -q '^Running on KVM' "$out" 2>/dev/null
}

# The verdict holds until the machine reboots: probing costs 5 s a boot
# where KVM does not work, and a kernel that KVM cannot run costs
# KVM_GRACE seconds more.
KVM_VERDICT=$MACHINE_CACHE/kvm
boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
remember_kvm() { # VERDICT
	mkdir -p "$MACHINE_CACHE" 2>/dev/null &&
		echo "$boot_id $1" >"$KVM_VERDICT.$$" 2>/dev/null &&
		mv -f "$KVM_VERDICT.$$" "$KVM_VERDICT" 2>/dev/null
	return 0
}
kvm_works() {
	local id= verdict=
	{ read -r id verdict <"$KVM_VERDICT"; } 2>/dev/null
	if [ -n "$boot_id" ] && [ "$id" = "$boot_id" ]; then
		[ "$verdict" = kvm ]
		return
	fi
	if probe_kvm; then remember_kvm kvm; else remember_kvm tcg; return 1; fi
}

if [ -z "$accel" ]; then
	if [ "$(arch_fact "$ARCH" kvm)" = yes ] && kvm_works; then accel=kvm; else accel=tcg; fi
fi

# QEMU's arguments for this architecture, from configs/arches.list, one a
# line.
machine_args() {
	local accel=$1 disk=$2 a
	local cpu mem console extra
	cpu=$(arch_fact "$ARCH" cpu) mem=$(arch_fact "$ARCH" mem)
	console=$(arch_fact "$ARCH" console) extra=$(arch_fact "$ARCH" args)
	[ "$accel" != kvm ] || cpu=host
	[ "$cpu" = - ] || printf '%s\n' -cpu "$cpu"
	[ "$mem" = - ] || printf '%s\n' -m "$mem"
	printf '%s\n' -M "$(arch_fact "$ARCH" machine)"
	printf '%s\n' -append "console=$console panic=-1 rdinit=/init${append:+ $append}"
	for a in $extra; do
		a=${a//\{disk\}/$disk}
		a=${a//\{dtb\}/$guest/machine.dtb}
		printf '%s\n' "${a//\{cd\}/$guest/cd.img}"
	done
	printf '%s\n' -serial "file:$CONSOLE"
}

# The compatible strings of the drivers the series touched that this
# kernel compiled (its tree's diff against the baseline, the sources its
# .o.cmd files name): one device-tree node each makes their probe paths
# run at boot as far as they can without the hardware.
touched_compatibles() {
	local tree kbuild f
	tree=$(manifest "$kdir" tree) kbuild=$(manifest "$kdir" kbuild)
	git -C "$tree" diff --name-only "$BASELINE_TAG" HEAD -- '*.c' 2>/dev/null |
	while IFS= read -r f; do
		[ -f "$kbuild/$(dirname "$f")/.$(basename "${f%.c}").o.cmd" ] || continue
		# Most files have none: no match must not end the loop (errexit).
		grep -o 'compatible *= *"[^"]*"' "$tree/$f" | sed 's/.*"\(.*\)"/\1/' || true
	done | LC_ALL=C sort -u
}

# An architecture whose QEMU arguments name {dtb} boots with QEMU's own
# device tree (-machine dumpdtb) plus a node for each compatible of
# touched_compatibles: guest/machine.dtb, its source machine.dts beside it.
make_dtb() {
	local disk=$1 a dargs=() skip=0 n=0 c
	command -v dtc >/dev/null || die "dtc is missing (install device-tree-compiler)"
	# QEMU refuses -append without -kernel, and the tree it dumps must be
	# its own, not the one being made.
	while IFS= read -r a; do
		if [ "$skip" -eq 1 ]; then skip=0; continue; fi
		case $a in -dtb | -append) skip=1; continue ;; esac
		dargs+=("$a")
	done < <(machine_args tcg "$disk")
	"$qemu_bin" -accel tcg -nodefaults -no-user-config -display none \
		"${dargs[@]}" -machine dumpdtb="$guest/qemu.dtb" >"$logs/dumpdtb.log" 2>&1 ||
		{ tail_log "$logs/dumpdtb.log"; die "QEMU did not dump its device tree"; }
	{
		dtc -q -I dtb -O dts "$guest/qemu.dtb" || die "dtc cannot read QEMU's device tree"
		echo
		echo "/* chopblock: the touched drivers this kernel compiled */"
		echo "/ {"
		while IFS= read -r c; do
			echo "	chopblock-$n { compatible = \"$c\"; };"
			n=$((n + 1))
		done < <(touched_compatibles)
		echo "};"
	} >"$guest/machine.dts"
	dtc -q -I dts -O dtb -o "$guest/machine.dtb" "$guest/machine.dts" ||
		die "dtc cannot compile $guest/machine.dts"
	info "boot: device tree with $(grep -c '^	chopblock-' "$guest/machine.dts") node(s) for touched drivers ($guest/machine.dts)"
}

elapsed() { printf %.2f "$(echo "$(date +%s.%N) - $1" | bc)"; }

# One boot. Sets rc (QEMU's exit status, 137 when the timeout killed it)
# and userspace (seconds from QEMU's start to the guest's first line of
# userspace output). Returns 2 when KVM failed to run the kernel.
boot_once() {
	local accel=$1 disk=$guest/disk.img start qemu done_at= args

	rm -f "$disk" "$CONSOLE"
	: >"$CONSOLE"
	truncate -s 64M "$disk"
	mapfile -t args < <(machine_args "$accel" "$disk")
	info "boot: QEMU $ARCH ($accel), timeout ${timeout}s, console in $CONSOLE"
	start=$(date +%s.%N)
	timeout -s KILL "$timeout" "$qemu_bin" \
		-accel "$accel" -smp "$smp" \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$KERNEL" -initrd "$guest/initramfs.cpio.gz" \
		"${args[@]}" \
		>"$logs/qemu.log" 2>&1 &
	qemu=$!

	userspace=""
	while kill -0 "$qemu" 2>/dev/null; do
		if [ -z "$userspace" ] && grep -q '^chopblock: userspace reached' "$CONSOLE"; then
			userspace=$(elapsed "$start")
			info "boot: userspace reached after ${userspace}s"
		fi
		# A nested KVM can run firmware yet fail or stall on the
		# kernel's first unusual instruction (seen here: an emulation
		# failure on cmpxchg16b). Under working KVM userspace comes in
		# a second or two; past KVM_GRACE seconds, KVM is declared
		# broken and the caller retries with TCG.
		if [ "$accel" = kvm ] && [ -z "$userspace" ] &&
		   { grep -q 'KVM internal error' "$logs/qemu.log" ||
		     [ "$(echo "$(date +%s.%N) - $start > $KVM_GRACE" | bc)" = 1 ]; }; then
			kill -TERM "$qemu" 2>/dev/null
			wait "$qemu" 2>/dev/null
			return 2
		fi
		# A board that cannot reset itself (r2d) stays up after the
		# guest is done: stop it once the kernel log is out.
		if [ -z "$done_at" ] && grep -q '^chopblock: tests done' "$CONSOLE"; then
			done_at=$SECONDS
		elif [ -n "$done_at" ] && [ $((SECONDS - done_at)) -ge 10 ]; then
			info "boot: the guest finished but did not reset; stopping QEMU"
			kill -TERM "$qemu" 2>/dev/null
			wait "$qemu" 2>/dev/null
			rc=0
			return 0
		fi
		sleep 0.1
	done
	rc=0
	wait "$qemu" || rc=$?
	if [ -z "$userspace" ] && grep -q '^chopblock: userspace reached' "$CONSOLE"; then
		userspace=$(elapsed "$start")
	fi
	# KVM can also fail in QEMU itself, which then aborts before the
	# kernel ran (seen here: "failed to set MSR 0x10a" for -cpu host, an
	# assertion and exit status 134): that too is KVM not working.
	if [ "$accel" = kvm ] && [ -z "$userspace" ] && [ "$rc" -ne 0 ] && [ "$rc" -ne 137 ] &&
	   [ ! -s "$CONSOLE" ]; then
		return 2
	fi
	return 0
}

case " $(arch_fact "$ARCH" args) " in *"{dtb}"*) make_dtb "$guest/disk.img" ;; esac
if ! boot_once "$accel"; then
	info "boot: KVM did not run the kernel to userspace (QEMU: $(grep -m1 -E 'error|Assertion' "$logs/qemu.log" || echo "nothing in ${KVM_GRACE}s")); using TCG"
	remember_kvm tcg
	accel=tcg
	boot_once "$accel"
fi

record() { # VERDICT
	printf 'accel=%s\nuserspace=%s\nresult=%s\n' "$accel" "${userspace:-none}" "$1" >"$logs/boot"
}
if [ "$rc" -eq 137 ]; then
	record "hung"
	tail_log "$CONSOLE" 20
	die "guest hung: killed after ${timeout}s (console: $CONSOLE)"
elif [ "$rc" -ne 0 ]; then
	record "QEMU exit status $rc"
	tail_log "$logs/qemu.log" 10
	tail_log "$CONSOLE" 20
	die "QEMU exited with status $rc (log: $logs/qemu.log)"
fi

set +e
tr -d '\r' <"$CONSOLE" | awk -f "$(dirname "$0")/ktap.awk" | tee "$logs/ktap-result.txt"
rc=${PIPESTATUS[1]}
set -e
record "$(tail -n 1 "$logs/ktap-result.txt")"
if [ "$rc" -ne 0 ]; then
	echo "---- guest test output (full console: $CONSOLE) ----" >&2
	tr -d '\r' <"$CONSOLE" | sed -n '/^KTAP version 1$/,/^chopblock: tests done$/p' | tail -n 40 >&2
	[ -n "$userspace" ] || tail_log "$CONSOLE" 20
	exit 1
fi
