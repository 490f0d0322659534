#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A tree point's kernel whose build directory is gone while its manifest
# is not (someone cleaning build/points/ by hand) is built again. Seeding
# that directory from main's build copies main's image into it, and the
# manifest's inputs are still the point's: before 51e0c87, build.sh then
# called the pktcdvd kernel up to date, and its guest booted main's kernel.
# Rebuilds test 63's pktcdvd kernel that way, and checks that the image is
# pktcdvd's, not main's: its configuration, its vmlinux, its bzImage.
. "$(dirname "$0")/../lib.sh"
need_kernel main
need_kernel pktcdvd
k=$KERNELS_DIR/pktcdvd
kbuild=$(manifest "$k" kbuild)
image=$(manifest "$k" image)
main_image=$(manifest "$KERNELS_DIR/main" image)
[ -f "$kbuild/vmlinux" ] && [ -f "$image" ] || fail "no pktcdvd build in $kbuild"
inputs=$(manifest "$k" inputs)

rm -rf "$kbuild"
"$root/harness/build.sh" pktcdvd >"$scratch/out" 2>&1 ||
	fail "build.sh pktcdvd failed after its build directory was removed: $(tail -n 5 "$scratch/out")"
grep -q 'seed-point: ' "$scratch/out" ||
	fail "the build directory was not seeded from main's: $(tail -n 3 "$scratch/out")"
! grep -q 'is up to date' "$scratch/out" ||
	fail "build.sh took the copy of main's build for an up-to-date pktcdvd kernel"
grep -q 'build: pktcdvd done in' "$scratch/out" || fail "build.sh did not build: $(tail -n 3 "$scratch/out")"
ok "the seeded build directory is built, not taken as up to date"

[ "$(manifest "$k" result)" = ok ] && [ "$(manifest "$k" inputs)" = "$inputs" ] ||
	fail "the manifest after the rebuild: result $(manifest "$k" result), inputs changed"
grep -qx 'CONFIG_CDROM_PKTCDVD=y' "$kbuild/.config" || fail "the rebuilt configuration has no pktcdvd"
nm "$kbuild/vmlinux" >"$scratch/nm" || fail "nm $kbuild/vmlinux failed"
grep -qw pkt_setup_dev "$scratch/nm" || fail "the rebuilt vmlinux has no pktcdvd"
! cmp -s "$image" "$main_image" || fail "the pktcdvd image is main's ($main_image)"
ok "the pktcdvd kernel is pktcdvd's again: configuration, vmlinux and image"
