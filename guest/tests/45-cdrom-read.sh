#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-arch: x86_64 (QEMU pc devices, host tools)
# The sr driver reads QEMU's CD drive: size and content of the disc equal
# the image the host built (its checksum is in /etc/chopblock).
. /lib/chopblock.sh
wait_for /dev/sr0 || fail "no /dev/sr0"
want=$(cat /etc/chopblock/cd.md5)
size=$(cat /etc/chopblock/cd.size)
got=$(head -c $size /dev/sr0 | md5sum | cut -d' ' -f1)
[ "$got" = "$want" ] || fail "sr0 reads $got, the image is $want"
echo "sr0: $size bytes, md5 $got as expected"
