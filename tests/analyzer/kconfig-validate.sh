#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Validate chopblock's Kconfig analysis against the tree's own conf: every
# symbol that conf sets to y or m in allyesconfig and randconfig, for a few
# architectures, must be one that chopblock says can be enabled on that
# architecture (with COMPILE_TEST allowed); with COMPILE_TEST forced off, the
# same must hold for chopblock's no-COMPILE_TEST answer, the one "dead" uses.
# A violation would mean chopblock can call live code dead.
# KTAP output, last line "N passed, M failed".
#
# usage: kconfig-validate.sh TREE [chopblock] [conf] [ARCH...]

tree=$(cd "${1:?usage: kconfig-validate.sh TREE [chopblock] [conf] [ARCH...]}" && pwd)
cb=${2:-}
conf=${3:-}
shift 3 2>/dev/null
arches=${*:-x86 arm arm64 sh riscv}
. "$(dirname "$0")/common.sh"
cb=$(realpath "$cb")
# default: the conf built with the tree's own parser (obj-VERSION.PATCHLEVEL)
ver=$(sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' "$tree/Makefile" | paste -sd.)
conf=$(realpath "${conf:-$here/../../analyzer/obj-$ver/kc/conf}")

# a toolchain that supports everything, as chopblock assumes
cat >"$tmp/fakecc" <<'EOS'
#!/bin/sh
for a; do
	case $a in
	-E) echo "GCC 14 2 0"; exit 0 ;;
	-Wa,--version) echo "GNU assembler (GNU Binutils) 2.44"; exit 0 ;;
	-v|--version) echo "GNU ld (GNU Binutils) 2.44"; exit 0 ;;
	esac
done
exit 0
EOS
chmod +x "$tmp/fakecc"

mapfile -t all < <(cd "$tree/arch" && for d in */Kconfig; do echo "${d%/Kconfig}"; done | LC_ALL=C sort)
# the per-architecture answers do not depend on what is removed
CHOPBLOCK_KDUMP=$tmp/table CHOPBLOCK_CACHE=off "$cb" dead --tree "$tree" \
	--remove-arch "${all[0]}" >/dev/null 2>"$tmp/err" ||
	{ echo "chopblock failed: $(cat "$tmp/err")"; exit 1; }

for arch in $arches; do
	idx=-1
	for i in "${!all[@]}"; do [ "${all[$i]}" = "$arch" ] && idx=$i; done
	[ "$idx" -ge 0 ] || { echo "unknown arch $arch"; exit 2; }
	echo "# CONFIG_COMPILE_TEST is not set" >"$tmp/noct"
	for kind in allyes rand1 rand2 allyes-noct rand-noct; do
		args=(--allyesconfig)
		env=()
		bit=4	# y2: COMPILE_TEST allowed
		case $kind in
		rand1) args=(--randconfig); env=(KCONFIG_SEED=0x1) ;;
		rand2) args=(--randconfig); env=(KCONFIG_SEED=0x2) ;;
		allyes-noct) env=(KCONFIG_ALLCONFIG=$tmp/noct); bit=1 ;;
		rand-noct) args=(--randconfig); env=(KCONFIG_SEED=0x3 KCONFIG_ALLCONFIG=$tmp/noct); bit=1 ;;
		esac
		(cd "$tmp" && env srctree="$tree" SRCARCH="$arch" ARCH="$arch" \
			SUBARCH=x86 HEADER_ARCH=x86 CC="$tmp/fakecc" LD="$tmp/fakecc" \
			KCONFIG_CONFIG="$tmp/config" "${env[@]}" \
			"$conf" "${args[@]}" Kconfig >/dev/null 2>&1)
		if [ ! -s "$tmp/config" ]; then
			ktap_fail "$arch $kind: conf produced no .config"
			continue
		fi
		res=$(awk -v idx="$idx" -v bit="$bit" '
			FNR == NR { y0[$1] = $3; y2[$1] = $5; next }
			/^CONFIG_[A-Za-z0-9_]+=[ym]$/ {
				s = substr($0, 8); sub(/=.*/, "", s); set++
				if (!(s in y0)) next	# not a bool/tristate we track
				v = (bit == 4) ? y2[s] : y0[s]
				if (int(v / 2 ^ idx) % 2 == 0) { bad++; if (bad <= 5) ex = ex " " s }
			}
			END { printf "%d %d%s\n", set, bad, ex }' "$tmp/table" "$tmp/config")
		set -- $res
		if [ "${2:-1}" = 0 ]; then
			ktap_pass "$arch $kind: all $1 enabled symbols can be enabled per chopblock"
		else
			ktap_fail "$arch $kind: $2 of $1 enabled symbols called impossible:${res#* * }"
		fi
		rm -f "$tmp/config"
	done
done

ktap_finished
