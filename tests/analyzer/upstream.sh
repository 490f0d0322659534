#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# chopblock held against what upstream really removed (the figures of
# analyzer/README.md, "Checked against upstream"):
#
#   ia64     dead --remove-arch ia64 on Debian's 6.1 (its own parser),
#            against the 6.12 tree: upstream removed arch/ia64 in 6.7.
#   pktcdvd  dead --remove-symbol CDROM_PKTCDVD on 6.12, against the file
#            list of upstream's removal, 1cea5180f2f8 (Linux 6.17).
#
# Verdicts are (a) agreement: gone upstream too; (b) still there upstream:
# an upstream leftover or a wrong verdict; (c) what upstream deleted that
# chopblock did not name. KTAP output, last line "N passed, N failed";
# exit status non-zero on failure.
#
# usage: upstream.sh TREE-6.1 TREE-6.12 CHOPBLOCK-6.1 [CHOPBLOCK-6.12]
#   (each chopblock built with its tree's own Kconfig parser:
#    make -C analyzer KSRC=TREE obj-VERSION/chopblock)

t61=${1:?usage: upstream.sh TREE-6.1 TREE-6.12 CHOPBLOCK-6.1 [CHOPBLOCK-6.12]}
t612=${2:?usage: upstream.sh TREE-6.1 TREE-6.12 CHOPBLOCK-6.1 [CHOPBLOCK-6.12]}
cb61=${3:?usage: upstream.sh TREE-6.1 TREE-6.12 CHOPBLOCK-6.1 [CHOPBLOCK-6.12]}
cb=${4:-}
. "$(dirname "$0")/common.sh"
legacy=$here/../../patches/legacy

# check NAME GOT WANT: one figure
check() {
	if [ "$2" = "$3" ]; then
		ktap_pass "$1"
	else
		not_ok "$1" "got:  $2
want: $3"
	fi
}

# run NAME OUT [EXIT] CMD...: a chopblock run, its JSON in OUT
run() {
	local name=$1 out=$2 want=0 rc=0
	shift 2
	case $1 in [0-9]) want=$1; shift ;; esac
	"$@" --json >"$out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = "$want" ]; then
		ktap_pass "$name"
	else
		not_ok "$name" "exit $rc, wanted $want: $(head -c 300 "$tmp/err")"
	fi
}

# The figures below are those of dead's verdicts; what a removal leaves
# behind in the files that stay (issue 16, part 3) is counted apart.
LEFT='"kind":"(declaration|constant-parameter|documentation|comment)"'

# counts JSON: the "counts" object of a chopblock dead run, verdicts only
counts() {
	sed -n '1s/.*"counts":{\([^}]*\)}.*/\1/p' "$1" | sed 's/,"declaration":.*//'
}

# verdicts JSON: the items of a chopblock dead run, leftovers left out
verdicts() {
	grep '^{"kind":' "$1" | grep -Ev "^\{$LEFT"
}

# keys JSON: one line per item: kind, then path or name, then line
keys() {
	verdicts "$1" | sed -E \
		-e 's/^\{"kind":"([a-z]+)".*"(name|path|title)":"([^"]*)".*/\1 \3/' \
		-e 't' -e 's/^\{"kind":"([a-z]+)".*"file":"([^"]*)","line":([0-9]+).*/\1 \2:\3/' |
		LC_ALL=C sort
}

# ---- ia64: 6.1 against 6.12 ----
# Every figure below is in analyzer/README.md.
I=$tmp/ia64.json L=$tmp/ia64-left.json
run "ia64: dead --remove-arch ia64 runs on 6.1" "$I" \
	"$cb61" dead --tree "$t61" --remove-arch ia64
check "ia64: 145 verdicts" "$(counts "$I")" \
	'"arch":1,"symbol":35,"dir":0,"file":5,"header":1,"conditional":58,"reference":37,"weak":1,"maintainers":2,"defconfig":5'
run "ia64: dead --baseline 6.1 on 6.12 finds leftovers" "$L" 1 \
	"$cb61" dead --tree "$t612" --baseline "$t61" --remove-arch ia64
# (line numbers left out: a stable update of 6.1 may move them)
check "ia64 (b): 5 verdicts that 6.12 still has" "$(keys "$L" | sed 's/:[0-9]*$//' | tr '\n' ';')" \
	'conditional include/linux/dma-map-ops.h;conditional include/linux/irq.h;conditional kernel/irq/irqdesc.c;symbol ARCH_HAS_DMA_MARK_CLEAN;symbol GENERIC_IRQ_LEGACY;'

# The same, without chopblock's own remnant logic: what of each verdict
# is still in 6.12 (a symbol defined, a path there, a conditional on a dead
# symbol in the file, a reference to it, a __weak definition, the entry).
python3 - "$I" "$t612" >"$tmp/hold" 2>/dev/null <<'EOF'
import json, os, re, sys

items = [i for i in json.load(open(sys.argv[1]))["items"]
         if i["kind"] not in ("declaration", "constant-parameter",
                              "documentation", "comment")]
