#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/tree.sh [--tarball FILE] [--tree DIR] [--min-free MB] [--base-version FILE]
#
# Make build/tree (or DIR) a git repository holding Debian's linux-source-6.12 as one
# pristine baseline commit (tag "pristine"). The tarball is extracted only
# when it changed since the last run: its checksum is kept in the tree's
# .git directory. Extraction happens beside the final directory and is moved
# into place only once complete, so that an interrupted or failed run never
# leaves a half-extracted tree behind.
#
# When the installed package is another version than the one the series
# was made for (patches/base-version, or FILE), it says so in one line and
# goes on: the series may still apply, and apply.sh names a patch that
# does not. harness/rebase.sh moves the series.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

MIN_FREE_MB=8000
base_file=$PATCH_DIR/base-version
while [ $# -gt 0 ]; do
	case $1 in
	--tarball)
		TARBALL=${2:?--tarball needs a file}
		# Debian's linux-source-X.Y ships linux-source-X.Y.tar.xz.
		SOURCE_PKG=$(basename "$TARBALL" .tar.xz)
		shift ;;
	--tree) TREE_DIR=${2:?--tree needs a directory}; shift ;;
	--min-free) MIN_FREE_MB=${2:?--min-free needs megabytes}; shift ;;
	--base-version) base_file=${2:?--base-version needs a file}; shift ;;
	--help | -h) usage_from_header; exit 0 ;;
	*) die "tree.sh: unknown argument $1 (see --help)" ;;
	esac
	shift
done

[ -e "$TARBALL" ] || die "kernel tarball $TARBALL is missing (install the $SOURCE_PKG package)"
[ -r "$TARBALL" ] || die "kernel tarball $TARBALL is not readable"

version=$(dpkg-query -W -f='${Version}' "$SOURCE_PKG" 2>/dev/null || echo unknown)
# Only a known version of the same package can be compared: a test's
# tarball of another name is no package at all.
if [ -n "$version" ] && [ "$version" != unknown ] && [ -f "$base_file" ]; then
	read -r base_pkg base_version _ < <(grep -v '^[[:space:]]*\(#\|$\)' "$base_file" | head -n 1) || true
	if [ "${base_pkg:-}" = "$SOURCE_PKG" ] && [ -n "${base_version:-}" ] && [ "$base_version" != "$version" ]; then
		info "warning: the series was made for $SOURCE_PKG $base_version, not the installed $version: if it does not apply, run make rebase TO=$version"
	fi
fi

# make check runs some tests side by side, and several of them ask for the
# same tree: one extracts it, the others wait here and find it ready.
mkdir -p "$(dirname "$TREE_DIR")"
exec 8>"$TREE_DIR.lock"
flock 8
sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
stamp=$TREE_DIR/.git/chopblock-tarball.sha256
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] &&
   git -C "$TREE_DIR" rev-parse -q --verify "refs/tags/$BASELINE_TAG" >/dev/null; then
	info "tree: $TREE_DIR is up to date with $TARBALL"
	exit 0
fi

mkdir -p "$(dirname "$TREE_DIR")"
free_mb=$(df -Pm "$(dirname "$TREE_DIR")" | awk 'NR == 2 { print $4 }')
[ "$free_mb" -ge "$MIN_FREE_MB" ] ||
	die "not enough disk space in $(dirname "$TREE_DIR"): ${free_mb} MB free, ${MIN_FREE_MB} MB needed"

tmp=$TREE_DIR.new
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

info "tree: extracting $TARBALL"
# The logs go beside the tree, so that a test's scratch tree keeps them.
logs=$(dirname "$TREE_DIR")/logs
mkdir -p "$logs"
log=$logs/extract.log
if ! run_logged "$log" extract tar -xJf "$TARBALL" -C "$tmp" --strip-components=1; then
	tail_log "$log" 5
	die "$TARBALL is corrupt or truncated: tar could not extract it"
fi
[ -f "$tmp/Makefile" ] && [ -d "$tmp/scripts/kconfig" ] ||
	die "$TARBALL does not hold a kernel tree (no Makefile or scripts/kconfig)"

info "tree: recording the pristine baseline commit"
(
	cd "$tmp"
	git init -q -b "$SERIES_BRANCH"
	# Debian's tree ignores everything at the top level: force the add, and
	# keep git from ever seeing line-ending or mode surprises.
	git config core.autocrlf false
	git config gc.auto 0
	git add -f -A
	TREE_DIR=$tmp tree_git commit -q --no-verify \
		-m "$SOURCE_PKG $version: pristine tree from $(basename "$TARBALL")"
	git tag "$BASELINE_TAG"
) >"$logs/baseline.log" 2>&1 || { tail_log "$logs/baseline.log"; die "could not record the baseline commit"; }
echo "$version" >"$tmp/.git/chopblock-debian-version"
echo "$sum" >"$tmp/.git/chopblock-tarball.sha256"

rm -rf "$TREE_DIR"
mv "$tmp" "$TREE_DIR"
trap - EXIT
info "tree: $TREE_DIR ready at tag $BASELINE_TAG ($SOURCE_PKG $version)"
