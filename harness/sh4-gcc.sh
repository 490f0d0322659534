#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/sh4-gcc.sh [--cc CC] [--out DIR]
#
# The extra C flags every sh4 compile needs with this machine's sh4
# cross compiler, printed on one line (empty when it needs none).
#
# Debian 12's gcc-sh4-linux-gnu miscompiles branches on loaded values
# (toolchain/sh_treg_combine_off.cc has the details). This compiles the
# probe toolchain/sh4-treg-probe.c at -O2; when the test before its branch
# is missing, it builds the plugin that gates the faulty passes off,
# checks that the probe is then right, and prints -fplugin=<plugin>.
# A compiler that gets the probe right is used as it is.
#
# The plugin's file name carries a hash of its source and of the
# compiler, so that ccache, which hashes the -fplugin= path and not the
# file, never replays objects built with an older plugin.
#
#   --cc CC    the compiler (default: configs/arches.list's sh cross gcc)
#   --out DIR  where the plugin is built (default /var/cache/chopblock, so
#              that every clone on the machine passes ccache the same
#              -fplugin= path and shares its sh4 objects; build/toolchain
#              when that is not writable)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cc= out=
while [ $# -gt 0 ]; do
	case $1 in
	--cc) cc=${2:?--cc needs a compiler}; shift ;;
	--out) out=${2:?--out needs a directory}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	*) die "sh4-gcc.sh: unknown argument $1 (see --help)" ;;
	esac
	shift
done
cc=${cc:-$(cross_prefix sh)gcc}
if [ -z "$out" ]; then
	out=$MACHINE_CACHE
	mkdir -p "$out" 2>/dev/null && [ -w "$out" ] || out=$BUILD_DIR/toolchain
fi
src=$CHOPBLOCK_ROOT/toolchain/sh_treg_combine_off.cc
probe=$CHOPBLOCK_ROOT/toolchain/sh4-treg-probe.c

command -v "$cc" >/dev/null || die "$cc is missing (install gcc-sh4-linux-gnu)"

# 0: the probe tests its flag before branching; 1: it does not.
probe_miscompiled() {
	local s
	s=$("$cc" "$@" -O2 -S -o - "$probe" 2>&1) ||
		die "$cc cannot compile $probe: $(tail -n 1 <<<"$s")"
	! grep -Eq '^[[:space:]]+tst[[:space:]]' <<<"$s"
}

probe_miscompiled || exit 0

version=$("$cc" -dumpversion)
plugin_dir=$("$cc" -print-file-name=plugin)
[ -f "$plugin_dir/include/plugin-version.h" ] ||
	die "$cc miscompiles sh4 code and its plugin headers are missing (install gcc-${version%%.*}-plugin-dev-sh4-linux-gnu)"
cxx=g++
command -v "$cxx" >/dev/null || die "$cxx is missing (install g++)"

hash=$( (cat "$src"; "$cc" --version) | sha1sum | cut -c1-12)
so=$out/sh_treg_combine_off-$hash.so
if [ ! -f "$so" ]; then
	mkdir -p "$out"
	log=$out/sh_treg_combine_off.log
	"$cxx" -shared -fPIC -fno-rtti -O2 -Wall -Wextra -Werror \
		-I"$plugin_dir/include" -o "$so.$$.tmp" "$src" >"$log.$$" 2>&1 ||
		{ tail_log "$log.$$" 10; die "the sh4 gcc plugin does not build (log: $log.$$)"; }
	# Another clone may be building it at the same moment: each writes
	# its own file, and the rename is atomic.
	mv "$so.$$.tmp" "$so"
	mv "$log.$$" "$log"
fi
if probe_miscompiled -fplugin="$so"; then
	die "$cc still miscompiles $probe with $so"
fi
echo "-fplugin=$so"