new = sys.argv[2]
kdefs = set()
for d, _, files in os.walk(new):
    for f in files:
        if f.startswith("Kconfig"):
            for l in open(os.path.join(d, f), errors="replace"):
                m = re.match(r"\s*(?:menu)?config\s+(\w+)", l)
                if m:
                    kdefs.add(m.group(1))
maint = open(os.path.join(new, "MAINTAINERS"), errors="replace").read()

def text(p):
    try:
        return open(os.path.join(new, p), errors="replace").read()
    except OSError:
        return ""

left = 0
for it in items:
    k = it["kind"]
    if k in ("arch", "dir"):
        there = os.path.isdir(os.path.join(new, it["path"]))
    elif k in ("file", "header", "defconfig"):
        there = os.path.exists(os.path.join(new, it["path"]))
    elif k == "symbol":
        there = it["name"] in kdefs
    elif k == "conditional":
        there = any(re.search(r"^\s*#\s*(el)?if.*\bCONFIG_%s\b" % s,
                              text(it["file"]), re.M)
                    for s in it["symbols"].split())
    elif k == "reference":
        pat = r"\b%s\b" if it["where"] == "kconfig" else r"\bCONFIG_%s\b"
        there = re.search(pat % it["symbol"], text(it["file"])) is not None
    elif k == "weak":
        there = re.search(r"__weak[^;{]*\b%s\s*\(" % it["name"],
                          text(it["file"])) is not None
    else:
        there = ("\n%s\n" % it["title"]) in maint
    left += there
print(len(items) - left, left)
EOF
check "ia64 (a)/(b), by grep of 6.12: 140 gone, 5 left" "$(cat "$tmp/hold")" "140 5"

