# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the chopblock harness scripts. Sourced, never run.

CHOPBLOCK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The work directory (git-ignored): the tree, the kernels, the logs.
BUILD_DIR=$CHOPBLOCK_ROOT/build
TREE_DIR=$BUILD_DIR/tree
PRISTINE_DIR=$BUILD_DIR/pristine
KERNELS_DIR=$BUILD_DIR/kernels
LOG_DIR=$BUILD_DIR/logs
PATCH_DIR=$CHOPBLOCK_ROOT/patches
CONFIG_DIR=$CHOPBLOCK_ROOT/configs
ARCHES_LIST=$CONFIG_DIR/arches.list
KERNELS_LIST=$CONFIG_DIR/kernels.list
TARBALL=/usr/src/linux-source-6.12.tar.xz
SOURCE_PKG=linux-source-6.12
BASELINE_TAG=pristine
SERIES_BRANCH=series
# What one clone can hand to the next on the same machine: the ccache
# (CCACHE_DIR overrides it), the sh4 GCC plugin, the KVM verdict.
MACHINE_CACHE=/var/cache/chopblock

die() {
	echo "chopblock: error: $*" >&2
	exit 1
}

info() {
	echo "chopblock: $*" >&2
}

# Print the last lines of a log after a failure, so that the reason is on
# screen while the full log stays in a file.
tail_log() {
	local log=$1 n=${2:-30}

	[ -f "$log" ] || return 0
	echo "---- last $n lines of $log ----" >&2
	tail -n "$n" "$log" >&2
	echo "----" >&2
}

# Run a long command with its output in a log file, printing a progress
# line (elapsed seconds and the last log line) every 15 seconds.
run_logged() {
	local log=$1 what=$2
	shift 2
	local start=$SECONDS pid rc

	mkdir -p "$(dirname "$log")"
	"$@" >"$log" 2>&1 &
	pid=$!
	local interval=15
	local next=$interval
	while kill -0 "$pid" 2>/dev/null; do
		sleep 0.5
		if [ $((SECONDS - start)) -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
			printf 'chopblock: %s: %ds: %s\n' "$what" $((SECONDS - start)) \
				"$(tail -n 1 "$log" | cut -c1-100)" >&2
			next=$((next + interval))
		fi
	done
	wait "$pid"
	rc=$?
	return $rc
}

# compiler_setup CROSS: how a kernel build compiles, for the cross prefix
# CROSS (empty for the host's gcc): KB_CC for make's CC=, KB_JOBS for its
# -j, KB_DISTCC=distcc when the compiles fan out. ccache (when installed)
# in front, with the machine-wide cache; over distcc when DISTCC_HOSTS is
# set (ccache's CCACHE_PREFIX, or distcc alone without ccache), with as
# many jobs as the hosts take (distcc -j). KB_HOSTCC for make's HOSTCC=:
# the build's own tools (fixdep, the kconfig programs, objtool, modpost)
# are compiled again in every build and configuration directory, some
# 60 objects for an x86_64 kernel; ccache serves them too (x86_64's
# `make prepare` took 26 s in a new directory, 7 s from the cache).
# They run here, so they never go over distcc.
compiler_setup() {
	local cross=$1

	KB_DISTCC= KB_JOBS=$(nproc) KB_CC=${cross}gcc KB_HOSTCC=gcc
	if [ -n "${DISTCC_HOSTS:-}" ]; then
		command -v distcc >/dev/null ||
			die "DISTCC_HOSTS is set, but distcc is not installed (apt-get install distcc)"
		KB_DISTCC=distcc
		KB_JOBS=$(distcc -j)
	fi
	if command -v ccache >/dev/null 2>&1; then
		KB_CC="ccache ${cross}gcc"
		[ -n "$KB_DISTCC" ] || KB_HOSTCC="ccache gcc"
		[ -z "$KB_DISTCC" ] || export CCACHE_PREFIX=distcc
		export CCACHE_DIR=${CCACHE_DIR:-$MACHINE_CACHE/ccache}
		export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
		# Paths under the base directory are hashed relative to the build
		# directory: every tree beside build/kernels then shares one cache.
		export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD_DIR}
		# Depend mode: by default a miss runs the preprocessor to look
		# the object up, then the compiler, which preprocesses again; on
		# a cold cache kernel/ and mm/ of the main kernel took 124 s
		# that way against 92 s with plain gcc. In depend mode a miss is
		# one compile (92 s), stored under the headers kbuild's -MMD
		# output lists, and a hit a direct-mode one, as nearly all of
		# ours are (12 s). Given up: a hit for a file whose headers
		# changed only where the preprocessor drops it.
		export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
	elif [ -n "$KB_DISTCC" ]; then
		KB_CC="distcc ${cross}gcc"
	fi
}

