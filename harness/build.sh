#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a kernel from $TREE_DIR out of tree in $KBUILD_DIR: a base
# configuration (tinyconfig unless CHOPBLOCK_BASE_CONFIG names another
# target, e.g. a defconfig), then the config fragments (configs/*.config
# unless CHOPBLOCK_FRAGMENTS lists others) merged with the tree's own
# merge_config.sh. merge_config.sh only warns when a requested value does not
# survive olddefconfig; we check every line of every fragment against the
# final .config and fail on the first that did not take.
#
# ARCH selects the architecture (x86_64 by default; arm64, arm and sh are
# cross-built with Debian's cross compilers).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-x86_64}
CONFIG_DIR=${CHOPBLOCK_CONFIGS:-$CHOPBLOCK_ROOT/configs}
BASE_CONFIG=${CHOPBLOCK_BASE_CONFIG:-tinyconfig}
JOBS=${JOBS:-$(nproc)}

# The boot image of each architecture.
case $ARCH in
x86_64) image=bzImage image_path=arch/x86/boot/bzImage ;;
arm64) image=Image image_path=arch/arm64/boot/Image ;;
*) image=zImage image_path=arch/$ARCH/boot/zImage ;;
esac
cross=$(cross_prefix "$ARCH")
CROSS_COMPILE=${CROSS_COMPILE-$cross}
command -v "${CROSS_COMPILE}gcc" >/dev/null ||
	die "compiler ${CROSS_COMPILE}gcc for ARCH=$ARCH is missing (install gcc-${CROSS_COMPILE%-})"

[ -f "$TREE_DIR/Makefile" ] || die "no kernel tree at $TREE_DIR (run harness/tree.sh)"
mkdir -p "$KBUILD_DIR" "$LOG_DIR"

make_args=(-C "$TREE_DIR" O="$KBUILD_DIR" ARCH="$ARCH" -j"$JOBS")
[ -z "$CROSS_COMPILE" ] || make_args+=(CROSS_COMPILE="$CROSS_COMPILE")
if command -v ccache >/dev/null 2>&1; then
	make_args+=(CC="ccache ${CROSS_COMPILE}gcc")
	export CCACHE_DIR=${CCACHE_DIR:-$BUILD_DIR/ccache}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	# Paths under the base directory are hashed relative to the build
	# directory: trees laid out as <dir>/tree beside <dir>/kbuild (the
	# main one, make bisect's) then share one cache.
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD_DIR}
fi

# Debian 12's sh4 gcc compiles wrong code without a plugin (harness/sh4-gcc.sh).
if [ "$ARCH" = sh ]; then
	sh4_cflags=$("$(dirname "$0")/sh4-gcc.sh")
	[ -z "$sh4_cflags" ] || make_args+=(KCFLAGS="${KCFLAGS:+$KCFLAGS }$sh4_cflags")
fi

if [ -n "${CHOPBLOCK_FRAGMENTS:-}" ]; then
	read -r -a fragments <<<"$CHOPBLOCK_FRAGMENTS"
	for f in "${fragments[@]}"; do
		[ -f "$f" ] || die "config fragment $f does not exist"
	done
else
	fragments=("$CONFIG_DIR"/*.config)
	[ -e "${fragments[0]}" ] || die "no config fragments in $CONFIG_DIR"
fi

log=$LOG_DIR/config.log
{
	make "${make_args[@]}" "$BASE_CONFIG" &&
	(cd "$TREE_DIR" && ARCH=$ARCH scripts/kconfig/merge_config.sh -m \
		-O "$KBUILD_DIR" "$KBUILD_DIR/.config" "${fragments[@]}") &&
	make "${make_args[@]}" olddefconfig
} >"$log" 2>&1 || { tail_log "$log"; die "kernel configuration failed (full log: $log)"; }

# Every CONFIG_FOO=val and "# CONFIG_FOO is not set" line must hold.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		sym=${line%%=*} want=$line ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }; sym=${sym%% *} want=$line ;;
	*) continue ;;
	esac
	have=$(grep -E "^($sym=|# $sym is not set)" "$KBUILD_DIR/.config" || true)
	if [ "$have" != "$want" ] && ! { [ -z "$have" ] && [ "$want" = "# $sym is not set" ]; }; then
		echo "chopblock: error: config symbol $sym did not take: requested '$want', got '${have:-undefined}'" >&2
		missing=$((missing + 1))
	fi
done < <(cat "${fragments[@]}")
[ "$missing" -eq 0 ] || die "$missing requested config symbol(s) did not take (see $log)"

# Two kernel builds at once would only thrash two cores: serialize every
# build on this machine (other clones, bisect runs and the main harness
# alike: the lock is machine-wide, not per work directory),
# first come, first served: flock alone lets a loop of short builds starve
# a waiter, so waiters queue with a ticket named by their arrival time.
lock=${CHOPBLOCK_LOCK:-/run/lock/chopblock-kbuild}
queue=$lock.queue
mkdir -p "$queue"
ticket=$queue/$(date +%s%N).$$
touch "$ticket"
trap 'rm -f "$ticket"' EXIT
exec 9>"$lock"
waited=0
while :; do
	for t in "$queue"/*; do
		kill -0 "${t##*.}" 2>/dev/null || rm -f "$t"
	done
	first=$(ls "$queue" | sort | head -n 1)
	[ "$queue/$first" = "$ticket" ] && flock -n 9 && break
	[ "$waited" -eq 1 ] || info "build: waiting for another kernel build to finish"
	waited=1
	sleep 1
done
rm -f "$ticket"

targets=("$image")
grep -q '^CONFIG_MODULES=y' "$KBUILD_DIR/.config" && targets+=(modules)
info "build: $ARCH ${targets[*]} in $KBUILD_DIR (log: $LOG_DIR/build.log)"
start=$SECONDS
if ! run_logged "$LOG_DIR/build.log" build make "${make_args[@]}" "${targets[@]}"; then
	tail_log "$LOG_DIR/build.log" 40
	die "kernel build failed (full log: $LOG_DIR/build.log)"
fi
secs=$((SECONDS - start))
echo "$secs" >"$KBUILD_DIR/chopblock-build-seconds"
echo "$KBUILD_DIR/$image_path" >"$KBUILD_DIR/chopblock-image"
info "build: done in ${secs}s: $KBUILD_DIR/$image_path"
