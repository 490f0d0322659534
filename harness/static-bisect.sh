#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/static-bisect.sh [--keep-going]
#
# The static half of make bisect: after every commit of the series,
# `chopblock check --baseline` against the pristine tree, in a worktree of
# its own (build/bisect/static-tree). A commit passes when check finds
# nothing that the commit before it did not: no object without a source,
# no include of a removed header, no Kconfig or Makefile reference to
# something removed. That is what breaks the build of some configuration
# after a commit, found without compiling. Findings are compared without
# their line numbers, since later commits move lines.
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
# Stops at the first failing commit, naming the patch and the findings,
# unless --keep-going. Report, one line a commit:
# build/bisect/static-report.txt.
#
#   --keep-going  check every commit; exit 1 at the end if one failed
#   --help        this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

keep_going=0
case ${1:-} in
--help | -h) usage_from_header; exit 0 ;;
--keep-going) keep_going=1 ;;
"") ;;
*) die "static-bisect.sh: unknown argument $1 (see --help)" ;;
esac
analyzer=$CHOPBLOCK_ROOT/analyzer/chopblock
[ -x "$analyzer" ] || die "the analyzer is not built (make analyzer)"
"$h/apply.sh" >&2
"$h/pristine-tree.sh" >&2
wt=$BUILD_DIR/bisect/static-tree
mkdir -p "$BUILD_DIR/bisect"
if [ ! -d "$wt" ]; then
	git -C "$TREE_DIR" worktree prune
	git -C "$TREE_DIR" worktree add -q --detach "$wt" "$BASELINE_TAG"
fi
mapfile -t commits < <(git -C "$TREE_DIR" rev-list --reverse "$BASELINE_TAG..$SERIES_BRANCH")
mapfile -t patches < <(series_patches)
total=${#commits[@]}
report=$BUILD_DIR/bisect/static-report.txt
: >"$report"
# The findings of a check log, one a line, "FILE: MESSAGE" (no line);
# what check lists as left behind does not count towards its verdict,
# and does not here either.
findings() {
	awk '/^== / { counted = ($0 !~ /^== Left behind/); next }
		counted && /^[^ =][^:]*:[0-9]+: / { sub(/:[0-9]+: /, ": "); print }' "$1" | LC_ALL=C sort -u
}
# The kinds an architecture's removal may leave for the later patches.
arch_leftover='(undefined symbol|missing header) '
failed=0
step=$BUILD_DIR/bisect/static-step.log
: >"$BUILD_DIR/bisect/static-prev"
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	n=$((i + 1))
	subject=$(git -C "$TREE_DIR" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	start=$SECONDS
	"$analyzer" check --tree "$wt" --baseline "$PRISTINE_DIR" >"$step" 2>&1 || true
	grep -q '^chopblock check: ' "$step" || { tail_log "$step"; die "chopblock check did not run on commit $n ($subject)"; }
	findings "$step" >"$BUILD_DIR/bisect/static-cur"
	LC_ALL=C comm -13 "$BUILD_DIR/bisect/static-prev" "$BUILD_DIR/bisect/static-cur" >"$BUILD_DIR/bisect/static-new"
	removes_arch=$(git -C "$TREE_DIR" diff-tree --no-commit-id --name-only --diff-filter=D -r "$c" |
		grep -E '^arch/[^/]+/Kconfig$' || true)
	if [ -n "$removes_arch" ]; then
		grep -Ev ": $arch_leftover" "$BUILD_DIR/bisect/static-new" >"$BUILD_DIR/bisect/static-bad" || true
	else
		cp "$BUILD_DIR/bisect/static-new" "$BUILD_DIR/bisect/static-bad"
	fi
	mv "$BUILD_DIR/bisect/static-cur" "$BUILD_DIR/bisect/static-prev"
	left=$(grep -c . "$BUILD_DIR/bisect/static-prev" || true)
	if [ ! -s "$BUILD_DIR/bisect/static-bad" ]; then
		printf 'ok   [%d/%d] %3ds %s%s\n' "$n" "$total" $((SECONDS - start)) "$subject" \
			"$([ "$left" -eq 0 ] || echo " ($left left for later patches)")" >>"$report"
		info "static bisect: [$n/$total] ok${removes_arch:+ (removes ${removes_arch%/Kconfig})}"
		continue
	fi
	failed=$((failed + 1))
	printf 'FAIL [%d/%d] %s (%s): %d new\n' "$n" "$total" "$subject" "${patches[$i]:-?}" \
		"$(grep -c . "$BUILD_DIR/bisect/static-bad")" >>"$report"
	# (head may close the pipe early: that is no failure of the step.)
	{ head -n 20 "$BUILD_DIR/bisect/static-bad" | sed 's/^/       /' >>"$report"; } || true
	{ head -n 20 "$BUILD_DIR/bisect/static-bad" >&2; } || true
	[ "$keep_going" -eq 1 ] ||
		die "chopblock check finds something new after patch $n/$total, ${patches[$i]:-?}: $subject (see $report)"
done
[ "$failed" -eq 0 ] || die "$failed of the $total commits leave findings for chopblock check (see $report)"
info "static bisect: chopblock check finds nothing new after any of the $total commits ($report)"
