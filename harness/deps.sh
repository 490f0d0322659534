#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages chopblock needs, when any is missing (the
# cross compilers and QEMUs are for the build matrix and the arm64 guest;
# the sh4 plugin headers for toolchain/sh_treg_combine_off.cc). apt-get
# runs only then, so that a prepared machine does not touch the network.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PACKAGES=${CHOPBLOCK_PACKAGES:-"linux-source-6.12 build-essential flex bison bc \
libelf-dev libssl-dev ccache cpio xz-utils git python3 perl kmod rsync \
qemu-system-x86 busybox-static jfsutils udftools unifdef openssl \
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm \
gcc-arm-linux-gnueabihf gcc-sh4-linux-gnu libc6-dev-sh4-cross qemu-system-misc \
gcc-12-plugin-dev-sh4-linux-gnu"}

missing=()
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

[ "$(id -u)" -eq 0 ] || die "missing packages ${missing[*]}: run as root or install them"
info "deps: installing ${missing[*]}"
mkdir -p "$LOG_DIR"
log=$LOG_DIR/apt.log
export DEBIAN_FRONTEND=noninteractive
apt-get update >"$log" 2>&1 || { tail_log "$log" 5; die "apt-get update failed (log: $log)"; }
for p in "${missing[@]}"; do
	apt-cache show "$p" >/dev/null 2>&1 || die "package $p is not available from the configured apt sources"
done
apt-get install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1 ||
	{ tail_log "$log" 10; die "apt-get install ${missing[*]} failed (log: $log)"; }
