#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/static-bisect.sh [--keep-going] [--base REV] [--tip REV] [--report FILE]
#
# The static bisect of make check and make bisect: `chopblock check` on
# the baseline, then after every commit of the series, in a worktree of
# its own (build/bisect/static-tree). A commit passes when check finds
# nothing that the commit before it did not: no object without a source,
# no include of a removed header, no Kconfig or Makefile reference to
# something removed. That is what breaks the build of some configuration
# after a commit, found without compiling. Findings are compared without
# their line numbers, since later commits move lines. (This is what
# `check --baseline pristine` reports after each commit, but the baseline
# is analyzed once instead of once a commit: about 2 s a commit.)
#
# References to a symbol the baseline defined are not findings here, as
# check --baseline does not count them: they build as if the symbol were
# off (a defconfig line naming a removed driver, the architecture's
# defconfig patch later taking it away); they are counted as left for
# later patches, and the last commit is held to them by the patched-tree
# test, 51. A symbol the baseline never defined is a finding.
#
# The one exception is a commit that removes an architecture (it deletes
# arch/NAME/Kconfig): upstream removes the architecture first, and the
# drivers that only it could build go in the patches after it. That
# commit may leave references to the architecture's symbols and headers
# in those drivers; each later commit may only take findings away, and
# the last one must leave none (the patched-tree test, 51, holds the
# series to that). An object without a source or a Kconfig source of a
# missing file fails even there: they break every configuration.
#
# Stops at the first failing commit, naming the patch and the findings
# (the first 20; all of them in build/bisect/static-bad),
# unless --keep-going. Report, one line a commit:
# build/bisect/static-report.txt.
#
#   --keep-going  check every commit; exit 1 at the end if one failed
#   --base REV    the baseline (default the tag pristine)
#   --tip REV     the last commit (default the branch series)
#                 (without either, the series is applied afresh first)
#   --report FILE the report (default build/bisect/static-report.txt)
#   --help        this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

keep_going=0 base=$BASELINE_TAG tip=$SERIES_BRANCH default_range=1
report=$BUILD_DIR/bisect/static-report.txt
while [ $# -gt 0 ]; do
	case $1 in
	--help | -h) usage_from_header; exit 0 ;;
	--keep-going) keep_going=1 ;;
	--base) base=${2:?--base needs a revision}; default_range=0; shift ;;
	--tip) tip=${2:?--tip needs a revision}; default_range=0; shift ;;
	--report) report=${2:?--report needs a file}; shift ;;
	*) die "static-bisect.sh: unknown argument $1 (see --help)" ;;
	esac
	shift
done
analyzer=$CHOPBLOCK_ROOT/analyzer/chopblock
[ -x "$analyzer" ] || die "the analyzer is not built (make analyzer)"
[ "$default_range" -eq 0 ] || "$h/apply.sh" >&2
for r in "$base" "$tip"; do
	git -C "$TREE_DIR" rev-parse -q --verify "$r^{commit}" >/dev/null || die "static bisect: no revision $r in $TREE_DIR"
done
wt=$BUILD_DIR/bisect/static-tree
mkdir -p "$BUILD_DIR/bisect"
if [ ! -d "$wt" ]; then
	git -C "$TREE_DIR" worktree prune
	git -C "$TREE_DIR" worktree add -q --detach "$wt" "$base"
