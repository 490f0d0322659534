#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of chopblock on small synthetic trees (KTAP output).
# usage: run.sh [path/to/chopblock]
#
# The last line is "N passed, M failed"; the exit status is non-zero if
# any test failed.

cb=${1:-}
. "$(dirname "$0")/common.sh"
trees=$here/trees
# The tool frees nothing at exit on purpose (like the kconfig parser it
# embeds); memory errors and undefined behaviour still abort the run.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# lines_with FILE FIXED-STRING...: the lines of FILE that hold every string
lines_with() {
	local l
	l=$(cat "$1")
	shift
	for s in "$@"; do
		l=$(grep -F -- "$s" <<<"$l")
	done
	printf '%s' "$l"
}

# has FILE DESCRIPTION FIXED-STRING...: every string on one line of FILE
has() {
	local f=$1 d=$2
	shift 2
	if [ -n "$(lines_with "$f" "$@")" ]; then ktap_pass "$d"; else not_ok "$d" "missing: $*"; fi
}

# hasnot FILE DESCRIPTION FIXED-STRING...: no line has all strings
hasnot() {
	local f=$1 d=$2 l
	shift 2
	l=$(lines_with "$f" "$@")
	if [ -z "$l" ]; then ktap_pass "$d"; else not_ok "$d" "unexpected: $l"; fi
}

# status EXPECTED DESCRIPTION cmd...: exit status and a one-line error
status() {
	local want=$1 d=$2 got
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" = "$want" ]; then
		ktap_pass "$d"
	else
		not_ok "$d" "exit $got, wanted $want: $(head -c 300 "$tmp/err")"
	fi
}

B=$trees/basic
sym='"kind":"symbol","status":"dead"'

# ---- dead: Kconfig semantics ----
status 0 "dead runs on the basic tree" \
	"$cb" dead --tree "$B" --remove-arch aa --json
cp "$tmp/out" "$tmp/dead.json"
J=$tmp/dead.json
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$J" 2>/dev/null; then
	ktap_pass "dead --json is valid JSON"
else
	ktap_fail "dead --json is valid JSON"
fi
has "$J" "depends on a removed arch: dead" "$sym" '"name":"FOO_DEP"'
has "$J" "COMPILE_TEST-only: dead with reason" "$sym" '"name":"FOO_CT"' "COMPILE_TEST"
has "$J" "select only from dead symbol: dead" "$sym" '"name":"FOO_SEL"'
hasnot "$J" "select from a live symbol too: live" "$sym" '"name":"FOO_SEL_LIVE"'
has "$J" "symbol in an if block on a dead symbol: dead" "$sym" '"name":"IN_IF"'
has "$J" "symbol in a menu depending on a dead arch: dead" "$sym" '"name":"IN_MENU"'
has "$J" "choice depending on a dead arch: members dead" "$sym" '"name":"CHOICE_B"'
has "$J" "choice member depending on dead arch: dead" "$sym" '"name":"CHOICE2_X"'
hasnot "$J" "other choice member: live" "$sym" '"name":"CHOICE2_Y"'
has "$J" "transitive dependency (fixed point): dead" "$sym" '"name":"TRANSITIVE"'
hasnot "$J" "depends on A || B with B live: live" "$sym" '"name":"FOO_LIVE"'
hasnot "$J" "depends on !removed-arch: live" "$sym" '"name":"NOT_AA"'
hasnot "$J" "depends on live || dead: live" "$sym" '"name":"LIVE_USER"'
hasnot "$J" "COMPILE_TEST itself: live" "$sym" '"name":"COMPILE_TEST"'
has "$J" "arch symbol selected by arch: dead" "$sym" '"name":"ARCH_HAS_FOO"'
has "$J" "symbol defined only by the removed arch" "$sym" '"name":"AA_BOARD"' "removed architectures"

