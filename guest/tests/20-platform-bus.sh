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
# serial8250 is the console itself: it must be bound.
[ -L $bus/devices/serial8250/driver ] || fail "serial8250 is not bound"
