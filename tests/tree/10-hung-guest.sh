#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A guest that never finishes is killed at the hard timeout, and the run
# fails with a one-line error after the last console lines.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
need_kernel
make_guest "$scratch/guest" <<'INIT'
#!/bin/sh
echo "chopblock: userspace reached"
echo "about to hang"
/bin/busybox sleep 100000
INIT
out=$("$root/harness/boot.sh" --guest "$scratch/guest" --logs "$scratch/logs" --accel tcg \
	--timeout 20 main 2>&1) && fail "boot.sh succeeded on a hung guest"
echo "$out" | tail -n 1 | grep -q '^chopblock: error: guest hung: killed after 20s' ||
	fail "unexpected last line: $(echo "$out" | tail -n 1)"
ok "$(echo "$out" | tail -n 1)"
echo "$out" | grep -q '^about to hang' || fail "the last console lines are not shown"
ok "the last console lines are shown"
