#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/seed-point.sh SEED COMMIT TREE KBUILD
#
# Start the first build of a tree point of the series (a kernel row with
# tree after:PATH) from a finished build of the whole series, so that
# kbuild's own dependency tracking compiles only what differs: the files
# the later patches change, and the objects that read a config symbol the
# point's configuration sets otherwise.
#
#   SEED    the directory of a kernel built from the series' tip
#           (build/kernels/NAME, with its manifest)
#   COMMIT  the point's commit of the series branch
#   TREE    the point's worktree, made here: a copy of the seed's tree
#           with the times of its files kept, then the files that differ
#           at COMMIT checked out (so only those are newer than the seed's
#           objects)
#   KBUILD  the point's build directory, made here: a copy of the seed's,
#           with the seed's tree and build paths in its text files (the
#           .cmd files' commands and dependencies, the generated Makefile)
#           changed to TREE and KBUILD, their times kept
#
# ccache alone cannot do this: every object includes autoconf.h, which
# differs between the two configurations, so each of its lookups would
# preprocess the file again (some 5 minutes for main's objects on 2 cores).
# Whatever exists at TREE or KBUILD is replaced.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in --help | -h) usage_from_header; exit 0 ;; esac
[ $# -eq 4 ] || die "seed-point.sh: want SEED COMMIT TREE KBUILD (see --help)"
seed=$1 commit=$2 tree=$3 kbuild=$4
[ "$(manifest "$seed" result)" = ok ] || die "seed-point.sh: $seed is not a finished build"
seed_tree=$(manifest "$seed" tree)
seed_kbuild=$(manifest "$seed" kbuild)
seed_commit=$(manifest "$seed" commit)
[[ $seed_commit =~ ^[0-9a-f]{40}$ ]] ||
	die "seed-point.sh: $seed was built from a tree with uncommitted changes"
[ "$(git -C "$seed_tree" rev-parse HEAD)" = "$seed_commit" ] &&
	[ -z "$(git -C "$seed_tree" status --porcelain --untracked-files=no | head -c 1)" ] ||
	die "seed-point.sh: $seed_tree is no longer at the commit $seed was built from"
[ -f "$seed_kbuild/.config" ] || die "seed-point.sh: no build in $seed_kbuild"

# 1. The worktree: the seed's files, times kept; then what differs at COMMIT.
if [ -e "$tree" ]; then
	git -C "$seed_tree" worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
fi
git -C "$seed_tree" worktree prune
git -C "$seed_tree" worktree add -q --no-checkout --detach "$tree" "$commit" ||
	die "seed-point.sh: could not add the worktree $tree"
(cd "$seed_tree" && git ls-files -z | tar --null -T - -cf -) | tar -C "$tree" -xpf - ||
	die "seed-point.sh: could not copy $seed_tree to $tree"
changed=$(git -C "$tree" diff --name-only --no-renames "$seed_commit" "$commit" | wc -l)
# Files the later patches added go; the others are taken from COMMIT.
git -C "$tree" diff --name-only -z --no-renames --diff-filter=A "$commit" "$seed_commit" |
	(cd "$tree" && xargs -0 -r rm -f --)
take=$(dirname "$tree")/seed-take
git -C "$tree" diff --name-only -z --no-renames --diff-filter=d "$seed_commit" "$commit" >"$take"
if [ -s "$take" ]; then
	git -C "$tree" checkout -q "$commit" --pathspec-from-file="$take" --pathspec-file-nul ||
		die "seed-point.sh: could not check out the files of $commit in $tree"
fi
rm -f "$take"
git -C "$tree" reset -q
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no | head -c 1)" ] ||
	die "seed-point.sh: $tree does not match $commit after the copy"

# 2. The build directory, with its paths moved.
rm -rf "$kbuild"
mkdir -p "$(dirname "$kbuild")"
cp -a "$seed_kbuild" "$kbuild"
grep -rlIZF -e "$seed_tree" -e "$seed_kbuild" "$kbuild" |
	FROM_TREE=$seed_tree TO_TREE=$tree FROM_KBUILD=$seed_kbuild TO_KBUILD=$kbuild \
	perl -0 -ne '
		chomp; my $f = $_; my @st = stat($f) or die "$f: $!\n";
		open(my $in, "<", $f) or die "$f: $!\n"; local $/; my $s = <$in>; close($in);
		$s =~ s/\Q$ENV{FROM_KBUILD}\E/$ENV{TO_KBUILD}/g;
		$s =~ s/\Q$ENV{FROM_TREE}\E/$ENV{TO_TREE}/g;
		open(my $out, ">", $f) or die "$f: $!\n"; print $out $s; close($out) or die "$f: $!\n";
		utime($st[8], $st[9], $f) or die "$f: $!\n";' ||
	die "seed-point.sh: could not move the paths of $kbuild"
find "$kbuild" -type l | while read -r l; do
	t=$(readlink "$l")
	case $t in
	"$seed_tree" | "$seed_tree"/*) ln -sfn "$tree${t#"$seed_tree"}" "$l" ;;
	"$seed_kbuild" | "$seed_kbuild"/*) ln -sfn "$kbuild${t#"$seed_kbuild"}" "$l" ;;
	esac
done
info "seed-point: $kbuild from $seed_kbuild, $tree from $seed_tree with the $changed file(s) that differ at ${commit:0:12}"
