#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The analyzer's Kconfig verdicts agree with the tree's own conf: no
# configuration conf produces (allyes and random, per architecture) enables
# a symbol the analyzer calls impossible.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
"$root/harness/pristine-tree.sh" || fail "no pristine checkout"
make -s -C "$root/analyzer" KSRC="$TREE_DIR" TREE="$BUILD_DIR/pristine" validate
