#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the built kernel in QEMU with the guest initramfs; the guest runs its
# KTAP tests and reboots, which -no-reboot turns into QEMU exiting. On
# x86_64 (QEMU's pc) the guest also gets a scratch disk, a CD drive and an
# OHCI controller with a USB keyboard; arm64 boots QEMU's virt machine.
# KVM is used only when a probe proves it runs guest code; otherwise TCG.
# A hard timeout kills a hung guest. Prints the KTAP verdict; the last line
# is "N passed, N failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-x86_64}
case $ARCH in
x86_64) image=arch/x86/boot/bzImage qemu_bin=qemu-system-x86_64 qemu_pkg=qemu-system-x86 ;;
arm64) image=arch/arm64/boot/Image qemu_bin=qemu-system-aarch64 qemu_pkg=qemu-system-arm ;;
sh) image=arch/sh/boot/zImage qemu_bin=qemu-system-sh4 qemu_pkg=qemu-system-misc ;;
*) die "cannot boot ARCH=$ARCH (x86_64, arm64 or sh)" ;;
esac
KERNEL=${CHOPBLOCK_KERNEL:-$KBUILD_DIR/$image}
GUEST_OUT=${CHOPBLOCK_GUEST:-$BUILD_DIR/guest}
TIMEOUT=${CHOPBLOCK_BOOT_TIMEOUT:-300}
KVM_GRACE=${CHOPBLOCK_KVM_GRACE:-20}
CONSOLE=$LOG_DIR/console.log

command -v $qemu_bin >/dev/null || die "$qemu_bin is missing (install $qemu_pkg)"
[ -f "$KERNEL" ] || die "no kernel image at $KERNEL (run harness/build.sh)"
[ -f "$GUEST_OUT/initramfs.cpio.gz" ] || die "no initramfs in $GUEST_OUT (run harness/initramfs.sh)"
mkdir -p "$LOG_DIR"

# /dev/kvm can exist and even open while KVM cannot run a guest (nested
# virtualization switched off, for instance). Ask SeaBIOS: it prints
# "Running on KVM" on its debug port only once guest code really ran.
probe_kvm() {
	local out=$LOG_DIR/kvm-probe.log

	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	rm -f "$out"
	timeout 5 qemu-system-x86_64 -accel kvm -M pc -m 64 -display none \
		-nodefaults -no-user-config -chardev file,id=dbg,path="$out" \
		-device isa-debugcon,iobase=0x402,chardev=dbg >/dev/null 2>&1 &
	local pid=$! i
	for i in $(seq 50); do
		grep -q '^Running on KVM' "$out" 2>/dev/null && break
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	grep -q '^Running on KVM' "$out" 2>/dev/null
}

accel=${CHOPBLOCK_ACCEL:-}
# KVM runs only a guest of the host's own architecture.
[ "$ARCH" = x86_64 ] || [ -n "$accel" ] || accel=tcg
if [ -z "$accel" ]; then
	if probe_kvm; then accel=kvm; else accel=tcg; fi
fi
# One boot. Sets rc (QEMU's exit status, 137 when the timeout killed it)
# and userspace (seconds from QEMU's start to the guest's first line of
# userspace output). Returns 2 when KVM failed to run the kernel.
boot_once() {
	local accel=$1 disk=$GUEST_OUT/disk.img start qemu machine done_at=
	local cpu=(-cpu max -m 512)

	[ "$accel" = kvm ] && cpu=(-cpu host -m 512)
	rm -f "$disk" "$CONSOLE"
	: >"$CONSOLE"
	case $ARCH in
	x86_64)
		truncate -s 64M "$disk"
		machine=(-M pc -append "console=ttyS0 panic=-1 rdinit=/init"
			-drive "file=$disk,format=raw,if=ide,index=0"
			-drive "file=$GUEST_OUT/cd.img,format=raw,if=ide,index=2,media=cdrom,readonly=on"
			-device pci-ohci,id=ohci -device usb-kbd,bus=ohci.0
			-serial "file:$CONSOLE") ;;
	arm64)
		cpu=(-cpu cortex-a57 -m 512)
		# A virtio-mmio transport with a device behind it: a
		# platform device for the platform-bus test to find bound.
		machine=(-M virt -append "console=ttyAMA0 panic=-1 rdinit=/init"
			-device virtio-rng-device
			-serial "file:$CONSOLE") ;;
	sh)
		# The r2d board has its 64 MiB; its console is the second
		# serial port (ttySC1).
		cpu=()
		machine=(-M r2d -append "console=ttySC1,115200 panic=-1 rdinit=/init"
			-serial null -serial "file:$CONSOLE") ;;
	esac
	info "boot: QEMU $ARCH ($accel), timeout ${TIMEOUT}s, console in $CONSOLE"
	start=$(date +%s.%N)
	timeout -s KILL "$TIMEOUT" $qemu_bin \
		-accel "$accel" "${cpu[@]}" -smp 1 \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$KERNEL" -initrd "$GUEST_OUT/initramfs.cpio.gz" \
		"${machine[@]}" \
		>"$LOG_DIR/qemu.log" 2>&1 &
	qemu=$!

	userspace=""
	while kill -0 "$qemu" 2>/dev/null; do
		if [ -z "$userspace" ] && grep -q '^chopblock: userspace reached' "$CONSOLE"; then
			userspace=$(printf %.2f "$(echo "$(date +%s.%N) - $start" | bc)")
			info "boot: userspace reached after ${userspace}s"
		fi
		# A nested KVM can run firmware yet fail or stall on the
		# kernel's first unusual instruction (seen here: an emulation
		# failure on cmpxchg16b). Under working KVM userspace comes in
		# a second or two; past KVM_GRACE seconds, KVM is declared
		# broken and the caller retries with TCG.
		if [ "$accel" = kvm ] && [ -z "$userspace" ] &&
		   { grep -q 'KVM internal error' "$LOG_DIR/qemu.log" ||
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
		userspace=$(printf %.2f "$(echo "$(date +%s.%N) - $start" | bc)")
	fi
	return 0
}

if ! boot_once "$accel"; then
	info "boot: KVM did not run the kernel to userspace in ${KVM_GRACE}s$(grep -m1 -o ': KVM internal error.*' "$LOG_DIR/qemu.log"); using TCG"
	accel=tcg
	boot_once "$accel"
fi
printf '%s\n' "${userspace:-none}" >"$LOG_DIR/userspace-seconds"
echo "$accel" >"$LOG_DIR/accel"

if [ "$rc" -eq 137 ]; then
	tail_log "$CONSOLE" 20
	die "guest hung: killed after ${TIMEOUT}s (console: $CONSOLE)"
elif [ "$rc" -ne 0 ]; then
	tail_log "$LOG_DIR/qemu.log" 10
	tail_log "$CONSOLE" 20
	die "QEMU exited with status $rc (log: $LOG_DIR/qemu.log)"
fi

set +e
tr -d '\r' <"$CONSOLE" | awk -f "$(dirname "$0")/ktap.awk" | tee "$LOG_DIR/ktap-result.txt"
rc=${PIPESTATUS[1]}
set -e
if [ "$rc" -ne 0 ]; then
	echo "---- guest test output (full console: $CONSOLE) ----" >&2
	tr -d '\r' <"$CONSOLE" | sed -n '/^KTAP version 1$/,/^chopblock: tests done$/p' | tail -n 40 >&2
	[ -n "$userspace" ] || tail_log "$CONSOLE" 20
	exit 1
fi
