#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-arch: x86_64 (QEMU pc devices, host tools)
# JFS still works end to end: mkfs.jfs, mount, write files of several
# sizes, sync, umount, fsck.jfs finds it clean, remount, checksums equal.
. /lib/chopblock.sh
dev=/dev/sda
wait_for $dev || fail "no scratch disk $dev"
mkfs.jfs -q $dev >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; fail "mkfs.jfs failed"; }
mkdir -p /mnt/jfs
mount -t jfs $dev /mnt/jfs || fail "mount -t jfs failed"
grep -q "^$dev /mnt/jfs jfs " /proc/mounts || fail "$dev is not mounted as jfs"
for kb in 1 4 63 1024 8192; do
	dd if=/dev/urandom of=/mnt/jfs/f$kb bs=1024 count=$kb 2>/dev/null ||
		fail "writing a ${kb} KiB file failed"
done
mkdir /mnt/jfs/dir && echo hello >/mnt/jfs/dir/small || fail "mkdir/write failed"
sync
(cd /mnt/jfs && md5sum f* dir/small) >/tmp/jfs.md5
umount /mnt/jfs || fail "umount failed"
fsck.jfs -n $dev >/tmp/fsck.log 2>&1
rc=$?
cat /tmp/fsck.log | tail -n 3
[ $rc -eq 0 ] || fail "fsck.jfs -n exit status $rc"
mount -t jfs $dev /mnt/jfs || fail "remount failed"
(cd /mnt/jfs && md5sum -c /tmp/jfs.md5) || fail "checksums differ after remount"
umount /mnt/jfs || fail "final umount failed"
echo "$(wc -l </tmp/jfs.md5) files intact across umount, fsck and remount"
