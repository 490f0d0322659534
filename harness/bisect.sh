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
#
# The row's fragments describe the whole series: a symbol that only a
# patch of it makes settable (a prompt it adds) cannot take before that
# patch. Such symbols may fail to take, but only while they had not taken
# yet: the baseline's list of them may only shrink from commit to commit,
# the report names where each becomes settable, and it is empty at the
# series' end.
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
# At the baseline any requested symbol may fail to take; after it, only
# those that had not taken by the commit before.
allowed=$BUILD_DIR/bisect/may-not-take-$name
read -r -a frags <<<"$K_FRAGMENTS"
fragment_lines "${frags[@]}" | cut -f1 | sort -u >"$allowed"
# The kernel builds at the depth build/kernels/NAME/kbuild has below
# build/tree, so that ccache (paths relative to build/) finds the objects
# of make check's kernel of the same row for every file the commit has as
# the series' end has it.
kdir=$BUILD_DIR/bisect/kernels/$name
untaken_file=$kdir/kbuild/untaken
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
	if ! "$h/build.sh" --tree "$wt" --out "$kdir" --skip-unread \
		--may-not-take "$allowed" "${reuse[@]}" "$name" \
		>"$BUILD_DIR/bisect/step.log" 2>&1; then
		cat "$BUILD_DIR/bisect/step.log" >&2
		echo "FAIL [$i/$total] $subject" >>"$report"
		die "$name build fails after patch $i/$total: $subject"
	fi
	built_at=$(manifest "$kdir" built_at)
	[ "$built_at" != "$c" ] || built=$((built + 1))
	[ -f "$untaken_file" ] ||
		die "$name: build.sh left no list of the symbols that did not take ($untaken_file)"
	# Which requested symbols this commit made settable, or (at the
	# baseline) which are not yet.
	note=
	if [ "$i" -eq 0 ]; then
		[ ! -s "$untaken_file" ] ||
			note=" (not settable yet: $(tr '\n' ' ' <"$untaken_file" | sed 's/ $//'))"
	else
		now=$(comm -23 "$allowed" <(sort -u "$untaken_file") | tr '\n' ' ' | sed 's/ $//')
		[ -z "$now" ] || note=" (settable from here: $now)"
	fi
	sort -u "$untaken_file" >"$allowed"
	if [ "$built_at" = "$c" ]; then
		printf '%s [%d/%d] %4ds %s%s\n' ok "$i" "$total" $((SECONDS - start)) "$subject" "$note"
	else
		printf '%s [%d/%d] %4ds %s (reads nothing it changes: the build of %.12s stands)%s\n' \
			same "$i" "$total" $((SECONDS - start)) "$subject" "$built_at" "$note"
	fi | tee -a "$report"
	i=$((i + 1))
done
[ ! -s "$allowed" ] ||
	die "$name: at the series' end these requested symbols still do not take: $(tr '\n' ' ' <"$allowed")"
info "bisect: the $name build passes at the baseline and after each of the $total patches, $built of the $((total + 1)) steps built, the others reading nothing they changed ($report)"
