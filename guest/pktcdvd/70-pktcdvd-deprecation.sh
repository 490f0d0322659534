#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# chopblock-arch: x86_64 (QEMU pc devices, host tools)
#
# pktcdvd deprecation, in the guest:
#  - binding pktcdvd0 to the CD drive with udftools' pktsetup prints the
#    deprecation warning, and a second binding later in the same boot does
#    not print it again: the log holds it exactly once (if an earlier test
#    bound a packet device in this boot, it was printed then), as a line
#    of its own with a single "pktcdvd: " prefix;
#  - /dev/pktcdvd/pktcdvd0 appears, and "pktsetup -d" removes it again;
# Reading and writing through a packet device needs a rewritable disc,
# which QEMU's drive cannot hold (pktcdvd refuses to open it: "pkt_get_
# last_written failed"); 75-pktcdvd-udf does that on the emulated drive.
# Exit 0 = pass, 4 = skip (prerequisite missing), anything else = fail.
# On the pristine tree the warning checks fail by design (no warning yet).

CD=${PKTCDVD_TEST_CD:-/dev/sr0}
NAME=pktcdvd0
PKT=/dev/pktcdvd/$NAME

. /lib/chopblock.sh
soft_checks
needs_patch '^pktcdvd: .*deprecated' "pktcdvd deprecation"

warnings() { dmesg | grep -c -F "$PKTCDVD_DEPRECATION"; }
# Kernel log lines printed after line $1.
log_since() { dmesg | tail -n +"$(($1 + 1))"; }

bound() { [ -b "$PKT" ] || [ -e "/sys/class/pktcdvd/$NAME" ]; }

cleanup() {
	bound && pktsetup -d "$NAME" >/dev/null 2>&1
}
trap cleanup EXIT

wait_for "$CD" 10
[ -b "$CD" ] || skip "no CD drive $CD"
for tool in pktsetup dmesg; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not in PATH"
done
if bound; then
	fail "$NAME is bound already"
	exit 1
fi

n0=$(warnings)
echo "deprecation warnings in the log before the test: $n0"

# Bind.
l0=$(dmesg | wc -l)
if pktsetup "$NAME" "$CD"; then
	ok "pktsetup $NAME $CD"
else
	log_since "$l0"
	fail "pktsetup $NAME $CD"
	exit 1
fi
n1=$(warnings)
if [ "$n1" -eq 1 ]; then
	ok "after binding the deprecation warning is in the log once"
else
	log_since "$l0"
	fail "after binding the deprecation warning is in the log $n1 time(s), expected exactly 1"
fi
# The whole line, timestamp aside: one "pktcdvd: " prefix (pr_fmt adds
# it; the message must not carry a second), nothing before or after.
if [ "$(dmesg | sed 's/^\[[^]]*\] *//' | grep -c -x -F "$PKTCDVD_DEPRECATION")" -eq 1 ]; then
	ok "the warning is a line of its own, with one pktcdvd: prefix"
else
	dmesg | grep -F 'deprecated' | tail -n 3
	fail "the warning is not a line of its own with one pktcdvd: prefix"
fi

# devtmpfs creates the node when the disk is added; allow it a moment.
wait_for "$PKT" 5
if [ -b "$PKT" ]; then
	ok "$PKT exists"
else
	ls -l /dev/pktcdvd 2>&1
	fail "$PKT does not exist"
fi

# Unbind: the node goes away.
if pktsetup -d "$NAME"; then
	ok "pktsetup -d $NAME"
else
	fail "pktsetup -d $NAME"
fi
i=0
while [ -e "$PKT" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -e "$PKT" ] || [ -e "/sys/class/pktcdvd/$NAME" ]; then
	fail "$NAME still present after pktsetup -d"
else
	ok "$PKT removed"
fi

# Bind and unbind once more: the warning is printed once per boot only.
if pktsetup "$NAME" "$CD"; then
	n2=$(warnings)
	if [ "$n2" -eq 1 ]; then
		ok "second binding: the deprecation warning is still in the log exactly once"
	else
		fail "second binding: the deprecation warning is in the log $n2 time(s), expected exactly 1"
	fi
	pktsetup -d "$NAME" || fail "second pktsetup -d $NAME"
else
	fail "second pktsetup $NAME $CD"
fi

exit $failed
