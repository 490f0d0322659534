#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-arch: x86_64 (QEMU pc devices, host tools)
#
# JFS deprecation, in the guest:
#  - mkfs.jfs on the scratch disk, then two mounts: each adds the
#    deprecation warning, naming the device, to the kernel log once;
#  - the filesystem still works: write, fsync, umount, fsck.jfs finds it
#    clean, remount, the checksums are unchanged.
# Exit 0 = pass, 4 = skip (prerequisite missing), anything else = fail.
# On the pristine tree the warning checks fail by design (no warning yet).

DEV=${JFS_TEST_DEV:-/dev/sda}
MNT=/tmp/jfs-deprecation.mnt

. /lib/chopblock.sh
soft_checks
needs_patch '^jfs: .*deprecated' "JFS deprecation"

# shellcheck disable=SC2059 # the kernel's format, with the device's name
warnings() { dmesg | grep -c -F "$(printf "$JFS_DEPRECATION" "${DEV##*/}")"; }

cleanup() {
	grep -q " $MNT " /proc/mounts && umount "$MNT"
	rmdir "$MNT" 2>/dev/null
}
trap cleanup EXIT

wait_for "$DEV" 10
[ -b "$DEV" ] || skip "no scratch block device $DEV"
for tool in mkfs.jfs fsck.jfs dmesg; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not in PATH"
done
if command -v sha256sum >/dev/null 2>&1; then
	SUM=sha256sum
elif command -v md5sum >/dev/null 2>&1; then
	SUM=md5sum
else
	skip "no sha256sum or md5sum"
fi
# The harness config builds JFS in: its absence is a failure, not a skip.
if ! grep -q -w jfs /proc/filesystems; then
	fail "jfs is not in /proc/filesystems"
	exit 1
fi
if grep -q "^$DEV " /proc/mounts; then
	fail "$DEV is mounted already"
	exit 1
fi

n0=$(warnings)
echo "deprecation warnings in the log before the test: $n0"

if mkfs.jfs -q "$DEV" >/tmp/jfs-mkfs.log 2>&1; then
	ok "mkfs.jfs $DEV"
else
	cat /tmp/jfs-mkfs.log
	fail "mkfs.jfs $DEV"
	exit 1
fi

mkdir -p "$MNT"

# First mount, write, fsync, checksum.
if ! mount -t jfs "$DEV" "$MNT"; then
	fail "first mount of $DEV"
	dmesg | tail -n 20
	exit 1
fi
ok "first mount"
n1=$(warnings)
if [ "$n1" -eq $((n0 + 1)) ]; then
	ok "the first mount logs the deprecation warning naming ${DEV##*/}, once"
else
	fail "the first mount logged the deprecation warning for ${DEV##*/} $((n1 - n0)) time(s), expected 1"
fi

dd if=/dev/urandom of="$MNT/random.bin" bs=65536 count=64 2>/dev/null &&
	mkdir "$MNT/dir" && echo "chopblock jfs test" >"$MNT/dir/text" ||
	fail "writing the test files"
# Make the data durable before the checksum: fsync each file (busybox
# fsync applet, or sync FILE with coreutils), then the whole filesystem.
if command -v fsync >/dev/null 2>&1; then
	fsync "$MNT/random.bin" "$MNT/dir/text" || fail "fsync"
else
	sync "$MNT/random.bin" "$MNT/dir/text" || fail "sync FILE"
fi
sync
sum1=$(cd "$MNT" && $SUM random.bin dir/text)
echo "checksums after writing:"
echo "$sum1"

if umount "$MNT"; then
	ok "umount after writing"
else
	fail "umount after writing"
	exit 1
fi

# Full read-only check of the unmounted filesystem.
fsck.jfs -n -f "$DEV" >/tmp/jfs-fsck.log 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q "Filesystem is clean" /tmp/jfs-fsck.log; then
	ok "fsck.jfs -n -f: clean"
else
	cat /tmp/jfs-fsck.log
	fail "fsck.jfs -n -f: exit $rc, not clean"
fi

# Second mount: same data, and no second warning.
if ! mount -t jfs "$DEV" "$MNT"; then
	fail "second mount of $DEV"
	dmesg | tail -n 20
	exit 1
fi
ok "second mount"
sum2=$(cd "$MNT" && $SUM random.bin dir/text)
if [ -n "$sum1" ] && [ "$sum1" = "$sum2" ]; then
	ok "checksums equal after remount ($SUM)"
else
	echo "checksums after remount:"
	echo "$sum2"
	fail "checksums differ after remount"
fi
n2=$(warnings)
if [ "$n2" -eq $((n1 + 1)) ]; then
	ok "the second mount logs it once more"
else
	fail "the second mount logged the deprecation warning $((n2 - n1)) time(s), expected 1"
fi

umount "$MNT" || fail "final umount"

exit $failed