# kbuild_lock: wait for the machine-wide kernel build lock, held on file
# descriptor 9 until the calling script exits. Two kernel builds at once
# would only thrash two cores: every build on this machine (other clones
# and bisect runs alike) queues for it, first come, first served: flock
# alone lets a loop of short builds starve a waiter, so waiters queue with
# a ticket named by their arrival time.
kbuild_lock() {
	local lock=/run/lock/chopblock-kbuild queue ticket waited=0 t first

	queue=$lock.queue
	mkdir -p "$queue"
	ticket=$queue/$(date +%s%N).$$
	touch "$ticket"
	exec 9>"$lock"
	while :; do
		for t in "$queue"/*; do
			kill -0 "${t##*.}" 2>/dev/null || rm -f "$t"
		done
		first=$(ls "$queue" | sort | head -n 1)
		[ "$queue/$first" = "$ticket" ] && flock -n 9 && break
		[ "$waited" -eq 1 ] || info "waiting for another kernel build to finish"
		waited=1
		sleep 1
	done
	rm -f "$ticket"
}

tree_git() {
	git -C "$TREE_DIR" -c user.name="${GIT_AUTHOR_NAME:-chopblock}" \
		-c user.email="${GIT_AUTHOR_EMAIL:-chopblock@localhost}" "$@"
}

# usage_from_header: print the comment block after the SPDX line of the
# calling script, its --help.
usage_from_header() {
	sed -n '3,/^[^#]/{/^#/!q; s/^# \{0,1\}//; p}' "$0"
}

# ---- configs/arches.list: one table of per-architecture facts ----

ARCH_COLUMNS="arch debarch cross image qemu machine cpu mem console init kvm packages"

# arch_fact ARCH FIELD: one fact ("-" means none; args is the rest of the
# line). Fails with the table's file and line on a malformed row.
arch_fact() {
	local arch=$1 field=$2 col=0 i=0 c
	for c in $ARCH_COLUMNS args; do
		i=$((i + 1))
		[ "$c" = "$field" ] && col=$i
	done
	[ "$col" -gt 0 ] || die "arch_fact: no column '$field' in $ARCHES_LIST"
	local out
	out=$(awk -v a="$arch" -v col="$col" -v n="$(echo $ARCH_COLUMNS | wc -w)" -v f="$ARCHES_LIST" '
		{ sub(/#.*/, "") }
		NF == 0 { next }
		NF < n { printf "%s:%d: want %d columns, have %d\n", f, NR, n, NF; exit 2 }
		$1 == a {
			if (col <= n) { print $col; found = 1; exit }
			s = ""
			for (i = n + 1; i <= NF; i++)
				s = s (s == "" ? "" : " ") $i
			print s; found = 1; exit
		}
		END { if (!found) exit 3 }' "$ARCHES_LIST") || {
		case $? in
		2) die "$out" ;;
		*) die "unsupported ARCH=$arch (configs/arches.list has $(arch_list | tr '\n' ' '| sed 's/ $//'))" ;;
		esac
	}
	echo "$out"
}

arch_list() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ARCHES_LIST" | awk '{ print $1 }'
}

# The Debian cross-compiler prefix for a kernel ARCH (empty for the host's).
cross_prefix() {
	local c
	c=$(arch_fact "$1" cross) || exit 1
	[ "$c" = - ] || echo "$c"
}

