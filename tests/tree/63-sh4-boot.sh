#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The "before" kernel: the pristine tree built for QEMU's r2d board with
# Debian's sh4 cross compiler (and the plugin it needs, harness/sh4-gcc.sh)
# boots in qemu-system-sh4 and its nolibc /init passes all five checks.
# (make matrix also holds what it compiled against the series and the
# analyzer: harness/sh4-before.sh.)
. "$(dirname "$0")/../lib.sh"
"$root/harness/matrix.sh" sh4-r2d:pristine || fail "the sh4 build failed"
flags=$("$root/harness/sh4-gcc.sh")
if [ -n "$flags" ]; then
	grep -qF -- "$flags" "$BUILD_DIR/matrix/sh4-r2d-pristine/kernel/printk/.printk.o.cmd" ||
		fail "the sh4 kernel was not compiled with $flags"
	ok "the sh4 kernel is compiled with ${flags##*/}"
fi
"$root/harness/matrix-boot.sh" sh4-r2d pristine || fail "the sh4 guest failed"
res=$(tail -n 1 "$BUILD_DIR/matrix/sh4-r2d-pristine.logs/ktap-result.txt")
[ "$res" = "5 passed, 0 failed" ] || fail "sh4 guest: $res"
ok "sh4 guest: $res"
