#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# harness/rebase.sh (make rebase TO=VERSION) on a synthetic "kernel" of
# five versions and a series of three patches in two topics: a clean move
# re-exports patches/ and tells an unchanged patch from one whose hunk
# moved and one whose context changed; a conflict names the patch and the
# file and changes nothing, and two conflicts are both named in one run; a bad version is one error line and changes
# nothing, and so does a patch the new version already has; a tree that
# already holds the new version is used as it is.
# tree.sh warns, in one line, when the installed package is not the
# version the series was made for. apt is never called: the tarballs are
# given, and stand-ins for apt-get and apt-cache fail loudly.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
soft_checks
fatal() { echo "FAIL: $*"; exit 1; }
s=$scratch
t=$s/build/tree
P=$s/patches

# ---- four versions of a tiny kernel: 6.12.1 to 6.12.4 ----
lines() { local n; for n in $(seq 1 30); do echo "$1 line $n"; done; }
kernel() { # DIR SUBLEVEL: the tree, and its tarball as Debian names it
	local k=$1/linux-source-6.12
	mkdir -p "$k/scripts/kconfig" "$k/drivers"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = %s\nEXTRAVERSION =\n' "$2" >"$k/Makefile"
	echo '# test stand-in' >"$k/scripts/kconfig/Makefile"
	# Like Debian's tree: everything is ignored.
	echo '*' >"$k/.gitignore"
	[ -f "$k/drivers/a.c" ] || { lines a >"$k/drivers/a.c"; lines b >"$k/drivers/b.c"; lines c >"$k/drivers/c.c"; }
}
pack() { tar -cJf "$1/linux-source-6.12.tar.xz" -C "$1" linux-source-6.12; }
tarball() { echo "$s/v$1/linux-source-6.12.tar.xz"; }
kernel "$s/v1" 1
pack "$s/v1"
# 6.12.2: b.c's line 13 changes, two lines above the line a patch changes;
# c.c gets 5 lines on top; a new file.
cp -a "$s/v1" "$s/v2"
kernel "$s/v2" 2
sed -i 's/^b line 13$/b line 13 (v2)/' "$s/v2/linux-source-6.12/drivers/b.c"
sed -i '1i c new 1\nc new 2\nc new 3\nc new 4\nc new 5' "$s/v2/linux-source-6.12/drivers/c.c"
echo "new in 6.12.2" >"$s/v2/linux-source-6.12/drivers/d.c"
pack "$s/v2"
# 6.12.3: changes the very line of c.c a patch changes.
cp -a "$s/v2" "$s/v3"
kernel "$s/v3" 3
sed -i 's/^c line 20$/c line 20 (v3)/' "$s/v3/linux-source-6.12/drivers/c.c"
pack "$s/v3"
# 6.12.4: a change far from every patch.
cp -a "$s/v2" "$s/v4"
kernel "$s/v4" 4
sed -i 's/^a line 1$/a line 1 (v4)/' "$s/v4/linux-source-6.12/drivers/a.c"
pack "$s/v4"
# 6.12.5: already has the change of the first patch.
cp -a "$s/v2" "$s/v5"
kernel "$s/v5" 5
sed -i 's/^a line 10$/a line 10 patched/' "$s/v5/linux-source-6.12/drivers/a.c"
pack "$s/v5"
# 6.12.6: changes the lines of a.c and of c.c that two patches change.
cp -a "$s/v2" "$s/v6"
kernel "$s/v6" 6
sed -i 's/^a line 10$/a line 10 (v6)/' "$s/v6/linux-source-6.12/drivers/a.c"
sed -i 's/^c line 20$/c line 20 (v6)/' "$s/v6/linux-source-6.12/drivers/c.c"
pack "$s/v6"

# ---- the series, made for 6.12.1: topics "one" (a.c, b.c) and "two" (c.c) ----
src=$s/src
cp -a "$s/v1/linux-source-6.12" "$src"
g() { git -C "$src" -c user.name=Test -c user.email=test@example.org "$@"; }
g init -q
g add -f -A
g commit -q -m "6.12.1"
for change in "a 10" "b 15" "c 20"; do
	set -- $change
	sed -i "s/^$1 line $2\$/$1 line $2 patched/" "$src/drivers/$1.c"
	g commit -q -a -m "test: $1: change line $2" -m "Because the test says so."
