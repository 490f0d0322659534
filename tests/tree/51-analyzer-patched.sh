#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On the patched tree, chopblock dead --remove-arch sh finds nothing left,
# and chopblock check --baseline <pristine> finds no new dangling reference.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
"$root/harness/pristine-tree.sh" || fail "no pristine checkout"
exec "$root/tests/analyzer/patched.sh" "$TREE_DIR" "$BUILD_DIR/pristine" "$root/analyzer/chopblock" "$root/patches/kept"
