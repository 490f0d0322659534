#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# harness/seed-point.sh, on a synthetic series of two commits and a build
# directory that names its tree and itself by absolute path, as kbuild's
# .cmd files and generated Makefile do: the point's worktree is at the
# point's commit with no change left, the files the later commit did not
# touch keep the seed's times, the build directory's paths and links are
# moved with their times kept, and make then rebuilds only the object of
# the file that differs. A seed that did not finish is refused.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
s=$scratch/seed t=$s/tree k=$s/kbuild
mkdir -p "$t" "$k"
git -C "$t" init -q
git -C "$t" config user.email t@example.org
git -C "$t" config user.name test
# The tree's Makefile copies each source to an object of the build
# directory; the build directory's own Makefile names both by path.
printf 'all: $(O)/a.o $(O)/b.o\n$(O)/%%.o: $(SRC)/%%.c\n\tcp $< $@\n' >"$t/Makefile"
echo 'int a;' >"$t/a.c"
echo 'int b = 1;' >"$t/b.c"
git -C "$t" add Makefile a.c b.c
git -C "$t" commit -q -m point
point=$(git -C "$t" rev-parse HEAD)
echo 'int b = 2;' >"$t/b.c"
echo 'int c;' >"$t/c.c"
git -C "$t" add b.c c.c
git -C "$t" commit -q -m tip
tip=$(git -C "$t" rev-parse HEAD)
touch -d '2020-01-01 00:00' "$t/Makefile" "$t/a.c" "$t/b.c" "$t/c.c"
printf 'SRC := %s\nO := %s\ninclude %s/Makefile\n' "$t" "$k" "$t" >"$k/Makefile"
echo "deps := $t/a.c $k/a.o" >"$k/.a.o.cmd"
touch -d '2021-01-01 00:00' "$k/Makefile" "$k/.a.o.cmd"
echo 'CONFIG_X=y' >"$k/.config"
ln -s "$t" "$k/source"
make -s -C "$k" >/dev/null || fail "the seed does not build"
touch -d "2021-01-01 00:00" "$k/a.o" "$k/b.o"
cat >"$s/manifest" <<EOF
result=ok
tree=$t
kbuild=$k
commit=$tip
EOF

p=$scratch/point
"$root/harness/seed-point.sh" "$s" "$point" "$p/tree" "$p/kbuild" >"$scratch/out" 2>&1 ||
	fail "seed-point.sh failed: $(tail -n 3 "$scratch/out")"
ok "seeded"
[ "$(git -C "$p/tree" rev-parse HEAD)" = "$point" ] || fail "the worktree is not at the point's commit"
[ -z "$(git -C "$p/tree" status --porcelain)" ] || fail "the worktree differs from the point: $(git -C "$p/tree" status --porcelain)"
[ ! -e "$p/tree/c.c" ] || fail "a file only the later commit has is still there"
grep -qx 'int b = 1;' "$p/tree/b.c" || fail "b.c is not the point's"
ok "the worktree is the point's commit, with nothing of the later commit"
[ "$(stat -c %Y "$p/tree/a.c")" = "$(stat -c %Y "$t/a.c")" ] || fail "a.c lost its time"
[ "$(stat -c %Y "$p/tree/b.c")" -gt "$(stat -c %Y "$k/b.o")" ] || fail "b.c is not newer than the seed's object"
ok "an untouched file keeps its time, a changed one is newer than the objects"
grep -q "^SRC := $p/tree\$" "$p/kbuild/Makefile" && grep -q "^O := $p/kbuild\$" "$p/kbuild/Makefile" ||
	fail "the build directory's Makefile still names the seed: $(cat "$p/kbuild/Makefile")"
grep -qx "deps := $p/tree/a.c $p/kbuild/a.o" "$p/kbuild/.a.o.cmd" || fail "a .cmd file still names the seed"
[ "$(stat -c %Y "$p/kbuild/.a.o.cmd")" = "$(stat -c %Y "$k/.a.o.cmd")" ] || fail "a moved file lost its time"
[ "$(readlink "$p/kbuild/source")" = "$p/tree" ] || fail "the source link still points at the seed"
ok "the build directory's paths and links are moved, times kept"
rebuilt=$(make -n -C "$p/kbuild" | grep '^cp ' || true)
[ "$rebuilt" = "cp $p/tree/b.c $p/kbuild/b.o" ] || fail "make would run: ${rebuilt:-nothing}"
ok "make rebuilds only the object of the file that differs"
[ -z "$(git -C "$t" status --porcelain)" ] && grep -q "^SRC := $t\$" "$k/Makefile" || fail "the seed was changed"
ok "the seed is untouched"

sed -i 's/^result=ok/result=FAILED/' "$s/manifest"
expect_error 'is not a finished build' "$root/harness/seed-point.sh" "$s" "$point" "$p/tree" "$p/kbuild"
