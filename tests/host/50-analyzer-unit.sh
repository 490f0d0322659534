#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The analyzer's unit tests on the synthetic trees in tests/analyzer/,
# built with AddressSanitizer and UBSan.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
"$root/harness/tree.sh" >/dev/null 2>&1 || fail "harness/tree.sh failed"
make -s -C "$root/analyzer" KSRC="$TREE_DIR" test
