#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/run.sh
#
# The main job (make): packages, tree, series, then the kernel "main" of
# configs/kernels.list built, its guest packed and booted with the guest
# tests (harness/kernel.sh main), then the report. Each step fails with a
# one-line reason.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")
case ${1:-} in --help | -h) usage_from_header; exit 0 ;; "") ;; *) die "run.sh takes no arguments" ;; esac

"$h/deps.sh"
"$h/tree.sh"
"$h/apply.sh"
rc=0
"$h/kernel.sh" main || rc=$?
echo
"$h/report.sh" main
exit $rc
