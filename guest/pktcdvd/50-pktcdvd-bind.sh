#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-arch: x86_64 (QEMU pc devices, host tools)
# udftools' pktsetup binds pktcdvd to QEMU's CD drive through the control
# device, the packet device shows up in sysfs, and unbinding removes it.
. /lib/chopblock.sh
wait_for /dev/sr0 || fail "no /dev/sr0: the CD drive was not found"
[ -d /sys/class/pktcdvd ] || fail "pktcdvd is not registered (no /sys/class/pktcdvd)"
cdrom=$(cat /sys/block/sr0/dev)
pktsetup pktcdvd0 /dev/sr0 || fail "pktsetup pktcdvd0 /dev/sr0 failed"
map=$(cat /sys/class/pktcdvd/device_map)
echo "device_map: $map"
echo "$map" | grep -q "^pktcdvd0 .* $cdrom\$" || fail "pktcdvd0 is not mapped to sr0 ($cdrom)"
[ -d /sys/block/pktcdvd0 ] || fail "no /sys/block/pktcdvd0"
[ -b /dev/pktcdvd/pktcdvd0 ] || [ -b /dev/pktcdvd0 ] || fail "no pktcdvd0 block device node"
[ -d /sys/class/pktcdvd/pktcdvd0 ] || fail "no /sys/class/pktcdvd/pktcdvd0"
info=/sys/kernel/debug/pktcdvd/pktcdvd0/info
if [ -r $info ]; then
	grep -q 'mapped to sr0' $info || fail "debugfs info does not map pktcdvd0 to sr0"
	grep -m1 'mapped to' $info
fi
pktsetup -d pktcdvd0 || fail "pktsetup -d pktcdvd0 failed"
[ -z "$(cat /sys/class/pktcdvd/device_map)" ] || fail "pktcdvd0 still mapped after removal"
[ ! -d /sys/block/pktcdvd0 ] || fail "/sys/block/pktcdvd0 still exists after removal"
[ ! -d /sys/class/pktcdvd/pktcdvd0 ] || fail "/sys/class/pktcdvd/pktcdvd0 still exists after removal"
echo "bound and unbound again"
