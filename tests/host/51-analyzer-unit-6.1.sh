#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The analyzer's unit tests again, with the Kconfig parser of Debian's
# linux-source-6.1 compiled in (ASan and UBSan): chopblock builds against
# either parser, and its verdicts on the synthetic trees do not change.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
t61=$BUILD_DIR/tree-6.1
"$root/harness/tree.sh" --tarball /usr/src/linux-source-6.1.tar.xz --tree "$t61" >/dev/null 2>&1 ||
	fail "harness/tree.sh could not make the 6.1 tree"
make -s -C "$root/analyzer" KSRC="$t61" test
