#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The pktcdvd bench's table (harness/bench-pktcdvd.awk) from synthetic
# guest output: the best run of each figure, the median of the rounds'
# pktublk/pktcdvd ratios (odd and even counts), and exit 1 with the reason
# when the guest's CPU count disagrees, a figure is missing, fewer than 3
# rounds came out or the rejected-writes line is missing.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
awkprog=$root/harness/bench-pktcdvd.awk

# guest_lines [SKIP-REGEX]: a complete guest output, less matching lines.
guest_lines() {
	{
		echo "# bench: cpus 2"
		printf '# bench: brd-write-%d %s\n' 1 100.0 2 300.0 3 200.0
		printf '# bench: brd-read-%d %s\n' 1 400.0 2 410.0 3 390.0
		printf '# bench: sr-read-%d %s\n' 1 350.0 2 360.0 3 340.0
		# write: ratios 1.5 0.5 1.2 0.9 2.0 (median 1.2); read: four
		# rounds, ratios 0.5 0.4 0.6 0.3 (median 0.45)
		printf '# bench: pktcdvd-write-%d %s\n' 1 100 2 100 3 100 4 100 5 100
		printf '# bench: pktublk-write-%d %s\n' 1 150 2 50 3 120 4 90 5 200
		printf '# bench: pktcdvd-read-%d %s\n' 1 200 2 200 3 200 4 200
		printf '# bench: pktublk-read-%d %s\n' 1 100 2 80 3 120 4 60
		echo "# bench: rejected-writes 0"
		echo "ok 1 bench-pktcdvd"
	} | grep -Ev "${1:-^$}"
}

table() {
	awk -v accel=tcg -v cpus="${1:-2}" -f "$awkprog" >"$scratch/out" 2>&1
}

guest_lines | table || fail "a complete output was refused: $(cat "$scratch/out")"
grep -Eq '^  write +100\.0 +200\.0 +- +300\.0 +1\.20$' "$scratch/out" ||
	fail "write row: $(grep write "$scratch/out" | head -n 1)"
grep -Eq '^  read +200\.0 +120\.0 +360\.0 +410\.0 +0\.45$' "$scratch/out" ||
	fail "read row: $(grep '^  read' "$scratch/out")"
grep -q 'sorted: write 0.50 0.90 1.20 1.50 2.00; read 0.30 0.40 0.50 0.60$' "$scratch/out" ||
	fail "rounds line: $(grep sorted "$scratch/out")"
grep -q 'tcg, 2 CPUs' "$scratch/out" || fail "the heading does not name the guest: $(head -n 1 "$scratch/out")"
ok "best runs, and medians of 5 and of 4 rounds"

# refused OUTPUT-REGEX SKIP-REGEX [CPUS]: exit 1, saying so.
refused() {
	if guest_lines "$2" | table "${3:-2}"; then
		fail "accepted without /$2/ (cpus ${3:-2}): $(cat "$scratch/out")"
	fi
	grep -Eq "$1" "$scratch/out" || fail "refused without saying /$1/: $(cat "$scratch/out")"
	ok "refused: $(head -n 1 "$scratch/out")"
}
refused 'the guest has 2 CPUs, not 1' '^$' 1
refused 'no figures for brd-read' 'brd-read'
refused 'fewer than 3 rounds of write' 'p(ktcdvd|ktublk)-write-[345]'
refused 'no count of the writes the drive rejected' 'rejected-writes'
