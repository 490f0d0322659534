#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# harness/configure.sh, the configuration step without a build, stops on a
# fragment line that did not take and names it, as build.sh does; a
# fragment whose lines all take passes.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
"$root/harness/tree.sh" >/dev/null 2>&1 || fail "harness/tree.sh failed"
conf() { "$root/harness/configure.sh" --tree "$TREE_DIR" --arch x86_64 --out "$scratch/c" "$@"; }

printf 'CONFIG_64BIT=y\nCONFIG_CHOPBLOCK_NO_SUCH_SYMBOL=y\n# CONFIG_PCI is not set\nCONFIG_USB_OHCI_HCD_PCI=y\n' >"$scratch/bad.config"
out=$(conf "$scratch/bad.config" 2>&1) && fail "configure.sh succeeded with symbols that cannot take"
echo "$out" | grep -q "config symbol CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL did not take: requested 'CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL=y', got 'undefined'" ||
	fail "the unknown symbol is not named: $out"
echo "$out" | grep -q "config symbol CONFIG_USB_OHCI_HCD_PCI did not take" ||
	fail "the symbol lost to a dependency is not named: $out"
echo "$out" | tail -n 1 | grep -q '^chopblock: error: 2 requested config symbol(s) did not take' ||
	fail "unexpected last line: $(echo "$out" | tail -n 1)"
ok "each line that did not take is named, and the step fails"
[ ! -e "$scratch/c/vmlinux" ] || fail "a kernel was built"
ok "nothing was compiled"

printf 'CONFIG_64BIT=y\nCONFIG_PCI=y\n' >"$scratch/good.config"
conf "$scratch/good.config" >/dev/null 2>&1 || fail "configure.sh failed on a fragment whose lines take"
grep -qx 'CONFIG_PCI=y' "$scratch/c/.config" || fail "CONFIG_PCI=y is not in the resulting .config"
ok "a fragment whose lines take passes"

# make bisect's allowance: a symbol listed in --may-not-take may fail to
# take and is named in OUT/untaken; every other line must still take.
echo CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL >"$scratch/allowed"
out=$(conf --may-not-take "$scratch/allowed" "$scratch/bad.config" 2>&1) &&
	fail "an unlisted symbol that did not take passed with --may-not-take"
echo "$out" | tail -n 1 | grep -q '^chopblock: error: 1 requested config symbol(s) did not take' ||
	fail "with the unknown symbol allowed, unexpected last line: $(echo "$out" | tail -n 1)"
ok "--may-not-take excuses only the symbols it lists"
printf 'CONFIG_64BIT=y\nCONFIG_CHOPBLOCK_NO_SUCH_SYMBOL=y\nCONFIG_PCI=y\n' >"$scratch/later.config"
conf --may-not-take "$scratch/allowed" "$scratch/later.config" >/dev/null 2>&1 ||
	fail "configure.sh failed on a listed symbol that did not take"
[ "$(cat "$scratch/c/untaken")" = CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL ] ||
	fail "untaken does not name the allowed symbol: $(cat "$scratch/c/untaken")"
ok "a listed symbol that did not take is named in untaken, and the step passes"
