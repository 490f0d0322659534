#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The static bisect (harness/static-bisect.sh): after no commit of the
# series does chopblock check find something the commit before it did
# not (the arch/sh removal may leave the undefined symbols and missing
# headers of the drivers the patches after it remove; a reference to a
# symbol the baseline defined may wait for a later patch). And it can
# fail: a commit on top of the series that deletes a header surviving code
# still includes, and names a symbol no Kconfig ever defined, is named
# with both.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
# The main job applied the series: the range keeps static-bisect.sh from
# applying it again.
"$root/harness/static-bisect.sh" --base "$BASELINE_TAG" --tip "$SERIES_BRANCH" >"$scratch/out" 2>&1 ||
	{ tail -n 25 "$scratch/out"; fail "$(tail -n 1 "$scratch/out")"; }
report=$BUILD_DIR/bisect/static-report.txt
want=$(git -C "$TREE_DIR" rev-list --count "$BASELINE_TAG..$SERIES_BRANCH")
got=$(grep -c '^ok ' "$report" || true)
[ "$got" -eq "$want" ] || fail "$got of the $want commits checked ok ($report)"
ok "chopblock check finds nothing new after any of the $want commits"

# The faults, made with a scratch index so that the tree's checkout is
# not touched: include/linux/blk-pm.h deleted (a header with no uapi
# twin, which <linux/...> would still find), and cdrom.c given an #ifdef
# of a symbol that never existed.
export GIT_INDEX_FILE=$scratch/index
git -C "$TREE_DIR" read-tree "$SERIES_BRANCH"
git -C "$TREE_DIR" rm -q --cached include/linux/blk-pm.h
{ git -C "$TREE_DIR" show "$SERIES_BRANCH:drivers/cdrom/cdrom.c"
  printf '#ifdef CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL\n#endif\n'; } >"$scratch/cdrom.c"
git -C "$TREE_DIR" update-index --cacheinfo \
	"100644,$(git -C "$TREE_DIR" hash-object -w "$scratch/cdrom.c"),drivers/cdrom/cdrom.c"
bad=$(echo "test: delete a header that is still included" |
	git -C "$TREE_DIR" commit-tree "$(git -C "$TREE_DIR" write-tree)" -p "$SERIES_BRANCH")
unset GIT_INDEX_FILE
if "$root/harness/static-bisect.sh" --base "$SERIES_BRANCH" --tip "$bad" --report "$scratch/bad-report" >"$scratch/bad" 2>&1; then
	cat "$scratch/bad"
	fail "the static bisect passed a commit that deletes include/linux/blk-pm.h"
fi
# The error shows the first 20 findings; all are in static-bad.
bad_list=$BUILD_DIR/bisect/static-bad
grep -q 'missing header .*blk-pm\.h' "$bad_list" || { tail -n 10 "$scratch/bad"; fail "the failure does not name blk-pm.h"; }
grep -q 'undefined symbol CONFIG_CHOPBLOCK_NO_SUCH_SYMBOL' "$bad_list" ||
	{ tail -n 10 "$scratch/bad"; fail "the failure does not name the symbol that never existed"; }
tail -n 1 "$scratch/bad" | grep -q "^chopblock: error: .*after patch 1/1" ||
	fail "the last line does not name the commit: $(tail -n 1 "$scratch/bad")"
ok "a commit that deletes a still-included header and names a made-up symbol fails, both named"
