#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/coverage-config.sh [OPTIONS] [FRAGMENT...]
#
# Generate the coverage configurations from the series: one config
# fragment per architecture (default: x86_64 arm64 arm
# arm64-beyond-x86_64), written to configs/coverage/FRAGMENT.config, that
# compiles what the series changes. A FRAGMENT is an ARCH, or
# ARCH-beyond-OTHER: only what the OTHER architecture's fragment leaves to
# ARCH, the files OTHER cannot build and those with a changed #if branch
# (make check's arm64 kernel, beside main's x86_64: a Renesas board with
# the files only it compiles, not every subsystem a COMPILE_TEST build on
# x86_64 already compiled).
#
#  1. The diff BASE..TIP of the tree (pristine..series): every surviving
#     file it modifies.
#  2. `chopblock guards`: for each file, the Makefile guards that build it
#     (or, for a header, those of a file that includes it), the #if
#     conditions around each changed span, the Kconfig entries a change
#     edits, the touched subsystems' debug options, and whether ARCH can
#     build it at all (the analyzer's Kconfig model).
#  3. `chopblock enable` on ARCH's tinyconfig: configs/coverage/ARCH.base,
#     then the guards of every file ARCH can build (with COMPILE_TEST only
#     when the base sets it), then the symbols of the changed #if branches
#     and the edited Kconfig entries (when they can be set), then the debug
#     options (when they need nothing more); each with every dependency
#     it needs. Symbols in configs/coverage/exclude are never requested
#     nor set for another; configs/coverage/choices names the symbol to
#     request first where a guard has many ways in.
#  4. The fragment: the base, then the symbols per file, then the debug
#     options, then, as comments, what ARCH does not get and why.
#  5. harness/configure.sh: tinyconfig + the fragment + olddefconfig; each
#     line must take, else this fails, naming the symbol.
#
#   --tree DIR   the tree, checked out at TIP (default build/tree)
#   --base REV   the series' base (default pristine)
#   --tip REV    the series' tip (default series)
#   --out DIR    write the fragments here (default configs/coverage)
#   --check      regenerate into a scratch directory and compare with
#                configs/coverage: exit 1 when a fragment is stale
#   --no-verify  skip step 5
#   --help       this text
#
# Scratch files (the guards, the requests, the configurations): build/coverage/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

tree=$TREE_DIR base_rev=$BASELINE_TAG tip=$SERIES_BRANCH out=$CONFIG_DIR/coverage check=0 verify=1
frags=()
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:?--tree needs a directory}; shift ;;
	--base) base_rev=${2:?--base needs a revision}; shift ;;
	--tip) tip=${2:?--tip needs a revision}; shift ;;
	--out) out=${2:?--out needs a directory}; shift ;;
	--check) check=1 ;;
	--no-verify) verify=0 ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "coverage-config.sh: unknown option $1 (see --help)" ;;
	*) frags+=("$1") ;;
	esac
	shift
done
[ "${#frags[@]}" -gt 0 ] || frags=(x86_64 arm64 arm arm64-beyond-x86_64)
# frag_arch FRAGMENT, frag_beyond FRAGMENT: ARCH and OTHER of ARCH-beyond-OTHER
frag_arch() { echo "${1%%-beyond-*}"; }
frag_beyond() { case $1 in *-beyond-*) echo "${1#*-beyond-}" ;; esac; }
# Every architecture a fragment names: guards are read for each.
arches=()
for f in "${frags[@]}"; do
	for a in $(frag_arch "$f") $(frag_beyond "$f"); do
		grep -qx "$a" <<<"$(printf '%s\n' "${arches[@]}")" || arches+=("$a")
	done
done
data=$CONFIG_DIR/coverage
analyzer=$CHOPBLOCK_ROOT/analyzer/chopblock
work=$BUILD_DIR/coverage
[ -x "$analyzer" ] || die "the analyzer is not built (make analyzer)"
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree (run harness/tree.sh)"
[ -f "$data/exclude" ] || die "$data/exclude is missing"
[ -f "$data/choices" ] || die "$data/choices is missing"
for a in "${arches[@]}"; do
	arch_fact "$a" arch >/dev/null
	[ -f "$data/$a.base" ] || die "no base fragment $data/$a.base for ARCH=$a"
