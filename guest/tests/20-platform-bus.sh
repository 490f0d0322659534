#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The platform bus the series edits (early platform devices) still
# registers devices and binds them to drivers.
. /lib/chopblock.sh
bus=/sys/bus/platform
[ -d $bus/devices ] || fail "no platform bus in sysfs"
devices=0
bound=0
for d in $bus/devices/*; do
	[ -e "$d" ] || continue
	devices=$((devices + 1))
	if [ -L "$d/driver" ]; then
		bound=$((bound + 1))
		echo "bound: $(basename "$d") -> $(basename "$(readlink "$d/driver")")"
	fi
done
echo "$devices platform devices, $bound bound to a driver"
[ $bound -gt 0 ] || fail "no platform device is bound to a driver"
# The console's serial port (serial8250 on x86, a platform device there; the
# PL011 on arm64) carries this very output: its device must be bound.
tty=$(sed -n 's/^\(tty[A-Za-z]*[0-9]*\) .*/\1/p' /proc/consoles | head -n 1)
[ -n "$tty" ] || fail "no console in /proc/consoles"
dev=$(readlink -f /sys/class/tty/$tty/device)
drv=$(readlink -f /sys/class/tty/$tty/device/driver 2>/dev/null || true)
echo "console $tty: device $(basename "$dev"), driver $(basename "${drv:-none}")"
[ -n "$drv" ] || fail "the console's device $dev is not bound to a driver"
if [ -e $bus/devices/serial8250 ]; then
	[ -L $bus/devices/serial8250/driver ] || fail "serial8250 is not bound"
fi
