#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/modules.sh KERNEL
#
# Build the out-of-tree test modules in modules/ (today mmc_rw_emu, the
# emulated rewritable optical drive) against a built kernel (a name of
# configs/kernels.list or its directory): kbuild's M= against its tree and
# build directory, with W=1 and every warning an error, into
# KERNEL/modules (the sources are copied there, so that the objects stay
# out of the repository). No kernel build, so no lock: a module is a few
# seconds of compiling. A kernel without CONFIG_MODULES, or without the
# SCSI core the emulated drive plugs into, gets none. The .ko
# files are loaded only inside the QEMU guest (initramfs.sh puts them in
# /lib/modules).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in
"") die "modules.sh: which kernel? (see --help)" ;;
--help | -h) usage_from_header; exit 0 ;;
esac
kdir=$(kernel_dir "$1")
[ "$(manifest "$kdir" result)" = ok ] || die "the kernel in $kdir did not build"
arch=$(manifest "$kdir" arch)
tree=$(manifest "$kdir" tree)
kbuild=$(manifest "$kdir" kbuild)
SRC=$CHOPBLOCK_ROOT/modules
OUT=$kdir/modules
log=$kdir/logs/modules.log

rm -rf "$OUT"
if ! grep -q '^CONFIG_MODULES=y' "$kbuild/.config" || ! grep -q '^CONFIG_SCSI=y' "$kbuild/.config"; then
	info "modules: $(manifest "$kdir" name) has no CONFIG_MODULES or no CONFIG_SCSI: no test modules"
	exit 0
fi
[ -f "$kbuild/Module.symvers" ] || die "no Module.symvers in $kbuild (run harness/build.sh first)"
mkdir -p "$OUT" "$(dirname "$log")"
: >"$log"

cross=$(cross_prefix "$arch")
make_args=(-C "$tree" O="$kbuild" ARCH="$arch" W=1 KCFLAGS=-Werror)
[ -z "$cross" ] || make_args+=(CROSS_COMPILE="$cross")
compiler_setup "$cross"
make_args+=(CC="$KB_CC" HOSTCC="$KB_HOSTCC")

n=0
for dir in "$SRC"/*/; do
	[ -f "$dir/Kbuild" ] || continue
	name=$(basename "$dir")
	mkdir -p "$OUT/$name"
	cp "$dir"/* "$OUT/$name/"
	if ! run_logged "$log.$name" "module $name" \
		make "${make_args[@]}" M="$OUT/$name" modules; then
		cat "$log.$name" >>"$log"
		tail_log "$log.$name" 30
		die "module $name does not build (full log: $log)"
	fi
	cat "$log.$name" >>"$log"
	rm -f "$log.$name"
	n=$((n + 1))
done
info "modules: $n built in $OUT (log: $log)"
