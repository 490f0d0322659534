#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/coverage.sh [OPTIONS] [KERNEL...]
#
# What the kernels compiled of what the series changes. For the surviving
# files the series modifies (`chopblock guards` on the diff BASE..TIP):
#
# - which KERNELs compiled each file: a source file when one of the
#   kernel's .o.cmd files names it as its source_, a header when one lists
#   it among its deps_ (build/kernels/NAME/kbuild);
# - for the changed lines, in spans that share one preprocessor branch:
#   whether the branch was compiled, its #if condition evaluated with
#   unifdef against the kernel's .config and the -D flags of the object's
#   command line (plus the compiler's own macros for the kernel's ARCH);
#   a condition on anything else is "undecided";
# - every file and span that no kernel compiled, with the reason: what
#   the analyzer's Kconfig model says (another architecture, only with
#   COMPILE_TEST), what configs/coverage/ARCH.config says it left out and
#   why, or the symbols the configuration lacks.
#
# A KERNEL is a row of configs/kernels.list or a kernel directory (default:
# the rows with a coverage/ fragment: main, cover-arm64-rest, cover-arm64,
# cover-arm). One that is not built compiled nothing: the report
# then says so for every file. With --estimate no build is needed: a file
# counts as compiled when the kernel's configuration sets every symbol of
# one of its guard paths (the .config of harness/configure.sh,
# build/configs/NAME, or of the kernel's build), and DEBUG as the
# Makefile switches of the guards set it.
#
#   --tree DIR       the tree at TIP (default build/tree)
#   --base REV       the series' base (default pristine)
#   --tip REV        the series' tip (default series)
#   --guards FILE    a `chopblock guards` output to use (no tree needed)
#   --kernels DIR    where the kernels are (default build/kernels)
#   --configs DIR    where --estimate finds NAME/.config (default build/configs)
#   --estimate       from the configurations, not from builds
#   --out FILE       the report (default build/coverage/report.txt)
#   --min-lines PCT  exit 1 when fewer than PCT % of the changed lines of
#                    the C files are compiled
#   --all-compilable exit 1 when a file that one of the kernels' architectures
#                    can compile (the analyzer's Kconfig model says so) was
#                    compiled by none of them
#   --help           this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$TREE_DIR base_rev=$BASELINE_TAG tip=$SERIES_BRANCH guards= estimate=0
kernels_dir=$KERNELS_DIR configs_dir=$BUILD_DIR/configs out= min_lines= all_compilable=0
names=()
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:?--tree needs a directory}; shift ;;
	--base) base_rev=${2:?--base needs a revision}; shift ;;
	--tip) tip=${2:?--tip needs a revision}; shift ;;
	--guards) guards=${2:?--guards needs a file}; shift ;;
	--kernels) kernels_dir=${2:?--kernels needs a directory}; shift ;;
	--configs) configs_dir=${2:?--configs needs a directory}; shift ;;
	--estimate) estimate=1 ;;
	--out) out=${2:?--out needs a file}; shift ;;
	--min-lines) min_lines=${2:?--min-lines needs a percentage}; shift ;;
	--all-compilable) all_compilable=1 ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "coverage.sh: unknown option $1 (see --help)" ;;
	*) names+=("$1") ;;
	esac
	shift
done
command -v unifdef >/dev/null || die "unifdef is missing (apt-get install unifdef)"
if [ "${#names[@]}" -eq 0 ]; then
	mapfile -t names < <(coverage_kernels)
