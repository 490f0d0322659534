#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# After every other test drove its driver: still no Oops, BUG, WARNING or
# taint in the kernel log.
. /lib/chopblock.sh
check_kernel_log
