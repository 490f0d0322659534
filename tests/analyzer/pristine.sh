#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Acceptance test of "chopblock dead --remove-arch sh" on a pristine 6.12
# tree: everything Hellwig's series removed is found, and nothing that the
# Renesas ARM SoCs use is called dead.  KTAP output, last line
# "N passed, M failed[, K skipped]" (an item the tree does not have at all
# is a SKIP, never a pass); exit status non-zero on failure.
#
# usage: pristine.sh TREE [path/to/chopblock]

tree=${1:?usage: pristine.sh TREE [chopblock]}
cb=${2:-}
. "$(dirname "$0")/common.sh"

# match DESCRIPTION STRING...: one output line contains all strings
match() {
	local d=$1 l
	shift
	l=$(cat "$J")
	for s in "$@"; do
		l=$(grep -F -- "$s" <<<"$l")
	done
	[ -n "$l" ]
}

want() {
	local d=$1
	shift
	if match "$d" "$@"; then ktap_pass "$d"; else not_ok "$d" "missing: $*"; fi
}

wantnot() {
	local d=$1
	shift
	if match "$d" "$@"; then
		not_ok "$d" "unexpected: $*"
	else
		ktap_pass "$d"
	fi
}

# want a file item, or SKIP if the tree does not have the file at all
wantfile() {
	local d=$1 path=$2
	shift 2
	if [ ! -e "$tree/$path" ]; then
		ktap_skip "$d" "$path is not in this tree"
	else
		want "$d" "$@"
	fi
}

J=$tmp/dead.json
if "$cb" dead --tree "$tree" --remove-arch sh --json >"$J" 2>"$tmp/err"; then
	ktap_pass "chopblock dead --remove-arch sh runs"
else
	not_ok "chopblock dead --remove-arch sh runs" "$(head -c 300 "$tmp/err")"
fi
sym='"kind":"symbol","status":"dead"'

# seed 002: watchdog
want "SH_WDT is dead" "$sym" '"name":"SH_WDT"'
wantfile "shwdt.c is dead" drivers/watchdog/shwdt.c \
	'"kind":"file","status":"dead","path":"drivers/watchdog/shwdt.c"'
# seed 003: dmaengine
want "SH_DMAE_BASE is dead (COMPILE_TEST only)" "$sym" '"name":"SH_DMAE_BASE"' COMPILE_TEST
want "SH_DMAE is dead" "$sym" '"name":"SH_DMAE"'
wantfile "shdma-base.c is dead" drivers/dma/sh/shdma-base.c \
	'"kind":"file","status":"dead","path":"drivers/dma/sh/shdma-base.c"'
wantfile "shdmac.c is dead" drivers/dma/sh/shdmac.c \
	'"kind":"file","status":"dead","path":"drivers/dma/sh/shdmac.c"'
wantfile "include/linux/shdma-base.h is reported" include/linux/shdma-base.h \
	'include/linux/shdma-base.h' 'SH_DMAE_BASE'
# seed 004: drivers/sh
want "drivers/sh/ is dead" '"kind":"dir","status":"dead","path":"drivers/sh/"'
wantfile "sh_clk.h is dead" include/linux/sh_clk.h \
	'"kind":"header","status":"dead","path":"include/linux/sh_clk.h"'
wantfile "superhyway.h is dead" include/linux/superhyway.h \
	'"kind":"header","status":"dead","path":"include/linux/superhyway.h"'
# seed 005: the stub
want "is_sh_early_platform_device() stub becomes unconditional" \
	'"kind":"conditional"' '"file":"include/linux/platform_device.h"' \
	'"becomes":"true"' 'is_sh_early_platform_device'
# seed 006: the weak function
want "early_platform_cleanup() weak, overridden only in arch/sh" \
	'"kind":"weak"' '"name":"early_platform_cleanup"' '"file":"drivers/base/platform.c"' \
	'"overrides":"arch/sh/'
# seed 001 is already applied in 6.12: USB_OHCI_SH must not exist any more
if grep -q "config USB_OHCI_SH$" "$tree/drivers/usb/host/Kconfig"; then
	want "USB_OHCI_SH is dead" "$sym" '"name":"USB_OHCI_SH"'
else
	ktap_skip "USB_OHCI_SH is dead" "USB_OHCI_SH is not in this tree"
fi

# what Renesas ARM SoCs use stays
for s in SERIAL_SH_SCI SH_TIMER_CMT SH_TIMER_TMU SH_TIMER_MTU2 RCAR_DMAC \
	 RENESAS_USB_DMAC RENESAS_DMA SH_ETH I2C_SH_MOBILE MMC_SDHI SPI_RSPI \
	 SYS_SUPPORTS_SH_CMT SYS_SUPPORTS_SH_TMU SYS_SUPPORTS_SH_MTU2; do
	wantnot "$s is not dead" "$sym" "\"name\":\"$s\""
done
for f in drivers/tty/serial/sh-sci.c drivers/clocksource/sh_cmt.c \
	 drivers/clocksource/sh_tmu.c drivers/clocksource/sh_mtu2.c \
	 drivers/dma/sh/rcar-dmac.c drivers/dma/sh/usb-dmac.c \
	 drivers/net/ethernet/renesas/sh_eth.c drivers/i2c/busses/i2c-sh_mobile.c; do
	wantnot "$f is not dead" "\"path\":\"$f\""
done
wantnot "drivers/dma/sh/ is not dead as a whole" '"path":"drivers/dma/sh/"'
wantnot "include/linux/sh_dma.h is not dead" '"path":"include/linux/sh_dma.h"'

ktap_finished
