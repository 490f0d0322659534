#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/cross-busybox.sh DEBIAN-ARCH
#
# Print the path of a static busybox for a Debian architecture (arm64, ...)
# other than the host's: Debian's busybox-static package of that
# architecture, downloaded (not installed) with apt and unpacked into
# build/cross/ARCH. The first time, this adds the architecture to dpkg so
# that apt knows its package lists.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; "") die "cross-busybox.sh: which Debian architecture? (see --help)" ;; esac
debarch=$1
dir=$BUILD_DIR/cross/$debarch
bb=$dir/root/bin/busybox
if [ ! -x "$bb" ]; then
	log=$dir/apt.log
	mkdir -p "$dir"
	if ! grep -qx "$debarch" <<<"$(dpkg --print-foreign-architectures)"; then
		[ "$(id -u)" -eq 0 ] || die "busybox-static:$debarch is needed: run as root (dpkg --add-architecture $debarch)"
		info "deps: adding the $debarch architecture to dpkg for busybox-static:$debarch"
		dpkg --add-architecture "$debarch"
		apt-get update >"$log" 2>&1 ||
			{ tail_log "$log" 5; die "apt-get update failed (log: $log)"; }
	fi
	rm -rf "$dir/deb" "$dir/root"
	mkdir -p "$dir/deb"
	(cd "$dir/deb" && apt-get download "busybox-static:$debarch") >>"$log" 2>&1 ||
		{ tail_log "$log" 5; die "could not download busybox-static:$debarch (log: $log)"; }
	dpkg-deb -x "$dir"/deb/*.deb "$dir/root" ||
		die "could not unpack $(ls "$dir"/deb/*.deb)"
	[ -x "$bb" ] || die "busybox-static:$debarch has no bin/busybox"
fi
echo "$bb"
