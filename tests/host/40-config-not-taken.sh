#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# merge_config.sh only warns when a requested symbol does not survive; the
# build must stop, naming each symbol, before it compiles anything. One
# configuration run with two kinds of bad line: a symbol that exists
# nowhere, and one lost to a dependency (OHCI over PCI without PCI).
# (tests/host/81 checks configure.sh, the step build.sh runs, on its own.)
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
"$root/harness/tree.sh" >/dev/null 2>&1 || fail "harness/tree.sh failed"
# A kernel list of one row: the main kernel's fragments plus a bad one.
printf 'bad x86_64 patched main tinyconfig no - *.config %s\n' "$scratch/90-bad.config" >"$scratch/kernels.list"
printf 'CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL=y\n# CONFIG_PCI is not set\n' >"$scratch/90-bad.config"
out=$("$root/harness/build.sh" --list "$scratch/kernels.list" --tree "$TREE_DIR" --out "$scratch/k" bad 2>&1) &&
	fail "build succeeded with an unknown symbol and PCI off"
echo "$out" | tail -n 1 | grep -q "^chopblock: error: [0-9]* requested config symbol(s) did not take for bad " ||
	fail "unexpected last line: $(echo "$out" | tail -n 1)"
ok "the build stops with one line saying why"
echo "$out" | grep -q "config symbol CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL did not take: requested 'CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL=y', got 'undefined'" ||
	fail "the unknown symbol is not named: $out"
ok "the unknown symbol is named"
echo "$out" | grep -q "config symbol CONFIG_USB_OHCI_HCD_PCI did not take" ||
	fail "CONFIG_USB_OHCI_HCD_PCI is not named: $out"
ok "a symbol lost to a dependency is named"
[ ! -e "$scratch/k/kbuild/vmlinux" ] && [ -z "$(find "$scratch/k/kbuild" -name '*.o' -path '*/kernel/*' -print -quit)" ] ||
	fail "the kernel was compiled anyway"
ok "nothing was compiled"
[ "$(manifest "$scratch/k" result)" = FAILED ] || fail "the manifest says $(manifest "$scratch/k" result), not FAILED"
ok "the manifest records the failure"