# ---- dead: Makefiles, files, headers ----
has "$J" "object guarded by dead symbol" '"kind":"file","status":"dead","path":"drivers/foo_dep.c"'
has "$J" "object guarded by COMPILE_TEST-only symbol" '"kind":"file","status":"dead","path":"drivers/foo_ct.c"'
has "$J" "member of a dead composite object" '"kind":"file","status":"dead","path":"drivers/comp_a.c"'
has "$J" "member of a dead composite with a live own guard" '"kind":"file","status":"dead","path":"drivers/comp_b.c"'
has "$J" "object under Makefile ifdef of dead symbol" '"kind":"file","status":"dead","path":"drivers/under_ifdef.c"'
hasnot "$J" "live object not listed" '"path":"drivers/foo_live.c"'
hasnot "$J" "unconditional object not listed" '"path":"drivers/common.c"'
has "$J" "directory guarded by dead symbol" '"kind":"dir","status":"dead","path":"drivers/deaddir/"'
hasnot "$J" "file of a dead directory not listed singly" '"path":"drivers/deaddir/x.c"'
has "$J" "header used only by dead code" '"kind":"header","status":"dead","path":"include/linux/onlydead.h"'
hasnot "$J" "header also used by live code" '"path":"include/linux/shared.h"'
hasnot "$J" "header without includers is not called dead" '"path":"include/linux/orphan.h"'
has "$J" "removed arch directory" '"kind":"arch","status":"dead","path":"arch/aa/"'
hasnot "$J" "other arch's header of the same name kept" '"path":"arch/bb/include/asm/thing.h"'

# ---- dead: conditionals, references, weak, MAINTAINERS, defconfigs ----
has "$J" "#ifdef on dead symbol becomes false" '"kind":"conditional"' '"line":4,' '"becomes":"false"' '"functions":"dep_stub"'
has "$J" "#ifndef on removed arch becomes true, stub named" '"kind":"conditional"' '"text":"#ifndef CONFIG_AA"' '"becomes":"true"' '"functions":"aa_stub"'
has "$J" "dead && live folds to false" '"kind":"conditional"' '"functions":"mixed_block"' '"becomes":"false"'
hasnot "$J" "IS_ENABLED() of a live symbol not reported" '"functions":"live_block"'
has "$J" "IS_ENABLED() of a dead symbol in code" '"kind":"reference"' '"file":"drivers/common.c","line":34' '"symbol":"FOO_CT"'
has "$J" "weak function overridden only in removed arch" '"kind":"weak"' '"name":"plat_hook"' 'arch/aa/kernel/setup.c:5'
hasnot "$J" "weak function with a live override" '"kind":"weak"' '"name":"other_hook"'
hasnot "$J" "weak function with a live override on several lines" '"kind":"weak"' '"name":"wide_hook"'
has "$J" "a prototype on several lines is no override" '"kind":"weak"' '"name":"proto_hook"' 'arch/aa/kernel/setup.c:'
has "$J" "MAINTAINERS entry with only dead files" '"kind":"maintainers","status":"dead"' '"title":"FOO DEP DRIVER"'
has "$J" "MAINTAINERS entry partly dead" '"kind":"maintainers","status":"partial"' '"title":"MIXED ENTRY"' 'drivers/deaddir/'
hasnot "$J" "live MAINTAINERS entry" '"title":"FOO LIVE DRIVER"'
has "$J" "defconfig of removed arch" '"kind":"defconfig"' 'arch/aa/configs/aa_defconfig'
has "$J" "dead symbol set in a surviving defconfig" '"kind":"reference"' 'arch/bb/configs/bb_defconfig' '"symbol":"FOO_DEP"'
hasnot "$J" "live symbol in a surviving defconfig" '"kind":"reference"' 'arch/bb/configs/bb_defconfig' '"symbol":"FOO_LIVE"'

# ---- dead: human output ----
"$cb" dead --tree "$B" --remove-arch aa >"$tmp/dead.txt" 2>&1
has "$tmp/dead.txt" "human output grouped by subsystem" "== drivers =="
has "$tmp/dead.txt" "human output has file:line" "drivers/Kconfig:8: FOO_DEP"

# ---- dead: --remove-symbol ----
status 0 "dead --remove-symbol runs" "$cb" dead --tree "$B" --remove-symbol CONFIG_FOO_LIVE --json
cp "$tmp/out" "$tmp/sym.json"
has "$tmp/sym.json" "--remove-symbol: the symbol is dead" "$sym" '"name":"FOO_LIVE"' "remove-symbol"
has "$tmp/sym.json" "--remove-symbol: its object is dead" '"kind":"file","status":"dead","path":"drivers/foo_live.c"'
hasnot "$tmp/sym.json" "--remove-symbol: A || removed stays live" "$sym" '"name":"LIVE_USER"'
hasnot "$tmp/sym.json" "--remove-symbol: no arch removed" '"kind":"arch"'

# ---- dead --baseline: what is left after a partial removal ----
P=$tmp/partial
cp -r "$B" "$P"
rm -r "$P/arch/aa" "$P/drivers/foo_dep.c" "$P/include/linux/onlydead.h"
sed -i -e '/plat_hook/,/^}/d' -e '/proto_hook/,/^}/d' "$P/drivers/common.c"
status 1 "dead --baseline: remnants make it fail" \
	"$cb" dead --tree "$P" --baseline "$B" --remove-arch aa --json