# (b): each leftover is a candidate for patches/legacy unless it is there
for s in ARCH_HAS_DMA_MARK_CLEAN GENERIC_IRQ_LEGACY; do
	if grep -qsw "$s" "$legacy"/*.patch; then
		ktap_diag "ia64 (b): $s is removed by patches/legacy"
	else
		ktap_diag "ia64 (b): $s: upstream leftover, not in patches/legacy yet"
	fi
done

# The verdict that was wrong before is gone: module_finalize() is defined
# by 14 other architectures, with parameter lists over several lines.
check "ia64: the only weak function is follow_huge_addr()" \
	"$(keys "$I" | grep '^weak ')" "weak follow_huge_addr"

# (c): every file that only ia64 could build and 6.12 deleted is named
for f in drivers/char/agp/hp-agp.c drivers/char/agp/i460-agp.c \
	 drivers/char/mspec.c drivers/cpufreq/ia64-acpi-cpufreq.c \
	 drivers/firmware/pcdp.c drivers/firmware/pcdp.h; do
	if [ ! -e "$t61/$f" ] || [ -e "$t612/$f" ]; then
		not_ok "ia64 (c): $f is named" "not in 6.1, or still in 6.12"
	elif grep -q "\"path\":\"$f\"" "$I"; then
		ktap_pass "ia64 (c): $f is named"
	else
		not_ok "ia64 (c): $f is named" "chopblock does not name it"
	fi
done

# (c), the misses: conditionals on the compiler's __ia64__ (not a Kconfig
# symbol) that 6.12 folded. chopblock reads CONFIG_ symbols only.
ia64_conds() {
	(cd "$1" && grep -rcE '^\s*#\s*(el)?if.*__ia64__' --include='*.[chS]' \
		--include='*.uc' --exclude-dir=ia64 --exclude-dir=Documentation \
		--exclude-dir=tools --exclude-dir=.git . | grep -v ':0$' |
		sed 's|^\./||' | LC_ALL=C sort)
}
ia64_conds "$t61" >"$tmp/c61"
ia64_conds "$t612" >"$tmp/c612"
folded=$(LC_ALL=C join -t: -a1 -e0 -o 0,1.2,2.2 "$tmp/c61" "$tmp/c612" |
	awk -F: -v t="$t612" '$2 > $3 {
		gone = system("test -e \"" t "/" $1 "\"") != 0
		printf "%s%s:%d\n", gone ? "deleted " : "", $1, $2 - $3 }' | tr '\n' ';')
check "ia64 (c): __ia64__ conditionals 6.12 folded or deleted" "$folded" \
	'deleted drivers/gpu/drm/drm_bufs.c:1;deleted drivers/gpu/drm/drm_vm.c:2;include/linux/sched/signal.h:1;include/uapi/asm-generic/siginfo.h:1;kernel/signal.c:2;lib/raid6/algos.c:1;lib/raid6/int.uc:1;'
check "ia64 (c): chopblock names none of them" \
	"$(grep -c '"text":"[^"]*__ia64__' "$I")" 0

# ---- pktcdvd: 6.12 against upstream's 1cea5180f2f8 ----
# The file list of 1cea5180f2f8 ("block: remove pktcdvd driver"), as
# analyzer/README.md says how it was obtained: D deleted, M edited.
cat >"$tmp/upstream" <<'EOF'
D Documentation/ABI/testing/debugfs-pktcdvd
D Documentation/ABI/testing/sysfs-class-pktcdvd
D Documentation/cdrom/packet-writing.rst
M Documentation/userspace-api/ioctl/ioctl-number.rst
M MAINTAINERS
M drivers/block/Kconfig
M drivers/block/Makefile
D drivers/block/pktcdvd.c
D include/linux/pktcdvd.h
EOF
cut -d' ' -f2 "$tmp/upstream" >"$tmp/up-files"

# The list against 6.12: each file is there and names pktcdvd; outside the
# defconfigs, 6.12 names pktcdvd in three more files, which upstream kept.
miss=$(while read -r _ f; do grep -qsi pktcdvd "$t612/$f" || echo "$f"; done <"$tmp/upstream")
check "pktcdvd: every file of 1cea5180f2f8 names pktcdvd in 6.12" "$miss" ""
check "pktcdvd: 6.12 files naming pktcdvd that 1cea5180f2f8 kept" \
	"$(cd "$t612" && grep -rli pktcdvd --exclude-dir=.git --exclude-dir=configs . |
		sed 's|^\./||' | LC_ALL=C sort | LC_ALL=C comm -23 - "$tmp/up-files" | tr '\n' ' ')" \
	'Documentation/filesystems/udf.rst drivers/scsi/scsi_lib.c include/uapi/linux/pktcdvd.h '

P=$tmp/pkt.json
run "pktcdvd: dead --remove-symbol CDROM_PKTCDVD runs on 6.12" "$P" \
	"$cb" dead --tree "$t612" --remove-symbol CDROM_PKTCDVD
check "pktcdvd: 35 verdicts" "$(counts "$P")" \
	'"arch":0,"symbol":3,"dir":0,"file":1,"header":1,"conditional":1,"reference":28,"weak":0,"maintainers":1,"defconfig":0'

# each verdict's file: the path of a file or header, else the file it is
# in; MAINTAINERS for an entry
verdicts "$P" | sed -E \
	-e 's/^\{"kind":"maintainers".*/maintainers MAINTAINERS/' -e 't' \
	-e 's/^\{"kind":"([a-z]+)".*"path":"([^"]*)".*/\1 \2/' -e 't' \
	-e 's/^\{"kind":"([a-z]+)".*"file":"([^"]*)".*/\1 \2/' >"$tmp/pkt-files"
awk 'NR == FNR { up[$1] = 1; next } ($2 in up)' "$tmp/up-files" "$tmp/pkt-files" >"$tmp/agree"
awk 'NR == FNR { up[$1] = 1; next } !($2 in up)' "$tmp/up-files" "$tmp/pkt-files" >"$tmp/left"
check "pktcdvd (a): 7 verdicts in 5 files of 1cea5180f2f8" \
	"$(wc -l <"$tmp/agree") $(cut -d' ' -f2 "$tmp/agree" | sort -u | wc -l)" "7 5"
check "pktcdvd (a): what 1cea5180f2f8 deleted is dead, not just referenced" \
	"$(grep -E '^(file|header) ' "$tmp/agree" | cut -d' ' -f2 | LC_ALL=C sort | tr '\n' ' ')" \
	"$(awk '$1 == "D" && $2 !~ /^Documentation\// { print $2 }' "$tmp/upstream" |
		LC_ALL=C sort | tr '\n' ' ')"
check "pktcdvd (b): 28 verdicts outside 1cea5180f2f8, 27 in 26 defconfigs" \
	"$(wc -l <"$tmp/left") $(grep -c '^reference arch/[a-z0-9]*/configs/' "$tmp/left") $(grep '^reference arch/' "$tmp/left" | sort -u | wc -l)" \
	"28 27 26"
check "pktcdvd (b): the other one is the export for the module in scsi_lib.c" \
	"$(grep -v '^reference arch/[a-z0-9]*/configs/' "$tmp/left")" \
	"conditional drivers/scsi/scsi_lib.c"
check "pktcdvd (c): files of 1cea5180f2f8 that chopblock does not name" \
	"$(cut -d' ' -f2 "$tmp/pkt-files" | LC_ALL=C sort -u | LC_ALL=C comm -13 - "$tmp/up-files" | tr '\n' ' ')" \
	'Documentation/ABI/testing/debugfs-pktcdvd Documentation/ABI/testing/sysfs-class-pktcdvd Documentation/cdrom/packet-writing.rst Documentation/userspace-api/ioctl/ioctl-number.rst '
check "pktcdvd (c): the two ABI files are named as documentation of what goes" \
	"$(grep -o '"kind":"documentation"[^}]*"file":"Documentation/ABI/testing/[a-z-]*pktcdvd"' "$P" | grep -o 'Documentation/ABI/[a-z/-]*' | LC_ALL=C sort | tr '\n' ' ')" \
	'Documentation/ABI/testing/debugfs-pktcdvd Documentation/ABI/testing/sysfs-class-pktcdvd '
check "pktcdvd: the UAPI header is kept, as upstream kept it" \
	"$(grep -c 'include/uapi/linux/pktcdvd.h"' "$P")" 0

ktap_finished
