#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench, pktcdvd part: boot the harness kernel with the guest's
# initramfs but guest/bench/pktcdvd.sh as /init, which times writes and
# reads through pktcdvd onto the emulated CD-RW (modules/mmc_rw_emu) and
# on brd in the same guest. Prints the figures and their ratios, also
# written to build/bench-pktcdvd.txt. Uses the kernel that make built,
# and builds one first if there is none.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

if [ ! -f "$KBUILD_DIR/arch/x86/boot/bzImage" ]; then
	"$h/apply.sh"
	"$h/build.sh"
fi
"$h/modules.sh"
"$h/initramfs.sh"
guest=$BUILD_DIR/bench-guest
rm -rf "$guest"
mkdir -p "$guest"
cp -a "$BUILD_DIR/guest/root" "$guest/root"
rm -rf "$guest/root/tests"
install -m 755 "$CHOPBLOCK_ROOT/guest/bench/pktcdvd.sh" "$guest/root/init"
(cd "$guest/root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) |
	gzip -1 >"$guest/initramfs.cpio.gz"
cp "$BUILD_DIR/guest/cd.img" "$guest/cd.img"

logs=$LOG_DIR/bench-pktcdvd
mkdir -p "$logs"
CHOPBLOCK_GUEST=$guest CHOPBLOCK_LOGS=$logs "$h/boot.sh" >/dev/null ||
	die "the bench guest failed (console: $logs/console.log)"

out=$BUILD_DIR/bench-pktcdvd.txt
tr -d '\r' <"$logs/console.log" | awk -v accel="$(cat "$logs/accel")" '
	/^# bench: / { v[$3] = $4 }
	function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "n/a" }
	END {
		printf "pktcdvd on the emulated CD-RW (mmc_rw_emu, 32-block packets) beside brd, one guest (%s), MB/s, best of 3, O_DIRECT 1 MiB:\n", accel
		printf "  %-6s %10s %10s %10s %14s\n", "", "pktcdvd", "sr", "brd", "pktcdvd/brd"
		printf "  %-6s %10s %10s %10s %14s\n", "write", v["pktcdvd-write"], "-", v["brd-write"], ratio(v["pktcdvd-write"], v["brd-write"])
		printf "  %-6s %10s %10s %10s %14s\n", "read", v["pktcdvd-read"], v["sr-read"], v["brd-read"], ratio(v["pktcdvd-read"], v["brd-read"])
		printf "  writes the drive rejected: %s\n", v["rejected-writes"]
	}' | tee "$out"