cp "$tmp/out" "$tmp/left.json"
has "$tmp/left.json" "remnant: leftover COMPILE_TEST-only driver" '"path":"drivers/foo_ct.c"'
has "$tmp/left.json" "remnant: symbol still defined" "$sym" '"name":"FOO_DEP"'
hasnot "$tmp/left.json" "removed file is not a remnant" '"path":"drivers/foo_dep.c"'
hasnot "$tmp/left.json" "removed arch is not a remnant" '"kind":"arch"'
hasnot "$tmp/left.json" "removed weak function is not a remnant" '"kind":"weak"'
status 2 "arch already gone without --baseline is an error" \
	"$cb" dead --tree "$P" --remove-arch aa
has "$tmp/err" "the error suggests --baseline" "--baseline"

# ---- dead: a Makefile that lists objects through variables ----
V=$tmp/vars
cp -r "$B" "$V"
printf 'more := extra.o\nobj-y += $(more)\n' >>"$V/drivers/Makefile"
"$cb" dead --tree "$V" --remove-arch aa --json >"$tmp/vars.json" 2>&1
has "$tmp/vars.json" "objects next to \$(var) lists are only maybe" \
	'"kind":"file","status":"maybe","path":"drivers/foo_dep.c"' 'through variables'
W=$tmp/compvar
cp -r "$B" "$W"
printf 'composite-objs := $(composite-y)\n' >>"$W/drivers/Makefile"
"$cb" dead --tree "$W" --remove-arch aa --json >"$tmp/compvar.json" 2>&1
has "$tmp/compvar.json" "\$(foo-y) of a composite is no unknown list" \
	'"kind":"file","status":"dead","path":"drivers/comp_a.c"'

# ---- errors ----
status 2 "unknown architecture is an error" "$cb" dead --tree "$B" --remove-arch zz
has "$tmp/err" "unknown architecture message" "unknown architecture 'zz'"
status 2 "missing tree is an error" "$cb" dead --tree "$tmp/nonexistent" --remove-arch aa
status 2 "unknown option is an error" "$cb" dead --tree "$B" --bogus
status 2 "unknown symbol is an error" "$cb" dead --tree "$B" --remove-symbol NO_SUCH_SYMBOL
status 2 "unknown command is an error" "$cb" frobnicate
status 2 "check without --tree is an error" "$cb" check
status 2 "not a kernel tree is an error" "$cb" check --tree "$trees"

# ---- check ----
status 0 "check passes on a clean tree" "$cb" check --tree "$B"
D=$tmp/dangling
cp -r "$B" "$D"
echo 'int x = IS_ENABLED(CONFIG_NO_SUCH_THING);' >>"$D/drivers/foo_live.c"
echo '#include <linux/no_such_header.h>' >>"$D/drivers/common.c"
echo 'obj-y += no_such_source.o' >>"$D/drivers/Makefile"
echo 'source "drivers/no_such/Kconfig"' >>"$D/drivers/Kconfig"
printf '\nGONE\nF:\tdrivers/no_such_file.c\nF:\tdrivers/foo_[lx]ive.[ch]\nF:\tdrivers/dead*\n' >>"$D/MAINTAINERS"
status 1 "check fails on a tree with dangling references" "$cb" check --tree "$D" --json
cp "$tmp/out" "$tmp/check.json"
C=$tmp/check.json
has "$C" "undefined CONFIG_ symbol" '"kind":"undefined-symbol","file":"drivers/foo_live.c"' '"name":"NO_SUCH_THING"'
has "$C" "missing header" '"kind":"missing-include","file":"drivers/common.c"' 'linux/no_such_header.h'
has "$C" "object without source" '"kind":"object-without-source","file":"drivers/Makefile"' 'drivers/no_such_source.o'
has "$C" "source of a missing Kconfig file" '"kind":"missing-kconfig-source"' 'drivers/no_such/Kconfig'
has "$C" "MAINTAINERS pattern matching nothing" '"kind":"maintainers-pattern"' 'drivers/no_such_file.c'
hasnot "$C" "MAINTAINERS [..] glob matching a file is fine" 'drivers/foo_[lx]ive.[ch]'
hasnot "$C" "MAINTAINERS pattern naming a directory is fine" '"drivers/dead*"'
status 1 "check --baseline: new dangling references fail" "$cb" check --tree "$D" --baseline "$B"
has "$tmp/out" "check --baseline lists the new one" "NO_SUCH_THING"
status 0 "check --baseline: nothing new passes" "$cb" check --tree "$D" --baseline "$D"
status 0 "check --baseline: removing dangling refs passes" "$cb" check --tree "$B" --baseline "$D"

