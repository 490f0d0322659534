#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/report.sh [KERNEL]
#
# The run's report, from the kernel's manifest and boot record (KERNEL: a
# name of configs/kernels.list or its directory; default main) and the
# applied series; also written to build/report.txt. Its last line is the
# guest's "N passed, N failed" ("0 passed, 1 failed" when it did not run).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; esac
kdir=$(kernel_dir "${1:-main}")
report=$BUILD_DIR/report.txt

mf() { if [ -f "$kdir/manifest" ]; then manifest "$kdir" "$1"; fi; }
boot() { sed -n "s/^$1=//p" "$kdir/logs/boot" 2>/dev/null; }
mk() { sed -n "s/^$1 = //p" "$TREE_DIR/Makefile" | head -n 1; }
upstream="$(mk VERSION).$(mk PATCHLEVEL).$(mk SUBLEVEL)"
debian=$(cat "$TREE_DIR/.git/chopblock-debian-version" 2>/dev/null || echo unknown)
commit=$(mf commit) commit=${commit%% *}
patches=0 stat=
if [ -n "$commit" ]; then
	patches=$(git -C "$TREE_DIR" rev-list --count "$BASELINE_TAG..$commit")
	stat=$(git -C "$TREE_DIR" diff --shortstat "$BASELINE_TAG" "$commit")
fi
num() { echo "$stat" | grep -o "[0-9]* $1" | cut -d' ' -f1 || true; }
userspace=$(boot userspace)
case $userspace in "" | none) userspace=none ;; *) userspace=$(printf '%.2f' "$userspace") ;; esac
tests=$(tail -n 1 "$kdir/logs/ktap-result.txt" 2>/dev/null || echo "not run")

{
	echo "chopblock report ($(date -u +%Y-%m-%dT%H:%MZ))"
	printf '  %-24s %s\n' "tree" "Debian $SOURCE_PKG $debian, upstream $upstream"
	printf '  %-24s %s\n' "patches applied" "$patches"
	printf '  %-24s %s files changed, %s insertions(+), %s deletions(-)\n' "series diffstat" \
		"$(num 'files\? changed')" "$(num 'insertions\?')" "$(num 'deletions\?')"
	printf '  %-24s %s in %ss (%s, %s)\n' "build" "$(mf result || true)" "$(mf seconds)" \
		"$(mf arch)" "$(git -C "$TREE_DIR" rev-parse --short "${commit:-HEAD}")"
	printf '  %-24s %ss (%s)\n' "QEMU start to userspace" "$userspace" "$(boot accel || echo '?')"
	printf '  %-24s %s\n' "guest tests" "$tests"
} | tee "$report"
case $tests in
*" passed, "*) echo "$tests" ;;
*) echo "0 passed, 1 failed" ;;
esac
