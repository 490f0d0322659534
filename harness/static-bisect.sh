#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/static-bisect.sh [--keep-going]
#
# The static half of make bisect: after every commit of the series,
# `chopblock check --baseline` against the pristine tree, in a worktree of
# its own (build/bisect/static-tree). A commit passes when check finds
# nothing new: no object without a source, no include of a removed
# header, no Kconfig or Makefile reference to something removed. That is
# what breaks the build of some configuration after a commit, found
# without compiling. Stops at the first commit with a finding, naming
# the patch and the findings, unless --keep-going. Report, one line a
# commit: build/bisect/static-report.txt.
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
failed=0
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	n=$((i + 1))
	subject=$(git -C "$TREE_DIR" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	start=$SECONDS
	if "$analyzer" check --tree "$wt" --baseline "$PRISTINE_DIR" >"$BUILD_DIR/bisect/static-step.log" 2>&1; then
		printf 'ok   [%d/%d] %3ds %s\n' "$n" "$total" $((SECONDS - start)) "$subject" >>"$report"
		info "static bisect: [$n/$total] ok"
		continue
	fi
	failed=$((failed + 1))
	printf 'FAIL [%d/%d] %s (%s)\n' "$n" "$total" "$subject" "${patches[$i]:-?}" >>"$report"
	sed -n '/^  *[1-9][0-9]*$/p; /: /p' "$BUILD_DIR/bisect/static-step.log" | grep -v '  0$' | head -n 20 |
		sed 's/^/       /' >>"$report"
	grep -v ' 0$' "$BUILD_DIR/bisect/static-step.log" | tail -n 20 >&2
	[ "$keep_going" -eq 1 ] ||
		die "chopblock check finds something new after patch $n/$total, ${patches[$i]:-?}: $subject (see $report)"
done
[ "$failed" -eq 0 ] || die "$failed of the $total commits leave findings for chopblock check (see $report)"
info "static bisect: chopblock check finds nothing new after any of the $total commits ($report)"