# a reference that was never a Kconfig symbol (a #define hid it) is not new
M=$tmp/masked
cp -r "$B" "$M"
echo '#define CONFIG_MASKED_THING 1' >"$M/drivers/masked.h"
echo 'int masked = CONFIG_MASKED_THING;' >>"$M/drivers/foo_live.c"
M2=$tmp/masked2
cp -r "$M" "$M2"
rm "$M2/drivers/masked.h"
status 0 "check --baseline: #define-only symbol losing its #define is not new" \
	"$cb" check --tree "$M2" --baseline "$M"
status 1 "check: the same tree without baseline reports it" "$cb" check --tree "$M2"
has "$tmp/out" "check: the #define-only symbol is listed" "MASKED_THING"

# ---- guards: what compiles the lines a series changes ----
G=$tmp/guards
cp -r "$trees/guards" "$G"
git -C "$G" init -q && git -C "$G" add -A &&
	git -C "$G" -c user.name=t -c user.email=t@t commit -qm base
sed -i -e 's/^int widget_modern;/int widget_modern = 1;/' \
	-e 's/^int widget_debug_check;/int widget_debug_check = 1;/' \
	-e 's/^int widget_foo;/int widget_foo = 1;/' \
	-e 's/^\t!defined(CONFIG_WIDGET_FOO)$/\t!defined(CONFIG_WIDGET_FOO) \&\& 1/' "$G/drivers/widget/core.c"
sed -i 's/WIDGET_WIDTH 4/WIDGET_WIDTH 8/' "$G/drivers/widget/widget.h"
sed -i 's/= 1;/= 2;/' "$G/drivers/widget/foo_hw.c" "$G/drivers/widget/bar_helper.c" "$G/drivers/widget/board.c" \
	"$G/arch/aa/setup.c"
sed -i 's/MODE 1/MODE 2/' "$G/drivers/widget/legacy.h"
sed -i -e 's/depends on WIDGET_CORE && !WIDGET_LEGACY/depends on WIDGET_CORE/' \
	-e 's/^# debugging$/# debugging options/' "$G/drivers/widget/Kconfig"
git -C "$G" rm -q drivers/widget/gone.c
git -C "$G" -c user.name=t -c user.email=t@t commit -qam tip
git -C "$G" diff HEAD~1..HEAD >"$tmp/guards.diff"
status 0 "guards runs on a synthetic series" \
	"$cb" guards --tree "$G" --diff "$tmp/guards.diff" --arch aa --arch bb
T=$tmp/guards.txt
cp "$tmp/out" "$T"
tab=$'\t'
has "$T" "guards: a changed file is listed with its counts" "file${tab}drivers/widget/core.c${tab}c${tab}+4${tab}-4"
hasnot "$T" "guards: a deleted file is not" "gone.c"
has "$T" "guards: Makefile guard and the directory's" "path${tab}drivers/widget/core.c${tab}1${tab}WIDGET_CORE WIDGETS${tab}drivers/widget/Makefile:3 drivers/Makefile:2 Kbuild:2"
has "$T" "guards: a member of a composite object takes its guard" "path${tab}drivers/widget/foo_hw.c${tab}1${tab}WIDGET_FOO WIDGETS"
has "$T" "guards: an ifdef block in a Makefile is a guard" "path${tab}drivers/widget/board.c${tab}1${tab}WIDGET_BOARD WIDGETS"
has "$T" "guards: a header takes the guards of a file that includes it" "path${tab}drivers/widget/widget.h${tab}1${tab}WIDGET_" "via drivers/widget/"
has "$T" "guards: a header's path through a conditional #include has its condition" \
	"path${tab}drivers/widget/legacy.h${tab}1${tab}WIDGET_FOO WIDGETS${tab}via drivers/widget/foo_main.c${tab}(defined(CONFIG_WIDGET_LEGACY))"
