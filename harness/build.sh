#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/build.sh [OPTIONS] NAME
#
# Build the kernel NAME of configs/kernels.list into build/kernels/NAME/:
# its base configuration, then its config fragments merged with the tree's
# own merge_config.sh, then the image (and modules when configured), out of
# tree with ccache, one kernel build at a time on this machine. Writes
# build/kernels/NAME/manifest: what was built from what (name, arch, tree,
# commit, base, fragments, config, image), the result and the seconds.
# merge_config.sh only warns when a requested value does not survive
# olddefconfig: every line of every fragment is checked against the final
# .config, and the build stops, naming each symbol that did not take.
# A kernel already built from the same commit and configuration is not
# built again. The first build of a tree point (after:PATH) starts from a
# finished build of the series' tip with the same ARCH, base and first
# fragments, when there is one (harness/seed-point.sh), so that kbuild
# compiles only what differs.
#
#   --list FILE  another kernel list (default configs/kernels.list)
#   --tree DIR   build this tree instead of the row's tree point
#   --out DIR    the kernel directory (default build/kernels/NAME)
#   --reuse-config  keep the configuration of the last build in --out
#                (make bisect, for a commit that changes no Kconfig file:
#                configuring again would give the same .config)
#   --skip-unread  when the last build in --out succeeded, the
#                configuration comes out the same and the tree differs from
#                the commit it was built from only in files that build never
#                read (harness/unread.sh), do not build: its result stands
#                for this commit (make bisect; the manifest's built_at
#                names the commit of the objects)
#   --may-not-take FILE  passed to harness/configure.sh: the symbols
#                listed in FILE may fail to take (make bisect, before the
#                patch that makes them settable); KBUILD/untaken names them
#   --clean      when a build is needed, start from an empty build
#                directory (ccache then replays every warning)
#   --target T   make T instead of the image and modules (repeatable): a
#                partial build such as `--target drivers/cdrom/`, the way
#                a developer checks one directory; the manifest then names
#                the targets and no image
#   -j N         parallel jobs (default: the number of cores, or with
#                distcc the number of jobs its hosts take)
#   --help       this text
#
# When DISTCC_HOSTS (distcc's own variable) is set, the compiles fan out
# over distcc's hosts, ccache still in front of them (CCACHE_PREFIX=distcc):
# make matrix, make bisect and make debug then do too. Every host needs
# the same compilers (Debian's distcc package whitelists the installed
# cross compilers in /usr/lib/distcc).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
h=$(dirname "$0")

list=$KERNELS_LIST tree= out= out_given= clean=0 reuse_config=0 skip_unread=0 jobs= name= may_not_take=() targets=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=${2:?--list needs a file}; shift ;;
	--tree) tree=${2:?--tree needs a directory}; shift ;;
	--out) out=${2:?--out needs a directory}; out_given=1; shift ;;
	--clean) clean=1 ;;
	--target) targets+=("${2:?--target needs a make target}"); shift ;;
	--reuse-config) reuse_config=1 ;;
	--skip-unread) skip_unread=1 ;;
	--may-not-take) may_not_take=(--may-not-take "${2:?--may-not-take needs a file}"); shift ;;
	-j) jobs=${2:?-j needs a number}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "build.sh: unknown option $1 (see --help)" ;;
	*) [ -z "$name" ] || die "build.sh: one kernel name, not '$name' and '$1'"; name=$1 ;;
	esac
	shift
done
[ -n "$name" ] || die "build.sh: which kernel? (see --help; kernels: $(kernel_list "$list" | tr '\n' ' '))"
kernel_row "$name" "$list"
out=${out:-$KERNELS_DIR/$name}
arch=$K_ARCH
kbuild=$out/kbuild
logs=$out/logs

# seed_kernel: the directory of a finished build of the series' tip that
# this row's first build at a tree point can start from: the same ARCH and
# base, and its fragments the first of this row's (main, for pktcdvd).
seed_kernel() {
	local arch=$K_ARCH base=$K_BASE frags="$K_FRAGMENTS " tip n d
	tip=$(git -C "$TREE_DIR" rev-parse -q --verify "refs/heads/$SERIES_BRANCH") || return 1
	for n in $(kernel_list "$list"); do
		[ "$n" != "$name" ] || continue
		(kernel_row "$n" "$list"
		 [ "$K_TREE" = patched ] && [ "$K_ARCH" = "$arch" ] && [ "$K_BASE" = "$base" ] &&
		 [[ $frags == "$K_FRAGMENTS "* ]]) || continue
		d=$KERNELS_DIR/$n
		[ -f "$d/manifest" ] && [ "$(manifest "$d" result)" = ok ] &&
			[ "$(manifest "$d" commit)" = "$tip" ] || continue
		echo "$d"
		return 0
	done
	return 1
}

