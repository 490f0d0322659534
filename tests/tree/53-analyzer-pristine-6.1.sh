#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# chopblock dead --remove-arch sh on pristine 6.1 (Debian's linux-source-6.1,
# read by 6.1's own Kconfig parser) finds every item of seeds 001-006, none
# of them skipped (6.1 still has them all), and none of the drivers Renesas
# ARM SoCs use.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
t61=$BUILD_DIR/tree-6.1
"$root/harness/tree.sh" --tarball /usr/src/linux-source-6.1.tar.xz --tree "$t61" ||
	fail "harness/tree.sh could not make the 6.1 tree"
make -s -C "$root/analyzer" KSRC="$t61" obj-6.1/chopblock ||
	fail "chopblock does not build with 6.1's Kconfig parser"
exec "$root/tests/analyzer/pristine.sh" "$t61" "$root/analyzer/obj-6.1/chopblock"
