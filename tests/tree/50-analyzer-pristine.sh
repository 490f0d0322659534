#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# chopblock dead --remove-arch sh on pristine 6.12 finds every item of
# seeds 001-006 and none of the drivers Renesas ARM SoCs use.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
"$root/harness/pristine-tree.sh" || fail "no pristine checkout"
exec "$root/tests/analyzer/pristine.sh" "$BUILD_DIR/pristine" "$root/analyzer/chopblock"
