#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox-static, the tools the guest tests
# drive (from Debian's jfsutils and udftools, with the shared libraries they
# link), guest/init as PID 1, and guest/tests/*: shell scripts as they are,
# C files compiled static. Also builds the CD image the guest reads, and
# records its checksum in the initramfs so the guest can verify it.
#
# For ARCH=arm64 the guest gets Debian's arm64 busybox-static, the C tests
# are cross-compiled, and only the tests that apply there go in: a test
# whose header says "# chopblock-arch: x86_64" runs only on x86_64 (it
# needs the pc machine's devices or host tools).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-x86_64}
GUEST_DIR=$CHOPBLOCK_ROOT/guest
OUT=${1:-$BUILD_DIR/guest}
root=$OUT/root
case $ARCH in
x86_64)
	cc=gcc
	TOOLS="mkfs.jfs fsck.jfs pktsetup mkudffs udfinfo"
	busybox=$(command -v busybox || true)
	[ -n "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1 ||
		die "a static busybox is missing (install the busybox-static package)" ;;
arm64)
	cc=$(cross_prefix arm64)gcc
	TOOLS=
	busybox=$("$(dirname "$0")/cross-busybox.sh" arm64) ;;
sh)
	cc=$(cross_prefix sh)gcc ;;
*) die "no guest for ARCH=$ARCH (x86_64, arm64 or sh)" ;;
esac
command -v $cc >/dev/null || die "$cc is missing (install gcc-${cc%-gcc} and its libc6-dev cross package)"

# Debian has no sh4 busybox: the sh4 guest's /init is guest/minimal-init.c,
# which runs its own few checks. Debian's static sh4 glibc does not work,
# so it is built on the nolibc of the tree the sh4 kernel comes from
# (CHOPBLOCK_TREE: the pristine one, the series removes SuperH), as it is,
# with guest/nolibc-sh.h for SuperH. harness/sh4-gcc.sh gives the flags
# the sh4 cross compiler needs to compile correctly.
if [ "$ARCH" = sh ]; then
	sh4_cflags=$("$(dirname "$0")/sh4-gcc.sh")
	nolibc=$TREE_DIR/tools/include/nolibc
	[ -f "$nolibc/nolibc.h" ] || die "$nolibc/nolibc.h is missing (CHOPBLOCK_TREE is not a kernel tree)"
	rm -rf "$root"
	mkdir -p "$root"/{dev,proc,sys}
	# shellcheck disable=SC2086 # a list of flags
	$cc $sh4_cflags -static -nostdlib -ffreestanding -fno-stack-protector \
		-fno-asynchronous-unwind-tables -O2 -Wall -Wextra -Werror -I "$nolibc" \
		-o "$root/init" "$GUEST_DIR/minimal-init.c" -lgcc ||
		die "guest/minimal-init.c does not compile for sh4"
	(cd "$root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) |
		gzip -1 >"$OUT/initramfs.cpio.gz.tmp"
	mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
	info "initramfs: $OUT/initramfs.cpio.gz (sh4, minimal init)"
	exit 0
fi

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,lib,lib64,etc/chopblock,proc,sys,dev,tmp,mnt,tests,usr/bin,usr/sbin}
cp "$busybox" "$root/bin/busybox"
# The applet list is fixed per busybox version, and a foreign busybox
# cannot run here: take the names from the host's busybox-static when the
# guest's does not run.
applets=$("$busybox" --list 2>/dev/null || busybox --list) ||
	die "cannot list the busybox applets (install the busybox-static package)"
for applet in $applets; do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# Copy a dynamically linked tool and every library ldd says it needs.
copy_with_libs() {
	local bin=$1 lib

	cp -L "$bin" "$root/bin/"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -Ln "$lib" "$root$lib" 2>/dev/null || true
	done
}
for tool in $TOOLS; do
	path=$(PATH=$PATH:/sbin:/usr/sbin command -v "$tool" || true)
	[ -n "$path" ] || die "guest tool $tool is missing (install jfsutils and udftools)"
	rm -f "$root/bin/$tool"
	copy_with_libs "$path"
done

cp "$GUEST_DIR/init" "$root/init"
cp "$GUEST_DIR/lib.sh" "$root/lib/chopblock.sh"
for t in "$GUEST_DIR"/tests/*; do
	name=$(basename "$t")
	arches=$(sed -n 's/^[#/* ]*chopblock-arch: *//p' "$t" | head -n 1)
	if [ -n "$arches" ] && ! [[ " $arches " == *" $ARCH "* ]]; then
		continue
	fi
	case "$name" in
	*.sh) install -m 755 "$t" "$root/tests/$name" ;;
	*.c)
		$cc -static -O2 -Wall -Wextra -Werror -o "$root/tests/${name%.c}" "$t" ||
			die "guest test $name does not compile" ;;
	*) ;;
	esac
done

# Test modules for the guest only (modules.sh builds them against the
# x86_64 kernel; never loaded on the host): the emulated rewritable drive,
# and brd for make bench.
mkdir -p "$root/lib/modules"
if [ "$ARCH" = x86_64 ]; then
	for ko in "${CHOPBLOCK_MODULES:-$BUILD_DIR/modules}"/*/*.ko \
		"$KBUILD_DIR"/drivers/block/brd.ko; do
		if [ -f "$ko" ]; then cp "$ko" "$root/lib/modules/"; fi
	done
fi

# A CD image of known content: 4 MiB, 2048-byte sectors, reproducible.
cd_img=$OUT/cd.img
if [ ! -f "$cd_img" ]; then
	(openssl enc -aes-128-ctr -nosalt -K 00 -iv 00 -in /dev/zero 2>/dev/null || true) |
		head -c $((4 * 1024 * 1024)) >"$cd_img.tmp"
	mv "$cd_img.tmp" "$cd_img"
fi
# What the kernel under test carries: the subjects of the applied patches.
# Tests of a feature the series adds (a deprecation warning, say) skip,
# saying so, on a kernel built without that patch, e.g. the pristine tree.
git -C "$TREE_DIR" log --format=%s "$BASELINE_TAG..HEAD" >"$root/etc/chopblock/series" 2>/dev/null ||
	: >"$root/etc/chopblock/series"

md5sum <"$cd_img" | cut -d' ' -f1 >"$root/etc/chopblock/cd.md5"
stat -c %s "$cd_img" >"$root/etc/chopblock/cd.size"

(cd "$root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) |
	gzip -1 >"$OUT/initramfs.cpio.gz.tmp"
mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
info "initramfs: $OUT/initramfs.cpio.gz ($(ls "$root/tests" | wc -l) guest tests)"