has "$T" "guards: a file of arch/aa/ is built for aa only" "path${tab}arch/aa/setup.c${tab}1${tab}AA${tab}arch/aa/Makefile:2"
has "$T" "guards: and never on bb" "arch${tab}arch/aa/setup.c${tab}bb${tab}n${tab}"
has "$T" "guards: a change in an #else branch" "span${tab}drivers/widget/core.c${tab}12${tab}12${tab}+1${tab}-1${tab}!(defined(CONFIG_WIDGET_LEGACY))"
has "$T" "guards: a change under #ifdef DEBUG" "span${tab}drivers/widget/core.c${tab}16${tab}16${tab}+1${tab}-1${tab}(defined(DEBUG))"
has "$T" "guards: a directive's continuation line sits outside its branch" "span${tab}drivers/widget/core.c${tab}21${tab}21${tab}+1${tab}-1${tab}-"
has "$T" "guards: #elif folds the branch before it, IS_ENABLED spelled out" \
	"span${tab}drivers/widget/core.c${tab}24${tab}24${tab}" "!((defined(CONFIG_WIDGET_BAR) || defined(CONFIG_WIDGET_BAR_MODULE)) && !defined(CONFIG_WIDGET_FOO) && 1) && (defined(CONFIG_WIDGET_FOO))"
has "$T" "guards: an include guard is no condition" "span${tab}drivers/widget/widget.h${tab}7${tab}7${tab}+1${tab}-1${tab}(defined(__aa__))"
has "$T" "guards: a Kconfig change names the entry it edits" "span${tab}drivers/widget/Kconfig${tab}" "${tab}WIDGET_FOO"
has "$T" "guards: a changed Kconfig comment edits no entry" "span${tab}drivers/widget/Kconfig${tab}" "${tab}-${tab}-"
has "$T" "guards: a Makefile -DDEBUG switch" "debug${tab}drivers/widget/core.c${tab}WIDGET_DEBUG${tab}drivers/widget/Makefile:2${tab}-DDEBUG"
has "$T" "guards: a DEBUG symbol of the subsystem's Kconfig" "debug${tab}drivers/widget/core.c${tab}WIDGET_DEBUG${tab}drivers/widget/Kconfig:"
has "$T" "guards: buildable on aa" "arch${tab}drivers/widget/core.c${tab}aa${tab}y${tab}WIDGET_CORE WIDGETS${tab}-"
has "$T" "guards: only with COMPILE_TEST on bb" "arch${tab}drivers/widget/core.c${tab}bb${tab}ct${tab}" "WIDGET_CORE only with COMPILE_TEST"
has "$T" "guards: never on bb, and where it can be" "arch${tab}drivers/widget/board.c${tab}bb${tab}n${tab}" "WIDGET_BOARD needs another architecture (aa)"
status 0 "guards --json runs" "$cb" guards --tree "$G" --diff "$tmp/guards.diff" --json
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null; then
	ktap_pass "guards --json is valid JSON"
else
	ktap_fail "guards --json is valid JSON"
fi
status 2 "guards: an unknown architecture is an error" \
	"$cb" guards --tree "$G" --diff "$tmp/guards.diff" --arch zz

# ---- enable: what a configuration needs for the requested symbols ----
: >"$tmp/empty.config"
enable() { # ARCH REQUESTS... (one a line)
	local a=$1
	shift
	printf '%s\n' "$@" >"$tmp/req"
	"$cb" enable --tree "$trees/guards" --arch "$a" --config "$tmp/empty.config" --requests "$tmp/req" \
		--forbid COMPILE_TEST
}
status 0 "enable: a symbol and its dependencies" enable aa "need WIDGET_FOO f"
has "$tmp/out" "enable: the menu it is in" "set${tab}WIDGETS=y${tab}WIDGET_FOO${tab}f"
has "$tmp/out" "enable: the symbol it depends on" "set${tab}WIDGET_CORE=y${tab}WIDGET_FOO${tab}f"
has "$tmp/out" "enable: the symbol itself" "set${tab}WIDGET_FOO=y${tab}WIDGET_FOO${tab}f"
status 1 "enable: a dependency on a symbol the base keeps off fails" \
	enable aa "base WIDGET_LEGACY=y base" "need WIDGET_FOO f"
