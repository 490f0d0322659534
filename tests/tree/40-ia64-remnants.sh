#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No dead Itanium conditional is left in the patched tree; the count on
# the pristine tree is printed beside it (see tests/ia64-remnants.sh).
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
exec "$root/tests/ia64-remnants.sh" "$TREE_DIR" "$BASELINE_TAG"
