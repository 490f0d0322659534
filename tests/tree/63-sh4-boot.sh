#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The "before" kernel: the pristine tree built for QEMU's r2d board with
# Debian's sh4 cross compiler (and the plugin it needs, harness/sh4-gcc.sh)
# boots in qemu-system-sh4 and its nolibc /init passes all five checks.
# (make matrix also holds what it compiled against the series and the
# analyzer: harness/sh4-before.sh.)
. "$(dirname "$0")/../lib.sh"
rc=0
"$root/harness/kernel.sh" sh4-r2d || rc=$?
need_kernel sh4-r2d
flags=$("$root/harness/sh4-gcc.sh")
if [ -n "$flags" ]; then
	grep -qF -- "$flags" "$KERNELS_DIR/sh4-r2d/kbuild/kernel/printk/.printk.o.cmd" ||
		fail "the sh4 kernel was not compiled with $flags"
	ok "the sh4 kernel is compiled with ${flags##*/}"
fi
[ "$rc" -eq 0 ] || fail "the sh4 guest failed"
res=$(tail -n 1 "$KERNELS_DIR/sh4-r2d/logs/ktap-result.txt")
[ "$res" = "5 passed, 0 failed" ] || fail "sh4 guest: $res"
ok "sh4 guest: $res"
