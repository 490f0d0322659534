#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The pktcdvd tests under kmemleak: build the x86_64 kernel once more, in
# build/kbuild-kmemleak, with configs/kmemleak/kmemleak.config on top of
# configs/*.config; build the test modules against it; boot a guest that
# clears kmemleak, runs guest tests 75 and 80 (the emulated drive loaded,
# used through sr and pktcdvd, unloaded) and 99, and then scans. Any
# unreferenced object fails. Logs in build/logs/kmemleak/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

export CHOPBLOCK_KBUILD=$BUILD_DIR/kbuild-kmemleak
export CHOPBLOCK_MODULES=$BUILD_DIR/modules-kmemleak
export CHOPBLOCK_LOGS=$LOG_DIR/kmemleak
guest=$BUILD_DIR/kmemleak-guest
CHOPBLOCK_FRAGMENTS="$(echo "$CHOPBLOCK_ROOT"/configs/*.config) $CHOPBLOCK_ROOT/configs/kmemleak/kmemleak.config" \
	"$h/build.sh"
"$h/modules.sh"
"$h/initramfs.sh" "$guest"
for t in "$guest"/root/tests/*; do
	case ${t##*/} in
	75-* | 80-* | 99-*) ;;
	*) rm -f "$t" ;;
	esac
done
install -m 755 "$CHOPBLOCK_ROOT"/guest/kmemleak/*.sh "$guest/root/tests/"
(cd "$guest/root" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) |
	gzip -1 >"$guest/initramfs.cpio.gz"
CHOPBLOCK_GUEST=$guest "$h/boot.sh"
