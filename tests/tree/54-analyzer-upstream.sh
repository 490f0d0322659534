#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# chopblock held against upstream (analyzer/README.md): dead --remove-arch
# ia64 on pristine 6.1 against the 6.12 tree, and dead --remove-symbol
# CDROM_PKTCDVD on pristine 6.12 against the file list of 1cea5180f2f8.
. "$(dirname "$0")/../lib.sh"
t61=$BUILD_DIR/tree-6.1
"$root/harness/tree.sh" --tarball /usr/src/linux-source-6.1.tar.xz --tree "$t61" ||
	fail "harness/tree.sh could not make the 6.1 tree"
"$root/harness/pristine-tree.sh" || fail "no pristine checkout"
make -s -C "$root/analyzer" KSRC="$t61" obj-6.1/chopblock ||
	fail "chopblock does not build with 6.1's Kconfig parser"
exec "$root/tests/analyzer/upstream.sh" "$t61" "$BUILD_DIR/pristine" \
	"$root/analyzer/obj-6.1/chopblock" "$root/analyzer/chopblock"
