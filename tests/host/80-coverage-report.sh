#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# harness/coverage.sh on a synthetic series and kernels: what a built
# kernel compiled, read from its .o.cmd files; changed lines in branches
# it took, did not take, or that depend on macros nothing sets; reasons
# for what no kernel compiled; the same with no kernel built, and as an
# estimate from a configuration alone.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
soft_checks
s=$scratch
g=$s/guards.txt
# The series: two C files, a header, a host program. Fields as
# `chopblock guards` prints them.
tab=$'\t'
cat >"$g" <<EOF
file${tab}drv/a.c${tab}c${tab}+4${tab}-4
path${tab}drv/a.c${tab}1${tab}FOO${tab}drv/Makefile:1 Kbuild:1
span${tab}drv/a.c${tab}10${tab}12${tab}+2${tab}-1${tab}-
span${tab}drv/a.c${tab}20${tab}20${tab}+1${tab}-1${tab}(defined(CONFIG_BAR))
span${tab}drv/a.c${tab}30${tab}30${tab}+0${tab}-2${tab}(defined(__alpha__)) && !(defined(CONFIG_BAR))
span${tab}drv/a.c${tab}40${tab}40${tab}+1${tab}-0${tab}(defined(WEIRD_MACRO))
span${tab}drv/a.c${tab}50${tab}50${tab}+0${tab}-1${tab}(defined(DEBUG))
arch${tab}drv/a.c${tab}x86_64${tab}y${tab}FOO${tab}-
file${tab}drv/b.c${tab}c${tab}+1${tab}-1
path${tab}drv/b.c${tab}1${tab}BAZ${tab}drv/Makefile:2 Kbuild:1
span${tab}drv/b.c${tab}5${tab}5${tab}+1${tab}-1${tab}-
arch${tab}drv/b.c${tab}x86_64${tab}n${tab}BAZ${tab}BAZ needs another architecture (alpha)
file${tab}inc/x.h${tab}h${tab}+1${tab}-0
path${tab}inc/x.h${tab}1${tab}FOO${tab}via drv/a.c
span${tab}inc/x.h${tab}3${tab}3${tab}+1${tab}-0${tab}-
arch${tab}inc/x.h${tab}x86_64${tab}y${tab}FOO${tab}-
file${tab}tools/t.c${tab}c${tab}+0${tab}-1
arch${tab}tools/t.c${tab}x86_64${tab}n${tab}-${tab}not kernel code
EOF

# A built x86_64 kernel: FOO and BAR set, drv/a.c compiled with -DDEBUG,
# inc/x.h among its dependencies.
k=$s/kernels/k1
mkdir -p "$k/kbuild/drv"
printf 'name=k1\narch=x86_64\ntree=/src/tree\nkbuild=%s\nresult=ok\n' "$k/kbuild" >"$k/manifest"
printf 'CONFIG_FOO=y\nCONFIG_BAR=y\n# CONFIG_BAZ is not set\n' >"$k/kbuild/.config"
cat >"$k/kbuild/drv/.a.o.cmd" <<'EOF'
cmd_drv/a.o := gcc -Wp,-MMD,drv/.a.o.d -nostdinc -D__KERNEL__ -DDEBUG -DKBUILD_MODNAME='"a"' -c -o drv/a.o /src/tree/drv/a.c

source_drv/a.o := /src/tree/drv/a.c

deps_drv/a.o := \
  /src/tree/inc/x.h \
  /src/tree/include/linux/kernel.h \

drv/a.o: $(deps_drv/a.o)
EOF
report() { "$root/harness/coverage.sh" --guards "$g" --kernels "$s/kernels" --configs "$s/configs" --out "$s/report.txt" "$@"; }
has() { grep -qF -- "$1" "$s/report.txt" || fail "the report lacks '$1':$(sed 's/^/  | /' "$s/report.txt")"; }

report k1 k2 >/dev/null || fail "coverage.sh failed with one kernel built, one not"
has "kernel               k1 (x86_64): built"
has "kernel               k2 (?): not built"
has "C files (outside tools/, scripts/, samples/): 2"
has "compiled by k1                   1"
has "compiled by any kernel            1 of 2"
ok "a source file counts as compiled when a .o.cmd names it as its source"
has "compiled by any kernel            1 of 1"
ok "a header counts as compiled when a .o.cmd lists it among its dependencies"
# a.c: 3 lines outside any branch, 2 in BAR (set), 1 under -DDEBUG (on the
# command line) compiled; 2 in an alpha branch not; 1 undecided. b.c: 2 not.
has "changed lines compiled            6 of 11 (54.5%), 1 undecided"
ok "changed lines: branches taken, not taken, undecided"
has "drv/a.c:30 (+0 -2): a branch not taken by k1"
ok "a branch no kernel takes is listed"
has "drv/a.c:40 (+1 -0): undecided"
ok "a branch on a macro nothing defines is undecided"
grep -q 'drv/a.c:50' "$s/report.txt" && fail "the -DDEBUG branch of a.c counts as not compiled"
ok "the command line's -DDEBUG decides #ifdef DEBUG"
has "      k1: BAZ needs another architecture (alpha)"
has "      k2: not built"
ok "a file no kernel compiled is listed with each kernel's reason"
has "tools/t.c: not kernel code"
ok "a host program is named as such"

out=$(report --min-lines 60 k1 2>&1) && fail "--min-lines 60 passed with 54.5% compiled"
echo "$out" | tail -n 1 | grep -q '^chopblock: error: fewer than 60% of the changed lines' ||
	fail "--min-lines: unexpected last line: $(echo "$out" | tail -n 1)"
ok "--min-lines fails below the threshold"

report --all-compilable k1 >/dev/null 2>&1 ||
	fail "--all-compilable failed although k1 compiled every file x86_64 can build"
has "Not compiled although the architecture of a kernel can: none"
ok "--all-compilable passes when only other architectures' files are left"
# k4: an x86_64 kernel that compiled nothing of the series.
mkdir -p "$s/kernels/k4/kbuild"
printf 'name=k4\narch=x86_64\ntree=/src/tree\nkbuild=%s\nresult=ok\n' "$s/kernels/k4/kbuild" >"$s/kernels/k4/manifest"
printf 'CONFIG_FOO=y\n' >"$s/kernels/k4/kbuild/.config"
out=$(report --all-compilable k4 2>&1) && fail "--all-compilable passed although drv/a.c, which x86_64 can build, was not compiled"
echo "$out" | tail -n 1 | grep -q "^chopblock: error: a file that one of the kernels' architectures can compile was compiled by none" ||
	fail "--all-compilable: unexpected last line: $(echo "$out" | tail -n 1)"
has "  drv/a.c (x86_64 can build it)"
ok "--all-compilable fails on a file x86_64 could compile, and names it"

report k2 >/dev/null || fail "coverage.sh failed with no kernel built"
has "compiled by any kernel            0 of 2"
has "changed lines compiled            0 of 11 (0.0%)"
ok "with no kernel built, nothing is compiled and the report still runs"

# --estimate: a configuration alone, DEBUG from no switch here.
mkdir -p "$s/configs/k3"
printf 'CONFIG_FOO=y\nCONFIG_BAZ=y\n' >"$s/configs/k3/.config"
report --estimate k3 >/dev/null || fail "coverage.sh --estimate failed"
has "compiled by any kernel            2 of 2"
has "changed lines compiled            5 of 11 (45.5%), 1 undecided"
ok "--estimate: files whose guard symbols the configuration sets"
exit $failed
