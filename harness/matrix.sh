#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cross-architecture build matrix: every configuration of
# configs/matrix/matrix.list built from the pristine baseline and from the
# patched tree, with its result, its time and the compiler warnings the
# series introduced (warnings of the patched build that the pristine build
# of the same configuration does not have).
#
#   harness/matrix.sh [NAME[:pristine|:patched] ...]
#
# Without arguments every configuration is built in both trees (as the list
# says). The report goes to build/matrix/report.txt; the builds themselves
# go through harness/build.sh (its config check, its machine-wide lock).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

LIST=${CHOPBLOCK_MATRIX_LIST:-$CHOPBLOCK_ROOT/configs/matrix/matrix.list}
MATRIX_DIR=${CHOPBLOCK_MATRIX_DIR:-$BUILD_DIR/matrix}
PRISTINE_DIR=${CHOPBLOCK_PRISTINE:-$BUILD_DIR/pristine}

[ -f "$LIST" ] || die "matrix list $LIST is missing"
mkdir -p "$MATRIX_DIR"

# name arch base trees fragments...
declare -A m_arch m_base m_trees m_frags
names=()
lineno=0
while IFS= read -r line; do
	lineno=$((lineno + 1))
	line=${line%%#*}
	read -r -a f <<<"$line"
	[ "${#f[@]}" -gt 0 ] || continue
	[ "${#f[@]}" -ge 5 ] || die "$LIST:$lineno: want: name arch base-config trees fragment..."
	case ${f[3]} in both | pristine) ;; *) die "$LIST:$lineno: trees must be both or pristine, not ${f[3]}" ;; esac
	n=${f[0]}
	m_arch[$n]=${f[1]} m_base[$n]=${f[2]} m_trees[$n]=${f[3]}
	m_frags[$n]=
	for frag in "${f[@]:4}"; do
		[ -f "$CHOPBLOCK_ROOT/configs/$frag" ] || die "$LIST:$lineno: no fragment configs/$frag"
		m_frags[$n]+="$CHOPBLOCK_ROOT/configs/$frag "
	done
	names+=("$n")
done <"$LIST"

# What to build: name:tree pairs.
jobs=()
if [ $# -eq 0 ]; then
	for n in "${names[@]}"; do
		jobs+=("$n:pristine")
		[ "${m_trees[$n]}" = pristine ] || jobs+=("$n:patched")
	done
else
	for a in "$@"; do
		n=${a%%:*}
		[ -n "${m_arch[$n]:-}" ] || die "no configuration '$n' in $LIST (have: ${names[*]})"
		case $a in
		*:pristine | *:patched) t=${a#*:} ;;
		*:*) die "'$a': the tree is pristine or patched" ;;
		*) t= ;;
		esac
		if [ "$t" = patched ] && [ "${m_trees[$n]}" = pristine ]; then
			die "$n is built from the pristine tree only"
		fi
		if [ -z "$t" ] || [ "$t" = pristine ]; then jobs+=("$n:pristine"); fi
		if [ -z "$t" ] && [ "${m_trees[$n]}" = both ] || [ "$t" = patched ]; then
			jobs+=("$n:patched")
		fi
	done
fi

"$h/pristine-tree.sh"
git -C "$TREE_DIR" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
	die "no patched tree in $TREE_DIR (run harness/apply.sh)"

failed=0
for job in "${jobs[@]}"; do
	n=${job%%:*} t=${job#*:}
	out=$MATRIX_DIR/$n-$t
	src=$PRISTINE_DIR
	[ "$t" = pristine ] || src=$TREE_DIR
	rm -f "$out.result"
	info "matrix: $n ($t tree, ARCH=${m_arch[$n]}, ${m_base[$n]})"
	rc=0
	ARCH=${m_arch[$n]} CHOPBLOCK_BASE_CONFIG=${m_base[$n]} \
		CHOPBLOCK_FRAGMENTS=${m_frags[$n]} CHOPBLOCK_TREE=$src \
		CHOPBLOCK_KBUILD=$out CHOPBLOCK_LOGS=$out.logs "$h/build.sh" || rc=$?
	if [ "$rc" -eq 0 ]; then
		result=ok
	else
		result=FAILED
		failed=$((failed + 1))
	fi
	secs=$(cat "$out/chopblock-build-seconds" 2>/dev/null || echo -)
	[ "$rc" -eq 0 ] || secs=-
	"$h/warnings.sh" "$out.logs/build.log" >"$out.warnings" 2>/dev/null || : >"$out.warnings"
	echo "$result $secs $(git -C "$src" rev-parse --short HEAD)" >"$out.result"
done

rc=0
"$h/matrix-report.sh" || rc=$?
[ "$rc" -ne 3 ] || die "the series introduced compiler warnings (see $MATRIX_DIR/report.txt)"
[ "$failed" -eq 0 ] || die "$failed matrix build(s) failed (see $MATRIX_DIR/report.txt)"
