#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/bench-pktcdvd.sh
#
# make bench, pktcdvd part: boot the harness kernel with the guest's
# initramfs but guest/bench/pktcdvd.sh as /init, which times writes and
# reads through pktcdvd and through pktublk onto the emulated CD-RW
# (modules/mmc_rw_emu) and on brd in the same guest. Prints the figures and
# their ratios, also written to build/bench-pktcdvd.txt. The series removes
# pktcdvd, so this boots the kernel "pktcdvd" of configs/kernels.list (the
# series up to the deprecation), building it first when it is not built.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; esac
kdir=$KERNELS_DIR/pktcdvd
if [ ! -f "$kdir/manifest" ] || [ "$(manifest "$kdir" result)" != ok ]; then
	"$h/apply.sh"
	"$h/build.sh" pktcdvd
fi
"$h/modules.sh" "$kdir"
guest=$BUILD_DIR/bench-guest
"$h/initramfs.sh" --out "$guest" --init "$CHOPBLOCK_ROOT/guest/bench/pktcdvd.sh" "$kdir"

logs=$LOG_DIR/bench-pktcdvd
mkdir -p "$logs"
"$h/boot.sh" --guest "$guest" --logs "$logs" "$kdir" >/dev/null ||
	die "the bench guest failed (console: $logs/console.log)"

out=$BUILD_DIR/bench-pktcdvd.txt
tr -d '\r' <"$logs/console.log" | awk -v accel="$(sed -n 's/^accel=//p' "$logs/boot")" '
	/^# bench: / { v[$3] = $4 }
	function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "n/a" }
	END {
		printf "pktcdvd on the emulated CD-RW (mmc_rw_emu, 32-block packets) beside brd, one guest (%s), MB/s, best of 3, O_DIRECT 1 MiB:\n", accel
		printf "  %-6s %10s %10s %10s %10s %14s %14s %16s\n", "", "pktcdvd", "pktublk", "sr", "brd", "pktcdvd/brd", "pktublk/brd", "pktublk/pktcdvd"
		printf "  %-6s %10s %10s %10s %10s %14s %14s %16s\n", "write", v["pktcdvd-write"], v["pktublk-write"], "-", v["brd-write"], ratio(v["pktcdvd-write"], v["brd-write"]), ratio(v["pktublk-write"], v["brd-write"]), ratio(v["pktublk-write"], v["pktcdvd-write"])
		printf "  %-6s %10s %10s %10s %10s %14s %14s %16s\n", "read", v["pktcdvd-read"], v["pktublk-read"], v["sr-read"], v["brd-read"], ratio(v["pktcdvd-read"], v["brd-read"]), ratio(v["pktublk-read"], v["brd-read"]), ratio(v["pktublk-read"], v["pktcdvd-read"])
		printf "  writes the drive rejected: %s\n", v["rejected-writes"]
	}' | tee "$out"
