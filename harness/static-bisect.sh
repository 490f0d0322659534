#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/static-bisect.sh [--keep-going] [--base REV] [--tip REV] [--report FILE]
#
# The static bisect of make check and make bisect: `chopblock check` on
# the baseline, then after every commit of the series, in worktrees of
# its own (build/bisect/static-tree*, one a CPU: the commits are checked
# side by side, then compared in order). A commit passes when check finds
# nothing that the commit before it did not: no object without a source,
# no include of a removed header, no Kconfig or Makefile reference to
# something removed. That is what breaks the build of some configuration
# after a commit, found without compiling. Findings are compared without
# their line numbers, since later commits move lines. (This is what
# `check --baseline pristine` reports after each commit, but the baseline
# is analyzed once instead of once a commit: about 2.5 s a commit and
# CPU.)
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
bdir=$BUILD_DIR/bisect
mkdir -p "$bdir"
# worktree K: the worktree of worker K (created at the baseline).
worktree() {
	local wt=$bdir/static-tree${1#0}
	if [ ! -d "$wt" ]; then
		git -C "$TREE_DIR" worktree prune
		git -C "$TREE_DIR" worktree add -q --detach "$wt" "$base" >&2
	fi
	echo "$wt"
}
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
# symbol that the baseline defined (static-defined: a Kconfig entry, or a
# #define of CONFIG_NAME; CONFIG_NAME_MODULE is NAME's). Those are what
# check --baseline files as left behind, not as findings: a defconfig line or an #ifdef naming a symbol the commit
# removed builds as before (as if the symbol were off), and a later patch
# of the series (an architecture's defconfig update) may take it away.
# A symbol the baseline never had is a new finding: a typo, say.
stale_references() {
	awk 'FILENAME == ARGV[1] { defined[$0] = 1; next }
		!/: undefined symbol CONFIG_[A-Za-z0-9_]*$/ { print; next }
		{ sym = $NF; sub(/^CONFIG_/, "", sym); x = sym; sub(/_MODULE$/, "", x)
		  if (!(sym in defined) && !(x in defined)) print }' \
		"$bdir/static-defined" "$1"
}
# The kinds an architecture's removal may leave for the later patches.
arch_leftover='(undefined symbol|missing header) '
failed=0
# check_commit WORKTREE REV OUT: chopblock check at REV, its findings in
# OUT, the seconds it took in OUT.seconds; OUT.log when check did not run.
check_commit() {
	local start=$SECONDS
	git -C "$1" checkout -q --detach "$2"
	"$analyzer" check --tree "$1" >"$3.log" 2>&1 || true
	grep -q '^chopblock check: ' "$3.log" || return 1
	findings "$3.log" >"$3"
	echo $((SECONDS - start)) >"$3.seconds"
	rm -f "$3.log"
}
fdir=$bdir/static-findings
rm -rf "$fdir"
mkdir -p "$fdir"
wt=$(worktree 0)
check_commit "$wt" "$base" "$fdir/0" || { tail_log "$fdir/0.log"; die "chopblock check did not run on the baseline $base"; }
cp "$fdir/0" "$bdir/static-base"
# The symbols the baseline defines: its Kconfig entries and its #defines
# of CONFIG_ names, read once from the checked-out baseline.
{ git -C "$wt" grep -h -o -E -e '^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' \
	-e '#[[:space:]]*define[[:space:]]+CONFIG_[A-Za-z0-9_]+' || true; } |
	sed -E 's/.*[[:space:]]//; s/^CONFIG_//' | LC_ALL=C sort -u >"$bdir/static-defined"
info "static bisect: the baseline has $(grep -c . "$bdir/static-base" || true) finding(s); $total commit(s) to check"

# The commits, checked side by side: worker K takes every JOBS-th one,
# in a worktree of its own (a checkout each: at most 4).
jobs=$(nproc)
[ "$jobs" -le 4 ] || jobs=4
[ "$jobs" -le "$total" ] || jobs=$total
for ((k = 1; k < jobs; k++)); do worktree "$k" >/dev/null; done
worker() { # K
	local wt i n
	wt=$(worktree "$1")
	for ((i = $1; i < total; i += jobs)); do
		n=$((i + 1))
		check_commit "$wt" "${commits[$i]}" "$fdir/$n" || return 1
		info "static bisect: [$n/$total] checked"
	done
}
pids=()
for ((k = 0; k < jobs; k++)); do
	worker "$k" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done

cp "$fdir/0" "$bdir/static-prev"
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	n=$((i + 1))
	subject=$(git -C "$TREE_DIR" log -1 --format=%s "$c")
	if [ ! -f "$fdir/$n.seconds" ]; then
		[ ! -f "$fdir/$n.log" ] || tail_log "$fdir/$n.log"
		die "chopblock check did not run on patch $n/$total, $(git -C "$TREE_DIR" log -1 --format='%h (%s)' "$c")"
	fi
	cp "$fdir/$n" "$bdir/static-cur"
	LC_ALL=C comm -13 "$bdir/static-prev" "$bdir/static-cur" >"$bdir/static-new"
	removes_arch=$(git -C "$TREE_DIR" diff-tree --no-commit-id --name-only --diff-filter=D -r "$c" |
		grep -E '^arch/[^/]+/Kconfig$' || true)
	if [ -n "$removes_arch" ]; then
		grep -Ev ": $arch_leftover" "$bdir/static-new" >"$bdir/static-bad" || true
	else
		stale_references "$bdir/static-new" >"$bdir/static-bad"
	fi
	mv "$bdir/static-cur" "$bdir/static-prev"
	left=$(LC_ALL=C comm -23 "$bdir/static-prev" "$bdir/static-base" | grep -c . || true)
	if [ ! -s "$bdir/static-bad" ]; then
		printf 'ok   [%d/%d] %3ds %s%s\n' "$n" "$total" "$(cat "$fdir/$n.seconds")" "$subject" \
			"$([ "$left" -eq 0 ] || echo " ($left left for later patches)")" >>"$report"
		info "static bisect: [$n/$total] ok${removes_arch:+ (removes ${removes_arch%/Kconfig})}"
		continue
	fi
	failed=$((failed + 1))
	label=${patches[$i]:-$(git -C "$TREE_DIR" rev-parse --short "$c")}
	printf 'FAIL [%d/%d] %s (%s): %d new\n' "$n" "$total" "$subject" "$label" \
		"$(grep -c . "$bdir/static-bad")" >>"$report"
	# (head may close the pipe early: that is no failure of the step.)
	{ head -n 20 "$bdir/static-bad" | sed 's/^/       /' >>"$report"; } || true
	{ head -n 20 "$bdir/static-bad" >&2; } || true
	[ "$keep_going" -eq 1 ] ||
		die "chopblock check finds something new after patch $n/$total, $label: $subject (see $report)"
done
[ "$failed" -eq 0 ] || die "$failed of the $total commits leave findings for chopblock check (see $report)"
info "static bisect: chopblock check finds nothing new after any of the $total commits ($report)"
