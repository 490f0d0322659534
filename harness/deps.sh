#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/deps.sh [PACKAGE...]
#
# Install the Debian packages chopblock needs (or the PACKAGEs named), when
# any is missing: the build and test tools below, and each architecture's
# cross compiler, QEMU and guest packages from configs/arches.list (the
# sh4 plugin headers are for toolchain/sh_treg_combine_off.cc). apt-get
# runs only then, so that a prepared machine does not touch the network.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; esac
if [ $# -gt 0 ]; then
	PACKAGES="$*"
else
	PACKAGES="$SOURCE_PKG linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev
		ccache cpio xz-utils git python3 perl kmod rsync jfsutils udftools
		liburing-dev b4 git-email libmailtools-perl quilt
		unifdef openssl distcc procps"
	for a in $(arch_list); do
		PACKAGES+=" $(arch_fact "$a" packages | tr ',' ' ')"
	done
fi

missing=()
for p in $(echo $PACKAGES | tr " " "\n" | sort -u); do
	grep -q 'install ok installed' <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" ||
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
