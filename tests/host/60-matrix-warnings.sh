#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build matrix's warning comparison and the kernel list: a warning the
# pristine build has too is not blamed on the series even when the series
# moved its line; a new one is reported and fails the matrix; a kernel
# list with a bad row is refused with its file and line.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
m=$scratch/matrix
mkdir -p "$m"

cat >"$scratch/pristine.log" <<'LOG'
  CC      drivers/tty/serial/sh-sci.o
../../pristine/drivers/tty/serial/sh-sci.c:120:5: warning: old one [-Wfoo]
  CC      drivers/clocksource/sh_cmt.o
LOG
cat >"$scratch/patched.log" <<'LOG'
  CC      drivers/tty/serial/sh-sci.o
../../tree/drivers/tty/serial/sh-sci.c:97:5: warning: old one [-Wfoo]
../../tree/drivers/clocksource/sh_cmt.c:33:1: warning: 'x' defined but not used [-Wunused-function]
WARNING: modpost: vmlinux: section mismatch in reference: a -> b
LOG
mkdir -p "$m/arm64-pristine" "$m/arm64-patched"
"$root/harness/warnings.sh" "$scratch/pristine.log" >"$m/arm64-pristine/warnings"
"$root/harness/warnings.sh" "$scratch/patched.log" >"$m/arm64-patched/warnings"
[ "$(cat "$m/arm64-pristine/warnings")" = "drivers/tty/serial/sh-sci.c: warning: old one [-Wfoo]" ] ||
	fail "pristine warnings normalized to: $(cat "$m/arm64-pristine/warnings")"
ok "warnings lose line numbers and the tree's location"
printf 'name=arm64-pristine\narch=arm64\ncommit=aaaaaaa\nresult=ok\nseconds=100\n' >"$m/arm64-pristine/manifest"
printf 'name=arm64-patched\narch=arm64\ncommit=bbbbbbb\nresult=ok\nseconds=90\n' >"$m/arm64-patched/manifest"
report() { "$root/harness/matrix-report.sh" --kernels "$m" --out "$scratch/report.txt" arm64-pristine arm64-patched; }

rc=0
report >"$scratch/report" || rc=$?
[ "$rc" -eq 3 ] || fail "matrix-report exited $rc with a new warning, expected 3"
grep -q 'arm64: warnings introduced by the series: 2' "$scratch/report" ||
	fail "report does not count 2 new warnings: $(cat "$scratch/report")"
grep -q "sh_cmt.c: warning: 'x' defined but not used" "$scratch/report" ||
	fail "report does not list the new sh_cmt.c warning"
grep -q 'old one' "$scratch/report" && fail "report blames the series for a moved old warning"
ok "a new warning is reported (exit 3), a moved old one is not"

cp "$m/arm64-pristine/warnings" "$m/arm64-patched/warnings"
report >"$scratch/report" || fail "matrix-report fails without new warnings"
grep -q 'arm64: warnings introduced by the series: none' "$scratch/report" ||
	fail "report without new warnings: $(cat "$scratch/report")"
ok "no new warning: none reported, exit 0"

# The kernel list: every malformed row is refused with its file and line,
# by every script that reads it.
bad() { # REGEX ROW
	printf '# a comment line\n%s\n' "$2" >"$scratch/bad.list"
	expect_error "bad.list:2: $1" "$root/harness/kernels.sh" --list "$scratch/bad.list"
}
bad 'tree must be pristine, patched or after:PATH' 'k arm64 sometimes matrix tinyconfig no - matrix/arm64.config'
bad 'no fragment configs/matrix/nonexistent.config' 'k arm64 patched matrix tinyconfig no - matrix/nonexistent.config'
bad 'want: name arch tree group base boot tests fragment' 'k arm64 patched matrix tinyconfig'
bad "no architecture 'mips'" 'k mips patched matrix tinyconfig no - matrix/arm64.config'
bad 'group must be main, check, matrix, cover or debug' 'k arm64 patched nightly tinyconfig no - matrix/arm64.config'
bad 'boot must be yes or no' 'k arm64 patched matrix tinyconfig maybe - matrix/arm64.config'
bad 'arm kernels are not booted' 'k arm patched matrix tinyconfig yes - matrix/arm.config'
printf 'k arm64 patched matrix tinyconfig no - matrix/arm64.config\nk arm patched matrix tinyconfig no - matrix/arm.config\n' >"$scratch/bad.list"
expect_error 'bad.list:2: kernel k is listed twice' "$root/harness/kernels.sh" --list "$scratch/bad.list"
expect_error "no kernel 'mips' in" "$root/harness/matrix.sh" mips
expect_error "no kernel 'mips' in" "$root/harness/build.sh" mips

# The real lists parse, and every kernel names its architecture's facts.
names=$("$root/harness/kernels.sh") || fail "configs/kernels.list does not parse"
for n in $names; do
	a=$("$root/harness/kernels.sh" --row "$n" | cut -f2)
	[ -n "$(arch_fact "$a" image)" ] || fail "$n: no image path for $a"
done
ok "configs/kernels.list: $(echo "$names" | wc -l) kernels, each with its architecture's facts"
[ "$(kernel_list "$KERNELS_LIST" matrix | wc -l)" -ge 7 ] || fail "fewer than 7 matrix kernels"
ok "make matrix builds $(kernel_list "$KERNELS_LIST" matrix | tr '\n' ' ')"
