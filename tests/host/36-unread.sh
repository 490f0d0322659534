#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# harness/unread.sh, which lets make bisect skip a commit whose changes the
# last build never read, on a synthetic tree and a kernel build directory
# whose .cmd files name their dependencies both ways Kbuild writes them
# (absolute in command lines, relative to the build directory in
# dependency lists). Each change below is one commit on top of the built
# one, and must be called read (exit 1, naming the file) or unread (exit
# 0) as a build would have read it.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
soft_checks
t=$scratch/build/tree
k=$scratch/build/kernels/x/kbuild
mkdir -p "$t/drivers/built" "$t/drivers/notbuilt" "$t/include/linux" \
	"$t/scripts" "$t/Documentation" "$t/arch/x86/include/asm"
for f in drivers/built/a.c drivers/built/b.c drivers/notbuilt/n.c \
	include/linux/used.h include/linux/unused.h scripts/tool.c \
	Documentation/a.rst drivers/built/Makefile drivers/notbuilt/Makefile \
	drivers/built/Kconfig Makefile; do
	echo "/* $f */" >"$t/$f"
done
git -C "$t" init -q
git -C "$t" add -f -A
git -C "$t" -c user.name=t -c user.email=t@t commit -q -m built
built=$(git -C "$t" rev-parse HEAD)

# What the build of drivers/built/a.o read: a.c and used.h.
mkdir -p "$k/drivers/built"
echo 'CONFIG_X=y' >"$k/.config"
cat >"$k/drivers/built/.a.o.cmd" <<EOF
savedcmd_drivers/built/a.o := gcc -I$t/include -c -o drivers/built/a.o $t/drivers/built/a.c
source_drivers/built/a.o := $t/drivers/built/a.c
deps_drivers/built/a.o := \\
  ../../../tree/include/linux/used.h \\
    \$(wildcard include/config/X) \\

drivers/built/a.o: \$(deps_drivers/built/a.o)
EOF

# change WANT WHAT CMD...: CMD changes the tree; unread.sh must say WANT
# (read or unread) of the commit it makes.
change() {
	local want=$1 what=$2 out rc=0 c
	shift 2
	git -C "$t" checkout -q --detach "$built"
	(cd "$t" && "$@")
	git -C "$t" add -f -A
	git -C "$t" -c user.name=t -c user.email=t@t commit -q -m "$what"
	c=$(git -C "$t" rev-parse HEAD)
	out=$("$root/harness/unread.sh" "$k" "$t" "$built" "$c") || rc=$?
	case $want:$rc in
	read:1) ok "$what: read ($out)" ;;
	unread:0) ok "$what: not read" ;;
	*) fail "$what: exit $rc ($out), expected $want" ;;
	esac
}

change read "a compiled source changes" sed -i 's/a.c/a.c changed/' drivers/built/a.c
change read "a header it included (relative path) changes" sed -i 's/used/used!/' include/linux/used.h
change read "a header it included is deleted" rm include/linux/used.h
change unread "a header nothing included changes" sed -i 's/x/y/' include/linux/unused.h
change unread "a source of a built directory that it did not compile changes" sed -i 's/b/B/' drivers/built/b.c
change unread "a source of a directory it never entered is deleted" rm drivers/notbuilt/n.c
change unread "the Makefile of a directory it never entered changes" sed -i 's/M/m/' drivers/notbuilt/Makefile
change read "the Makefile of a directory it built changes" sed -i 's/M/m/' drivers/built/Makefile
change read "the top-level Makefile changes" sed -i 's/M/m/' Makefile
change read "a header is added (it may come first on the include path)" touch arch/x86/include/asm/used.h
change read "scripts/ changes" sed -i 's/t/T/' scripts/tool.c
change unread "only a Kconfig file changes (the .config is the caller's)" sed -i 's/K/k/' drivers/built/Kconfig
change unread "only documentation changes" sed -i 's/a/A/' Documentation/a.rst

out=$("$root/harness/unread.sh" "$scratch/nowhere" "$t" "$built" HEAD 2>&1) && rc=0 || rc=$?
[ "$rc" -eq 2 ] && ok "no build directory: exit 2 ($out)" || fail "no build directory: exit $rc ($out)"
exit "$failed"
