#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# With DISTCC_HOSTS set, harness/build.sh compiles over distcc, ccache in
# front: a distccd on the loopback address (a port of its own) builds the
# mm/ objects of an x86_64 tinyconfig kernel of the series (a partial
# build, build.sh --target: the fan-out is the same for every directory,
# and the whole kernel cost 4-5 minutes here). ccache is told to compile again
# (CCACHE_RECACHE) so that a warm cache cannot hide the fan-out, and
# distcc may not fall back to compiling here (DISTCC_FALLBACK=0). distcc
# runs some compiles locally by its own rules (preprocessing, the
# compiler probes of Kbuild), so the test asks that distccd compiled at
# least half of the objects and that the build succeeded.
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

cat >"$scratch/kernels.list" <<EOF
tiny x86_64 patched check tinyconfig no - 00-boot.config
EOF
if ! DISTCC_HOSTS="127.0.0.1:$port/$(nproc)" DISTCC_FALLBACK=0 CCACHE_RECACHE=1 \
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
remote=$(grep -c 'COMPILE_OK' "$scratch/distccd.log" || true)
[ "$objects" -ge 40 ] || fail "only $objects objects: not mm/ of a kernel"
[ $((remote * 2)) -ge "$objects" ] || fail "distccd compiled $remote of $objects objects"
ok "tinyconfig's mm/ built over distcc on 127.0.0.1:$port: distccd compiled $remote jobs for $objects objects"
