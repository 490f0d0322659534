#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/sh4-before.sh
#
# The "before" picture: the pristine tree built for QEMU's sh4 r2d board
# (the kernel sh4-r2d of configs/kernels.list) and booted in qemu-system-sh4; then
# what that kernel really compiled, held against the series and against
# the analyzer:
#
# - the source files the series deletes that this sh4 kernel compiled;
# - the source files compiled for sh4 and for no other configuration of
#   the matrix (pristine x86_64, arm64, arm): ground truth for
#   `chopblock dead --remove-arch sh`, which should name each of them.
#   Those it does not name are disagreements. Each is classified: code
#   that the allyesconfig of another architecture enables (live, only not
#   in the matrix's small configurations), or unexplained.
#
# Report: build/matrix/sh4-before.txt. Exit status 1 on an unexplained
# disagreement, or on a file the series deletes that another configuration
# compiles.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; "") ;; *) die "sh4-before.sh takes no arguments" ;; esac
MATRIX_DIR=$BUILD_DIR/matrix
ANALYZER=$CHOPBLOCK_ROOT/analyzer/chopblock
# The other pristine kernels of the matrix.
OTHERS="x86_64-pristine arm64-pristine arm-pristine"
sh4=$KERNELS_DIR/sh4-r2d
out=$MATRIX_DIR/sh4-before
report=$MATRIX_DIR/sh4-before.txt

[ -x "$ANALYZER" ] || die "the analyzer is not built (make analyzer)"
for n in sh4-r2d $OTHERS; do
	[ -f "$KERNELS_DIR/$n/manifest" ] || die "no $n kernel in $KERNELS_DIR (run harness/matrix.sh $n)"
	[ "$(manifest "$KERNELS_DIR/$n" result)" = ok ] || die "the $n build failed (see $MATRIX_DIR/report.txt)"
done
mkdir -p "$out"

# 1. Boot it (the guest and its logs go beside the build, as for every
# matrix kernel).
info "sh4: booting the pristine r2d kernel"
rc=0
"$h/kernel.sh" sh4-r2d >/dev/null || rc=$?
boot_result=$(tail -n 1 "$sh4/logs/ktap-result.txt" 2>/dev/null || true)
[ "$rc" -eq 0 ] || boot_result="FAILED: ${boot_result:-no KTAP} (console: $sh4/logs/console.log)"
# The kernel boots only when compiled with the plugin of harness/sh4-gcc.sh.
flags=$("$h/sh4-gcc.sh")
[ -z "$flags" ] || grep -qF -- "$flags" "$sh4/kbuild/kernel/printk/.printk.o.cmd" ||
	die "the sh4 kernel was not compiled with $flags"

# 2. What each kernel compiled: the source of every object kbuild built
# (the source_ line fixdep writes into each .o.cmd), relative to the tree.
compiled() {
	find "$1" -name '.*.o.cmd' -print0 |
		xargs -0 sed -n 's#^source_[^ ]* := .*/pristine/##p' |
		LC_ALL=C sort -u
}
compiled "$sh4/kbuild" >"$out/sh4.compiled"
: >"$out/others.compiled"
: >"$out/others-real.compiled"
for n in $OTHERS; do
	compiled "$KERNELS_DIR/$n/kbuild" >>"$out/others.compiled"
	# COMPILE_TEST builds compile what no real machine runs (shdma-base.c
	# on x86_64): only the other configurations can prove a deleted file
	# was still in use.
	grep -q '^CONFIG_COMPILE_TEST=y' "$KERNELS_DIR/$n/kbuild/.config" ||
		compiled "$KERNELS_DIR/$n/kbuild" >>"$out/others-real.compiled"
done
LC_ALL=C sort -u -o "$out/others.compiled" "$out/others.compiled"
LC_ALL=C sort -u -o "$out/others-real.compiled" "$out/others-real.compiled"
LC_ALL=C comm -23 "$out/sh4.compiled" "$out/others.compiled" >"$out/sh4-only"

git -C "$TREE_DIR" diff --diff-filter=D --name-only "$BASELINE_TAG" "$SERIES_BRANCH" |
	LC_ALL=C sort >"$out/deleted"
