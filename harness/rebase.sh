#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/rebase.sh [options] VERSION
#
# Move the series to Debian's linux-source-6.12 VERSION (a version that
# `apt-cache madison linux-source-6.12` lists, e.g. 6.12.118-1~deb12u1).
# patches/base-version names the version the series was made for. The
# series (patches/series, applied afresh with git am to that version) is
# carried onto VERSION's tree patch by patch with git's three-way merge
# (cherry-pick), VERSION's tree being committed after the tag "pristine"
# of build/tree. Then patches/ is exported again (harness/export.sh) and
# one line a patch says what the move did to it:
#
#   unchanged  the same diff
#   moved      the same hunks at other lines
#   changed    other context or other lines: review it again
#
# (also in build/logs/rebase-report.txt). On success the tag "pristine"
# is VERSION's tree, the branch "series" the moved series, and
# patches/base-version names VERSION. A patch that conflicts (or has
# nothing left to change) stops it with the patch and its files named, and
# then nothing has changed: not patches/, not the tag, not the checkout.
# Every patch that conflicts is named, in one run: the ones after a
# conflict are tried without it.
#
# Tarballs come from what the tree or /usr/src already holds, else from
# `apt-get download` of the package (into a scratch directory).
#
#   --tarball FILE       VERSION's linux-source tarball, instead of downloading it
#   --base-tarball FILE  the tarball of the version the series was made for,
#                        needed only when the tree holds another version
#   --tree DIR           the tree (default build/tree)
#   --patches DIR        the series folder (default patches/)
#   --help               this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

to= to_tarball= base_tarball=
while [ $# -gt 0 ]; do
	case $1 in
	--tarball) to_tarball=${2:?--tarball needs a file}; shift ;;
	--base-tarball) base_tarball=${2:?--base-tarball needs a file}; shift ;;
	--tree) TREE_DIR=${2:?--tree needs a directory}; shift ;;
	--patches) PATCH_DIR=${2:?--patches needs a directory}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "rebase.sh: unknown option $1 (see --help)" ;;
	*) [ -z "$to" ] || die "rebase.sh: one version, not '$to' and '$1'"; to=$1 ;;
	esac
	shift
done
[ -n "$to" ] || die "rebase.sh: which Debian version? (make rebase TO=VERSION; apt-cache madison $SOURCE_PKG lists them)"
# Debian policy's version syntax, so that nothing odd reaches apt or git.
[[ $to =~ ^([0-9]+:)?[0-9][A-Za-z0-9.+~-]*$ ]] ||
	die "rebase.sh: '$to' is not a Debian version (e.g. 6.12.118-1~deb12u1)"

[ -d "$PATCH_DIR" ] || die "no series folder $PATCH_DIR"
PATCH_DIR=$(cd "$PATCH_DIR" && pwd)
base_file=$PATCH_DIR/base-version
[ -f "$base_file" ] || die "$base_file is missing: which version was the series made for?"
read -r base_pkg from _ < <(grep -v '^[[:space:]]*\(#\|$\)' "$base_file" | head -n 1) || true
[ -n "${from:-}" ] || die "$base_file: expected a line 'PACKAGE VERSION'"
[ "$base_pkg" = "$SOURCE_PKG" ] || die "$base_file names $base_pkg, not $SOURCE_PKG"
if [ "$to" = "$from" ]; then
	info "rebase: the series is already made for $SOURCE_PKG $to"
	exit 0
fi
names=$(series_patches "$PATCH_DIR/series") || exit 1
[ -f "$PATCH_DIR/topics" ] || die "topic table $PATCH_DIR/topics is missing"

# Absolute paths: export.sh sees them through symbolic links (below).
d=$(cd "$TREE_DIR" 2>/dev/null && pwd) || die "no tree in $TREE_DIR (run harness/tree.sh)"
TREE_DIR=$d
git -C "$TREE_DIR" rev-parse -q --verify "refs/tags/$BASELINE_TAG" >/dev/null ||
	die "no pristine baseline in $TREE_DIR (run harness/tree.sh)"
gitdir=$(git -C "$TREE_DIR" rev-parse --absolute-git-dir)
for f in rebase-apply rebase-merge CHERRY_PICK_HEAD MERGE_HEAD; do
	[ ! -e "$gitdir/$f" ] || die "$TREE_DIR has a git operation in progress ($f): finish or abort it first"
done
# awk, not head: an early close would kill git with SIGPIPE under pipefail.
dirty=$(git -C "$TREE_DIR" status --porcelain --untracked-files=no | awk 'NR <= 3 { printf "%s ", substr($0, 4) }')
[ -z "$dirty" ] || die "$TREE_DIR has uncommitted changes (${dirty% }): commit or discard them first"

