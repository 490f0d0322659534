#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/pristine-tree.sh
#
# A read-only checkout of the pristine baseline beside the patched tree
# (build/pristine), for tests and benchmarks that compare the two. It is a
# git worktree of the same repository, so it costs a checkout, not an
# extraction, and it is refreshed only when the baseline changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
case ${1:-} in --help | -h) usage_from_header; exit 0 ;; "") ;; *) die "pristine-tree.sh takes no arguments" ;; esac

dir=$PRISTINE_DIR
# Tests that run side by side may ask for it at once: one checks it out.
mkdir -p "$(dirname "$dir")"
exec 8>"$dir.lock"
flock 8
want=$(git -C "$TREE_DIR" rev-parse "$BASELINE_TAG^{commit}") ||
	die "no pristine baseline in $TREE_DIR (run harness/tree.sh)"
if [ -d "$dir" ] && [ "$(git -C "$dir" rev-parse HEAD 2>/dev/null)" = "$want" ] &&
   [ -z "$(git -C "$dir" status --porcelain --untracked-files=no)" ]; then
	exit 0
fi
rm -rf "$dir"
git -C "$TREE_DIR" worktree prune
git -C "$TREE_DIR" worktree add -q --detach "$dir" "$want" ||
	die "could not check out the pristine tree in $dir"
info "pristine: $dir checked out at $BASELINE_TAG"