has "$tmp/out" "enable: and says why" "fail${tab}WIDGET_FOO${tab}f${tab}needs WIDGET_LEGACY off, but this configuration sets it"
status 0 "enable: a symbol that only a select sets" enable aa "need WIDGET_BAR_HELPER h"
has "$tmp/out" "enable: through the symbol that selects it" "set${tab}WIDGET_BAR=y${tab}WIDGET_BAR_HELPER${tab}h"
status 1 "enable: COMPILE_TEST, forbidden, is not taken" enable bb "need WIDGET_CORE c"
has "$tmp/out" "enable: and says which dependency failed" "needs one of HAS_WIDGET || COMPILE_TEST, and none can be met"
status 1 "enable: a platform the base does not choose is not taken" enable aa "need WIDGET_BOARD b"
has "$tmp/out" "enable: and says so" "needs the platform ARCH_AA_BOARD, which the base does not choose"
status 0 "enable: a platform the base chooses" enable aa "base ARCH_AA_BOARD=y base" "need WIDGET_BOARD b"
status 0 "enable: a debug option whose dependency is off is skipped" enable aa "soft WIDGET_DEBUG d"
has "$tmp/out" "enable: skipped, not chased" "skip${tab}WIDGET_DEBUG${tab}d"
status 0 "enable: a debug option whose dependency holds is set" \
	enable aa "base DEBUG_KERNEL=y base" "need WIDGET_CORE c" "soft WIDGET_DEBUG d"
has "$tmp/out" "enable: set" "set${tab}WIDGET_DEBUG=y${tab}WIDGET_DEBUG${tab}d"
status 0 "enable: try of an unknown symbol is no error" enable aa "try NO_SUCH_SYMBOL t"
status 1 "enable: need of an unknown symbol is" enable aa "need NO_SUCH_SYMBOL t"
status 0 "enable: what a symbol would undo is refused" \
	enable aa "need WIDGET_FOO f" "try WIDGET_LEGACY l"
has "$tmp/out" "enable: an earlier request keeps its symbol" "skip${tab}WIDGET_LEGACY${tab}l${tab}would change WIDGET_FOO"

# ---- leftovers: what a removal leaves behind in what stays ----
L=$trees/leftover
status 0 "dead finds leftovers on the leftover tree" \
	"$cb" dead --tree "$L" --remove-arch aa --json
cp "$tmp/out" "$tmp/left-dead.json"
LD=$tmp/left-dead.json
decl='"kind":"declaration","status":"dead"'
# (a) declarations
has "$LD" "leftover prototype" "$decl" '"what":"prototype"' '"line":25,' '"name":"aa_only_hook"'
has "$LD" "leftover extern variable" "$decl" '"what":"extern"' '"name":"aa_counter"'
has "$LD" "leftover enum constant" "$decl" '"what":"enum-constant"' '"name":"HOOK_AA"'
has "$LD" "leftover struct type" "$decl" '"what":"struct"' '"name":"aa_regs"'
has "$LD" "leftover macro" "$decl" '"what":"macro"' '"file":"include/linux/hooks.h","line":5,' '"name":"AA_MAGIC"'
has "$LD" "leftover static inline stub" "$decl" '"what":"inline"' '"name":"aa_inline_stub"'
hasnot "$LD" "prototype of a function still used: kept" '"name":"shared_hook"' '"kind":"declaration"'
hasnot "$LD" "extern variable still used: kept" '"name":"live_counter"'
hasnot "$LD" "enum constant still used: kept" '"name":"HOOK_LIVE"'
hasnot "$LD" "struct type still used: kept" '"name":"live_regs"'
hasnot "$LD" "macro still used: kept" '"name":"LIVE_MAGIC"'
hasnot "$LD" "a prototype unused before the removal too is none of its business" '"name":"never_used_proto"'
hasnot "$LD" "another architecture's macro of the same name: kept" '"file":"arch/bbx/'
hasnot "$LD" "a macro of a .c file no removed file could see: kept" '"name":"AA_LOCAL"'
hasnot "$LD" "a macro of the user ABI: kept" '"name":"AA_ABI_MAGIC"'
has "$LD" "a subsystem's own header, used by its removed driver" "$decl" '"name":"AA_WIDGET_REG"'
hasnot "$LD" "another subsystem's header no removed code could include: kept" '"name":"AA_PIN"'
hasnot "$LD" "a macro the removed code had its own of: kept" '"name":"AA_OWN"'
hasnot "$LD" "the first call in a function returning an enum is a use" '"name":"aa_board_kick"'
# (b) parameters and branches
has "$LD" "bool parameter every remaining caller passes as false" \
	'"kind":"constant-parameter"' '"file":"drivers/core.c","line":17,' '"name":"do_thing"' 'parameter 2'
