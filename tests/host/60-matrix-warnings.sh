#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build matrix's warning comparison: a warning the pristine build has
# too is not blamed on the series even when the series moved its line; a
# new one is reported and fails the matrix; a matrix list with a bad line
# is refused with its file and line.
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
"$root/harness/warnings.sh" "$scratch/pristine.log" >"$m/arm64-pristine.warnings"
"$root/harness/warnings.sh" "$scratch/patched.log" >"$m/arm64-patched.warnings"
[ "$(cat "$m/arm64-pristine.warnings")" = "drivers/tty/serial/sh-sci.c: warning: old one [-Wfoo]" ] ||
	fail "pristine warnings normalized to: $(cat "$m/arm64-pristine.warnings")"
ok "warnings lose line numbers and the tree's location"
echo "ok 100 aaaaaaa" >"$m/arm64-pristine.result"
echo "ok 90 bbbbbbb" >"$m/arm64-patched.result"

rc=0
CHOPBLOCK_MATRIX_DIR=$m "$root/harness/matrix-report.sh" >"$scratch/report" || rc=$?
[ "$rc" -eq 3 ] || fail "matrix-report exited $rc with a new warning, expected 3"
grep -q 'arm64: warnings introduced by the series: 2' "$scratch/report" ||
	fail "report does not count 2 new warnings: $(cat "$scratch/report")"
grep -q "sh_cmt.c: warning: 'x' defined but not used" "$scratch/report" ||
	fail "report does not list the new sh_cmt.c warning"
grep -q 'old one' "$scratch/report" && fail "report blames the series for a moved old warning"
ok "a new warning is reported (exit 3), a moved old one is not"

cp "$m/arm64-pristine.warnings" "$m/arm64-patched.warnings"
CHOPBLOCK_MATRIX_DIR=$m "$root/harness/matrix-report.sh" >"$scratch/report" ||
	fail "matrix-report fails without new warnings"
grep -q 'arm64: warnings introduced by the series: none' "$scratch/report" ||
	fail "report without new warnings: $(cat "$scratch/report")"
ok "no new warning: none reported, exit 0"

printf 'arm64 arm64 tinyconfig sometimes matrix/arm64.config\n' >"$scratch/bad.list"
expect_error 'bad.list:1: trees must be both or pristine' \
	env CHOPBLOCK_MATRIX_LIST="$scratch/bad.list" "$root/harness/matrix.sh"
printf 'arm64 arm64 tinyconfig both matrix/nonexistent.config\n' >"$scratch/bad.list"
expect_error 'bad.list:1: no fragment configs/matrix/nonexistent.config' \
	env CHOPBLOCK_MATRIX_LIST="$scratch/bad.list" "$root/harness/matrix.sh"
printf 'arm64 arm64 tinyconfig\n' >"$scratch/bad.list"
expect_error 'bad.list:1: want: name arch base-config trees fragment' \
	env CHOPBLOCK_MATRIX_LIST="$scratch/bad.list" "$root/harness/matrix.sh"
expect_error "no configuration 'mips'" "$root/harness/matrix.sh" mips
