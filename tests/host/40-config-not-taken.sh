#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# merge_config.sh only warns when a requested symbol does not survive; the
# build must stop, naming the symbol, before it compiles anything.
. "$(dirname "$0")/../lib.sh"
"$root/harness/tree.sh" >/dev/null 2>&1 || fail "harness/tree.sh failed"
# A kernel list of one row: the main kernel's fragments plus a bad one.
printf 'bad x86_64 patched main tinyconfig no - *.config %s\n' "$scratch/90-bad.config" >"$scratch/kernels.list"
build() { "$root/harness/build.sh" --list "$scratch/kernels.list" --tree "$TREE_DIR" --out "$scratch/k" bad; }

# A symbol that exists nowhere.
echo "CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL=y" >"$scratch/90-bad.config"
out=$(build 2>&1) && fail "build succeeded with an unknown symbol requested"
echo "$out" | tail -n 1 | grep -q "^chopblock: error: 1 requested config symbol(s) did not take" ||
	fail "unexpected last line: $(echo "$out" | tail -n 1)"
echo "$out" | grep -q "config symbol CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL did not take: requested 'CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL=y', got 'undefined'" ||
	fail "the unknown symbol is not named: $out"
ok "the unknown symbol is named"

# A real symbol whose dependency is off: USB_OHCI_HCD_PCI without PCI.
echo "# CONFIG_PCI is not set" >"$scratch/90-bad.config"
out=$(build 2>&1) && fail "build succeeded with PCI off and OHCI over PCI requested"
echo "$out" | grep -q "config symbol CONFIG_USB_OHCI_HCD_PCI did not take" ||
	fail "CONFIG_USB_OHCI_HCD_PCI is not named: $out"
ok "a symbol lost to a dependency is named"
[ ! -e "$scratch/k/kbuild/vmlinux" ] || fail "the kernel was built anyway"
ok "nothing was compiled"
[ "$(manifest "$scratch/k" result)" = FAILED ] || fail "the manifest says $(manifest "$scratch/k" result), not FAILED"
ok "the manifest records the failure"
