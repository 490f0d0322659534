#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ia64-remnants.sh TREE [BASELINE]
#
# Counts the dead Itanium (ia64) leftovers in a kernel tree and fails if any
# is left. arch/ia64 was removed in v6.7, so in a 6.12 tree nothing can be
# built for Itanium any more: every test of an Itanium macro or config
# symbol, and every script that selects ARCH=ia64, is dead.
#
# TREE      the tree to check (a directory; "git grep" is used when it is a
#           git checkout, plain grep otherwise).
# BASELINE  optional, or $IA64_REMNANTS_BASELINE: the pristine tree to count
#           for the "before" figure. Either a directory or a git revision of
#           TREE's repository (e.g. the tag "pristine").
#
# What counts as a dead ia64 leftover (one per matching line):
#  cpp     any line naming a macro that only an Itanium build defines:
#          __ia64__, __ia64, __IA64__, _IA64, CONFIG_IA64*, CONFIG_ITANIUM,
#          CONFIG_MCKINLEY. These names are only ever tested (#if, #ifdef,
#          #elif, continuation lines of a multi-line #if, IS_ENABLED(),
#          "#endif /* __ia64__ */"), so each hit is a dead conditional.
#  kconfig a Kconfig depends/select/default/imply/if line using the IA64
#          symbol.
#  script  a script or test configuration that selects ia64 as the target
#          architecture: "ARCH = ia64", "== ia64", an ia64-linux cross
#          prefix, or a shell case label "ia64)".
#
# Deliberately NOT counted, because they describe foreign binaries, data or
# firmware rather than the architecture the kernel runs on (the patterns
# above do not match them, so they need no allow-list entry): ELF machine
# numbers (EM_IA_64), PE machine types (IMAGE_FILE_MACHINE_IA64), audit
# architectures (AUDIT_ARCH_IA64), EFI/CPER/ACPI processor types, the XZ
# IA-64 BCJ filter (CONFIG_XZ_DEC_IA64), the x86 CPUID bit X86_FEATURE_IA64,
# and comments or documentation (not machine-checkable; see the patches).
#
# Output: "before: N" (or "before: not measured"), "after: N", the remaining
# hits, one "ok"/"not ok" line per check, and finally "N passed, N failed".
# Exit status 0 only if every check passed.

set -u

# Allow-list: path prefixes (extended regular expressions anchored at the
# start of the path) whose ia64 tests are kept on purpose.
ALLOW=(
	# User-space ABI headers: include/uapi is ABI and its constants stay,
	# including the layouts they describe for 64-bit user space.
	'include/uapi/'
	'arch/[^/]+/include/uapi/'
	# Verbatim copies of the uapi headers for tools/.
	'tools/include/uapi/linux/'
	'tools/arch/[^/]+/include/uapi/'
	# ACPICA is OS-independent code imported from the ACPICA project (its
	# changes go through that project). Its ia64 tests describe the
	# compiler building the ACPICA user-space tools (aclinux.h, !__KERNEL__
	# part) and other hosts and firmware environments (actypes.h).
	'include/acpi/'
	'drivers/acpi/acpica/'
	'tools/power/acpi/'
	# A verbatim copy of SystemTap's <sys/sdt.h>, the user-space probe ABI
	# of foreign binaries, kept in sync with SystemTap.
	'tools/testing/selftests/bpf/sdt\.h$'
)

RE_CPP='\b(__ia64__|__ia64|__IA64__|_IA64|CONFIG_IA64[A-Z0-9_]*|CONFIG_ITANIUM|CONFIG_MCKINLEY)\b'
RE_KCONFIG='^[[:space:]]*(depends on|select|default|imply|visible if|if)\b.*\bIA64\b'
RE_SCRIPT='(\bARCH[[:space:]]*[:?+]?=[[:space:]]*ia64\b|==[[:space:]]*"?ia64\b|\bia64-(linux|unknown)|^[[:space:]]*"?ia64\*?"?\))'

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "not ok - $*"; }

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

usage() {
	echo "usage: $0 TREE [BASELINE-DIR-OR-GIT-REV]" >&2
	exit 2
}

# search WHERE REV RE [PATHSPEC...]: print "path:line:text" for every match.
# WHERE is a directory; REV a git revision of it, or "" for the files in it.
search() {
	local where=$1 rev=$2 re=$3
	shift 3
	if git -C "$where" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		if [ -n "$rev" ]; then
			git -C "$where" grep -I -n $MODE "$re" "$rev" -- "$@" |
				sed "s|^$rev:||"
		else
			git -C "$where" grep -I -n $MODE "$re" -- "$@"
		fi
	else
		# Plain directory: emulate the pathspecs used below.
		(cd "$where" && grep -r -I -n $MODE "$re" --exclude-dir=.git . |
			sed 's|^\./||' | filter_pathspec "$@")
	fi
}

# filter_pathspec [PATTERN...]: keep input lines whose path matches one of
# the simple git pathspecs used in this script ("*Kconfig*", "dir/").
filter_pathspec() {
	local p ere=''
	[ $# -eq 0 ] && { cat; return; }
	for p in "$@"; do
		case "$p" in
		'*Kconfig*') p='([^:]*/)?Kconfig[^/:]*' ;;
		*/) p="$p[^:]*" ;;
		esac
		ere="${ere:+$ere|}$p"
	done
	grep -E "^($ere):"
}

# allowed: drop input lines whose path is on the allow-list.
allowed_re() {
	local a ere=''
	for a in "${ALLOW[@]}"; do
		ere="${ere:+$ere|}($a)"
	done
	echo "^($ere)"
}

