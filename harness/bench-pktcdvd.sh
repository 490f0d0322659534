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
	tr -d '\r' <"$logs/console.log" | awk -v accel="$(sed -n 's/^accel=//p' "$logs/boot")" -v cpus="$cpus" '
		/^# bench: / { v[$3] = $4 }
		function best(name,   i, b) {
			b = 0
			for (i = 1; (name "-" i) in v; i++)
				if (v[name "-" i] + 0 > b)
					b = v[name "-" i] + 0
			if (!b) { print "no figures for " name; bad = 1 }
			return b
		}
		# the ratio pktublk/pktcdvd of each round, sorted, and their median
		function rounds(op,   i, n, j, t, r) {
			n = 0
			for (i = 1; ("pktcdvd-" op "-" i) in v && ("pktublk-" op "-" i) in v; i++)
				if (v["pktcdvd-" op "-" i] > 0)
					r[++n] = v["pktublk-" op "-" i] / v["pktcdvd-" op "-" i]
			if (n < 3) { print "fewer than 3 rounds of " op; bad = 1; return "" }
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
			med[op] = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
			t = ""
			for (i = 1; i <= n; i++)
				t = t sprintf(" %.2f", r[i])
			return t
		}
		END {
			if (v["cpus"] != cpus) { print "the guest has " v["cpus"] " CPUs, not " cpus; exit 1 }
			bw = best("brd-write"); br = best("brd-read"); sr = best("sr-read")
			cw = best("pktcdvd-write"); cr = best("pktcdvd-read")
			uw = best("pktublk-write"); ur = best("pktublk-read")
			rw = rounds("write"); rr = rounds("read")
			if (bad || v["rejected-writes"] == "") exit 1
			printf "pktcdvd and pktublk on the emulated CD-RW (mmc_rw_emu, 32-block packets) beside brd, one guest (%s, %d CPUs), MB/s of O_DIRECT 1 MiB (best run); pktublk/pktcdvd is the median of the rounds:\n", accel, cpus
			printf "  %-6s %10s %10s %10s %10s %16s\n", "", "pktcdvd", "pktublk", "sr", "brd", "pktublk/pktcdvd"
			printf "  %-6s %10.1f %10.1f %10s %10.1f %16.2f\n", "write", cw, uw, "-", bw, med["write"]
			printf "  %-6s %10.1f %10.1f %10.1f %10.1f %16.2f\n", "read", cr, ur, sr, br, med["read"]
			printf "  rounds, pktublk/pktcdvd, sorted: write%s; read%s\n", rw, rr
			printf "  writes the drive rejected: %s\n", v["rejected-writes"]
		}' >"$logs/table.txt" || { cat "$logs/table.txt"; die "the bench guest gave no complete figures (console: $logs/console.log)"; }
	tee -a "$out" <"$logs/table.txt"
done
