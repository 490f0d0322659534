#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One logical change per patch (harness/patch-scope.sh, patches/scopes):
# on a synthetic series, a file outside its subject's subsystem and a
# subject prefix without a row are each reported by name and fail, and a
# patch within its scope passes; then every patch of the real series
# touches only its own subsystem's files.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
scope() { "$root/harness/patch-scope.sh" "$@"; }
# fake_patch FILE SUBJECT PATH...: a format-patch file touching PATHs.
fake_patch() {
	local f=$1 subject=$2 p
	shift 2
	{
		echo "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001"
		echo "Subject: [PATCH 1/2] $subject"
		echo
		for p; do echo "diff --git a/$p b/$p"; done
	} >"$f"
}
s=$scratch/s
mkdir -p "$s"
printf 'watchdog  drivers/watchdog/*\nclocksource/drivers/sh  drivers/clocksource/sh_*\n' >"$s/scopes"
fake_patch "$s/good.patch" "watchdog: remove a driver" drivers/watchdog/Kconfig drivers/watchdog/x.c
fake_patch "$s/stray.patch" "clocksource/drivers/sh: drop the early
 timer support" drivers/clocksource/sh_cmt.c drivers/dma/sh/Kconfig
fake_patch "$s/norow.patch" "mtd: remove a map" drivers/mtd/maps/x.c
printf 'good.patch\n' >"$s/series"
scope --series "$s/series" --scopes "$s/scopes" >"$s/out" || fail "a patch within its scope was refused: $(cat "$s/out")"
ok "a patch within its scope passes"
printf 'good.patch\nstray.patch\nnorow.patch\n' >"$s/series"
if scope --series "$s/series" --scopes "$s/scopes" >"$s/out"; then
	fail "a stray file and an unknown prefix passed"
fi
grep -qx "stray.patch: drivers/dma/sh/Kconfig is outside 'clocksource/drivers/sh'" "$s/out" ||
	fail "the stray file is not named: $(cat "$s/out")"
grep -q "sh_cmt.c" "$s/out" && fail "a file within the scope was reported"
ok "a file of another subsystem is named, under a folded subject"
grep -qx "norow.patch: no row of scopes for the prefix 'mtd'" "$s/out" ||
	fail "the prefix without a row is not named: $(cat "$s/out")"
ok "a prefix without a row is named"
[ "$(tail -n 1 "$s/out")" = "3 patches, 2 files outside their subject's scope" ] ||
	fail "wrong summary: $(tail -n 1 "$s/out")"
ok "the summary counts both"

scope >"$s/real" || { cat "$s/real"; fail "patches of the series touch other subsystems' files"; }
ok "the series: $(tail -n 1 "$s/real")"
