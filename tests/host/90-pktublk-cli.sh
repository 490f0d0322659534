#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pktublk (pktublk/) builds static with -Werror, and its command line
# refuses bad input with one line and exit 1 without a drive: a character
# device, a missing device, a bad name, -d of a name never set up, -s
# with an argument. Run in a mount namespace of its own with an empty
# /run, so that the host's /run is never touched; no block device of the
# host is opened. The guest tests (76-82) run it on the emulated drive.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
command -v unshare >/dev/null || skip "unshare (util-linux) is missing"
[ -f /usr/include/liburing.h ] || skip "liburing-dev is not installed"
cp -r "$root/pktublk" "$scratch/src"
rm -f "$scratch"/src/*.o "$scratch/src/pktublk"
make -s -C "$scratch/src" >"$scratch/build.log" 2>&1 ||
	{ cat "$scratch/build.log"; fail "pktublk does not build"; }
bin=$scratch/src/pktublk
ldd "$bin" >/dev/null 2>&1 && fail "pktublk is not static"
ok "pktublk builds static with -Wall -Wextra -Werror"

# refuse PATTERN ARGS...: one line matching PATTERN, exit 1, /run/pktublk
# holds nothing but a log.
unshare -m bash -s "$bin" <<'INNER' >"$scratch/out" 2>&1 || fail "$(cat "$scratch/out")"
set -u
bin=$1
mount -t tmpfs tmpfs /run || exit 1
refuse() {
	pattern=$1
	shift
	"$bin" "$@" >/tmp/pktublk.out.$$ 2>&1
	rc=$?
	n=$(wc -l </tmp/pktublk.out.$$)
	line=$(cat /tmp/pktublk.out.$$)
	rm -f /tmp/pktublk.out.$$
	left=$(ls /run/pktublk 2>/dev/null | grep -v '\.log$')
	if [ "$rc" -ne 1 ] || [ "$n" -ne 1 ] || ! echo "$line" | grep -Eq "$pattern" || [ -n "$left" ]; then
		echo "pktublk $*: exit $rc, $n line(s): $line; left: $left"
		exit 1
	fi
	echo "ok: pktublk $*: $line"
}
refuse 'is not a block device' x /dev/null
refuse 'No such file' x /nonexistent/sr9
refuse 'is not a valid name' ../x /dev/null
refuse 'is not a valid name' -d a/b
refuse 'x is not set up' -d x
refuse 'takes no other argument' -s x
refuse 'must be a number' -w abc x /dev/null
refuse 'is auto, on or off' -p fast x /dev/null
INNER
cat "$scratch/out"
ok "every refusal: one line, exit 1, nothing left in /run/pktublk"