# ---- configs/kernels.list: one row a kernel ----

# kernel_row NAME [LIST]: validate the whole list, then set the row's
# fields: K_NAME K_ARCH K_TREE K_GROUP K_BASE K_BOOT K_TESTS and
# K_FRAGMENTS (absolute paths, globs expanded, space-separated).
kernel_row() {
	local want=$1 list=${2:-$KERNELS_LIST} found=0
	kernel_list "$list" >/dev/null
	while IFS=$'\t' read -r K_NAME K_ARCH K_TREE K_GROUP K_BASE K_BOOT K_TESTS K_FRAGMENTS; do
		[ "$K_NAME" = "$want" ] && { found=1; break; }
	done < <(_kernel_rows "$list")
	[ "$found" -eq 1 ] ||
		die "no kernel '$want' in $list (have: $(kernel_list "$list" | tr '\n' ' ' | sed 's/ $//'))"
}

# kernel_list [LIST [GROUP]]: the names of the rows (of one group), after
# validating every row; a bad row stops with its file and line.
kernel_list() {
	local list=${1:-$KERNELS_LIST} group=${2:-}
	_kernel_rows "$list" | awk -F'\t' -v g="$group" 'g == "" || $4 == g { print $1 }'
	[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
}

_kernel_rows() {
	local list=$1 lineno=0 line f frag m seen=" " arches
	[ -f "$list" ] || die "kernel list $list is missing"
	arches=" $(arch_list | tr '\n' ' ')"
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		line=${line%%#*}
		read -r -a f <<<"$line" || true
		[ "${#f[@]}" -gt 0 ] || continue
		local at="$list:$lineno"
		[ "${#f[@]}" -ge 8 ] || die "$at: want: name arch tree group base boot tests fragment..."
		[[ ${f[0]} =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] || die "$at: bad kernel name '${f[0]}'"
		[[ $seen != *" ${f[0]} "* ]] || die "$at: kernel ${f[0]} is listed twice"
		seen+="${f[0]} "
		[[ $arches == *" ${f[1]} "* ]] || die "$at: no architecture '${f[1]}' in configs/arches.list"
		case ${f[2]} in pristine | patched | after:?*) ;; *) die "$at: tree must be pristine, patched or after:PATH, not '${f[2]}'" ;; esac
		case ${f[3]} in main | check | matrix | cover | debug) ;; *) die "$at: group must be main, check, matrix, cover or debug, not '${f[3]}'" ;; esac
		case ${f[5]} in yes | no) ;; *) die "$at: boot must be yes or no, not '${f[5]}'" ;; esac
		if [ "${f[5]}" = yes ] && [ "$(arch_fact "${f[1]}" qemu)" = - ]; then
			die "$at: ${f[1]} kernels are not booted (configs/arches.list has no QEMU for it)"
		fi
		local frags=""
		for frag in "${f[@]:7}"; do
			local matched=0
			case $frag in /*) m=$frag ;; *) m=$CONFIG_DIR/$frag ;; esac
			for m in $m; do
				[ -f "$m" ] || continue
				frags+="$m "
				matched=1
			done
			[ "$matched" -eq 1 ] || die "$at: no fragment configs/$frag"
		done
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${f[@]:0:7}" "${frags% }"
	done <"$list"
}

# coverage_kernels [GROUP...]: the rows of the GROUPs (default main and
# check: make check's) that carry a coverage fragment
# (configs/coverage/ARCH.config): the kernels harness/coverage.sh reports
# on. make cover adds group cover. (The debug rows carry it too, but only
# make debug builds them.)
coverage_kernels() {
	local n g groups=${*:-main check}
	for g in $groups; do
		for n in $(kernel_list "" "$g"); do
			kernel_row "$n"
			case " $K_FRAGMENTS" in *" $CONFIG_DIR/coverage/"*) echo "$n" ;; esac
		done
	done
}

# touched_warnings NAME: the warnings of kernel NAME's last build
# (build/kernels/NAME/warnings, written by matrix.sh) in files the series
# touched, one a line; nothing when there are none.
touched_warnings() {
	local w=$KERNELS_DIR/$1/warnings
	[ -f "$w" ] || die "no warning list for $1 ($w)"
	git -C "$TREE_DIR" diff --name-only "$BASELINE_TAG" "$SERIES_BRANCH" |
		awk -F: 'FILENAME == "-" { touched[$0] = 1; next } $1 in touched' - "$w"
}

# header_tag FILE TAG: the value of the first "TAG: VALUE" line of FILE
# (a comment of a shell or C test).
header_tag() {
	sed -n "s/^[#/* ]*$2: *//p" "$1" | head -n 1
}

