#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the run's report from what the other steps left in $LOG_DIR, and
# write it to $BUILD_DIR/report.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

build_result=${1:-unknown}
report=$BUILD_DIR/report.txt

mk() { sed -n "s/^$1 = //p" "$TREE_DIR/Makefile" | head -n 1; }
upstream="$(mk VERSION).$(mk PATCHLEVEL).$(mk SUBLEVEL)"
debian=$(cat "$TREE_DIR/.git/chopblock-debian-version" 2>/dev/null || echo unknown)
patches=$(cat "$LOG_DIR/series-count.txt" 2>/dev/null || echo 0)
stat=$(cat "$LOG_DIR/series-shortstat.txt" 2>/dev/null)
num() { echo "$stat" | grep -o "[0-9]* $1" | cut -d' ' -f1 || true; }
build_secs=$(cat "$KBUILD_DIR/chopblock-build-seconds" 2>/dev/null || echo "?")
userspace=$(cat "$LOG_DIR/userspace-seconds" 2>/dev/null || echo none)
[ "$userspace" = none ] || userspace=$(printf '%.2f' "$userspace")
accel=$(cat "$LOG_DIR/accel" 2>/dev/null || echo "?")
tests=$(tail -n 1 "$LOG_DIR/ktap-result.txt" 2>/dev/null || echo "not run")

{
	echo "chopblock report ($(date -u +%Y-%m-%dT%H:%MZ))"
	printf '  %-24s %s\n' "tree" "Debian $SOURCE_PKG $debian, upstream $upstream"
	printf '  %-24s %s\n' "patches applied" "$patches"
	printf '  %-24s %s files changed, %s insertions(+), %s deletions(-)\n' "series diffstat" \
		"$(num 'files\? changed')" "$(num 'insertions\?')" "$(num 'deletions\?')"
	printf '  %-24s %s in %ss (x86_64, %s)\n' "build" "$build_result" "$build_secs" \
		"$(git -C "$TREE_DIR" rev-parse --short HEAD)"
	printf '  %-24s %ss (%s)\n' "QEMU start to userspace" "$userspace" "$accel"
	printf '  %-24s %s\n' "guest tests" "$tests"
} | tee "$report"
