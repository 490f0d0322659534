#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/initramfs.sh [OPTIONS] KERNEL
#
# Pack the guest initramfs of a built kernel (a name of
# configs/kernels.list or its directory) into KERNEL/guest: its
# architecture's init (configs/arches.list), the guest tests its row names,
# the test modules built against it, and the CD image the guest reads.
#
# busybox init (x86_64, arm64): busybox-static (Debian's package of the
# guest's architecture), guest/init as PID 1 with the KTAP library
# (harness/ktap.sh, /lib/ktap.sh) and guest/lib.sh, the tests (shell
# scripts as they are, C compiled static; a test whose header says
# "chopblock-arch: x86_64" goes only into x86_64 guests), and on x86_64
# the tools they drive (jfsutils, udftools) with their libraries and the
# static pktublk daemon (pktublk/).
# nolibc init (sh4, where Debian has no busybox and its static glibc does
# not run): guest/minimal-init.c, built on the nolibc of the kernel's tree.
#
#   --out DIR    another guest directory (default KERNEL/guest)
#   --tests GLOBS  these guest tests (comma-separated globs under guest/)
#                instead of the row's
#   --init FILE  this script as /init instead of guest/init, and no tests
#                (make bench's guest)
#   --help       this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

kdir= OUT= init= tests=
while [ $# -gt 0 ]; do
	case $1 in
	--out) OUT=${2:?--out needs a directory}; shift ;;
	--tests) tests=${2:?--tests needs globs}; shift ;;
	--init) init=${2:?--init needs a file}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "initramfs.sh: unknown option $1 (see --help)" ;;
	*) [ -z "$kdir" ] || die "initramfs.sh: one kernel, not '$kdir' and '$1'"; kdir=$(kernel_dir "$1") ;;
	esac
	shift
done
[ -n "$kdir" ] || die "initramfs.sh: which kernel? (see --help)"
ARCH=$(manifest "$kdir" arch)
tree=$(manifest "$kdir" tree)
commit=$(manifest "$kdir" commit)
OUT=${OUT:-$kdir/guest}
tests=${tests:-$(manifest "$kdir" tests)}
GUEST_DIR=$CHOPBLOCK_ROOT/guest
root=$OUT/root
cross=$(cross_prefix "$ARCH")
cc=${cross}gcc
command -v "$cc" >/dev/null || die "$cc is missing (install gcc-${cross%-} and its libc6-dev cross package)"
rm -rf "$root"
mkdir -p "$root"/{dev,proc,sys}

case $(arch_fact "$ARCH" init) in
nolibc)
	# The init's five checks run on the nolibc of the kernel's own tree,
	# with guest/nolibc-sh.h for SuperH; harness/sh4-gcc.sh gives the
	# flags the sh4 cross compiler needs to compile correctly.
	sh4_cflags=$("$h/sh4-gcc.sh")
	nolibc=$tree/tools/include/nolibc
	[ -f "$nolibc/nolibc.h" ] || die "$nolibc/nolibc.h is missing ($tree is not a kernel tree)"
	# shellcheck disable=SC2086 # a list of flags
	$cc $sh4_cflags -static -nostdlib -ffreestanding -fno-stack-protector \
		-fno-asynchronous-unwind-tables -O2 -Wall -Wextra -Werror -I "$nolibc" \
		-o "$root/init" "$GUEST_DIR/minimal-init.c" -lgcc ||
		die "guest/minimal-init.c does not compile for $ARCH"
	pack_cpio "$root" "$OUT/initramfs.cpio.gz"
	info "initramfs: $OUT/initramfs.cpio.gz ($ARCH, minimal init)"
	exit 0 ;;
busybox) ;;
*) die "no guest for ARCH=$ARCH (configs/arches.list: init is busybox or nolibc)" ;;
esac

if [ "$ARCH" = x86_64 ]; then
	TOOLS="mkfs.jfs fsck.jfs pktsetup mkudffs udfinfo"
	busybox=$(command -v busybox || true)
	[ -n "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1 ||
		die "a static busybox is missing (install the busybox-static package)"
else
	TOOLS=
	busybox=$("$h/cross-busybox.sh" "$(arch_fact "$ARCH" debarch)")
fi

mkdir -p "$root"/{bin,sbin,lib,lib64,etc/chopblock,tmp,mnt,tests,usr/bin,usr/sbin}
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

# pktublk, the user-space successor of pktcdvd (pktublk/), built static.
if [ "$ARCH" = x86_64 ]; then
	make -s -C "$CHOPBLOCK_ROOT/pktublk" >/dev/null ||
		die "pktublk does not build (install liburing-dev)"
	install -m 755 "$CHOPBLOCK_ROOT/pktublk/pktublk" "$root/usr/sbin/pktublk"
fi

cp "$h/ktap.sh" "$root/lib/ktap.sh"
cp "$GUEST_DIR/lib.sh" "$root/lib/chopblock.sh"
if [ -n "$init" ]; then
	install -m 755 "$init" "$root/init"
else
	cp "$GUEST_DIR/init" "$root/init"
	: >"$root/etc/chopblock/timeouts"
	for t in $(guest_tests "$ARCH" "$tests"); do
		name=$(basename "$t")
		# The test's own timeout, for guest/init: its header's
		# "chopblock-timeout: SECONDS", else guest/init's default.
		secs=$(sed -n 's/^[#/* ]*chopblock-timeout: *\([0-9]*\).*/\1/p' "$t" | head -n 1)
		[ -z "$secs" ] || echo "${name%.c} $secs" >>"$root/etc/chopblock/timeouts"
		case "$name" in
		*.sh) install -m 755 "$t" "$root/tests/$name" ;;
		*.c)
			$cc -static -O2 -Wall -Wextra -Werror -I "$GUEST_DIR" \
				-o "$root/tests/${name%.c}" "$t" ||
				die "guest test $t does not compile" ;;
		*) die "guest test $t is neither a .sh nor a .c file" ;;
		esac
	done
fi

# Test modules for the guest only (modules.sh builds them against this
# kernel; never loaded on the host): the emulated rewritable drive, and
# brd for make bench.
mkdir -p "$root/lib/modules"
for ko in "$kdir"/modules/*/*.ko "$kdir"/kbuild/drivers/block/brd.ko; do
	if [ -f "$ko" ]; then cp "$ko" "$root/lib/modules/"; fi
done

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
git -C "$tree" log --format=%s "$BASELINE_TAG..${commit%% *}" >"$root/etc/chopblock/series" 2>/dev/null ||
	: >"$root/etc/chopblock/series"

md5sum <"$cd_img" | cut -d' ' -f1 >"$root/etc/chopblock/cd.md5"
stat -c %s "$cd_img" >"$root/etc/chopblock/cd.size"

pack_cpio "$root" "$OUT/initramfs.cpio.gz"
info "initramfs: $OUT/initramfs.cpio.gz ($(ls "$root/tests" | wc -l) guest tests)"