logs=$(dirname "$TREE_DIR")/logs
mkdir -p "$logs"
log=$logs/rebase.log
: >"$log"
work=$(mktemp -d "$(dirname "$TREE_DIR")/rebase.XXXXXX")

# What a failure must put back. Until the very end only loose objects are
# added to the repository; the checkout, the tag, the branch, the version
# stamps and (while export.sh runs) patches/ are what change.
old_pristine=$(git -C "$TREE_DIR" rev-parse "$BASELINE_TAG^{commit}")
old_series=$(git -C "$TREE_DIR" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" || true)
old_head=$(git -C "$TREE_DIR" symbolic-ref -q HEAD || git -C "$TREE_DIR" rev-parse HEAD)
for f in chopblock-debian-version chopblock-tarball.sha256; do
	[ ! -f "$gitdir/$f" ] || cp "$gitdir/$f" "$work/$f"
done
touched=0 exporting=0 finished=0

restore() {
	[ "$touched" -eq 1 ] || return 0
	# Each step on its own: one that fails must not skip the others, and
	# the script ends right after anyway.
	set +e
	{
		tree_git cherry-pick --abort || true
		tree_git am --abort || true
		tree_git tag -f "$BASELINE_TAG" "$old_pristine"
		if [ -n "$old_series" ]; then
			tree_git update-ref "refs/heads/$SERIES_BRANCH" "$old_series"
		else
			tree_git update-ref -d "refs/heads/$SERIES_BRANCH" || true
		fi
		case $old_head in
		refs/heads/*) tree_git checkout -q -f "${old_head#refs/heads/}" ;;
		*) tree_git checkout -q -f --detach "$old_head" ;;
		esac
		for f in chopblock-debian-version chopblock-tarball.sha256; do
			if [ -f "$work/$f" ]; then cp "$work/$f" "$gitdir/$f"; else rm -f "$gitdir/$f"; fi
		done
		if [ "$exporting" -eq 1 ]; then
			find "$PATCH_DIR" -name '*.patch' -delete
			cp -a "$work/patches/." "$PATCH_DIR/"
		fi
	} >>"$log" 2>&1
	touched=0
}

# On any way out that is not success (an unforeseen error included) the
# tree and patches/ go back to how they were.
on_exit() {
	[ "$finished" -eq 1 ] || restore
	rm -rf "$work"
}
trap on_exit EXIT

# undo_and_die MESSAGE: put everything back first, so that the error is
# the last line on screen.
undo_and_die() {
	restore
	die "$*"
}

installed=$(dpkg-query -W -f='${Version}' "$SOURCE_PKG" 2>/dev/null || true)
tree_version=$(cat "$gitdir/chopblock-debian-version" 2>/dev/null || echo unknown)

# tarball_for VERSION [FILE]: the path of VERSION's tarball: FILE, the
# installed one when it is VERSION, else one downloaded with apt.
tarball_for() {
	local v=$1 file=${2:-} d known
	if [ -n "$file" ]; then
		[ -f "$file" ] && [ -r "$file" ] || die "tarball $file is missing or not readable"
		echo "$file"
		return
	fi
	if [ "$installed" = "$v" ] && [ -r "$TARBALL" ]; then
		echo "$TARBALL"
		return
	fi
	# Ask first: apt-get download of an unknown version says far more.
	known=$(apt-cache madison "$SOURCE_PKG" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); printf "%s%s", sep, $2; sep = " " }')
	[[ " $known " == *" $v "* ]] ||
		die "apt knows no $SOURCE_PKG $v (apt-cache madison $SOURCE_PKG lists: ${known:-nothing})"
	d=$work/deb-$v
	mkdir -p "$d"
	info "rebase: downloading $SOURCE_PKG $v"
	if ! (cd "$d" && apt-get download "$SOURCE_PKG=$v") >>"$log" 2>&1; then
		tail_log "$log" 5
		die "apt-get download $SOURCE_PKG=$v failed"
	fi
	dpkg-deb -x "$d"/*.deb "$d/x" >>"$log" 2>&1 || die "dpkg-deb could not unpack $(ls "$d"/*.deb)"
	[ -f "$d/x/usr/src/$SOURCE_PKG.tar.xz" ] || die "the $SOURCE_PKG $v package holds no usr/src/$SOURCE_PKG.tar.xz"
	echo "$d/x/usr/src/$SOURCE_PKG.tar.xz"
}

# upstream_check DIR VERSION TARBALL: a tarball given for a version must be
# that version: its Makefile's VERSION.PATCHLEVEL.SUBLEVEL is the upstream
# part of the Debian version (no epoch, no Debian revision, no ~ suffix).
upstream_check() {
	local dir=$1 v=$2 tarball=$3 up mk
	up=${v#*:}
	up=${up%-*}
	up=${up%%[~+]*}
	mk=$(awk '$2 == "=" && $1 == "VERSION" { v = $3 } $2 == "=" && $1 == "PATCHLEVEL" { p = $3 }
		$2 == "=" && $1 == "SUBLEVEL" { s = $3 } END { print v "." p "." s }' "$dir/Makefile")
	[ "$mk" = "$up" ] || [ "$mk" = "$up.0" ] ||
		die "$tarball holds upstream $mk (its Makefile), not $up as $SOURCE_PKG $v would"
}

# snapshot TARBALL VERSION PARENT: the commit holding TARBALL's whole tree
# on top of PARENT (PARENT itself when the trees are the same), made
# beside the tree with an index of its own: the checkout is not touched.
snapshot() {
	local tarball=$1 v=$2 parent=$3 dir=$work/extract index=$work/index t
	rm -rf "$dir" "$index"
	mkdir -p "$dir"
	info "rebase: extracting $tarball ($v)"
	# run_logged writes its log afresh: a step log, appended to the whole.
	if ! run_logged "$work/step.log" "extract $v" tar -xJf "$tarball" -C "$dir" --strip-components=1; then
		tail_log "$work/step.log" 5
		die "$tarball is corrupt or truncated: tar could not extract it"
	fi
	cat "$work/step.log" >>"$log"
	[ -f "$dir/Makefile" ] && [ -d "$dir/scripts/kconfig" ] ||
		die "$tarball does not hold a kernel tree (no Makefile or scripts/kconfig)"
	upstream_check "$dir" "$v" "$tarball"
	# Debian's tree ignores everything: only a forced add sees it all.
	run_logged "$work/step.log" "commit $v" env GIT_INDEX_FILE="$index" \
		git --git-dir="$gitdir" --work-tree="$dir" -C "$dir" add -f -A ||
		{ tail_log "$work/step.log" 5; die "could not record the tree of $tarball"; }
	cat "$work/step.log" >>"$log"
	t=$(GIT_INDEX_FILE=$index git --git-dir="$gitdir" write-tree)
	rm -rf "$dir" "$index"
	commit_tree "$t" "$parent" "$v" "$(basename "$tarball")"
}

# commit_tree TREE PARENT VERSION FROM: a baseline commit of TREE.
commit_tree() {
	if [ "$1" = "$(git -C "$TREE_DIR" rev-parse "$2^{tree}")" ]; then
		echo "$2"
	else
		tree_git commit-tree "$1" -p "$2" -m "$SOURCE_PKG $3: pristine tree from $4"
	fi
}

# VERSION's tarball first: an unknown version is then the only line.
new_tar=
if [ "$tree_version" != "$to" ] || [ -n "$to_tarball" ]; then
	new_tar=$(tarball_for "$to" "$to_tarball")
fi
info "rebase: the series, made for $SOURCE_PKG $from, onto $to ($TREE_DIR holds $tree_version)"

# The version the series was made for: its patches must apply with git am
# as they are, and their blobs are what the three-way merge needs.
if [ "$tree_version" = "$from" ]; then
	base=$old_pristine
else
	base_tar=$(tarball_for "$from" "$base_tarball")
	base=$(snapshot "$base_tar" "$from" "$old_pristine")
fi
# The version to move to, after it.
if [ -z "$new_tar" ]; then
	new=$(commit_tree "$(git -C "$TREE_DIR" rev-parse "$old_pristine^{tree}")" "$base" "$to" "the tree's baseline")
	new_sum=
else
	new=$(snapshot "$new_tar" "$to" "$base")
	new_sum=$(sha256sum "$new_tar" | cut -d' ' -f1)
fi

# From here the checkout moves: restore() puts it back.
touched=1
patches=()
for p in $names; do patches+=("$p"); done
tree_git checkout -q -f --detach "$base" >>"$log" 2>&1
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	if ! tree_git am -q --keep-cr --committer-date-is-author-date "$PATCH_DIR/$p" >>"$log" 2>&1; then
		tail_log "$log" 10
		undo_and_die "patch $p (#$n) does not apply to $SOURCE_PKG $from, the version $base_file names; nothing changed"
	fi
done
mapfile -t old < <(git -C "$TREE_DIR" rev-list --reverse "$base..HEAD")

tree_git checkout -q -f --detach "$new" >>"$log" 2>&1
report=() conflicts=()
unchanged=0 moved=0 changed=0
# The diff of a commit without its blob names, which change whenever
# anything else in the file did.
diff_of() { git -C "$TREE_DIR" diff-tree -p --no-commit-id "$1" | grep -v '^index '; }
patch_id() { git -C "$TREE_DIR" diff-tree -p "$1" | git patch-id --stable | cut -d' ' -f1; }
for i in "${!old[@]}"; do
	c=${old[$i]} p=${patches[$i]}
	echo "cherry-pick $p" >>"$log"
	rc=0
	tree_git cherry-pick --allow-empty-message "$c" >"$work/pick.log" 2>&1 || rc=$?
	cat "$work/pick.log" >>"$log"
	if [ "$rc" -ne 0 ]; then
		files=$(git -C "$TREE_DIR" diff --name-only --diff-filter=U | tr '\n' ' ')
		if [ -z "$files" ] && git -C "$TREE_DIR" diff --cached --quiet; then
			undo_and_die "patch $p (#$((i + 1))) changes nothing on $SOURCE_PKG $to (already in it?): drop it from the series first; nothing changed"
		fi
		# git's own lines on the conflict, not its hints on going on. The
		# cherry-pick is aborted and the next patches are tried without
		# it, so that one run names every patch that needs work (a patch
		# that builds on this one may conflict only because it is left
		# out); then nothing is changed.
		grep -E '^(CONFLICT|error)' "$work/pick.log" >&2 || true
		tree_git cherry-pick --abort >>"$log" 2>&1 ||
			undo_and_die "could not abort the cherry-pick of $p; nothing changed"
		conflicts+=("$p (#$((i + 1))) in ${files% }")
		report+=("$(printf '%-10s %s (%s)' conflicts "$p" "${files% }")")
		continue
	fi
	if [ "$(diff_of "$c")" = "$(diff_of HEAD)" ]; then
		state=unchanged unchanged=$((unchanged + 1))
	elif [ "$(patch_id "$c")" = "$(patch_id HEAD)" ]; then
		state=moved moved=$((moved + 1))
	else
		state=changed changed=$((changed + 1))
	fi
	report+=("$(printf '%-10s %s' "$state" "$p")")
done
if [ "${#conflicts[@]}" -eq 1 ]; then
	undo_and_die "patch ${conflicts[0]/ in / conflicts with $SOURCE_PKG $to in }; nothing changed (patches/, $BASELINE_TAG and the checkout as before)"
elif [ "${#conflicts[@]}" -gt 1 ]; then
	printf '%s\n' "${report[@]}" >&2
	undo_and_die "${#conflicts[@]} patches conflict with $SOURCE_PKG $to: $(printf '%s, ' "${conflicts[@]}" | sed 's/, $//'); nothing changed (patches/, $BASELINE_TAG and the checkout as before)"
fi

# Export from the new baseline. export.sh knows only the default tree and
# patches/ (lib.sh's paths follow its own location), so it runs from a
# scratch root of symbolic links to the harness, this tree and patches/.
exporting=1
cp -a "$PATCH_DIR" "$work/patches"
tree_git tag -f "$BASELINE_TAG" "$new" >>"$log" 2>&1
tree_git checkout -q -B "$SERIES_BRANCH" >>"$log" 2>&1
shadow=$work/root
mkdir -p "$shadow/harness" "$shadow/build"
ln -s "$here/lib.sh" "$here/export.sh" "$shadow/harness/"
ln -s "$TREE_DIR" "$shadow/build/tree"
ln -s "$PATCH_DIR" "$shadow/patches"
if ! "$shadow/harness/export.sh" --topics "$PATCH_DIR/topics" "$SERIES_BRANCH" >>"$log" 2>&1; then
	tail_log "$log" 5
	undo_and_die "export.sh could not write the moved series; nothing changed"
fi

awk -v pkg="$SOURCE_PKG" -v v="$to" '
	/^[[:space:]]*(#|$)/ { print; next }
	!done { print pkg, v; done = 1 }
	END { if (!done) print pkg, v }' "$work/patches/base-version" >"$work/base-version"
cp "$work/base-version" "$base_file"
echo "$to" >"$gitdir/chopblock-debian-version"
# The tarball's checksum makes tree.sh keep this baseline while the same
# tarball is the installed one.
[ -z "$new_sum" ] || echo "$new_sum" >"$gitdir/chopblock-tarball.sha256"
finished=1

printf '%s\n' "${report[@]}" >"$logs/rebase-report.txt"
printf '%s\n' "${report[@]}"
info "rebase: ${#patches[@]} patches moved from $SOURCE_PKG $from to $to: $unchanged unchanged, $moved moved, $changed changed (report: $logs/rebase-report.txt)"
