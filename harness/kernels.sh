#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/kernels.sh [--list FILE] [--group GROUP | --row NAME]
#
# The kernels of configs/kernels.list (or FILE), after checking every row
# of it: their names, one a line (those of GROUP only: main, check,
# matrix, cover or debug), or the fields of one row, tab-separated (name, arch, tree,
# group, base, boot, tests, fragments as absolute paths). A bad row stops
# with its file and line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

list=$KERNELS_LIST group= row=
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=${2:?--list needs a file}; shift ;;
	--group) group=${2:?--group needs a group}; shift ;;
	--row) row=${2:?--row needs a kernel name}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	*) die "kernels.sh: unknown argument $1 (see --help)" ;;
	esac
	shift
done
if [ -n "$row" ]; then
	kernel_row "$row" "$list"
	printf '%s\t' "$K_NAME" "$K_ARCH" "$K_TREE" "$K_GROUP" "$K_BASE" "$K_BOOT" "$K_TESTS"
	echo "$K_FRAGMENTS"
else
	kernel_list "$list" "$group"
fi
