#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/bisect.sh [NAME]
#
# Prove the series bisectable: build the kernel NAME of
# configs/kernels.list (default main, the x86_64 harness configuration) at
# the pristine baseline and after every patch, incrementally in a worktree
# and kernel directory of its own (build/bisect). Stops at the first patch
# that breaks the build, naming it. Report: build/bisect/report-NAME.txt.
#
# A commit whose changes the last build never read (harness/unread.sh:
# no source or header in its dependency lists, no Makefile of a directory
# it descended into, not scripts/ or tools/) and that leaves the .config
# as it was would compile and link exactly what that build did: it is
# not built again, and its report line says "same" and which build it
# stands on.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; esac
name=${1:-main}
kernel_row "$name"
"$h/apply.sh"
wt=$BUILD_DIR/bisect/tree
mkdir -p "$BUILD_DIR/bisect"
if [ ! -d "$wt" ]; then
	git -C "$TREE_DIR" worktree prune
	git -C "$TREE_DIR" worktree add -q --detach "$wt" "$BASELINE_TAG"
fi
commits=$(git -C "$TREE_DIR" rev-list --reverse "$BASELINE_TAG..$SERIES_BRANCH")
total=$(echo "$commits" | grep -c . || true)
report=$BUILD_DIR/bisect/report-$name.txt
: >"$report"
i=0 prev= built=0
for c in $(git -C "$TREE_DIR" rev-parse "$BASELINE_TAG^{commit}") $commits; do
	subject=$(git -C "$TREE_DIR" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	start=$SECONDS
	# A commit that changes no Kconfig file, no base configuration and
	# not the configurator gives the same .config: keep the last one
	# (configuring costs about 6 s a commit).
	reuse=()
	if [ -n "$prev" ] && ! git -C "$TREE_DIR" diff --name-only "$prev" "$c" |
		grep -Eq '(^|/)Kconfig|/configs/|^scripts/kconfig/'; then
		reuse=(--reuse-config)
	fi
	prev=$c
	if ! "$h/build.sh" --tree "$wt" --out "$BUILD_DIR/bisect/$name" --skip-unread "${reuse[@]}" "$name" \
		>"$BUILD_DIR/bisect/step.log" 2>&1; then
		cat "$BUILD_DIR/bisect/step.log" >&2
		echo "FAIL [$i/$total] $subject" >>"$report"
		die "$name build fails after patch $i/$total: $subject"
	fi
	built_at=$(manifest "$BUILD_DIR/bisect/$name" built_at)
	[ "$built_at" != "$c" ] || built=$((built + 1))
	if [ "$built_at" = "$c" ]; then
		printf '%s [%d/%d] %4ds %s\n' ok "$i" "$total" $((SECONDS - start)) "$subject"
	else
		printf '%s [%d/%d] %4ds %s (reads nothing it changes: the build of %.12s stands)\n' \
			same "$i" "$total" $((SECONDS - start)) "$subject" "$built_at"
	fi | tee -a "$report"
	i=$((i + 1))
done
info "bisect: the $name build passes at the baseline and after each of the $total patches, $built of the $((total + 1)) steps built, the others reading nothing they changed ($report)"