hasnot "$LD" "bool parameter a remaining caller passes a variable: kept" '"name":"do_other"'
# The prototype and a header's caller (false) far apart in the file order,
# with slow files between, so that different workers read them (32 files
# a turn), and a caller in a .c file that passes true: one worker's view
# (a use, no bool parameter) must not close the name before the .c files
# are read. Whether the two land with different workers depends on
# timing: chopblock before the fix failed this in 9 of 10 runs.
S=$tmp/spread-tree
rm -rf "$S"
cp -r "$L" "$S"
echo 'int spread_flag(int n, bool on);' >"$S/include/linux/spread.h"
for i in $(seq -w 1 70); do
	{
		echo "#define SPREAD_FILL_$i $i"
		awk 'BEGIN { for (i = 0; i < 3000; i++) print "/* padding, so that a worker takes a while over each file */" }'
	} >"$S/include/linux/spread_fill_$i.h"
done
printf '%s\n' '#include <linux/spread.h>' \
	'static inline int spread_off(void) { return spread_flag(0, false); }' \
	>"$S/include/linux/spreaduse.h"
printf '%s\n' '#include <linux/spread.h>' \
	'int spread_flag(int n, bool on) { return on ? n : 0; }' \
	'int spread_on(void) { return spread_flag(1, true); }' >"$S/drivers/spread.c"
printf '%s\n' '#include <linux/spread.h>' \
	'int aa_spread(void) { return spread_flag(3, true); }' >"$S/arch/aa/kernel/spread.c"
status 0 "dead on the leftover tree with a bool parameter spread over workers" \
	"$cb" dead --tree "$S" --remove-arch aa --json
hasnot "$tmp/out" "bool parameter a .c file passes true, read after the headers: kept" \
	'"kind":"constant-parameter"' '"name":"spread_flag"'
has "$LD" "an #ifdef of a removed symbol is a constant conditional" \
	'"kind":"conditional"' '"text":"#ifdef CONFIG_AA_WIDGET"' '"becomes":"false"'
# (c) documentation
has "$LD" "documentation names a removed file" '"kind":"documentation"' \
	'"file":"Documentation/widget.rst","line":6,' 'arch/aa/kernel/setup.c'
has "$LD" "documentation describes a removed symbol" '"kind":"documentation"' '"line":7,' 'CONFIG_AA_WIDGET'
has "$LD" "documentation describes a removed function" '"kind":"documentation"' '"line":8,' 'aa_widget_probe'
has "$LD" "documentation lists the removed architecture" '"kind":"documentation"' '"line":10,' 'lists aa as supported'
has "$LD" "a features table lists it" '"kind":"documentation"' 'arch-support.txt","line":9,'
has "$LD" "the removed architecture's documentation directory" '"kind":"documentation"' '"name":"Documentation/arch/aa/"'
has "$LD" "Kconfig help names a removed file" '"kind":"documentation"' '"file":"drivers/Kconfig","line":5,'
has "$LD" "the sysfs ABI file of a removed driver" '"kind":"documentation"' \
	'"file":"Documentation/ABI/testing/sysfs-class-aa-widget","line":1,' 'the whole file'
has "$LD" "its debugfs ABI file, named with '_'" '"kind":"documentation"' \
	'"file":"Documentation/ABI/testing/debugfs-aa_widget","line":1,' 'the whole file'
has "$LD" "documentation naming a removed driver's ABI file" '"kind":"documentation"' \
	'"file":"Documentation/widget.rst","line":12,' 'debugfs-aa_widget'
hasnot "$LD" "the ABI file of what stays (drivers/core.c): nothing" '"kind":"documentation"' \
	'"file":"Documentation/ABI/testing/sysfs-devices-core",' 'the whole file'
hasnot "$LD" "an ABI file named like removed arch code: nothing" '"kind":"documentation"' \
	'"file":"Documentation/ABI/testing/sysfs-kernel-setup",' 'the whole file'
hasnot "$LD" "documentation of what stays: nothing" '"kind":"documentation"' '"line":9,' 'widget.rst'
hasnot "$LD" "a line with the architectures that stay: nothing" '"kind":"documentation"' '"line":11,' 'widget.rst'
hasnot "$LD" "a features row of an architecture that stays: nothing" 'arch-support.txt","line":10,'
hasnot "$LD" "Kconfig help of what stays: nothing" '"kind":"documentation"' '"file":"drivers/Kconfig","line":6,'
hasnot "$LD" "Kconfig help of a removed symbol goes with it" '"kind":"documentation"' '"file":"drivers/Kconfig","line":12,'
# (d) comments
has "$LD" "comment giving the removed architecture as the reason: maybe" \
	'"kind":"comment","status":"maybe"' '"file":"drivers/core.c","line":32,'