done
head=$(git -C "$tree" rev-parse -q --verify HEAD) || die "$tree is not a git tree"
tipc=$(git -C "$tree" rev-parse -q --verify "$tip^{commit}") || die "no revision $tip in $tree"
[ "$head" = "$tipc" ] || die "$tree is not checked out at $tip (the guards are read from its files)"
git -C "$tree" rev-parse -q --verify "$base_rev^{commit}" >/dev/null || die "no revision $base_rev in $tree"

final=$out
[ "$check" -eq 0 ] || out=$work/check
mkdir -p "$work" "$out"

# 1-2. the series and its guards
git -C "$tree" diff "$base_rev..$tip" >"$work/series.diff"
arch_args=()
for a in "${arches[@]}"; do arch_args+=(--arch "$a"); done
"$analyzer" guards --tree "$tree" --diff "$work/series.diff" "${arch_args[@]}" >"$work/guards.txt" ||
	die "chopblock guards failed"
nfiles=$(grep -c '^file	' "$work/guards.txt" || true)

# tinyconfig of ARCH on this tree, kept while the tree stays at one commit
tinyconfig() { # ARCH
	local a=$1 d=$work/$1/tiny cross
	if [ -f "$d/.config" ] && [ "$(cat "$d/commit" 2>/dev/null)" = "$head" ]; then
		return 0
	fi
	mkdir -p "$d"
	cross=$(cross_prefix "$a")
	make -C "$tree" O="$d" ARCH="$a" ${cross:+CROSS_COMPILE=$cross} tinyconfig \
		>"$d/config.log" 2>&1 || { tail_log "$d/config.log"; die "tinyconfig for $a failed"; }
	echo "$head" >"$d/commit"
}