# The tree point: the baseline, the whole series, or the series up to a
# patch (a worktree of its own, checked out at that commit).
point_tree() {
	case $1 in
	pristine)
		"$h/pristine-tree.sh" >&2
		echo "$PRISTINE_DIR" ;;
	patched)
		[ "$(git -C "$TREE_DIR" rev-parse -q --verify HEAD)" = \
		  "$(git -C "$TREE_DIR" rev-parse -q --verify "refs/heads/$SERIES_BRANCH")" ] ||
			die "$TREE_DIR is not at the applied series (run harness/apply.sh)"
		echo "$TREE_DIR" ;;
	after:*)
		local prefix=${1#after:} k=0 i=0 p commit dir
		for p in $(series_patches); do
			i=$((i + 1))
			[[ $p == "$prefix"* ]] && k=$i
		done
		[ "$k" -gt 0 ] || die "tree point $1: no patch in patches/series starts with '$prefix'"
		commit=$(git -C "$TREE_DIR" rev-list --reverse "$BASELINE_TAG..refs/heads/$SERIES_BRANCH" | sed -n "${k}p")
		[ -n "$commit" ] || die "tree point $1: the series is not applied (run harness/apply.sh)"
		dir=$BUILD_DIR/points/${prefix//\//_}/tree
		# The first build of a point at its own place starts from a
		# kernel of the series' tip when there is one (seed-point.sh).
		local pkbuild seed
		pkbuild=$(dirname "$dir")/kernels/$name/kbuild
		if [ ! -f "$pkbuild/.config" ] && [ -z "$out_given" ] && [ "$clean" -eq 0 ] &&
		   seed=$(seed_kernel); then
			"$h/seed-point.sh" "$seed" "$commit" "$dir" "$pkbuild" >&2
			# The seed's image is in the copy now: a manifest left from
			# an earlier build must not make it look up to date.
			rm -f "$out/manifest"
		elif [ ! -d "$dir" ]; then
			git -C "$TREE_DIR" worktree prune
			git -C "$TREE_DIR" worktree add -q --detach "$dir" "$commit" >&2 ||
				die "could not check out tree point $1 in $dir"
		fi
		git -C "$dir" checkout -q --detach "$commit" >&2
		echo "$dir" ;;
	esac
}
if [ -z "$tree" ]; then
	tree=$(point_tree "$K_TREE")
	# A point of the series builds beside its worktree, at the depth
	# build/kernels/NAME/kbuild has below build/tree: ccache hashes the
	# paths relative to the build directory (CCACHE_BASEDIR), so with the
	# configuration of a kernel of the whole series it compiles only what
	# the later patches and its own fragments change, the rest coming from
	# that kernel's objects. build/kernels/NAME/kbuild links there.
	if [[ $K_TREE == after:* ]] && [ "$kbuild" = "$out/kbuild" ]; then
		kbuild=$(dirname "$tree")/kernels/$name/kbuild
		mkdir -p "$kbuild" "$out"
		[ -L "$out/kbuild" ] || rm -rf "$out/kbuild"
		ln -sfn "$kbuild" "$out/kbuild"
	fi
fi
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree (run harness/tree.sh)"

image_path=$(arch_fact "$arch" image)
cross=$(cross_prefix "$arch")
command -v "${cross}gcc" >/dev/null ||
	die "compiler ${cross}gcc for ARCH=$arch is missing (install gcc-${cross%-})"

compiler_setup "$cross"
distcc=$KB_DISTCC
[ -n "$jobs" ] || jobs=$KB_JOBS
make_args=(-C "$tree" O="$kbuild" ARCH="$arch" -j"$jobs" CC="$KB_CC" HOSTCC="$KB_HOSTCC")
[ -z "$cross" ] || make_args+=(CROSS_COMPILE="$cross")

# Debian 12's sh4 gcc compiles wrong code without a plugin (harness/sh4-gcc.sh).
extra_cflags=
if [ "$arch" = sh ]; then
	extra_cflags=$("$h/sh4-gcc.sh")
	[ -z "$extra_cflags" ] || make_args+=(KCFLAGS="$extra_cflags")
fi

read -r -a fragments <<<"$K_FRAGMENTS"
commit=$(git -C "$tree" rev-parse HEAD)
dirty=$(git -C "$tree" status --porcelain --untracked-files=no)
# What the build is made of: when it is the same and the last build of
# it succeeded, there is nothing to do.
inputs=$(printf '%s\n' "$arch" "$K_BASE" "$commit" "$extra_cflags" "$(cat "${fragments[@]}")" "${targets[*]}" |
	sha256sum | cut -d' ' -f1)
# A partial build (--target) has no image to look for.
image=
[ "${#targets[@]}" -gt 0 ] || image=$kbuild/$image_path
if [ -z "$dirty" ] && [ -f "$out/manifest" ] && [ "$(manifest "$out" result)" = ok ] &&
   [ "$(manifest "$out" inputs)" = "$inputs" ] && { [ -z "$image" ] || [ -f "$image" ]; }; then
	info "build: $name is up to date ($out)"
	exit 0
fi

write_manifest() { # RESULT SECONDS [BUILT_AT]
	cat >"$out/manifest.tmp" <<-EOF
	name=$name
	arch=$arch
	tree_point=$K_TREE
	tree=$tree
	commit=$commit${dirty:+ (with uncommitted changes)}
	base=$K_BASE
	fragments=$K_FRAGMENTS
	boot=$K_BOOT
	tests=$K_TESTS
	kbuild=$kbuild
	config=$kbuild/.config
	image=$image
	targets=${targets[*]}
	inputs=$inputs
	result=$1
	seconds=$2
	built_at=${3:-$commit}
	EOF
	mv "$out/manifest.tmp" "$out/manifest"
}

# What the last build left, for --skip-unread.
prev_result= prev_built_at=
if [ "$skip_unread" -eq 1 ] && [ "$clean" -eq 0 ] && [ -z "$dirty" ] &&
   [ -f "$out/manifest" ] && [ -f "$kbuild/.config" ]; then
	prev_result=$(manifest "$out" result)
	prev_built_at=$(manifest "$out" built_at)
	cp "$kbuild/.config" "$kbuild/.config.last-build"
fi

[ "$clean" -eq 0 ] || rm -rf "$kbuild"
mkdir -p "$kbuild" "$logs"
write_manifest building -
# What was booted from the previous image is no longer this kernel's.
rm -f "$logs/boot" "$logs/ktap-result.txt" "$logs/console.log"

# The configuration step is harness/configure.sh's: base, fragments,
# olddefconfig, and a stop naming every fragment line that did not take.
log=$logs/config.log
if [ "$reuse_config" -eq 1 ] && [ "$clean" -eq 0 ] && [ -f "$kbuild/.config" ] &&
   grep -q '^chopblock: configure: .* took' "$log" 2>/dev/null; then
	info "build: $name: the configuration of the last build is kept ($kbuild/.config)"
elif ! "$h/configure.sh" --list "$list" --tree "$tree" --out "$kbuild" "${may_not_take[@]}" "$name" >"$log" 2>&1; then
	# configure.sh's last line says why: the lines that did not take,
	# or the failed step after the tail of its log.
	if grep -q ' did not take' "$log"; then grep '^chopblock: error: ' "$log" >&2; else tail_log "$log"; fi
	write_manifest FAILED -
	exit 1
fi

if [ "$prev_result" = ok ] && [ -n "$prev_built_at" ] &&
   cmp -s "$kbuild/.config.last-build" "$kbuild/.config" &&
   "$h/unread.sh" "$kbuild" "$tree" "$prev_built_at" "$commit" >"$logs/unread.log" 2>&1; then
	write_manifest ok 0 "$prev_built_at"
	info "build: $name: the build of ${prev_built_at:0:12} read none of the files changed since, and the configuration is the same: not built again"
	exit 0
fi

kbuild_lock

# What make builds: --target's, or the image and (when configured) modules.
make_targets=("${targets[@]}")
if [ -n "$image" ]; then
	make_targets=("$(basename "$image_path")")
	grep -q '^CONFIG_MODULES=y' "$kbuild/.config" && make_targets+=(modules)
fi
info "build: $name: $arch ${make_targets[*]} from ${tree#"$CHOPBLOCK_ROOT"/}${distcc:+, -j$jobs over distcc ($DISTCC_HOSTS)} (log: $logs/build.log)"
start=$SECONDS
if ! run_logged "$logs/build.log" "build $name" make "${make_args[@]}" "${make_targets[@]}"; then
	tail_log "$logs/build.log" 40
	write_manifest FAILED $((SECONDS - start))
	die "kernel build of $name failed (full log: $logs/build.log)"
fi
write_manifest ok $((SECONDS - start))
info "build: $name done in $((SECONDS - start))s: ${image:-${make_targets[*]} in $kbuild}"
