#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark: chopblock check against the tree's own
# scripts/checkkconfigsymbols.py, side by side on the same tree in one run,
# then chopblock dead --remove-arch sh; and where the two checkers differ.
#
# With PATCHED (the tree with the series applied), also the two commands
# that hold it against TREE, leftovers included: check --baseline and
# dead --baseline.
#
# usage: bench.sh TREE [path/to/chopblock [PATCHED]]

tree=${1:?usage: bench.sh TREE [chopblock [PATCHED]]}
here=$(cd "$(dirname "$0")" && pwd)
cb=${2:-$here/chopblock}
patched=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
cpu() {	# cpu OUT CMD...: run CMD with stdout to OUT, set $wall $user $sys
	local out=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >"$out" 2>/dev/null
	read -r wall user sys < <(tail -n 1 "$tmp/time")
}

echo "chopblock bench on $tree ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo

# warm the page cache for both tools alike
"$cb" check --tree "$tree" >/dev/null 2>&1

cpu "$tmp/cb.json" "$cb" check --tree "$tree" --json
cw=$wall
echo "chopblock check:                 ${wall} s wall, ${user} s user, ${sys} s sys"

if [ -e "$tree/.git" ]; then
	(cd "$tree" && cpu "$tmp/py.txt" python3 scripts/checkkconfigsymbols.py
	 echo "$wall $user $sys" >"$tmp/pytime")
	read -r wall user sys <"$tmp/pytime"
	echo "scripts/checkkconfigsymbols.py:  ${wall} s wall, ${user} s user, ${sys} s sys (children included)"
	echo "ratio (wall):                    chopblock check is $(echo "scale=1; $wall / $cw" | bc)x faster"
else
	echo "scripts/checkkconfigsymbols.py:  not run ($tree is not a git checkout; the script needs git ls-files)"
fi
echo

CHOPBLOCK_CACHE=off cpu /dev/null "$cb" dead --tree "$tree" --remove-arch sh
echo "chopblock dead --remove-arch sh: ${wall} s wall, ${user} s user, ${sys} s sys (no cache: parses 21 architectures)"
"$cb" dead --tree "$tree" --remove-arch sh >/dev/null 2>&1
cpu /dev/null "$cb" dead --tree "$tree" --remove-arch sh
echo "chopblock dead --remove-arch sh: ${wall} s wall, ${user} s user, ${sys} s sys (Kconfig result cached)"
if [ -n "$patched" ]; then
	cpu /dev/null "$cb" check --tree "$patched" --baseline "$tree"
	echo "chopblock check --baseline:      ${wall} s wall, ${user} s user, ${sys} s sys ($patched against $tree)"
	"$cb" dead --tree "$patched" --baseline "$tree" --remove-arch sh >/dev/null 2>&1
	cpu /dev/null "$cb" dead --tree "$patched" --baseline "$tree" --remove-arch sh
	echo "chopblock dead --baseline:       ${wall} s wall, ${user} s user, ${sys} s sys (Kconfig result cached)"
fi
echo

[ -s "$tmp/py.txt" ] || exit 0
python3 - "$tmp/cb.json" "$tmp/py.txt" "$tree" <<'PY'
import json, os, re, sys
cbj, pyt, tree = sys.argv[1:4]
cb = {}
for f in json.load(open(cbj))["findings"]:
    if f["kind"] == "undefined-symbol":
        cb.setdefault(f["name"], set()).add(f["file"])
py = {}
lines = open(pyt, errors="replace").read().split("\n")
for i, l in enumerate(lines[:-1]):
    if lines[i + 1].startswith("Referencing files:"):
        files = lines[i + 1].split(":", 1)[1].strip()
        py[l.strip()] = set(x.strip() for x in files.split(",") if x.strip())
both = set(cb) & set(py)
print("undefined symbols: checkkconfigsymbols.py %d, chopblock %d, both %d"
      % (len(py), len(cb), len(both)))

import subprocess
tracked = set(subprocess.run(["git", "-C", tree, "ls-files"], capture_output=True,
                             text=True).stdout.split("\n"))
defs = subprocess.run("grep -rhoE '^\\s*#\\s*define\\s+CONFIG_[A-Za-z0-9_]+' "
                      "--include='*.[chS]' --exclude-dir=tools --exclude-dir=.git . "
                      "| sed 's/.*CONFIG_//'", shell=True, cwd=tree,
                      capture_output=True, text=True).stdout.split()
defs = set(defs)
scanned = re.compile(r"(\.(c|h|S|rs|dts|dtsi)$|(^|/)(Kconfig[^/]*|Makefile|Kbuild)$|/configs/)")
cats = {}
def add(side, r, s):
    cats.setdefault((side, r), []).append(s)
for s in sorted(set(py) - set(cb)):
    files = py[s]
    if all(not scanned.search(f) or f.startswith(("Documentation/", "tools/")) for f in files):
        add("only checkkconfigsymbols.py", "used only in docs/scripts/other files chopblock does not scan", s)
    elif s in defs:
        add("only checkkconfigsymbols.py", "#define CONFIG_X exists in code: not a Kconfig symbol", s)
    elif all(os.path.basename(f).startswith("Kconfig") for f in files):
        add("only checkkconfigsymbols.py", "words of Kconfig help texts or $(...) macro arguments read as expressions", s)
    else:
        add("only checkkconfigsymbols.py", "other (see the two outputs)", s)
for s in sorted(set(cb) - set(py)):
    files = cb[s]
    if all(f not in tracked for f in files):
        add("only chopblock", "used only in files git does not track (e.g. generated headers)", s)
    elif any(os.path.basename(f).startswith("Kconfig") for f in files):
        add("only chopblock", "Kconfig reference outside the script's statement regex (prompt 'if', continued lines)", s)
    else:
        add("only chopblock", "other (see the two outputs)", s)
print("\nwhere they differ, and why:")
for (side, r), syms in sorted(cats.items(), key=lambda x: -len(x[1])):
    print("  %-28s %4d  %s" % (side, len(syms), r))
    print("  %-28s       e.g. %s" % ("", ", ".join(syms[:6])))
PY