hasnot "$LD" "a short architecture name in lower case is a variable" '"kind":"comment"' '"line":35,'
hasnot "$LD" "a mention without a reason is none" '"kind":"comment"' '"line":38,'
"$cb" dead --tree "$L" --remove-arch aa >"$tmp/left-dead.txt" 2>&1
has "$tmp/left-dead.txt" "human output: leftovers with file:line" "include/linux/hooks.h:25: aa_only_hook: prototype"

status 0 "dead --no-leftovers runs" "$cb" dead --tree "$L" --remove-arch aa --no-leftovers --json
hasnot "$tmp/out" "dead --no-leftovers: no leftovers" '"kind":"declaration"'
has "$tmp/out" "dead --no-leftovers: the verdicts still" '"kind":"arch","status":"dead","path":"arch/aa/"'

# check --baseline on a removal made by hand: the same findings
LP=$tmp/left-partial
cp -r "$L" "$LP"
rm -r "$LP/arch/aa" "$LP/drivers/aa_widget.c"
sed -i '/AA_WIDGET/d' "$LP/drivers/Makefile"
sed -i '/^config AA_WIDGET/,$d' "$LP/drivers/Kconfig"
sed -i '/^#ifdef CONFIG_AA_WIDGET/,/^#endif/d' "$LP/drivers/core.c"
printf '#ifdef CONFIG_AA_WIDGET\nint left_branch;\n#endif\n' >>"$LP/drivers/core.c"
"$cb" check --tree "$LP" --baseline "$L" --json >"$tmp/left-check.json" 2>&1
LC=$tmp/left-check.json
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$LC" 2>/dev/null; then
	ktap_pass "check --baseline --json with leftovers is valid JSON"
else
	ktap_fail "check --baseline --json with leftovers is valid JSON"
fi
for n in aa_only_hook:prototype aa_counter:extern HOOK_AA:enum-constant aa_regs:struct \
	 AA_MAGIC:macro aa_inline_stub:inline; do
	has "$LC" "check --baseline: leftover ${n#*:} ${n%%:*}" "\"kind\":\"${n#*:}\"" "\"name\":\"${n%%:*}\""
done
hasnot "$LC" "check --baseline: used declarations kept" '"name":"shared_hook"' '"kind":"prototype"'
hasnot "$LC" "check --baseline: a .c macro the edit did not touch kept" '"name":"AA_LOCAL"'
has "$LC" "check --baseline: bool parameter" '"kind":"constant-parameter"' '"name":"do_thing"'
has "$LC" "check --baseline: bool parameter of a static function whose caller an edit removed" \
	'"kind":"constant-parameter"' '"name":"edit_me"'
hasnot "$LC" "check --baseline: bool parameter passed a variable kept" '"name":"do_other"'
has "$LC" "check --baseline: branch on a removed symbol" '"kind":"constant-branch"' '"name":"CONFIG_AA_WIDGET"'
has "$LC" "check --baseline: documentation" '"kind":"documentation"' 'arch/aa/kernel/setup.c'
has "$LC" "check --baseline: the ABI file of a removed driver" '"kind":"documentation"' \
	'"file":"Documentation/ABI/testing/sysfs-class-aa-widget","line":1,'
has "$LC" "check --baseline: comment, maybe" '"kind":"comment","status":"maybe"' '"line":32,'
"$cb" check --tree "$LP" --baseline "$L" --json --no-leftovers >"$tmp/out" 2>&1
hasnot "$tmp/out" "check --baseline --no-leftovers: no leftovers" '"kind":"prototype"'
status 0 "check --baseline: nothing removed, nothing left behind" \
	"$cb" check --tree "$L" --baseline "$L" --json
has "$tmp/out" "check --baseline: no leftovers against itself" '"leftovers":['
hasnot "$tmp/out" "check --baseline: and none listed" '"kind":"prototype"'

# dead --baseline: what the partial removal left, and not what it took
"$cb" dead --tree "$LP" --baseline "$L" --remove-arch aa --json >"$tmp/left-rem.json" 2>&1
has "$tmp/left-rem.json" "dead --baseline: a leftover still there" "$decl" '"name":"aa_only_hook"'
LQ=$tmp/left-clean
cp -r "$LP" "$LQ"
sed -i '/aa_only_hook/d' "$LQ/include/linux/hooks.h"
"$cb" dead --tree "$LQ" --baseline "$L" --remove-arch aa --json >"$tmp/left-rem2.json" 2>&1
hasnot "$tmp/left-rem2.json" "dead --baseline: a leftover removed is not listed" '"name":"aa_only_hook"'
has "$tmp/left-rem2.json" "dead --baseline: the others still are" "$decl" '"name":"aa_counter"'

ktap_finished