fi
[ "${#names[@]}" -gt 0 ] || die "coverage.sh: no kernel given and no row with a coverage/ fragment in $KERNELS_LIST"
work=$(mktemp -d "${TMPDIR:-/tmp}/chopblock-coverage.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=${out:-$BUILD_DIR/coverage/report.txt}
mkdir -p "$(dirname "$out")"

# The guards of the series.
if [ -z "$guards" ]; then
	analyzer=$CHOPBLOCK_ROOT/analyzer/chopblock
	[ -x "$analyzer" ] || die "the analyzer is not built (make analyzer)"
	[ "$(git -C "$tree" rev-parse -q --verify HEAD)" = \
	  "$(git -C "$tree" rev-parse -q --verify "$tip^{commit}")" ] ||
		die "$tree is not checked out at $tip"
	git -C "$tree" diff "$base_rev..$tip" >"$work/series.diff"
	arch_args=()
	for a in $(arch_list); do
		[ "$a" = sh ] || arch_args+=(--arch "$a")
	done
	"$analyzer" guards --tree "$tree" --diff "$work/series.diff" "${arch_args[@]}" \
		>"$work/guards.txt" || die "chopblock guards failed"
	guards=$work/guards.txt
fi
[ -f "$guards" ] || die "no guards file $guards"

# The compiler's own macros for an ARCH, and those of every other one
# (undefined): enough for the #if conditions kernel code writes.
ARCH_MACROS="__i386__ __x86_64__ __x86_64 __aarch64__ __arm__ __ARMEL__ __ARMEB__
__alpha__ __hppa__ __mips__ __powerpc__ __powerpc64__ __PPC__ __sparc__ __sparc_v9__
__ia64__ __IA64__ __sh__ __SH4__ __sh2__ __sh3__ __s390__ __s390x__ __riscv
__loongarch__ __m68k__ __mc68000__ __xtensa__ __nios2__ __arc__ __csky__
__microblaze__ __or1k__ __hexagon__ __LP64__ __ILP32__"
arch_defines() { # ARCH: -D/-U arguments
	local d
	case $1 in
	x86_64) d="__x86_64__ __x86_64 __LP64__" ;;
	i386) d="__i386__ __ILP32__" ;;
	arm64) d="__aarch64__ __LP64__" ;;
	arm) d="__arm__ __ARMEL__" ;;
	sh) d="__sh__ __SH4__" ;;
	*) d="" ;;
	esac
	for m in $ARCH_MACROS; do
		if [[ " $d " == *" $m "* ]]; then echo "-D$m=1"; else echo "-U$m"; fi
	done
	case $1 in x86_64 | arm64) echo "-DBITS_PER_LONG=64" ;; *) echo "-DBITS_PER_LONG=32" ;; esac
	echo "-D__GNUC__=12"
	echo "-D__KERNEL__=1"
	echo "-D__linux__=1"
}

# Macros that only a compiler command line defines.
CMDLINE_MACROS="MODULE DEBUG VERBOSE_DEBUG"

