#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A guest test that hangs is killed at its own timeout (its header's
# "chopblock-timeout:"), with whatever it started, and reported as
# "not ok N name # TIMEOUT"; the tests after it still run, and the host
# counts the run as failed. Runs the real guest/init and initramfs.sh on
# the main kernel with three tests of its own.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
need_kernel
mkdir -p "$scratch/guest/tests"
cat >"$scratch/guest/tests/10-before.sh" <<'T'
#!/bin/sh
echo "the test before"
T
cat >"$scratch/guest/tests/20-hang.sh" <<'T'
#!/bin/sh
# chopblock-timeout: 3
echo "about to hang, with a child"
sleep 100000 &
sleep 100000
T
cat >"$scratch/guest/tests/30-after.sh" <<'T'
#!/bin/sh
# The hung test's child must be gone (the bracket keeps pgrep from
# matching its own command line).
if pgrep -f 'sleep 10000[0]' >/dev/null; then echo "FAIL: the hung test's child survived"; exit 1; fi
echo "the test after ran"
T
# A kernel directory of its own: the main kernel's manifest with these
# tests, so that initramfs.sh packs them with the real guest/init.
k=$scratch/k
mkdir -p "$k"
sed -e "s#^tests=.*#tests=$scratch/guest/tests/*#" "$KERNELS_DIR/main/manifest" >"$k/manifest"
"$root/harness/initramfs.sh" "$k" >/dev/null || fail "initramfs.sh failed"
grep -qx '20-hang.sh 3' "$k/guest/root/etc/chopblock/timeouts" || fail "the test's timeout header was not read"
ok "the hanging test has its own timeout of 3 s"
rc=0
out=$("$root/harness/boot.sh" --accel tcg --logs "$k/logs" "$k" 2>/dev/null) || rc=$?
[ "$rc" -ne 0 ] || fail "boot.sh passed a run with a hung test"
console=$(tr -d '\r' <"$k/logs/console.log")
echo "$console" | grep -qx 'not ok 2 20-hang # TIMEOUT after 3s' ||
	fail "no TIMEOUT result for the hung test: $(echo "$console" | grep -E '^(not )?ok ')"
ok "not ok 2 20-hang # TIMEOUT after 3s"
echo "$console" | grep -qx '# about to hang, with a child' || fail "the hung test's output is lost"
ok "the hung test's output is kept as diagnostics"
echo "$console" | grep -qx 'ok 3 30-after' || fail "the test after the hung one did not pass: $(echo "$console" | grep -E '^(not )?ok 3')"
ok "the test after it ran and passed (the hung test's child was killed too)"
[ "$(echo "$out" | tail -n 1)" = "2 passed, 1 failed" ] || fail "host verdict: $(echo "$out" | tail -n 1)"
ok "host verdict: 2 passed, 1 failed"
