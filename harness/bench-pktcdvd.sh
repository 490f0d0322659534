#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/bench-pktcdvd.sh
#
# make bench, pktcdvd part: boot the harness kernel with the guest's
# initramfs but guest/bench/pktcdvd.sh as /init, which times writes and
# reads through pktcdvd and through pktublk onto the emulated CD-RW
# (modules/mmc_rw_emu) and on brd in the same guest, once with two
# virtual CPUs and once with one. Prints the figures and the median of
# the rounds' ratios, also written to build/bench-pktcdvd.txt. The series removes
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

out=$BUILD_DIR/bench-pktcdvd.txt
: >"$out"
# With two CPUs (the machine's cores) pktublk's drive thread writes one
# packet while the next is copied; with one it cannot: both are measured.
for cpus in 2 1; do
	logs=$LOG_DIR/bench-pktcdvd-$cpus
	mkdir -p "$logs"
	info "bench: pktcdvd and pktublk, guest with $cpus CPU(s)"
	"$h/boot.sh" --smp "$cpus" --timeout 900 --guest "$guest" --logs "$logs" "$kdir" >/dev/null ||
		die "the bench guest failed (console: $logs/console.log)"
	tr -d '\r' <"$logs/console.log" |
		awk -v accel="$(sed -n 's/^accel=//p' "$logs/boot")" -v cpus="$cpus" -f "$h/bench-pktcdvd.awk" \
			>"$logs/table.txt" || { cat "$logs/table.txt"; die "the bench guest gave no complete figures (console: $logs/console.log)"; }
	tee -a "$out" <"$logs/table.txt"
done
