#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KVM that QEMU itself cannot use: a QEMU that aborts as soon as it is
# asked for KVM (as QEMU 7.2 does on a host that refuses -cpu host's MSRs,
# "failed to set MSR 0x10a", exit status 134) makes boot.sh boot the same
# guest again with TCG, say why, and pass; it does not fail the run. The
# machine's KVM verdict (/var/cache/chopblock/kvm), which the fallback
# sets to tcg, is put back afterwards.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
need_kernel
real=$(command -v "$(arch_fact x86_64 qemu)") || fail "no QEMU for x86_64"
verdict=$MACHINE_CACHE/kvm
saved=$(cat "$verdict" 2>/dev/null || true)
trap 'if [ -n "$saved" ]; then echo "$saved" >"$verdict"; else rm -f "$verdict"; fi; rm -rf "$scratch"' EXIT

mkdir -p "$scratch/bin"
cat >"$scratch/bin/$(basename "$real")" <<EOF
#!/bin/sh
case " \$* " in
*" -accel kvm "*)
	echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
	kill -ABRT \$\$ ;;
esac
exec "$real" "\$@"
EOF
chmod +x "$scratch/bin/$(basename "$real")"

make_guest "$scratch/guest" <<'INIT'
#!/bin/sh
echo "chopblock: userspace reached"
echo "KTAP version 1"
echo "1..1"
echo "ok 1 alive"
echo "chopblock: tests done"
exec /bin/busybox poweroff -f
INIT
rc=0
out=$(PATH="$scratch/bin:$PATH" "$root/harness/boot.sh" --guest "$scratch/guest" \
	--logs "$scratch/logs" --accel kvm --timeout 60 main 2>&1) || rc=$?
[ "$rc" -eq 0 ] || { echo "$out"; fail "boot.sh failed (rc $rc) instead of falling back to TCG"; }
echo "$out" | grep -q 'KVM did not run the kernel to userspace (QEMU: .*failed to set MSR' ||
	fail "the fallback does not say why: $(echo "$out" | grep 'boot:' | head -n 3)"
ok "QEMU aborting under KVM: $(echo "$out" | grep -o 'KVM did not run.*')"
grep -qx 'accel=tcg' "$scratch/logs/boot" || fail "the boot record says $(grep accel= "$scratch/logs/boot")"
[ "$(echo "$out" | tail -n 1)" = "1 passed, 0 failed" ] || fail "last line: $(echo "$out" | tail -n 1)"
ok "booted again with TCG: 1 passed, 0 failed"
