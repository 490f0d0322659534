#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the out-of-tree test modules in modules/ (today mmc_rw_emu, the
# emulated rewritable optical drive) against the kernel that build.sh
# built: kbuild's M= against $TREE_DIR and $KBUILD_DIR, with W=1 and every
# warning an error. The sources are copied to $BUILD_DIR/modules first,
# so that the objects stay out of the repository. No kernel build, so no
# lock: a module is a few seconds of compiling. CHOPBLOCK_MODULES names
# another output directory (harness/kmemleak.sh's kernel has its own). The .ko files are loaded
# only inside the QEMU guest (initramfs.sh puts them in /lib/modules).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-x86_64}
SRC=$CHOPBLOCK_ROOT/modules
OUT=${CHOPBLOCK_MODULES:-$BUILD_DIR/modules}
log=$LOG_DIR/modules.log

[ -f "$KBUILD_DIR/Module.symvers" ] ||
	die "no Module.symvers in $KBUILD_DIR (run harness/build.sh first)"
mkdir -p "$OUT" "$LOG_DIR"
: >"$log"

make_args=(-C "$TREE_DIR" O="$KBUILD_DIR" ARCH="$ARCH" W=1 KCFLAGS=-Werror)
if command -v ccache >/dev/null 2>&1; then
	make_args+=(CC="ccache gcc")
	export CCACHE_DIR=${CCACHE_DIR:-$BUILD_DIR/ccache}
fi

n=0
for dir in "$SRC"/*/; do
	[ -f "$dir/Kbuild" ] || continue
	name=$(basename "$dir")
	rm -rf "$OUT/$name"
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
