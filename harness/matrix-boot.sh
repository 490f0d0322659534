#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel of the build matrix in QEMU and run the guest tests that
# apply to its architecture:
#
#   harness/matrix-boot.sh arm64 [pristine|patched]
#
# The guest's initramfs, console and KTAP verdict go beside the build
# (build/matrix/NAME-TREE.guest, NAME-TREE.logs/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

MATRIX_DIR=${CHOPBLOCK_MATRIX_DIR:-$BUILD_DIR/matrix}
name=${1:?usage: matrix-boot.sh NAME [pristine|patched]}
tree=${2:-patched}
case $tree in pristine | patched) ;; *) die "the tree is pristine or patched, not '$tree'" ;; esac
arch=$(awk -v n="$name" '$1 == n { print $2 }' "$CHOPBLOCK_ROOT/configs/matrix/matrix.list")
[ -n "$arch" ] || die "no configuration '$name' in configs/matrix/matrix.list"
d=$MATRIX_DIR/$name-$tree
read -r res _ <"$d.result" 2>/dev/null || die "$name is not built from the $tree tree (run harness/matrix.sh $name:$tree)"
[ "$res" = ok ] || die "the $tree $name build failed; nothing to boot"

# The deprecation tests look for the patch subjects in the guest.
src=$BUILD_DIR/pristine
[ "$tree" = pristine ] || src=$TREE_DIR
ARCH=$arch CHOPBLOCK_TREE=$src "$h/initramfs.sh" "$d.guest"
ARCH=$arch CHOPBLOCK_KBUILD=$d CHOPBLOCK_GUEST=$d.guest CHOPBLOCK_LOGS=$d.logs "$h/boot.sh"