# guest_tests ARCH GLOBS: the guest tests of a kernel (GLOBS is the tests
# column: globs under guest/, or absolute), in order, as absolute paths; a
# test whose header says "chopblock-arch: A B" runs only on those
# architectures.
guest_tests() {
	local arch=$1 globs=$2 g t arches list
	[ "$globs" != - ] || return 0
	# Split on commas only: each glob is expanded under guest/, not here.
	IFS=, read -r -a list <<<"$globs"
	for g in "${list[@]}"; do
		case $g in /*) ;; *) g=$CHOPBLOCK_ROOT/guest/$g ;; esac
		for t in $g; do
			[ -f "$t" ] || continue
			arches=$(header_tag "$t" chopblock-arch)
			[ -z "$arches" ] || [[ " $arches " == *" $arch "* ]] || continue
			echo "$t"
		done
	done
}

# ---- build/kernels/NAME/manifest: what build.sh built ----

# manifest KDIR KEY: one value of a kernel's manifest (key=value lines).
manifest() {
	local m=$1/manifest
	[ -f "$m" ] || die "no kernel built in $1 (no manifest; run harness/build.sh)"
	sed -n "s/^$2=//p" "$m" | head -n 1
}

# kernel_dir NAME_OR_DIR: a kernel's directory from its name or path.
kernel_dir() {
	case $1 in
	*/*) echo "$1" ;;
	*) echo "$KERNELS_DIR/$1" ;;
	esac
}

# pack_cpio ROOT OUT: the initramfs of directory ROOT, written atomically.
pack_cpio() {
	(cd "$1" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) |
		gzip -1 >"$2.tmp" && mv "$2.tmp" "$2"
}

# fragment_lines FRAGMENT...: each config line of the fragments as
# "CONFIG_FOO<TAB>LINE", LINE being "CONFIG_FOO=VALUE" or "# CONFIG_FOO is
# not set"; comments and blank lines are left out. What a fragment asks
# for, as configure.sh checks it and bisect.sh lists it.
fragment_lines() {
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1\t&/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1\t&/p' "$@"
}

# series_patches [SERIES]: the patches of a quilt series file, one path a
# line (relative to the file's folder), validated: a malformed line,
# a missing or non-format-patch file, a path outside patches/ or a
# duplicate stops with the file and line.
series_patches() {
	local series=${1:-$PATCH_DIR/series} line lineno=0 words p seen=" "
	[ -f "$series" ] || die "series file $series is missing"
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		line=${line%%#*}
		read -r -a words <<<"$line" || true
		[ "${#words[@]}" -eq 0 ] && continue
		if [ "${#words[@]}" -gt 2 ] || { [ "${#words[@]}" -eq 2 ] && [ "${words[1]}" != -p1 ]; }; then
			die "$series:$lineno: malformed line '$line' (expected: PATCH [-p1])"
		fi
		case "${words[0]}" in
		/* | *..*) die "$series:$lineno: patch path '${words[0]}' must be relative and inside patches/" ;;
		esac
		p=$(dirname "$series")/${words[0]}
		[ -f "$p" ] || die "$series:$lineno: patch ${words[0]} does not exist"
		grep -q '^From [0-9a-f]\{40\} ' "$p" ||
			die "$series:$lineno: ${words[0]} is not a git format-patch file"
		[[ $seen != *" ${words[0]} "* ]] || die "$series:$lineno: patch ${words[0]} is listed twice"
		seen+="${words[0]} "
		echo "${words[0]}"
	done <"$series"
}
