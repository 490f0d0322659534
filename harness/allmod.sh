#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/allmod.sh [--arch ARCH]... [--full] [--jobs N]
#
# make allmod: the series as a 0-day build robot would see it. For each
# ARCH (default x86_64 and arm64), allmodconfig of the pristine tree and of
# the patched one (CONFIG_WERROR off, so that a warning does not stop the
# build and every one is seen), built with make -k, then the errors and
# warnings the patched build has that the pristine one has not, and the
# Kconfig warnings of the configuration step likewise. Report:
# build/allmod/report.txt; exit 1 when the series brings a new error or
# warning.
#
# What is built: by default, the objects the series' changes reach, which
# is what a robot reports on: every surviving .c file the series modifies
# for that ARCH (not under Documentation/, tools/, scripts/, samples/, or
# another architecture's arch/), and the .c files that include a header it
# modifies, up to 100 a header (one that more files include, say
# <linux/sched.h>, is left to --full; the report names it). With --full,
# the whole kernel (vmlinux and modules, modpost included): hours on two
# cores.
#
# Builds go to build/allmod/ARCH-{pristine,patched}/ through ccache (and
# distcc when DISTCC_HOSTS is set, as harness/build.sh does), one at a
# time on this machine (the build lock of harness/build.sh).
#
#   --arch ARCH   an architecture of configs/arches.list (repeatable)
#   --full        build everything, not only what the series reaches
#   --jobs N      make -j (default: the number of CPUs, or distcc -j)
#   --help        this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

arches=() full=0 jobs=
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arches+=("${2:?--arch needs an architecture}"); shift ;;
	--full) full=1 ;;
	--jobs) jobs=${2:?--jobs needs a number}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	*) die "allmod.sh: unknown argument $1 (see --help)" ;;
	esac
	shift
done
[ "${#arches[@]}" -gt 0 ] || arches=(x86_64 arm64)
[ -z "$jobs" ] || [[ $jobs =~ ^[1-9][0-9]*$ ]] || die "allmod.sh: --jobs wants a positive number, not '$jobs'"
for a in "${arches[@]}"; do
	grep -qx "$a" <<<"$(arch_list)" || die "allmod.sh: no architecture '$a' in configs/arches.list"
	cross=$(cross_prefix "$a")
	command -v "${cross}gcc" >/dev/null || die "compiler ${cross}gcc for ARCH=$a is missing (install gcc-${cross%-})"
done
"$h/apply.sh" >&2
"$h/pristine-tree.sh" >&2
out=$BUILD_DIR/allmod
mkdir -p "$out"
echo '# CONFIG_WERROR is not set' >"$out/allmod.config"

# The series' surviving modified files, and the headers among them.
git -C "$TREE_DIR" diff --name-only --diff-filter=M "$BASELINE_TAG" "$SERIES_BRANCH" |
	grep -Ev '^(Documentation|tools|scripts|samples)/' >"$out/modified" || true
[ -s "$out/modified" ] || die "allmod.sh: the series modifies no file"

