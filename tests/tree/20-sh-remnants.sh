#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# After the series, nothing may point at what the SuperH removal took away:
#   1. no Kconfig symbol that only arch/sh defined (in the pristine tree) is
#      referenced: bare in Kconfig files, as CONFIG_<name> anywhere else;
#   2. no #include names a header the series deleted;
#   3. no Makefile names an object whose source the series deleted, nor a
#      directory the series deleted;
#   4. no MAINTAINERS F: pattern matches nothing (counted against pristine:
#      only patterns that the series left dangling count);
#   5. no test of a macro only an SH compiler predefines (__sh__, __SH4__,
#      ...) outside include/uapi, which is ABI.
# Runs on the tree as harness/apply.sh left it (branch "series").
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
g() { git -C "$TREE_DIR" "$@"; }
[ "$(g rev-parse HEAD)" = "$(g rev-parse "$SERIES_BRANCH")" ] || fail "tree is not on branch $SERIES_BRANCH"
[ -z "$(g status --porcelain --untracked-files=no)" ] || fail "tree has uncommitted changes"
if g diff --quiet "$BASELINE_TAG" HEAD -- arch/sh; then
	echo "SKIP: the series does not remove arch/sh yet"
	exit 4
fi
s=$scratch
total=0

# 1. Symbols only arch/sh defined.
defs() { sed -nE 's/^.*:[[:space:]]*(menu)?config[[:space:]]+([A-Za-z0-9_]+).*$/\2/p' | sort -u; }
g grep -E '^\s*(menu)?config\s+[A-Za-z0-9_]+' "$BASELINE_TAG" -- 'arch/sh/' | defs >"$s/sh-defs"
g grep -E '^\s*(menu)?config\s+[A-Za-z0-9_]+' "$BASELINE_TAG" -- '*Kconfig*' ':!arch/sh/' | defs >"$s/other-defs"
comm -23 "$s/sh-defs" "$s/other-defs" >"$s/sh-only"
sed 's/^/CONFIG_/' "$s/sh-only" >"$s/sh-only-config"
echo "$(wc -l <"$s/sh-only") Kconfig symbols were defined only in arch/sh"
{
	# In Kconfig, only expressions count, not prompts or help text.
	g grep -n -w -F -f "$s/sh-only" -- '*Kconfig*' |
		grep -E '^[^:]*:[0-9]+:[[:space:]]*(depends on|select|imply|default|def_bool|def_tristate|if|visible if|range)[[:space:]]' || true
	g grep -n -w -F -f "$s/sh-only-config" -- ':!*Kconfig*' || true
} >"$s/symbol-refs"
n=$(wc -l <"$s/symbol-refs")
echo "1. references to SuperH-only Kconfig symbols: $n"
head -n 20 "$s/symbol-refs" | sed 's/^/   /'
total=$((total + n))

# 2. Includes of deleted headers.
g diff --name-only --diff-filter=D "$BASELINE_TAG" HEAD -- '*.h' >"$s/deleted-h"
: >"$s/include-refs"
# include/linux/foo.h is <linux/foo.h> from anywhere.
sed -n 's|^include/\(.*\)$|\1|p' "$s/deleted-h" | sed 's|.*|<&>|' >"$s/global-h"
[ -s "$s/global-h" ] && { g grep -n -F -f "$s/global-h" -- '*.[chS]' '*.dts*' | grep '#\s*include' >>"$s/include-refs" || true; }
# drivers/foo/bar.h is "bar.h" from files in drivers/foo/.
while read -r h; do
	case "$h" in include/* | arch/sh/*) continue ;; esac
	g grep -n -F "\"$(basename "$h")\"" -- "$(dirname "$h")/" | grep '#\s*include' >>"$s/include-refs" || true
done <"$s/deleted-h"
n=$(wc -l <"$s/include-refs")
echo "2. includes of the $(wc -l <"$s/deleted-h") deleted headers: $n"
head -n 20 "$s/include-refs" | sed 's/^/   /'
total=$((total + n))

# 3. Makefile objects and directories of deleted sources.
g diff --name-only --diff-filter=D "$BASELINE_TAG" HEAD >"$s/deleted"
: >"$s/object-refs"
grep -E '\.(c|S)$' "$s/deleted" | grep -v '^arch/sh/' | while read -r f; do
	d=$(dirname "$f") o=$(basename "${f%.*}").o
	[ -e "$TREE_DIR/$d" ] || continue
	g grep -n -E "(^|[[:space:]=/])${o//./\\.}([[:space:]]|\$)" -- "$d/Makefile" "$d/Kbuild" 2>/dev/null || true
done >>"$s/object-refs"
# Directories that no longer exist, named in their parent's Makefile.
sed 's|/[^/]*$||' "$s/deleted" | sort -u | while read -r d; do
	[ -e "$TREE_DIR/$d" ] && continue
	p=$(dirname "$d")
	while [ ! -e "$TREE_DIR/$p" ]; do d=$p; p=$(dirname "$p"); done
	for mk in "$p/Makefile" "$p/Kbuild"; do
		[ -f "$TREE_DIR/$mk" ] && { g grep -n -E "(^|[[:space:]=])$(basename "$d")/" -- "$mk" || true; }
	done
done | sort -u >>"$s/object-refs"
n=$(wc -l <"$s/object-refs")
echo "3. Makefile references to deleted objects or directories: $n"
head -n 20 "$s/object-refs" | sed 's/^/   /'
total=$((total + n))

# 4. MAINTAINERS F: patterns matching nothing, new against pristine.
dangling() {
	local rev=$1
	{ g ls-tree -r --name-only "$rev"; echo "--MAINTAINERS--"; g show "$rev:MAINTAINERS"; } |
		awk -f "$root/tests/maintainers-dangling.awk"
}
dangling "$BASELINE_TAG" | sort >"$s/dangling-before"
dangling HEAD | sort >"$s/dangling-after"
comm -13 "$s/dangling-before" "$s/dangling-after" >"$s/dangling-new"
n=$(wc -l <"$s/dangling-new")
echo "4. MAINTAINERS F: patterns matching nothing: $(wc -l <"$s/dangling-before") before, $(wc -l <"$s/dangling-after") after, $n new"
head -n 20 "$s/dangling-new" | sed 's/^/   /'
total=$((total + n))

# 5. Conditionals on the SH compiler's predefined macros.
sh_cc='\b(__sh__|__SH[2-5][A-Z0-9]*__|__sh[1-5]__|__SH_FPU_ANY__)\b'
g grep -nE "$sh_cc" -- ':!include/uapi/' ':!arch/*/include/uapi/' >"$s/cc-refs" || true
n=$(wc -l <"$s/cc-refs")
echo "5. tests of SH compiler macros: $(g grep -nE "$sh_cc" "$BASELINE_TAG" -- ':!arch/sh/' ':!include/uapi/' ':!arch/*/include/uapi/' | wc -l) outside arch/sh before, $n after"
head -n 20 "$s/cc-refs" | sed 's/^/   /'
total=$((total + n))

echo "remnants: $total"
[ "$total" -eq 0 ] || fail "$total SuperH remnants left by the series"
