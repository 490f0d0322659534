# SPDX-License-Identifier: GPL-2.0
#
# The pktcdvd bench's table (harness/bench-pktcdvd.sh), from the guest's
# "# bench: NAME MB/s" lines (guest/bench/pktcdvd.sh) on standard input:
# the best run of each figure and the median of the rounds'
# pktublk/pktcdvd ratios. Variables: accel (kvm or tcg), cpus (the CPUs
# the guest was given; its own count must agree). Exits 1, saying what is
# missing, when a figure or fewer than 3 rounds came out.
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
	if (v["rejected-writes"] == "") { print "no count of the writes the drive rejected"; bad = 1 }
	if (bad) exit 1
	printf "pktcdvd and pktublk on the emulated CD-RW (mmc_rw_emu, 32-block packets) beside brd, one guest (%s, %d CPUs), MB/s of O_DIRECT 1 MiB (best run); pktublk/pktcdvd is the median of the rounds:\n", accel, cpus
	printf "  %-6s %10s %10s %10s %10s %16s\n", "", "pktcdvd", "pktublk", "sr", "brd", "pktublk/pktcdvd"
	printf "  %-6s %10.1f %10.1f %10s %10.1f %16.2f\n", "write", cw, uw, "-", bw, med["write"]
	printf "  %-6s %10.1f %10.1f %10.1f %10.1f %16.2f\n", "read", cr, ur, sr, br, med["read"]
	printf "  rounds, pktublk/pktcdvd, sorted: write%s; read%s\n", rw, rr
	printf "  writes the drive rejected: %s\n", v["rejected-writes"]
}
