#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A missing, truncated or foreign tarball, or too little disk space, stops
# tree.sh with a one-line error and leaves no tree behind, neither a new
# one nor a half-extracted one.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
t=$scratch/tree
run_tree() { "$root/harness/tree.sh" --tree "$t" "$@"; }
no_tree() { [ ! -e "$t" ] && [ ! -e "$t.new" ] || fail "a tree was left behind in $t"; ok "no tree left behind"; }

expect_error "tarball .*/missing.tar.xz is missing" run_tree --tarball "$scratch/missing.tar.xz"
no_tree

head -c 1048576 "$TARBALL" >"$scratch/truncated.tar.xz"
expect_error "truncated.tar.xz is corrupt or truncated" run_tree --tarball "$scratch/truncated.tar.xz"
no_tree

mkdir -p "$scratch/foreign/x" && echo hi >"$scratch/foreign/x/file"
tar -cJf "$scratch/foreign.tar.xz" -C "$scratch/foreign" x
expect_error "does not hold a kernel tree" run_tree --tarball "$scratch/foreign.tar.xz"
no_tree

expect_error "not enough disk space" run_tree --min-free 999999999
no_tree
