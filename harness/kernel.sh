#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/kernel.sh NAME
#
# Everything for one kernel of configs/kernels.list: build it (not again
# when it is up to date), build the test modules against it, pack its guest
# and, when its row says it boots, boot it in QEMU and run its guest tests.
# The last line is the guest's "N passed, N failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

case ${1:-} in
"") die "kernel.sh: which kernel? (kernels: $(kernel_list | tr '\n' ' '))" ;;
--help | -h) usage_from_header; exit 0 ;;
esac
name=$1
kernel_row "$name"
"$h/build.sh" "$name"
kdir=$KERNELS_DIR/$name
"$h/modules.sh" "$kdir"
if [ "$K_BOOT" = yes ]; then
	"$h/initramfs.sh" "$kdir"
	"$h/boot.sh" "$kdir"
fi
