#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# harness/sh4-gcc.sh: with this machine's sh4 cross compiler, the probe is
# miscompiled without the plugin and right with it; a compiler that gets
# the probe right is used without a plugin; a miscompiling compiler
# without plugin headers is refused with a one-line error.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
cc=$(cross_prefix sh)gcc
probe=$root/toolchain/sh4-treg-probe.c
has_test() { "$@" -O2 -S -o - "$probe" | grep -Eq '^[[:space:]]+tst[[:space:]]'; }

flags=$("$root/harness/sh4-gcc.sh")
if has_test "$cc"; then
	[ -z "$flags" ] || fail "$cc compiles the probe right, yet sh4-gcc.sh asks for '$flags'"
	ok "$cc compiles the probe right: no plugin"
else
	case $flags in
	-fplugin=*.so) ;;
	*) fail "$cc miscompiles the probe, yet sh4-gcc.sh prints '$flags'" ;;
	esac
	ok "$cc miscompiles the probe without the plugin"
	# shellcheck disable=SC2086
	has_test "$cc" $flags || fail "the probe is still miscompiled with $flags"
	ok "and compiles it right with ${flags##*/}"
	# The kernel's own first victim: the test of suppress_printk at the
	# top of vprintk_emit().
	cat >"$scratch/printk.c" <<'C'
int suppress_printk;
int vprintk_store(int level, const char *fmt);
int vprintk_emit(int level, const char *fmt)
{
	if (__builtin_expect(!!suppress_printk, 0))
		return 0;
	return vprintk_store(level, fmt);
}
C
	# shellcheck disable=SC2086
	"$cc" $flags -O2 -S -o - "$scratch/printk.c" | grep -Eq '^[[:space:]]+tst[[:space:]]' ||
		fail "vprintk_emit's test of suppress_printk is missing with $flags"
	ok "vprintk_emit() tests suppress_printk with the plugin"
fi

# Stand-in compilers: one that compiles the probe right, one that drops the
# test and has no plugin headers.
mkdir -p "$scratch/bin"
cat >"$scratch/bin/good-gcc" <<'SH'
#!/bin/sh
printf 'probe:\n\tmov.l\t@r1,r1\n\ttst\tr1,r1\n\tbt\t.L2\n'
SH
cat >"$scratch/bin/bad-gcc" <<'SH'
#!/bin/sh
case $1 in
-dumpversion) echo 12 ;;
-print-file-name=plugin) echo /nonexistent/plugin ;;
--version) echo "bad-gcc 12" ;;
*) printf 'probe:\n\tbf\t.L2\n' ;;
esac
SH
chmod +x "$scratch/bin/good-gcc" "$scratch/bin/bad-gcc"
out=$("$root/harness/sh4-gcc.sh" --cc "$scratch/bin/good-gcc" --out "$scratch/build")
[ -z "$out" ] || fail "a compiler that gets the probe right was given '$out'"
ok "a compiler that gets the probe right is used as it is"
expect_error 'miscompiles sh4 code and its plugin headers are missing \(install gcc-12-plugin-dev-sh4-linux-gnu\)' \
	"$root/harness/sh4-gcc.sh" --cc "$scratch/bin/bad-gcc" --out "$scratch/build"