# 3. the requests of ARCH (awk over the guards), then the solver. With
# OTHER (and OCT, whether OTHER's base sets COMPILE_TEST), a file OTHER
# builds is left to it, unless a changed span of it sits in an #if branch.
requests() { # FRAGMENT ARCH CT [OTHER OCT]
	awk -F'\t' -v A="$2" -v CT="$3" -v B="${4:-}" -v BCT="${5:-0}" -v EXCL="$data/exclude" \
		-v CHOICES="$data/choices" -v NOTES="$work/$1/notes" '
	BEGIN {
		while ((getline l < CHOICES) > 0) {
			if (l ~ /^[ \t]*(#|$)/) continue
			split(l, w, /[ \t]+/)
			choice[w[1]] = choice[w[1]] " " w[2]
		}
		while ((getline l < EXCL) > 0) {
			if (l ~ /^[ \t]*(#|$)/) continue
			s = l; sub(/[ \t].*/, "", s)
			r = l; sub(/^[^ \t]+[ \t]+/, "", r)
			excl[s] = r
		}
		printf "" > NOTES
	}
	function ask(verb, sym, label) {
		sub(/^CONFIG_/, "", sym); sub(/_MODULE$/, "", sym)
		if (sym in excl) {
			if (!((sym, "x") in noted)) print "exclude\t" sym "\t" label "\t" excl[sym] >> NOTES
			noted[sym, "x"] = 1
			return
		}
		print verb, sym, label
	}
	# the CONFIG_ symbols an expression needs set: not under a "!"
	function positive(e, label,    i, c, depth, neg, pend, m, sym) {
		depth = 0; neg[0] = 0; pend = 0
		for (i = 1; i <= length(e); i++) {
			c = substr(e, i, 1)
			if (c == "!") { pend = 1; continue }
			if (c == "(") { depth++; neg[depth] = neg[depth - 1] != pend; pend = 0; continue }
			if (c == ")") { depth--; pend = 0; continue }
			if (c == " " || c == "&" || c == "|") { if (c != " ") pend = 0; continue }
			if (substr(e, i) ~ /^defined *\(/) {
				m = substr(e, i); sub(/^defined *\( */, "", m); sub(/[^A-Za-z0-9_].*/, "", m)
				if (m ~ /^CONFIG_/ && !(neg[depth] != pend)) ask("try", m, label)
				i += index(substr(e, i), ")") - 1; pend = 0; continue
			}
			if (substr(e, i) ~ /^CONFIG_[A-Za-z0-9_]/) {
				m = substr(e, i); sub(/[^A-Za-z0-9_].*/, "", m)
				if (!(neg[depth] != pend)) ask("try", m, label)
				i += length(m) - 1; pend = 0; continue
			}
			pend = 0
		}
	}
	function flush(    n, i, s, k) {
		if (file == "") return
		ok = verdict == "y" || (verdict == "ct" && CT)
		if (ok && B != "" && nspan == 0 && (bverdict == "y" || (bverdict == "ct" && BCT))) {
			# the other fragment compiles all of it
		} else if (!ok && type != "kconfig") {
			# documentation, defconfigs, host programs: not in any configuration
			if (type ~ /^(c|h|S|rust|dts|make)$/ && reason !~ /^not kernel code/)
				print "file\t" file "\t" (verdict == "ct" ? "only with COMPILE_TEST, which this configuration does not set" : reason) >> NOTES
		} else {
			n = split(choice[file], s, " ")
			for (i = 1; i <= n; i++) ask("try", s[i], file)
			n = split(syms, s, " ")
			for (i = n; i >= 1; i--) ask("need", s[i], file)
			for (k = 1; k <= nspan; k++) positive(span[k], spanat[k])
			for (k = 1; k <= nentry; k++) ask("try", entry[k], file)
			for (k = 1; k <= ndebug; k++)
				if (!(debug[k] in asked)) { asked[debug[k]] = 1; ask("soft", debug[k], "debug " file) }
		}
		file = ""; nspan = nentry = ndebug = 0; verdict = bverdict = "n"; syms = ""; reason = ""
	}
	$1 == "file" { flush(); file = $2; type = $3; verdict = bverdict = "n"; reason = "-" }
	$1 == "span" && $7 != "-" { span[++nspan] = $7; spanat[nspan] = $2 ":" $3 }
	$1 == "span" && $8 != "" && $8 != "-" { entry[++nentry] = $8 }
	$1 == "debug" { debug[++ndebug] = $3 }
	$1 == "arch" && $3 == A { verdict = $4; syms = ($5 == "-" ? "" : $5); reason = $6 }
	$1 == "arch" && $3 == B { bverdict = $4 }
	END { flush() }
	' "$work/guards.txt"
}

# 4. the fragment from the base and the solver's answer
fragment() { # FRAGMENT ARCH SOLVED
	local f=$1 a=$2 solved=$3 other
	other=$(frag_beyond "$f")
	{
		cat <<-EOF
		# Generated by harness/coverage-config.sh from the series ($base_rev..$tip,
		# $nfiles files), configs/coverage/$a.base, exclude and choices.${other:+
		# Only what configs/coverage/$other.config leaves to $a: the files
		# $other cannot build and those with a changed #if branch.}
		# Do not edit: change those and run harness/coverage-config.sh again
		# (tests/tree/34-coverage-config.sh fails on a stale fragment). Every
		# line must take (harness/configure.sh, harness/build.sh).
		#
		EOF
		cat "$data/$a.base"
		awk -F'\t' -v A="$a" -v NOTES="$work/$f/notes" -v BASE="$data/$a.base" '
		function line(sv,    s, v) {
			s = sv; sub(/=.*/, "", s); v = sv; sub(/^[^=]*=/, "", v)
			return v == "n" ? "# CONFIG_" s " is not set" : "CONFIG_" s "=" v
		}
		BEGIN {
			while ((getline l < BASE) > 0) {
				if (l ~ /^CONFIG_/) { s = l; sub(/=.*/, "", s); sub(/^CONFIG_/, "", s); done[s] = 1 }
				else if (l ~ /^# CONFIG_.* is not set/) { s = l; sub(/^# CONFIG_/, "", s); sub(/ .*/, "", s); done[s] = 1 }
			}
		}
		$1 == "set" || $1 == "have" {
			s = $2; sub(/=.*/, "", s)
			lab = ($1 == "set" ? $4 : $3)
			if (s in done) next
			done[s] = 1
			if (lab == "base") group = "Needed by the base above"
			else if (lab ~ /^debug /) group = "Debug options of the touched subsystems"
			else { group = lab; sub(/:[0-9]+$/, "", group) }
			if (!(group in seen)) { seen[group] = ++ng; name[ng] = group }
			out[seen[group]] = out[seen[group]] line($2) "\n"
			next
		}
		$1 == "fail" || $1 == "skip" {
			if ($3 ~ /^debug /) next
			why[++nw] = $2 " (" $3 "): " $4
		}
		END {
			dbg = 0
			for (i = 1; i <= ng; i++) {
				if (name[i] ~ /^Debug options/) { dbg = i; continue }
				printf "\n# %s\n%s", name[i], out[i]
			}
			if (dbg) printf "\n# %s\n%s", name[dbg], out[dbg]
			n = 0
			while ((getline l < NOTES) > 0) {
				split(l, f, "\t")
				if (f[1] == "file") notes[++n] = f[2] ": " f[3]
				else notes[++n] = f[2] " (" f[3] "): excluded: " f[4]
			}
			if (n + nw == 0) exit
			printf "\n# Not in this configuration (harness/coverage.sh reports them as not compiled):\n"
			for (i = 1; i <= n; i++) printf "#   %s\n", notes[i]
			for (i = 1; i <= nw; i++) printf "#   %s\n", why[i]
		}' "$solved"
	} >"$out/$f.config"
}

rc=0
for f in "${frags[@]}"; do
	a=$(frag_arch "$f") other=$(frag_beyond "$f")
	mkdir -p "$work/$f"
	info "coverage-config: $f"
	tinyconfig "$a"
	ct=0 oct=0
	grep -qx 'CONFIG_COMPILE_TEST=y' "$data/$a.base" && ct=1
	[ -z "$other" ] || ! grep -qx 'CONFIG_COMPILE_TEST=y' "$data/$other.base" || oct=1
	{
		sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=[^ ]*\)$/base \1 base/p' \
			-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/base \1=n base/p' "$data/$a.base"
		requests "$f" "$a" "$ct" ${other:+"$other" "$oct"}
	} >"$work/$f/requests"
	# excluded symbols are neither requested nor set for another one
	forbid=()
	[ "$ct" -eq 1 ] || forbid=(--forbid COMPILE_TEST)
	for s in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$data/exclude" | awk '{ print $1 }'); do
		forbid+=(--forbid "$s")
	done
	solve_rc=0
	"$analyzer" enable --tree "$tree" --arch "$a" --config "$work/$a/tiny/.config" \
		--requests "$work/$f/requests" "${forbid[@]}" >"$work/$f/solved" || solve_rc=$?
	[ "$solve_rc" -le 1 ] || die "chopblock enable failed for $f"
	if grep -q '^fail	.*	base	' "$work/$f/solved"; then
		grep '^fail	.*	base	' "$work/$f/solved" >&2
		die "$f: a symbol of configs/coverage/$a.base cannot be set"
	fi
	fragment "$f" "$a" "$work/$f/solved"
	sed -n 's/^fail\t\([^\t]*\)\t\([^\t]*\)\t\(.*\)/chopblock: coverage-config: '"$f"': not enabled: \1 (\2): \3/p' \
		"$work/$f/solved" >&2
	if [ "$check" -eq 1 ]; then
		if ! cmp -s "$out/$f.config" "$final/$f.config"; then
			echo "chopblock: error: configs/coverage/$f.config is stale (run harness/coverage-config.sh):" >&2
			diff -u "$final/$f.config" "$out/$f.config" | head -n 40 >&2 || true
			rc=1
		fi
	elif [ "$verify" -eq 1 ]; then
		"$h/configure.sh" --tree "$tree" --arch "$a" --out "$work/$f/config" "$out/$f.config" || rc=1
	fi
done
[ "$rc" -eq 0 ] || die "coverage configuration failed (see above)"
