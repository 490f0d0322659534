#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# With DISTCC_HOSTS set, harness/build.sh compiles over distcc, ccache in
# front (CCACHE_PREFIX=distcc). A distccd on the loopback address (a port
# of its own) builds a whole kernel: cover-arm64-rest, the arm64 kernel
# that 60-cross-build and 61-arm64-boot then check and boot, so that the
# proof costs no kernel build of its own (each kernel is built once per
# make check). distcc may not fall back to compiling here
# (DISTCC_FALLBACK=0), and distccd must have compiled at least half of
# the objects ccache missed (ccache's stats log counts them; distcc keeps
# some compiles local by its own rules).
#
# A warm machine cache leaves the kernel's build (almost) nothing to
# compile, and a kernel this clone already built is not built again:
# when fewer than 40 compiles missed, the test also builds mm/ of an
# x86_64 tinyconfig kernel over the same distccd with ccache told to
# compile again (CCACHE_RECACHE), so that every run sees the fan-out.
. "$(dirname "$0")/../lib.sh"
command -v distccd >/dev/null || fail "distccd is missing (harness/deps.sh installs distcc)"

port= first=$((20000 + RANDOM % 20000))
for p in $(seq "$first" $((first + 50))); do
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
done
[ -n "$port" ] || fail "no free port for distccd"
# distccd drops root for its own user; its log goes to our standard error.
distccd --no-detach --daemon --listen 127.0.0.1 --port "$port" --allow 127.0.0.1 \
	--user distccd --jobs "$(nproc)" --log-stderr --log-level info 2>"$scratch/distccd.log" &
dpid=$!
trap 'kill "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 50); do
	grep -qs 'listening on' "$scratch/distccd.log" && break
	sleep 0.1
done
grep -q 'listening on' "$scratch/distccd.log" || { cat "$scratch/distccd.log"; fail "distccd did not start"; }
# One job more than distccd runs: the client preprocesses a job while
# distccd compiles the others.
hosts="127.0.0.1:$port/$(($(nproc) + 1))"
remote() { grep -c 'COMPILE_OK' "$scratch/distccd.log" || true; }

# The whole kernel, as matrix.sh builds it (from a clean build directory
# when it needs building).
n=cover-arm64-rest
if ! DISTCC_HOSTS=$hosts DISTCC_FALLBACK=0 CCACHE_STATSLOG="$scratch/stats" \
	"$root/harness/build.sh" --clean "$n" >"$scratch/kernel.out" 2>&1; then
	tail -n 20 "$scratch/kernel.out"
	fail "the build of $n over distcc failed"
fi
kdir=$KERNELS_DIR/$n
[ "$(manifest "$kdir" result)" = ok ] || fail "$n: the manifest does not say ok"
[ -f "$(manifest "$kdir" image)" ] || fail "$n: no image at $(manifest "$kdir" image)"
# No stats log at all when nothing was compiled (the kernel was up to date).
misses=0
[ ! -f "$scratch/stats" ] || misses=$(grep -c '^cache_miss$' "$scratch/stats" || true)
whole=$(remote)
if [ "$misses" -ge 40 ]; then
	grep -q "over distcc (127.0.0.1:$port" "$scratch/kernel.out" ||
		fail "build.sh did not say it used distcc"
	[ $((whole * 2)) -ge "$misses" ] ||
		fail "$n: distccd compiled $whole jobs for $misses compiles that ccache missed"
	ok "$n built over distcc on 127.0.0.1:$port: distccd compiled $whole jobs for $misses compiles that ccache missed"
	exit 0
fi
echo "$n: $misses compiles missed the cache (distccd: $whole jobs); the fan-out is proven on mm/"

cat >"$scratch/kernels.list" <<EOF
tiny x86_64 patched check tinyconfig no - 00-boot.config
EOF
if ! DISTCC_HOSTS=$hosts DISTCC_FALLBACK=0 CCACHE_RECACHE=1 \
	"$root/harness/build.sh" --list "$scratch/kernels.list" --out "$scratch/tiny" \
	--target mm/ tiny >"$scratch/build.out" 2>&1; then
	tail -n 20 "$scratch/build.out"
	fail "the build over distcc failed"
fi
grep -q "over distcc (127.0.0.1:$port" "$scratch/build.out" || fail "build.sh did not say it used distcc"
[ "$(manifest "$scratch/tiny" result)" = ok ] || fail "the manifest does not say ok"
[ "$(manifest "$scratch/tiny" targets)" = mm/ ] || fail "the manifest does not name the targets"
# The kernel's own objects (host tools are built with HOSTCC, not distcc).
objects=$(find "$scratch/tiny/kbuild" -name '*.o.cmd' -not -path '*/scripts/*' -not -path '*/tools/*' | wc -l)
mm=$(($(remote) - whole))
[ "$objects" -ge 40 ] || fail "only $objects objects: not mm/ of a kernel"
[ $((mm * 2)) -ge "$objects" ] || fail "distccd compiled $mm of $objects objects"
ok "$n built over distcc with $misses cache misses; tinyconfig's mm/ built over distcc on 127.0.0.1:$port: distccd compiled $mm jobs for $objects objects"