fi
mapfile -t commits < <(git -C "$TREE_DIR" rev-list --reverse "$base..$tip")
[ "${#commits[@]}" -gt 0 ] || die "static bisect: no commit in $base..$tip"
# The series' patch names only when the range is the series.
patches=()
[ "$base..$tip" != "$BASELINE_TAG..$SERIES_BRANCH" ] || mapfile -t patches < <(series_patches)
total=${#commits[@]}
: >"$report"
# The findings of a check log, one a line, "FILE: MESSAGE" (no line);
# what check lists as left behind does not count towards its verdict,
# and does not here either.
findings() {
	awk '/^== / { counted = ($0 !~ /^== Left behind/); next }
		counted && /^[^ =][^:]*:[0-9]+: / { sub(/:[0-9]+: /, ": "); print }' "$1" | LC_ALL=C sort -u
}
# stale_references FILE: the new findings of FILE but the references to a
# symbol that the baseline defined (a Kconfig entry, or a #define of
# CONFIG_NAME; CONFIG_NAME_MODULE is NAME's). Those are what check --baseline files as left behind, not
# as findings: a defconfig line or an #ifdef naming a symbol the commit
# removed builds as before (as if the symbol were off), and a later patch
# of the series (an architecture's defconfig update) may take it away.
# A symbol the baseline never had is a new finding: a typo, say.
stale_references() {
	local names=() args=() n
	mapfile -t names < <(sed -n 's/^[^:]*: undefined symbol CONFIG_\([A-Za-z0-9_]*\)$/\1/p' "$1" | sort -u)
	if [ "${#names[@]}" -eq 0 ]; then cat "$1"; return; fi
	for n in "${names[@]}"; do
		# CONFIG_X_MODULE is X's, set when X=m.
		args+=(-e "^[[:space:]]*(menu)?config[[:space:]]+${n%_MODULE}([[:space:]]|\$)"
		       -e "#[[:space:]]*define[[:space:]]+CONFIG_$n([^A-Za-z0-9_]|\$)")
	done
	git -C "$TREE_DIR" grep -h -o -E "${args[@]}" "$base" -- 2>/dev/null |
		sed -E 's/[^A-Za-z0-9_]*$//; s/.*[[:space:]]//; s/^CONFIG_//' | sort -u >"$BUILD_DIR/bisect/static-defined" || true
	awk 'FILENAME == ARGV[1] { defined[$0] = 1; next }
		!/: undefined symbol CONFIG_[A-Za-z0-9_]*$/ { print; next }
		{ sym = $NF; sub(/^CONFIG_/, "", sym); x = sym; sub(/_MODULE$/, "", x)
		  if (!(sym in defined) && !(x in defined)) print }' \
		"$BUILD_DIR/bisect/static-defined" "$1"
}
# The kinds an architecture's removal may leave for the later patches.
arch_leftover='(undefined symbol|missing header) '
failed=0
step=$BUILD_DIR/bisect/static-step.log
# check_commit REV: chopblock check at REV, its findings in static-cur.
check_commit() {
	git -C "$wt" checkout -q --detach "$1"
	"$analyzer" check --tree "$wt" >"$step" 2>&1 || true
	grep -q '^chopblock check: ' "$step" || { tail_log "$step"; die "chopblock check did not run on $(git -C "$TREE_DIR" log -1 --format='%h (%s)' "$1")"; }
	findings "$step" >"$BUILD_DIR/bisect/static-cur"
}
check_commit "$base"
cp "$BUILD_DIR/bisect/static-cur" "$BUILD_DIR/bisect/static-base"
mv "$BUILD_DIR/bisect/static-cur" "$BUILD_DIR/bisect/static-prev"
info "static bisect: the baseline has $(grep -c . "$BUILD_DIR/bisect/static-prev" || true) finding(s); $total commit(s) to check"
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	n=$((i + 1))
	subject=$(git -C "$TREE_DIR" log -1 --format=%s "$c")
	start=$SECONDS
	check_commit "$c"
	LC_ALL=C comm -13 "$BUILD_DIR/bisect/static-prev" "$BUILD_DIR/bisect/static-cur" >"$BUILD_DIR/bisect/static-new"
	removes_arch=$(git -C "$TREE_DIR" diff-tree --no-commit-id --name-only --diff-filter=D -r "$c" |
		grep -E '^arch/[^/]+/Kconfig$' || true)
	if [ -n "$removes_arch" ]; then
		grep -Ev ": $arch_leftover" "$BUILD_DIR/bisect/static-new" >"$BUILD_DIR/bisect/static-bad" || true
	else
		stale_references "$BUILD_DIR/bisect/static-new" >"$BUILD_DIR/bisect/static-bad"
	fi
	mv "$BUILD_DIR/bisect/static-cur" "$BUILD_DIR/bisect/static-prev"
	left=$(LC_ALL=C comm -23 "$BUILD_DIR/bisect/static-prev" "$BUILD_DIR/bisect/static-base" | grep -c . || true)
	if [ ! -s "$BUILD_DIR/bisect/static-bad" ]; then
		printf 'ok   [%d/%d] %3ds %s%s\n' "$n" "$total" $((SECONDS - start)) "$subject" \
			"$([ "$left" -eq 0 ] || echo " ($left left for later patches)")" >>"$report"
		info "static bisect: [$n/$total] ok${removes_arch:+ (removes ${removes_arch%/Kconfig})}"
		continue
	fi
	failed=$((failed + 1))
	label=${patches[$i]:-$(git -C "$TREE_DIR" rev-parse --short "$c")}
	printf 'FAIL [%d/%d] %s (%s): %d new\n' "$n" "$total" "$subject" "$label" \
		"$(grep -c . "$BUILD_DIR/bisect/static-bad")" >>"$report"
	# (head may close the pipe early: that is no failure of the step.)
	{ head -n 20 "$BUILD_DIR/bisect/static-bad" | sed 's/^/       /' >>"$report"; } || true
	{ head -n 20 "$BUILD_DIR/bisect/static-bad" >&2; } || true
	[ "$keep_going" -eq 1 ] ||
		die "chopblock check finds something new after patch $n/$total, $label: $subject (see $report)"
done
[ "$failed" -eq 0 ] || die "$failed of the $total commits leave findings for chopblock check (see $report)"
info "static bisect: chopblock check finds nothing new after any of the $total commits ($report)"
