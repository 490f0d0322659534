# SPDX-License-Identifier: GPL-2.0
# Helpers for host tests. Sourced. The checks (fail, ok, skip) are the KTAP
# library's, shared with the guest tests.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/harness/lib.sh"
. "$root/harness/ktap.sh"

# expect_error REGEX CMD...: CMD must exit non-zero, and its last line of
# standard error must be one "chopblock: error:" line matching REGEX.
expect_error() {
	local regex=$1 out rc=0
	shift
	out=$("$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -ne 0 ] || fail "'$*' succeeded, expected an error matching /$regex/"
	local last
	last=$(echo "$out" | tail -n 1)
	echo "$last" | grep -q '^chopblock: error: ' || fail "'$*' ended with '$last', not a chopblock error line"
	echo "$last" | grep -Eq "$regex" || fail "'$*': error '$last' does not match /$regex/"
	ok "$last"
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/chopblock-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# make_guest DIR: a guest directory for harness/boot.sh whose initramfs
# holds busybox and, as /init, the script read from standard input.
make_guest() {
	local dir=$1 r=$1/root line

	mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev"
	cp "$(command -v busybox)" "$r/bin/busybox"
	ln -s busybox "$r/bin/sh"
	# The kernel's own console messages (a USB device found seconds into
	# a slow boot) must not land between the test's KTAP lines: after its
	# first line, the init quiets the console as guest/init does (a
	# panic turns it up again).
	{ IFS= read -r line; printf '%s\n/bin/busybox dmesg -n 1\n' "$line"; cat; } >"$r/init"
	chmod +x "$r/init"
	pack_cpio "$r" "$dir/initramfs.cpio.gz"
	truncate -s 1M "$dir/cd.img"
}

# need_kernel [NAME]: the kernel (default main) must have been built.
need_kernel() {
	local k=$KERNELS_DIR/${1:-main}
	[ -f "$k/manifest" ] && [ "$(manifest "$k" result)" = ok ] || fail "no ${1:-main} kernel built in $k"
}
