#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-arch: x86_64 (QEMU pc devices, host tools)
# QEMU's pci-ohci controller is driven by ohci-pci and enumerates the
# USB keyboard QEMU attached to it (vendor 0627, product 0001).
. /lib/chopblock.sh
drv=/sys/bus/pci/drivers/ohci-pci
[ -d $drv ] || fail "ohci-pci driver is not registered"
ls $drv | grep -q '^0000:' || fail "no PCI device bound to ohci-pci"
echo "ohci-pci controllers: $(ls $drv | grep '^0000:' | tr '\n' ' ')"
found=""
i=0
while [ $i -lt 100 ] && [ -z "$found" ]; do
	for d in /sys/bus/usb/devices/*; do
		[ -f "$d/idVendor" ] || continue
		[ "$(cat $d/idVendor):$(cat $d/idProduct)" = "0627:0001" ] && found=$d
	done
	[ -n "$found" ] || sleep 0.1
	i=$((i + 1))
done
[ -n "$found" ] || fail "the USB keyboard was not enumerated"
echo "enumerated $(basename $found): $(cat $found/product 2>/dev/null) speed $(cat $found/speed)"
# It hangs below an OHCI root hub, not some other controller.
bus=$(cat $found/busnum)
grep -q "OHCI" /sys/bus/usb/devices/usb$bus/product ||
	fail "device is on bus $bus, which is not the OHCI root hub"
