#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/configure.sh [OPTIONS] NAME
#        harness/configure.sh [OPTIONS] --arch ARCH [--base TARGET] FRAGMENT...
#
# The configuration step of harness/build.sh and nothing after it: no
# kernel is compiled. The base configuration target (tinyconfig, a
# defconfig), the fragments merged with the tree's merge_config.sh -m,
# olddefconfig; then every CONFIG_FOO=... and "# CONFIG_FOO is not set"
# line of every fragment is checked against the final .config, and each
# one that did not take is named ("config symbol CONFIG_FOO did not
# take: requested ..., got ..."). Exit status 1 when one did not.
#
# NAME is a row of configs/kernels.list (its arch, base and fragments);
# otherwise --arch, --base and the fragments are given. Takes seconds and
# no build lock: only the kconfig tools are compiled.
#
#   --list FILE   another kernel list (default configs/kernels.list)
#   --tree DIR    the kernel tree (default: the row's tree point,
#                 pristine or patched; build/tree without a row)
#   --out DIR     where the .config goes (default build/configs/NAME,
#                 or build/configs/ARCH)
#   --arch ARCH   the kernel's ARCH (a row of configs/arches.list)
#   --base TARGET the base configuration target (default tinyconfig)
#   --may-not-take FILE  the symbols listed in FILE (CONFIG_FOO, one a
#                 line) may fail to take: make bisect's commits before the
#                 patch that makes a symbol settable. Those that did not
#                 take are named in OUT/untaken; the others must take
#   --help        this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"

list=$KERNELS_LIST tree= out= arch= base=tinyconfig name= frags=() may_not_take=/dev/null
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=${2:?--list needs a file}; shift ;;
	--tree) tree=${2:?--tree needs a directory}; shift ;;
	--out) out=${2:?--out needs a directory}; shift ;;
	--arch) arch=${2:?--arch needs an architecture}; shift ;;
	--base) base=${2:?--base needs a configuration target}; shift ;;
	--may-not-take) may_not_take=${2:?--may-not-take needs a file}; shift
		[ -f "$may_not_take" ] || die "configure.sh: no file $may_not_take" ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "configure.sh: unknown option $1 (see --help)" ;;
	*) if [ -z "$arch" ] && [ -z "$name" ]; then name=$1; else frags+=("$1"); fi ;;
	esac
	shift
done

if [ -n "$name" ]; then
	[ "${#frags[@]}" -eq 0 ] || die "configure.sh: give a kernel NAME or --arch with fragments, not both"
	kernel_row "$name" "$list"
	arch=$K_ARCH base=$K_BASE
	read -r -a frags <<<"$K_FRAGMENTS"
	if [ -z "$tree" ]; then
		case $K_TREE in
		pristine) "$(dirname "$0")/pristine-tree.sh" >&2; tree=$PRISTINE_DIR ;;
		patched) tree=$TREE_DIR ;;
		*) die "configure.sh: kernel $name is at tree point $K_TREE: give its tree with --tree" ;;
		esac
	fi
	out=${out:-$BUILD_DIR/configs/$name}
else
	[ -n "$arch" ] || die "configure.sh: which kernel? (a NAME, or --arch ARCH and fragments; see --help)"
	[ "${#frags[@]}" -gt 0 ] || die "configure.sh: no fragment given"
	out=${out:-$BUILD_DIR/configs/$arch}
fi
tree=${tree:-$TREE_DIR}
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree (run harness/tree.sh)"
for f in "${frags[@]}"; do
	[ -f "$f" ] || die "configure.sh: no fragment $f"
done
cross=$(cross_prefix "$arch")
command -v "${cross}gcc" >/dev/null ||
	die "compiler ${cross}gcc for ARCH=$arch is missing (install gcc-${cross%-})"

mkdir -p "$out"
out=$(cd "$out" && pwd)
# The kconfig programs through ccache, as build.sh compiles them; the
# compiler probes of the Kconfig files run the plain compiler.
compiler_setup "$cross"
make_args=(-C "$tree" O="$out" ARCH="$arch" HOSTCC="$KB_HOSTCC")
[ -z "$cross" ] || make_args+=(CROSS_COMPILE="$cross")
log=$out/config.log
abs=()
for f in "${frags[@]}"; do abs+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
{
	make "${make_args[@]}" "$base" &&
	(cd "$tree" && ARCH=$arch scripts/kconfig/merge_config.sh -m \
		-O "$out" "$out/.config" "${abs[@]}") &&
	make "${make_args[@]}" olddefconfig
} >"$log" 2>&1 || {
	tail_log "$log"
	die "configuration of ${name:-$arch} failed (full log: $log)"
}

# Every CONFIG_FOO=val and "# CONFIG_FOO is not set" line must hold,
# but those --may-not-take lists, which are only named in OUT/untaken.
missing=0
: >"$out/untaken"
while IFS=$'\t' read -r sym want; do
	have=$(grep -E "^($sym=|# $sym is not set)" "$out/.config" || true)
	if [ "$have" != "$want" ] && ! { [ -z "$have" ] && [ "$want" = "# $sym is not set" ]; }; then
		if grep -qx "$sym" "$may_not_take"; then
			echo "$sym" >>"$out/untaken"
			echo "chopblock: configure: $sym did not take (allowed): requested '$want', got '${have:-undefined}'" >&2
			continue
		fi
		echo "chopblock: error: config symbol $sym did not take: requested '$want', got '${have:-undefined}'" >&2
		missing=$((missing + 1))
	fi
done < <(fragment_lines "${abs[@]}")
[ "$missing" -eq 0 ] ||
	die "$missing requested config symbol(s) did not take for ${name:-$arch} (see $log)"
untaken=$(grep -c . "$out/untaken" || true)
if [ "$untaken" -gt 0 ]; then
	info "configure: ${name:-$arch}: $untaken symbol(s) allowed not to take did not ($out/untaken); every other line of ${#frags[@]} fragment(s) took"
else
	info "configure: ${name:-$arch}: every line of ${#frags[@]} fragment(s) took ($out/.config)"
fi