done
mkdir -p "$P"
g format-patch -q --no-signature -o "$P/one" HEAD~3..HEAD~1
g format-patch -q --no-signature -o "$P/two" HEAD~1
printf 'one 2 first topic\ntwo 1 second topic\n' >"$P/topics"
(cd "$P" && ls one/*.patch two/*.patch) >"$P/series"
printf '# made for\nlinux-source-6.12 6.12.1-1\n' >"$P/base-version"
p1=one/0001-test-a-change-line-10.patch
p2=one/0002-test-b-change-line-15.patch
p3=two/0001-test-c-change-line-20.patch
for p in $p1 $p2 $p3; do [ -f "$P/$p" ] || fatal "the test series lacks $p"; done
cp -a "$P" "$s/patches.6.12.1"

# apt must never run here: stand-ins that leave a mark.
mkdir -p "$s/bin"
for a in apt-get apt-cache; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/apt-called"\nexit 1\n' "$a" "$s" >"$s/bin/$a"
	chmod +x "$s/bin/$a"
done
rebase() { PATH=$s/bin:$PATH "$root/harness/rebase.sh" --tree "$t" --patches "$P" "$@"; }
tree() { "$root/harness/tree.sh" --tree "$t" --min-free 0 "$@"; }

# ---- tree.sh: the version warning ----
# The tarball's name makes tree.sh ask dpkg for linux-source-6.12: the
# version installed on this machine is what it compares.
installed=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
tree --tarball "$(tarball 1)" --base-version "$P/base-version" 2>"$s/tree.err" ||
	fatal "tree.sh failed on the 6.12.1 tarball: $(tail -n 3 "$s/tree.err")"
warned() { grep -c 'warning: the series was made for' "$s/tree.err"; }
if [ -n "$installed" ]; then
	[ "$(warned)" -eq 1 ] || fail "tree.sh did not warn once that the series is for 6.12.1-1: $(cat "$s/tree.err")"
	grep -qF "made for linux-source-6.12 6.12.1-1, not the installed $installed: if it does not apply, run make rebase TO=$installed" "$s/tree.err" ||
		fail "tree.sh's warning does not name both versions and make rebase: $(grep warning "$s/tree.err")"
	ok "tree.sh warns in one line when the series is for another version, and goes on"
	printf 'linux-source-6.12 %s\n' "$installed" >"$s/same-version"
	tree --tarball "$(tarball 1)" --base-version "$s/same-version" 2>"$s/tree.err" || fail "tree.sh failed on its second run"
	[ "$(warned)" -eq 0 ] || fail "tree.sh warned although the series is for the installed version"
	ok "no warning when the series is for the installed version"
	tree --tarball "$(tarball 1)" --base-version "$P/base-version" 2>"$s/tree.err" || fail "tree.sh failed on its third run"
	[ "$(warned)" -eq 1 ] && grep -q 'is up to date' "$s/tree.err" ||
		fail "tree.sh did not warn when the tree was up to date: $(cat "$s/tree.err")"
	ok "the warning comes when the tree is up to date too"
else
	echo "# linux-source-6.12 is not installed: no version for tree.sh to compare"
fi

"$root/harness/rebase.sh" --help | grep -q '^usage: harness/rebase.sh' || fail "rebase.sh --help does not print its usage"
ok "rebase.sh --help"

# state: everything a failed rebase must leave as it was: refs, checkout,
# files, version stamps, patches/, and no scratch directory.
state() {
	git -C "$t" show-ref --head
	git -C "$t" symbolic-ref -q HEAD || true
	git -C "$t" status --porcelain --ignored --untracked-files=all
	cat "$t/.git/chopblock-debian-version" "$t/.git/chopblock-tarball.sha256"
	(cd "$t" && find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum)
	(cd "$P" && find . -type f | LC_ALL=C sort | xargs sha256sum)
	ls -d "$s/build"/rebase.* 2>/dev/null || true
	ls "$t/.git/CHERRY_PICK_HEAD" "$t/.git/rebase-apply" 2>/dev/null || true
}
same_state() { # BEFORE WHAT
	state >"$s/after"
	cmp -s "$1" "$s/after" || fail "$2 changed the tree or patches/: $(diff "$1" "$s/after" | head -n 5 | tr '\n' ' ')"
	ok "$2 changed nothing: tree, tag, branch, checkout, patches/"
}

# ---- bad versions: one line, non-zero, nothing changed ----
state >"$s/before"
expect_error "which Debian version\?" rebase
expect_error "'not a version' is not a Debian version" rebase "not a version"
expect_error "linux-source-6.12.tar.xz holds upstream 6\.12\.2 \(its Makefile\), not 6\.12\.5 as linux-source-6.12 6\.12\.5-1 would" \
	rebase --base-tarball "$(tarball 1)" --tarball "$(tarball 2)" 6.12.5-1
same_state "$s/before" "a bad version"

# ---- a clean move: 6.12.1 -> 6.12.2 ----
old_pristine=$(git -C "$t" rev-parse pristine)
rebase --base-tarball "$(tarball 1)" --tarball "$(tarball 2)" 6.12.2-1 >"$s/out" 2>"$s/err" ||
	fatal "rebase to 6.12.2-1 failed: $(tail -n 5 "$s/err")"
printf '%-10s %s\n' unchanged $p1 changed $p2 moved $p3 >"$s/want"
cmp -s "$s/want" "$s/out" || fail "the report is not one line a patch as expected:$(diff "$s/want" "$s/out" | sed 's/^/  | /')"
grep -q '3 patches moved from linux-source-6.12 6.12.1-1 to 6.12.2-1: 1 unchanged, 1 moved, 1 changed' "$s/err" ||
	fail "no summary line: $(tail -n 1 "$s/err")"
ok "report: $p1 unchanged, $p2 changed (context), $p3 moved (offsets)"

[ "$(git -C "$t" rev-parse pristine^)" = "$old_pristine" ] || fail "the new baseline is not a commit after the old one"
git -C "$t" show pristine:Makefile | grep -q '^SUBLEVEL = 2$' || fail "pristine is not 6.12.2's tree"
[ "$(git -C "$t" show pristine:drivers/d.c 2>/dev/null)" = "new in 6.12.2" ] ||
	fail "pristine lacks 6.12.2's new file (not added with -f past .gitignore?)"
[ -z "$(git -C "$t" diff pristine --stat -- . ':!drivers/a.c' ':!drivers/b.c' ':!drivers/c.c')" ] ||
	fail "the tree differs from pristine outside the series' files"
ok "pristine moved to 6.12.2's whole tree, a commit after the old one"
[ "$(git -C "$t" symbolic-ref HEAD)" = refs/heads/series ] && [ "$(git -C "$t" rev-list --count pristine..series)" -eq 3 ] ||
	fail "the tree is not on branch series, three commits after pristine"
ok "branch series: the moved series, checked out"

grep -v '^#' "$P/base-version" | grep -qx 'linux-source-6.12 6.12.2-1' && grep -q '^# made for$' "$P/base-version" ||
	fail "base-version does not name 6.12.2-1 (with its comment kept): $(cat "$P/base-version")"
[ "$(cat "$t/.git/chopblock-debian-version")" = 6.12.2-1 ] || fail "the tree does not record 6.12.2-1"
ok "base-version and the tree name 6.12.2-1"

# patches/ re-exported from the moved commits.
for p in $p1 $p2 $p3; do
	c=$(sed -n '1s/^From \([0-9a-f]*\) .*/\1/p' "$P/$p")
	[ -n "$c" ] && [ "$(git -C "$t" rev-list pristine..series | grep -c "^$c$")" -eq 1 ] ||
		fail "$p is not exported from a commit of pristine..series"
done
[ "$(series_patches "$P/series" | tr '\n' ' ')" = "$p1 $p2 $p3 " ] || fail "patches/series does not list the three patches: $(cat "$P/series")"
body() { sed -n '/^diff --git/,$p' "$1" | grep -v '^index '; }
[ "$(body "$P/$p1")" = "$(body "$s/patches.6.12.1/$p1")" ] || fail "$p1's diff changed"
grep -q '^ b line 13 (v2)$' "$P/$p2" || fail "$p2 does not have 6.12.2's line as context"
grep -q '^@@ -22,7 +22,7 @@' "$P/$p3" && grep -q '^@@ -17,7 +17,7 @@' "$s/patches.6.12.1/$p3" ||
	fail "$p3's hunk did not move from line 17 to line 22"
ok "patches/ re-exported: the same diff, the new context, the moved hunk"
rm -rf "$s/check" && cp -a "$s/v2/linux-source-6.12" "$s/check"
for p in $(series_patches "$P/series"); do
	(cd "$s/check" && git apply "$P/$p") || fail "$p does not apply to 6.12.2"
done
[ "$(cat "$s/check/drivers/c.c" | sed -n 25p)" = "c line 20 patched" ] || fail "the moved series does not patch 6.12.2's c.c line 25"
ok "the exported series applies to 6.12.2"

tree --tarball "$(tarball 2)" --base-version "$P/base-version" 2>"$s/tree.err" && grep -q 'is up to date' "$s/tree.err" ||
	fail "tree.sh does not keep the new baseline for 6.12.2's tarball: $(cat "$s/tree.err")"
ok "tree.sh keeps the new baseline (no extraction) for 6.12.2's tarball"

rebase 6.12.2-1 2>"$s/err" && grep -q 'already made for linux-source-6.12 6.12.2-1' "$s/err" ||
	fail "a move to the series' own version is not a no-op: $(cat "$s/err")"
ok "moving to the version the series is made for does nothing"

# ---- a conflict: 6.12.2 -> 6.12.3 changes the line p3 changes ----
state >"$s/before"
expect_error "patch $p3 \(#3\) conflicts with linux-source-6.12 6\.12\.3-1 in drivers/c\.c; nothing changed" \
	rebase --tarball "$(tarball 3)" 6.12.3-1
same_state "$s/before" "a conflict after two moved patches"
expect_error "2 patches conflict with linux-source-6.12 6\.12\.6-1: $p1 \(#1\) in drivers/a\.c, $p3 \(#3\) in drivers/c\.c; nothing changed" \
	rebase --tarball "$(tarball 6)" 6.12.6-1
same_state "$s/before" "two conflicts, both named in one run,"
expect_error "patch $p1 \(#1\) changes nothing on linux-source-6.12 6\.12\.5-1 \(already in it\?\)" \
	rebase --tarball "$(tarball 5)" 6.12.5-1
same_state "$s/before" "a patch already in the new version"
# A topic table that does not add up: export.sh refuses after the tag has
# moved, and the tag must move back.
cp "$P/topics" "$s/topics"
printf 'one 1 first topic\ntwo 1 second topic\n' >"$P/topics"
state >"$s/before"
expect_error "export.sh could not write the moved series; nothing changed" rebase --tarball "$(tarball 4)" 6.12.4-1
same_state "$s/before" "a failed export"
cp "$s/topics" "$P/topics"

# ---- after an upgrade: the tree already holds 6.12.4 ----
# As `make` leaves it after apt-get upgrade: tree.sh extracted the new
# tarball. The version stamp says 6.12.4-1, as tree.sh would record it
# with that package installed.
tree --tarball "$(tarball 4)" --base-version "$P/base-version" 2>"$s/tree.err" || fatal "tree.sh failed on 6.12.4"
echo 6.12.4-1 >"$t/.git/chopblock-debian-version"
sum=$(cat "$t/.git/chopblock-tarball.sha256")
rebase --base-tarball "$(tarball 2)" 6.12.4-1 >"$s/out" 2>"$s/err" ||
	fail "rebase to the tree's own 6.12.4-1 failed: $(tail -n 3 "$s/err")"
printf '%-10s %s\n' unchanged $p1 unchanged $p2 unchanged $p3 >"$s/want"
cmp -s "$s/want" "$s/out" || fail "the move to 6.12.4 did not leave every patch unchanged: $(cat "$s/out")"
git -C "$t" show pristine:drivers/a.c | grep -qx 'a line 1 (v4)' && git -C "$t" show pristine^:Makefile | grep -q '^SUBLEVEL = 2$' ||
	fail "pristine is not 6.12.4's tree after 6.12.2's"
[ "$(cat "$t/.git/chopblock-tarball.sha256")" = "$sum" ] || fail "the tarball stamp of the tree changed"
grep -v '^#' "$P/base-version" | grep -qx 'linux-source-6.12 6.12.4-1' || fail "base-version does not name 6.12.4-1"
ok "a tree already at the new version is the new baseline: 6.12.2 fetched only"

[ ! -e "$s/apt-called" ] || fail "apt was called: $(cat "$s/apt-called")"
ok "apt never called"
exit $failed