# Per kernel: K.info (name, arch, state), K.files (changed files it
# compiled, with the .o.cmd that says so), K.spans (span values).
i=0
for n in "${names[@]}"; do
	i=$((i + 1))
	k=$work/k$i
	case $n in */*) dir=$n; n=$(basename "$n") ;; *) dir=$kernels_dir/$n ;; esac
	arch='?' state=
	if [ -f "$dir/manifest" ]; then
		arch=$(manifest "$dir" arch)
		if [ "$(manifest "$dir" result)" = ok ]; then state=built; fi
	fi
	if [ "$arch" = "?" ] && grep -qx "$n" <<<"$(kernel_list 2>/dev/null)"; then
		kernel_row "$n"
		arch=$K_ARCH
	fi
	config=
	kbuild=$dir/kbuild
	if [ -f "$dir/manifest" ]; then
		kbuild=$(manifest "$dir" kbuild)
		kbuild=${kbuild:-$dir/kbuild}
	fi
	if [ "$estimate" -eq 1 ]; then
		for c in "$configs_dir/$n/.config" "$kbuild/.config"; do
			[ -f "$c" ] && { config=$c; break; }
		done
		state=${config:+configured}
	elif [ "$state" = built ]; then
		config=$kbuild/.config
	fi
	state=${state:-not built}
	printf '%s\t%s\t%s\n' "$n" "$arch" "$state" >"$k.info"
	: >"$k.files"
	: >"$k.spans"
	[ -n "$config" ] && [ -f "$config" ] || continue

	# the kernel's CONFIG_ defines
	awk '
	/^CONFIG_[A-Za-z0-9_]*=y$/ { sub(/=y$/, ""); print "-D" $0 "=1"; next }
	/^CONFIG_[A-Za-z0-9_]*=m$/ { sub(/=m$/, ""); print "-D" $0 "_MODULE=1"; next }
	/^CONFIG_[A-Za-z0-9_]*=[0-9]+$/ { print "-D" $0; next }
	/^CONFIG_[A-Za-z0-9_]*=/ { sub(/=.*/, ""); print "-D" $0 "=1" }
	' "$config" >"$k.defines"
	grep -q '^CONFIG_COMPILE_TEST=y' "$config" && echo yes >"$k.ct" || echo no >"$k.ct"

	if [ "$estimate" -eq 1 ]; then
		# the #if conditions of paths through a conditional #include
		awk -F'\t' '$1 == "path" && $6 != "" && $6 != "-" { printf "#if %s\nchopblock_path_%d\n#endif\n", $6, NR }' \
			"$guards" >"$k.pc.c"
		: >"$k.ptrue"
		if [ -s "$k.pc.c" ]; then
			mapfile -t args < <(arch_defines "$arch"
				for m in $CMDLINE_MACROS; do echo "-U$m"; done
				{ grep -o 'CONFIG_[A-Za-z0-9_]*' "$k.pc.c" || true; } | sort -u | while read -r c; do
					grep -m1 -- "^-D$c=" "$k.defines" || echo "-U$c"
				done)
			unifdef -x2 "${args[@]}" "$k.pc.c" >"$k.pc.out" 2>"$k.u.err" ||
				die "unifdef failed on the conditions of conditional #includes: $(head -n 3 "$k.u.err")"
			awk '/^#if/ { d++ } /^#endif/ { d-- } /^chopblock_path_/ && !d { sub(/^chopblock_path_/, ""); print }' \
				"$k.pc.out" >"$k.ptrue"
		fi
		# a file is compiled when every symbol of one of its paths is set
		# (and the #if around its #include holds)
		awk -F'\t' -v CONFIG="$config" -v DDEBUG="$k.ddebug" -v PTRUE="$k.ptrue" '
		BEGIN {
			printf "" > DDEBUG
			while ((getline l < CONFIG) > 0)
				if (l ~ /^CONFIG_[A-Za-z0-9_]*=[ym]$/) { n = l; sub(/^CONFIG_/, "", n); sub(/=.*/, "", n); on[n] = 1 }
			while ((getline l < PTRUE) > 0) ptrue[l] = 1
		}
		$1 == "path" && !($2 in done) {
			n = split($4 == "-" ? "" : $4, sym, " "); ok = 1
			for (i = 1; i <= n; i++) if (!(sym[i] in on)) ok = 0
			if ($6 != "" && $6 != "-" && !(NR in ptrue)) ok = 0
			if (ok && $5 !~ /\(a condition/) { done[$2] = 1; print $2 "\t-" }
		}
		$1 == "debug" && $5 == "-DDEBUG" && ($3 in on) { print $2 "\t-DDEBUG" > DDEBUG }
		' "$guards" >"$k.files"
	else
		ktree=$(manifest "$dir" tree 2>/dev/null || true)
		find "$kbuild" -name '.*.o.cmd' >"$k.cmds"
		# source files: the source_ line of each .o.cmd
		awk -F'\t' '$1 == "file" { print $2 }' "$guards" >"$work/changed"
		xargs -r grep -H '^source_' <"$k.cmds" 2>/dev/null |
			awk -v T="${ktree%/}/" -v CHANGED="$work/changed" '
			BEGIN { while ((getline l < CHANGED) > 0) want[l] = 1 }
			{
				cmd = $0; sub(/:source_.*/, "", cmd)
				src = $0; sub(/^[^=]*:= */, "", src)
				if (T != "/" && index(src, T) == 1) src = substr(src, length(T) + 1)
				else for (w in want) if (substr(src, length(src) - length(w)) == "/" w) src = w
				if (src in want && !(src in seen)) { seen[src] = 1; print src "\t" cmd }
			}' >"$k.files"
		# headers: listed in the deps_ of some .o.cmd
		while IFS= read -r hdr; do
			[ -n "$hdr" ] || continue
			c=$(xargs -r grep -lF -e "/$hdr " <"$k.cmds" 2>/dev/null | head -n 1 || true)
			[ -z "$c" ] || printf '%s\t%s\n' "$hdr" "$c" >>"$k.files"
		done < <(awk -F'\t' '$1 == "file" && $3 == "h" { print $2 }' "$guards")
	fi

	# the spans of the compiled files, evaluated with unifdef
	arch_defines "$arch" >"$k.archdefs"
	awk -F'\t' '$1 == "file" && ($3 == "c" || $3 == "h" || $3 == "S") { print $2 }' "$guards" >"$work/cfiles"
	while IFS=$'\t' read -r f cmd; do
		grep -qxF "$f" "$work/cfiles" || continue
		# the spans of f that have a condition: index, first line, condition
		awk -F'\t' -v F="$f" '$1 == "span" && $2 == F { n++; if ($7 != "-") print n "\t" $3 "\t" $7 }' \
			"$guards" >"$k.fspans"
		[ -s "$k.fspans" ] || continue
		# the macros of the command line (-D...), the others undefined
		if [ "$cmd" = - ]; then
			{ grep -F "$f	" "$k.ddebug" || true; } | cut -f2 | sed 's/$/=1/' >"$k.cmdl"
		else
			# kbuild names the line savedcmd_ since 6.4, cmd_ before
			sed -n 's/^\(saved\)\?cmd_[^ ]* := //p' "$cmd" | grep -o -- ' -D[A-Za-z_][A-Za-z0-9_]*\(=[0-9]*\b\)\?' |
				sed 's/^ //' | sort -u >"$k.cmdl" || true
		fi
		for m in $CMDLINE_MACROS; do
			grep -q -- "^-D$m\b" "$k.cmdl" || echo "-U$m" >>"$k.cmdl"
		done
		# every CONFIG_ name the conditions use: defined or undefined
		{ grep -o 'CONFIG_[A-Za-z0-9_]*' "$k.fspans" || true; } | sort -u | while read -r c; do
			grep -q -- "^-D$c=" "$k.defines" || echo "-U$c"
		done >"$k.undefs"
		awk -F'\t' '{ printf "#if %s\nchopblock_span_%s\n#endif\n", $3, $1 }' "$k.fspans" >"$k.u.c"
		mapfile -t args < <(cat "$k.archdefs" "$k.cmdl" "$k.undefs";
			{ grep -o 'CONFIG_[A-Za-z0-9_]*' "$k.fspans" || true; } | sort -u |
				grep -F -f - "$k.defines" | grep -E -- '^-DCONFIG_[A-Za-z0-9_]*(_MODULE)?=' || true)
		unifdef -x2 "${args[@]}" "$k.u.c" >"$k.u.out" 2>"$k.u.err" ||
			die "unifdef failed on the conditions of $f: $(head -n 3 "$k.u.err")"
		awk -v F="$f" -v SPANS="$k.fspans" '
		BEGIN { while ((getline l < SPANS) > 0) { split(l, s, "\t"); v[s[1]] = 0 } }
		/^#if/ { depth++; next }
		/^#endif/ { depth--; next }
		/^chopblock_span_/ { id = $0; sub(/^chopblock_span_/, "", id); v[id] = depth ? "?" : 1 }
		END { for (id in v) print F "\t" id "\t" v[id] }
		' "$k.u.out" >>"$k.spans"
	done <"$k.files"
done

# The report.
nk=$i
{
	echo "chopblock coverage report ($(date -u +%Y-%m-%dT%H:%MZ))"
	awk -F'\t' -v NK="$nk" -v W="$work" -v EST="$estimate" -v CFG="$CONFIG_DIR/coverage" -v MIN="${min_lines:-}" -v ALL="$all_compilable" '
	function host(p) { return p ~ /^(tools|scripts|samples|usr)\// }
	function code(t) { return t == "c" || t == "h" || t == "S" }
	BEGIN {
		for (k = 1; k <= NK; k++) {
			f = W "/k" k ".info"; getline l < f; split(l, x, "\t")
			kname[k] = x[1]; karch[k] = x[2]; kstate[k] = x[3]
			f = W "/k" k ".ct"; kct[k] = ((getline l < f) > 0 && l == "yes")
			f = W "/k" k ".files"
			while ((getline l < f) > 0) { split(l, x, "\t"); comp[k, x[1]] = 1 }
			f = W "/k" k ".spans"
			while ((getline l < f) > 0) { split(l, x, "\t"); sv[k, x[1], x[2]] = x[3] }
			f = W "/k" k ".defines"
			while ((getline l < f) > 0) { s = l; sub(/^-D/, "", s); sub(/=.*/, "", s); on[k, s] = 1 }
			# what the fragment of its ARCH left out, and why
			f = CFG "/" karch[k] ".config"
			while ((getline l < f) > 0)
				if (l ~ /^#   /) { sub(/^#   /, "", l); note[karch[k]] = note[karch[k]] "\n" l }
		}
	}
	$1 == "file" { nf++; fp[nf] = $2; ft[$2] = $3; fa[$2] = substr($4, 2); fr[$2] = substr($5, 2) }
	$1 == "path" && !(($2) in firstpath) { firstpath[$2] = $4; firstcond[$2] = $6 }
	$1 == "span" { ns[$2]++; sp[$2, ns[$2]] = $3 "\t" $4 "\t" substr($5, 2) + substr($6, 2) "\t" $7 "\t" $5 " " $6 }
	$1 == "arch" { verdict[$2, $3] = $4; vsyms[$2, $3] = $5; vwhy[$2, $3] = $6 }
	# why kernel k did not compile file p
	function why(k, p,    a, v, r, n, s, i, miss, m) {
		if (kstate[k] == "not built") {
			a = karch[k]; v = verdict[p, a]; r = vwhy[p, a]
			return "not built" (v == "n" ? "; could not compile it anyway: " r : "")
		}
		a = karch[k]; v = verdict[p, a == "x86_64" ? "x86" : a]
		if (v == "") v = verdict[p, a]
		r = vwhy[p, a]; if (r == "") r = vwhy[p, a == "x86_64" ? "x86" : a]
		if (v == "n") return r
		if (v == "ct" && !kct[k]) return "only with COMPILE_TEST, which it does not set"
		n = split(note[a], s, "\n")
		for (i = 1; i <= n; i++)
			if (index(s[i], p ": ") == 1 || index(s[i], "(" p "): ")) m = m (m ? "; " : "") s[i]
		if (m != "") return "configs/coverage/" a ".config: " m
		syms = vsyms[p, a]; if (syms == "" || syms == "-") syms = firstpath[p]
		n = split(syms == "-" ? "" : syms, s, " ")
		for (i = 1; i <= n; i++) if (!on[k, "CONFIG_" s[i]]) miss = miss " " s[i]
		if (miss != "") return "its configuration lacks" miss
		if (firstcond[p] != "" && firstcond[p] != "-")
			return "its #include sits in a branch this kernel does not take: " firstcond[p]
		return EST ? "no guard path holds" : "no object was built from it, although its guard symbols are set"
	}
	END {
		printf "  series               %d surviving files changed\n", nf
		for (k = 1; k <= NK; k++)
			printf "  kernel               %s (%s): %s\n", kname[k], karch[k], kstate[k]
		printf "  compiled             %s\n", EST ? "estimated: a file whose guard symbols the configuration sets" : "read from each build'"'"'s .o.cmd files"
		for (g = 1; g <= 2; g++) {
			t = (g == 1 ? "c" : "h")
			total = 0; any = 0; lt = 0; lc = 0; lu = 0
			for (k = 1; k <= NK; k++) nby[k] = 0
			for (i = 1; i <= nf; i++) {
				p = fp[i]
				if (ft[p] != t || host(p)) continue
				total++; c = 0
				for (k = 1; k <= NK; k++) if (comp[k, p]) { nby[k]++; c = 1 }
				any += c
				for (j = 1; j <= ns[p]; j++) {
					split(sp[p, j], x, "\t"); lt += x[3]
					best = 0
					for (k = 1; k <= NK; k++) {
						if (!comp[k, p]) continue
						v = (x[4] == "-") ? 1 : sv[k, p, j]
						if (v == 1) best = 1
						else if (v == "?" && best == 0) best = "?"
					}
					if (best == 1) lc += x[3]; else if (best == "?") lu += x[3]
				}
			}
			printf "\n%s (outside tools/, scripts/, samples/): %d\n", g == 1 ? "C files" : "Headers", total
			for (k = 1; k <= NK; k++) printf "  compiled by %-20s %d\n", kname[k], nby[k]
			printf "  compiled by any kernel            %d of %d\n", any, total
			printf "  changed lines compiled            %d of %d (%.1f%%)%s\n", lc, lt, lt ? 100 * lc / lt : 100,
				lu ? sprintf(", %d undecided", lu) : ""
			if (g == 1) { cpct = lt ? 100 * lc / lt : 100 }
		}
		printf "\nFiles (the kernels that compiled each):\n"
		for (i = 1; i <= nf; i++) {
			p = fp[i]
			if (!code(ft[p]) || host(p)) continue
			w = ""
			for (k = 1; k <= NK; k++) if (comp[k, p]) w = w " " kname[k]
			printf "  %-52s %s\n", p, w == "" ? " -" : w
		}
		printf "\nNot compiled, and why:\n"
		none = 1
		for (i = 1; i <= nf; i++) {
			p = fp[i]
			if (!code(ft[p])) continue
			if (host(p)) { printf "  %s: not kernel code (a host or user-space program)\n", p; none = 0; continue }
			c = 0
			for (k = 1; k <= NK; k++) if (comp[k, p]) c = 1
			if (!c) {
				printf "  %s:\n", p; none = 0
				for (k = 1; k <= NK; k++) printf "      %s: %s\n", kname[k], why(k, p)
				# could the architecture of one of the kernels have?
				for (k = 1; k <= NK; k++) {
					a = karch[k]; v = verdict[p, a == "x86_64" ? "x86" : a]
					if (v == "") v = verdict[p, a]
					# The verdict is per Kconfig architecture (x86 is i386
					# too): a file only 32-bit x86 builds, or whose #include
					# the headers of the architecture skip, is out of reach
					# of this kernel whatever its configuration. So is one
					# that needs a symbol only a select sets, when no
					# selecting symbol fits the configuration family of the
					# kernel (arm: the ARCH_RENESAS multi-v7 boards, not a
					# footbridge with ISA); the report still lists it above.
					wr = why(k, p)
					if (wr ~ /needs 64BIT off, but this configuration sets it/ ||
					    wr ~ /its #include sits in a branch this kernel does not take/ ||
					    wr ~ /which only a select sets, and no selecting symbol can be set/)
						continue
					if (v == "y" || (v == "ct" && kct[k])) {
						missed = missed "\n  " p " (" a " can build it)"
						break
					}
				}
				continue
			}
			for (j = 1; j <= ns[p]; j++) {
				split(sp[p, j], x, "\t")
				if (x[4] == "-") continue
				best = 0; by = ""
				for (k = 1; k <= NK; k++) {
					if (!comp[k, p]) continue
					v = sv[k, p, j]
					if (v == 1) best = 1
					else if (v == "?" && best == 0) best = "?"
					by = by (by ? ", " : "") kname[k]
				}
				if (best == 1) continue
				none = 0
				printf "  %s:%s (%s): %s %s\n      in %s\n", p, x[1] == x[2] ? x[1] : x[1] "-" x[2], x[5],
					best == "?" ? "undecided: a condition on macros no configuration sets, in" : "a branch not taken by",
					by, x[4]
				# what the fragments say about the symbols of the condition
				cond = x[4]; delete told
				while (match(cond, /CONFIG_[A-Za-z0-9_]+/)) {
					sym = substr(cond, RSTART + 7, RLENGTH - 7); cond = substr(cond, RSTART + RLENGTH)
					for (k = 1; k <= NK; k++) {
						if (!comp[k, p] || on[k, "CONFIG_" sym]) continue
						n = split(note[karch[k]], noteln, "\n")
						for (q = 1; q <= n; q++)
							if (index(noteln[q], sym " (") == 1 && !((karch[k], sym) in told)) {
								told[karch[k], sym] = 1
								printf "      %s: %s\n", karch[k], noteln[q]
							}
					}
				}
			}
		}
		if (none) printf "  nothing\n"
		printf "\nNot compiled although the architecture of a kernel can: %s\n", missed == "" ? "none" : missed
		if (MIN != "" && cpct < MIN) { printf "\nchangedlines %.1f%% < %s%%\n", cpct, MIN; exit 3 }
		if (ALL && missed != "") exit 4
	}' "$guards"
} >"$out" || rc=$?
cat "$out"
case ${rc:-0} in
0) ;;
3) die "fewer than $min_lines% of the changed lines of the C files are compiled" ;;
4) die "a file that one of the kernels' architectures can compile was compiled by none (see $out)" ;;
*) die "the coverage report failed" ;;
esac