# hits WHERE REV: all counted leftovers, tagged with their category.
hits() {
	local where=$1 rev=$2 allow
	allow=$(allowed_re)
	{
		search "$where" "$rev" "$RE_CPP" | sed 's/^/cpp     /'
		search "$where" "$rev" "$RE_KCONFIG" '*Kconfig*' |
			sed 's/^/kconfig /'
		search "$where" "$rev" "$RE_SCRIPT" scripts/ tools/ Makefile |
			sed 's/^/script  /'
	} | awk -v allow="$allow" '{ path = substr($0, 9); sub(/:.*/, "", path);
		if (path !~ allow) print }' | sort -u
}

# The patterns must recognise each kind of leftover they are meant to count
# and none of the kept constants, or the "after: 0" below would prove
# nothing.
selftest() {
	local bad=0 line
	while IFS= read -r line; do
		printf '%s\n' "$line" | grep -q $MODE "$RE_CPP|$RE_KCONFIG|$RE_SCRIPT" ||
			{ echo "# pattern misses: $line"; bad=1; }
	done <<'EOF'
#if defined(__ia64__) || defined(__alpha__)
	defined(CONFIG_SPARC) || defined(__ia64__) || \
#ifdef __IA64__
#	elif defined __ia64__
#ifdef CONFIG_IA64
	if (IS_ENABLED(CONFIG_IA64_SGI_UV))
	depends on X86 || IA64
ARCH = ia64
TEST_START IF ${RUN} == ia64 || ${DO_DEFAULT}
CROSS = ia64-linux
	ia64)	echo itanium ;;
EOF
	while IFS= read -r line; do
		printf '%s\n' "$line" | grep -q $MODE "$RE_CPP|$RE_KCONFIG|$RE_SCRIPT" &&
			{ echo "# pattern wrongly matches: $line"; bad=1; }
	done <<'EOF'
#define EM_IA_64	50	/* HP/Intel IA-64 */
#define IMAGE_FILE_MACHINE_IA64		0x0200
#define AUDIT_ARCH_IA64		(EM_IA_64|__AUDIT_ARCH_64BIT|__AUDIT_ARCH_LE)
#ifdef CONFIG_XZ_DEC_IA64
#define X86_FEATURE_IA64		( 0*32+30) /* "ia64" IA-64 processor */
		 512)	echo ia64	;;
		'ia64'	: audit.MACH_IA64,
EOF
	return $bad
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
tree=$1
baseline=${2:-${IA64_REMNANTS_BASELINE:-}}

# PCRE is several times faster than POSIX ERE with \b in git grep; the
# patterns above mean the same in both dialects. Use it where both grep and
# (for a git tree) git grep support it: git grep exits 1 for "no match" but
# 128 when it was built without PCRE.
MODE=-E
if echo x | grep -q -P '\bx\b' 2>/dev/null; then
	if git -C "$tree" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		rc=0
		git -C "$tree" grep -q -P '\bchopblock_no_such_token\b' -- Makefile \
			2>/dev/null || rc=$?
		[ "$rc" -le 1 ] && MODE=-P
	else
		MODE=-P
	fi
fi

if [ -f "$tree/Makefile" ] && [ -f "$tree/MAINTAINERS" ] && [ -d "$tree/drivers" ]; then
	ok "$tree is a kernel tree"
else
	notok "$tree is not a kernel tree"
	finish
fi

if selftest; then
	ok "patterns match the leftover kinds and none of the kept constants"
else
	notok "patterns match the leftover kinds and none of the kept constants"
fi

if [ -n "$baseline" ]; then
	if [ -d "$baseline" ]; then
		before=$(hits "$baseline" "" | wc -l)
	elif git -C "$tree" rev-parse -q --verify "$baseline^{commit}" >/dev/null; then
		before=$(hits "$tree" "$baseline" | wc -l)
	else
		before=
	fi
	if [ -n "$before" ]; then
		echo "before: $before"
		# The pristine 6.12 tree has known leftovers (tulip, i8042, ...):
		# finding none there means the search itself is broken.
		if [ "$before" -gt 0 ]; then
			ok "leftovers found in the baseline $baseline"
		else
			notok "no leftover found in the baseline $baseline: search broken?"
		fi
	else
		echo "before: not measured ($baseline is neither a directory nor a git revision)"
		notok "baseline $baseline usable"
	fi
else
	echo "before: not measured (no baseline given)"
fi

remaining=$(hits "$tree" "")
if [ -z "$remaining" ]; then
	after=0
else
	after=$(printf '%s\n' "$remaining" | wc -l)
fi
echo "after: $after"
if [ "$after" -eq 0 ]; then
	ok "no dead ia64 conditional left in $tree"
else
	printf '%s\n' "$remaining" | sed 's/^/# /'
	notok "$after dead ia64 leftover(s) left in $tree"
fi

# Every allow-list entry must still match a kept hit; a stale entry would
# silently hide new leftovers under that path.
allow_all=$({
	search "$tree" "" "$RE_CPP"
	search "$tree" "" "$RE_KCONFIG" '*Kconfig*'
	search "$tree" "" "$RE_SCRIPT" scripts/ tools/ Makefile
} | cut -d: -f1 | sort -u)
stale=0
for a in "${ALLOW[@]}"; do
	case "$a" in
	# Prefixes kept for consistency with the uapi rule; they may be empty.
	'arch/[^/]+/include/uapi/' | 'tools/include/uapi/linux/' | \
	'tools/arch/[^/]+/include/uapi/' | 'drivers/acpi/acpica/' | \
	'tools/power/acpi/')
		continue ;;
	esac
	if ! printf '%s\n' "$allow_all" | grep -q -E "^($a)"; then
		echo "# allow-list entry matches nothing: $a"
		stale=1
	fi
done
if [ "$stale" -eq 0 ]; then
	ok "every file-specific allow-list entry is still in use"
else
	notok "every file-specific allow-list entry is still in use"
fi

finish