# targets ARCH: the objects of the series for ARCH, one a line; the
# headers left to --full go to $out/ARCH.skipped. (The includers are read
# from the patched tree's checkout, which apply.sh left at the series.)
targets() {
	local a=$1 srcarch f inc n
	srcarch=$(case $a in x86_64 | i386) echo x86 ;; *) echo "$a" ;; esac)
	: >"$out/$a.skipped"
	{
		grep -E '\.c$' "$out/modified" || true
		for f in $(grep -E '\.h$' "$out/modified" || true); do
			inc=${f#include/}
			inc=${inc#arch/"$srcarch"/include/}
			if [ "$inc" != "$f" ]; then
				# <linux/x.h>: every file that names it.
				git -C "$TREE_DIR" grep -l -F "#include <$inc>" -- '*.c' >"$out/includers" || true
			else
				# "x.h": the .c files of its directory that name it.
				git -C "$TREE_DIR" grep -l -F "#include \"$(basename "$f")\"" -- "$(dirname "$f")/*.c" >"$out/includers" || true
			fi
			n=$(grep -c . "$out/includers" || true)
			if [ "$n" -gt 100 ]; then
				echo "$f (included by $n .c files)" >>"$out/$a.skipped"
			else
				cat "$out/includers"
			fi
		done
	} | grep -Ev "^arch/" | sort -u | sed 's/\.c$/.o/'
	# (arch/ files of ARCH itself, when the series modifies any)
	grep -E "^arch/$srcarch/.*\.c$" "$out/modified" | sed 's/\.c$/.o/' || true
}

# kbuild_guard MAKEFILE NAME: how MAKEFILE builds NAME (an object, or a
# directory with its trailing /): "always" for obj-y or obj-m, the
# CONFIG_ symbols of its obj-$(CONFIG_...) lines, one a line, or nothing
# when no obj- line names it (a composite object, say).
kbuild_guard() {
	[ -f "$1" ] || return 0
	awk -v name="$2" '
	{ line = line $0 }
	/\\$/ { sub(/\\$/, " ", line); next }
	{
		if (line ~ /^[[:space:]]*obj-/) {
			n = split(line, w, /[[:space:]:+]*=[[:space:]]*|[[:space:]]+/)
			for (i = 2; i <= n; i++)
				if (w[i] == name) {
					cond = line; sub(/^[[:space:]]*obj-/, "", cond); sub(/[[:space:]:+]*=.*/, "", cond)
					if (cond == "y" || cond == "m") print "always"
					else if (cond ~ /^\$\(CONFIG_[A-Za-z0-9_]+\)$/) { gsub(/^\$\(|\)$/, "", cond); print cond }
				}
		}
		line = ""
	}' "$1" | sort -u
}
# enabled_object KBUILD_CONFIG OBJECT: false for a host program, and when
# the object's Makefile (or its directory's parent) builds it only under
# symbols the configuration leaves off. A single-object build compiles whatever it is
# given, enabled or not: without this, allmodconfig on x86_64 compiles
# arm64's SDEI driver because it includes a header the series touched.
enabled_object() {
	local config=$1 obj=$2 dir base guards s
	dir=$(dirname "$obj") base=$(basename "$obj")
	# a host program (pnmtologo) is the build's tool, not a kernel object
	! grep -Eq "^[[:space:]]*hostprogs[^=]*=.*(^|[[:space:]=])${base%.o}([[:space:]]|\$)" \
		"$TREE_DIR/$dir/Makefile" 2>/dev/null || return 1
	guards=$(kbuild_guard "$TREE_DIR/$dir/Makefile" "$base")
	if [ -z "$guards" ] && [ -f "$TREE_DIR/$dir/Makefile" ]; then
		# a part of a composite object (tulip-objs := ... tulip_core.o):
		# the composite's guard
		local c
		for c in $(sed -nE "s/^[[:space:]]*([A-Za-z0-9_-]+)-(objs|y)[[:space:]]*[:+]?=.*[[:space:]]${base//./\\.}([[:space:]].*)?$/\1/p" \
			"$TREE_DIR/$dir/Makefile" | sort -u); do
			guards+=" $(kbuild_guard "$TREE_DIR/$dir/Makefile" "$c.o")"
		done
		guards=$(echo $guards)
	fi
	if [ -z "$guards" ] && [ "$dir" != . ]; then
		guards=$(kbuild_guard "$TREE_DIR/$(dirname "$dir")/Makefile" "$(basename "$dir")/")
	fi
	[ -n "$guards" ] || return 0
	for s in $guards; do
		[ "$s" = always ] && return 0
		grep -Eq "^$s=[ym]$" "$config" && return 0
	done
	return 1
}

# build ARCH POINT TREE: allmodconfig, then make -k of the targets; its
# log, warnings and errors under $out/ARCH-POINT/.
build() {
	local a=$1 point=$2 tree=$3 dir=$out/$1-$2 cross start rc=0
	local args=()
	cross=$(cross_prefix "$a")
	compiler_setup "$cross"
	args=(-C "$tree" O="$dir/kbuild" ARCH="$a" -j"${jobs:-$KB_JOBS}" CC="$KB_CC" HOSTCC="$KB_HOSTCC")
	[ -z "$cross" ] || args+=(CROSS_COMPILE="$cross")
	# From a clean build directory: an incremental build prints the
	# warnings of what it recompiles only (ccache replays the rest).
	rm -rf "$dir/kbuild" "$dir/disabled"
	mkdir -p "$dir/kbuild"
	make "${args[@]}" KCONFIG_ALLCONFIG="$out/allmod.config" allmodconfig >"$dir/config.log" 2>&1 ||
		{ tail_log "$dir/config.log"; die "allmodconfig failed for $a ($point)"; }
	grep -q '^# CONFIG_WERROR is not set' "$dir/kbuild/.config" ||
		die "allmodconfig for $a ($point): CONFIG_WERROR=n did not take"
	grep -E '^WARNING: |^warning: |: warning: ' "$dir/config.log" |
		sed -E 's#^([^ :]*/)?(tree|pristine)/##' | LC_ALL=C sort -u >"$dir/kconfig-warnings" || true
	local what=() label t
	if [ "$full" -eq 0 ]; then
		for t in "${targets_list[@]}"; do
			if enabled_object "$dir/kbuild/.config" "$t"; then what+=("$t"); else echo "$t" >>"$dir/disabled"; fi
		done
		label="${#what[@]} objects ($(grep -c . "$dir/disabled" 2>/dev/null || echo 0) more that allmodconfig does not enable)"
	else
		label=everything
	fi
	info "allmod: $a $point: $label (log: $dir/build.log)"
	start=$SECONDS
	echo "$label" >"$dir/built"
	run_logged "$dir/build.log" "allmod $a $point" make -k "${args[@]}" "${what[@]}" || rc=$?
	echo "$rc $((SECONDS - start))" >"$dir/result"
	"$h/warnings.sh" "$dir/build.log" >"$dir/warnings"
	"$h/warnings.sh" --errors "$dir/build.log" >"$dir/errors"
	info "allmod: $a $point: make exited $rc after $((SECONDS - start))s, $(grep -c . "$dir/errors" || true) error(s), $(grep -c . "$dir/warnings" || true) warning(s)"
}

kbuild_lock
report=$out/report.txt
{
	echo "chopblock allmod report ($(date -u +%Y-%m-%dT%H:%MZ))"
	echo "  series     $(git -C "$TREE_DIR" rev-list --count "$BASELINE_TAG..$SERIES_BRANCH") commits on $BASELINE_TAG"
	echo "  built      $([ "$full" -eq 1 ] && echo everything || echo "the objects the series reaches (--full: everything)")"
} >"$report"
new_total=0
for a in "${arches[@]}"; do
	mapfile -t targets_list < <(targets "$a")
	[ "$full" -eq 1 ] || [ "${#targets_list[@]}" -gt 0 ] || die "allmod.sh: no object of the series for $a"
	# An object the pristine tree has no source for is the patched tree's
	# own: keep only what both trees have, so that the two builds compare.
	keep=()
	for t in "${targets_list[@]}"; do
		[ -f "$PRISTINE_DIR/${t%.o}.c" ] && keep+=("$t")
	done
	targets_list=("${keep[@]}")
	build "$a" pristine "$PRISTINE_DIR"
	build "$a" patched "$TREE_DIR"
	p=$out/$a-pristine q=$out/$a-patched
	LC_ALL=C comm -13 "$p/errors" "$q/errors" >"$out/$a.new-errors"
	LC_ALL=C comm -13 "$p/warnings" "$q/warnings" >"$out/$a.new-warnings"
	LC_ALL=C comm -13 "$p/kconfig-warnings" "$q/kconfig-warnings" >"$out/$a.new-kconfig"
	n=$(cat "$out/$a.new-errors" "$out/$a.new-warnings" "$out/$a.new-kconfig" | grep -c . || true)
	new_total=$((new_total + n))
	{
		echo
		echo "$a allmodconfig: $(cat "$out/$a-patched/built")"
		for pt in pristine patched; do
			read -r rc secs <"$out/$a-$pt/result"
			printf '  %-9s make -k exited %s in %ss: %s errors, %s warnings\n' "$pt" "$rc" "$secs" \
				"$(grep -c . "$out/$a-$pt/errors" || true)" "$(grep -c . "$out/$a-$pt/warnings" || true)"
		done
		for kind in errors warnings kconfig; do
			echo "  new $kind: $(grep -c . "$out/$a.new-$kind" || true)"
			sed 's/^/    /' "$out/$a.new-$kind"
		done
		if [ "$full" -eq 0 ] && [ -s "$out/$a.skipped" ]; then
			echo "  headers of the series left to --full (too many includers):"
			sed 's/^/    /' "$out/$a.skipped"
		fi
	} >>"$report"
done
cat "$report"
[ "$new_total" -eq 0 ] || die "the series brings $new_total new error(s) or warning(s) under allmodconfig ($report)"
info "allmod: nothing new under allmodconfig ($report)"
