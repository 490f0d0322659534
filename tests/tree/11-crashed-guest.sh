#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A guest whose kernel panics mid-run (here: init dies after starting its
# tests) fails the run as a crash, with a short plan, not as a pass.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
need_kernel
make_guest "$scratch/guest" <<'INIT'
#!/bin/sh
echo "chopblock: userspace reached"
echo "KTAP version 1"
echo "1..2"
echo "ok 1 first"
exit 1
INIT
rc=0
out=$("$root/harness/boot.sh" --guest "$scratch/guest" --logs "$scratch/logs" --accel tcg \
	--timeout 60 main 2>/dev/null) || rc=$?
[ "$rc" -ne 0 ] || fail "boot.sh succeeded on a crashed guest"
echo "$out" | grep -q '^ERROR: the guest kernel crashed: .*Attempted to kill init' ||
	fail "the crash is not reported: $out"
ok "crash reported: $(echo "$out" | grep '^ERROR')"
[ "$(echo "$out" | tail -n 1)" = "1 passed, 1 failed" ] || fail "last line: $(echo "$out" | tail -n 1)"
ok "last line: 1 passed, 1 failed"