LC_ALL=C comm -12 "$out/sh4.compiled" "$out/deleted" >"$out/sh4-deleted"
LC_ALL=C comm -12 "$out/others-real.compiled" "$out/deleted" >"$out/others-deleted"
LC_ALL=C comm -12 "$out/others.compiled" "$out/deleted" |
	LC_ALL=C comm -23 - "$out/others-real.compiled" >"$out/compile-test-deleted"

# 3. The analyzer's dead paths: files, headers, directories, arch/sh/.
"$ANALYZER" dead --tree "$PRISTINE_DIR" --remove-arch sh --json >"$out/dead.json" ||
	die "chopblock dead failed on $PRISTINE_DIR"
sed -n 's/.*"kind":"\(file\|header\|dir\|arch\)".*"path":"\([^"]*\)".*/\2/p' \
	"$out/dead.json" | LC_ALL=C sort -u >"$out/dead-paths"

is_dead() {
	local f=$1 p
	while IFS= read -r p; do
		case $p in
		*/) [[ $f == "$p"* ]] && return 0 ;;
		*) [ "$f" = "$p" ] && return 0 ;;
		esac
	done <"$out/dead-paths"
	return 1
}

# The line of Makefile $1 (continuation lines joined) that names object
# $2, followed by the conditions (ifeq/ifdef ...) it sits in.
find_line() {
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$1" | awk -v obj="$2" '
	/^[ \t]*(ifeq|ifneq|ifdef|ifndef)[ \t(]/ { cond[++depth] = $0; next }
	/^[ \t]*endif/ { if (depth) depth--; next }
	{
		l = " " $0 " "
		gsub(/[=+:\t]/, " ", l)
		if (index(l, " " obj " ")) {
			for (i = 1; i <= depth; i++)
				$0 = $0 " " cond[i]
			print
			exit
		}
	}'
}

# The Kconfig symbols on the Makefile line that names object $2 in
# directory $1 and of the conditions around it, following one level of
# composite objects (foo-y += x.o).
line_guards() {
	local dir=$1 obj=$2 mk line comp
	for mk in "$PRISTINE_DIR/$dir/Kbuild" "$PRISTINE_DIR/$dir/Makefile"; do
		[ -f "$mk" ] || continue
		line=$(find_line "$mk" "$obj")
		[ -n "$line" ] || continue
		comp=$(echo "$line" | sed -n 's/^[[:space:]]*\([A-Za-z0-9_-]*\)-\(y\|objs\|\$(CONFIG_[A-Za-z0-9_]*)\)[[:space:]]*[:+]\?=.*/\1/p')
		if [ -n "$comp" ] && [ "$comp" != obj ] && [ "$comp" != lib ]; then
			line+=" $(find_line "$mk" "$comp.o")"
		fi
		echo "$line" | grep -o 'CONFIG_[A-Za-z0-9_]*' | sort -u | tr '\n' ' '
		return 0
	done
}

# The Kconfig symbols that build a source file: those of the line naming
# its object, or, when that is obj-y, those that build its directory in the
# parent's Makefile, walking up until some symbol guards it.
guards() {
	local src=$1 dir syms
	dir=$(dirname "$src")
	syms=$(line_guards "$dir" "$(basename "${src%.*}").o")
	while [ -z "${syms// /}" ] && [ "$dir" != . ]; do
		syms=$(line_guards "$(dirname "$dir")" "$(basename "$dir")/")
		dir=$(dirname "$dir")
	done
	echo "$syms"
}

# allyesconfig of the other architectures: Kconfig's own answer to "can
# another architecture enable this symbol at all".
allyes_arches=
for n in $OTHERS; do
	a=$(manifest "$KERNELS_DIR/$n" arch)
	c=$(cross_prefix "$a")
	if [ ! -f "$out/allyes-$a/.config" ]; then
		make -s -C "$PRISTINE_DIR" O="$out/allyes-$a" ARCH="$a" CROSS_COMPILE="$c" \
			allyesconfig >"$out/allyes-$a.log" 2>&1 ||
			{ tail_log "$out/allyes-$a.log"; die "allyesconfig for $a failed"; }
	fi
	allyes_arches+=" $a"
done

agree=0 kept=0 generic=0 unexplained=0
: >"$out/disagreements"
while IFS= read -r f; do
	deleted=no
	grep -qxF "$f" "$out/deleted" && deleted=yes
	if is_dead "$f"; then
		if [ "$deleted" = yes ]; then
			agree=$((agree + 1))
		else
			kept=$((kept + 1))
			echo "  dead by chopblock, kept by the series: $f" >>"$out/disagreements"
		fi
		continue
	fi
	case $f in
	scripts/*)
		generic=$((generic + 1))
		echo "  live elsewhere, not in the matrix: $f: a kbuild host tool (built when modules are)" >>"$out/disagreements"
		continue ;;
	esac
	syms=$(guards "$f")
	where=
	for s in $syms; do
		for a in $allyes_arches; do
			if grep -qE "^$s=(y|m)" "$out/allyes-$a/.config"; then
				where="allyesconfig $a ($s)"
				break 2
			fi
		done
	done
	# Symbols that only architectures select (GENERIC_LIB_ASHLDI3): is one
	# selected by a surviving architecture outside the matrix?
	if [ -z "$where" ]; then
		for s in $syms; do
			k=$(grep -l -E "^[[:space:]]*select[[:space:]]+${s#CONFIG_}([[:space:]]|$)" \
				"$PRISTINE_DIR"/arch/*/Kconfig* 2>/dev/null | grep -v '/arch/sh/' | head -n 1 || true)
			if [ -n "$k" ]; then
				where="selected by ${k#"$PRISTINE_DIR"/} ($s)"
				break
			fi
		done
	fi
	if [ -n "$where" ]; then
		generic=$((generic + 1))
		echo "  live elsewhere, not in the matrix: $f: $where" >>"$out/disagreements"
	else
		unexplained=$((unexplained + 1))
		echo "  UNEXPLAINED: $f (deleted by the series: $deleted; guards: ${syms:-none found})" >>"$out/disagreements"
	fi
done <"$out/sh4-only"

{
	echo "chopblock sh4 \"before\" picture ($(date -u +%Y-%m-%dT%H:%MZ))"
	echo "  kernel                 pristine $(git -C "$PRISTINE_DIR" rev-parse --short HEAD), rts7751r2dplus_defconfig + configs/matrix/sh4-r2d.config"
	echo "  build                  $(manifest "$sh4" result) in $(manifest "$sh4" seconds)s"
	echo "  boot (qemu-system-sh4) $boot_result"
	echo "  objects compiled       $(grep -c . "$out/sh4.compiled") source files"
	echo "  of them deleted by the series $(grep -c . "$out/sh4-deleted") ($(grep -c '^arch/sh/' "$out/sh4-deleted") in arch/sh, $(grep -vc '^arch/sh/' "$out/sh4-deleted") elsewhere)"
	grep -v '^arch/sh/' "$out/sh4-deleted" | sed 's/^/    /'
	echo "  compiled for sh4 only  $(grep -c . "$out/sh4-only") (not by the pristine $OTHERS builds)"
	echo "    named dead by chopblock and deleted by the series: $agree"
	echo "    named dead by chopblock but kept by the series:    $kept"
	echo "    not named: live elsewhere, outside the matrix:       $generic"
	echo "    not named and unexplained:                         $unexplained"
	echo "  deleted by the series yet compiled by another configuration: $(grep -c . "$out/others-deleted")"
	sed 's/^/    /' "$out/others-deleted"
	echo "  deleted by the series, compiled elsewhere only with COMPILE_TEST: $(grep -c . "$out/compile-test-deleted")"
	sed 's/^/    /' "$out/compile-test-deleted"
	echo "  disagreements:"
	cat "$out/disagreements"
} >"$report"
cat "$report"
[ "$rc" -eq 0 ] && [ "$boot_result" = "5 passed, 0 failed" ] ||
	die "the sh4 guest: $boot_result (console: $sh4/logs/console.log)"
[ "$unexplained" -eq 0 ] && [ "$kept" -eq 0 ] && [ ! -s "$out/others-deleted" ] ||
	die "the sh4 ground truth disagrees with the analyzer or the series (see $report)"
