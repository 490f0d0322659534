#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: harness/post.sh [--out DIR] [--no-check] [TOPIC...]
#
# Make each topic of patches/topics (default: all) a posting of its own,
# the way it would be mailed: git format-patch --cover-letter of the
# topic's commits of the series branch into DIR/TOPIC/, with
#
#  - the cover letter from patches/covers/TOPIC.txt (its first line the
#    subject, the rest the text above git's shortlog and diffstat);
#  - To: and Cc: on every patch from the tree's scripts/get_maintainer.pl,
#    with the MAINTAINERS of the tree the patch applies to (maintainers, supporters and
#    reviewers are To:, lists Cc:); the cover letter goes to all of them;
#  - [PATCH net-next n/m] on a patch that touches only drivers/net/, net/ and
#    include/net/, as netdev's patchwork expects;
#  - base-commit: the pristine tree, and a prerequisite-patch-id: line for
#    each commit of the topics patches/prerequisites says it applies on
#    top of. The mails must apply, in order, to the pristine tree with
#    just those topics before them (git apply on a scratch index).
#
# Then, unless --no-check, the posting must pass what a maintainer's
# tools would do with it: `git send-email --dry-run` (every mail valid,
# every address taken), and `b4 am` on it as a local mailbox (the series
# complete, the cover letter found, every patch applicable in order).
# Prints one line a topic; exits 1 when one fails, naming it.
#
#   --out DIR    where the postings go (default build/post)
#   --no-check   only write the postings
#   --help       this text
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD_DIR/post check=1
want=()
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=${2:?--out needs a directory}; shift ;;
	--no-check) check=0 ;;
	--help | -h) usage_from_header; exit 0 ;;
	-*) die "post.sh: unknown option $1 (see --help)" ;;
	*) want+=("$1") ;;
	esac
	shift
done
topics=$PATCH_DIR/topics
[ -f "$topics" ] || die "topic table $topics is missing"
prereqs=$PATCH_DIR/prerequisites
[ -f "$prereqs" ] || die "prerequisite table $prereqs is missing"
git -C "$TREE_DIR" rev-parse -q --verify "$SERIES_BRANCH^{commit}" >/dev/null ||
	die "no branch $SERIES_BRANCH in $TREE_DIR (run harness/apply.sh)"
if [ "$check" -eq 1 ]; then
	command -v b4 >/dev/null || die "b4 is missing (install b4)"
	[ -x "$(git --exec-path)/git-send-email" ] || die "git send-email is missing (install git-email)"
fi

mapfile -t commits < <(git -C "$TREE_DIR" rev-list --reverse "$BASELINE_TAG..$SERIES_BRANCH")
wt=$BUILD_DIR/post-tree
mkdir -p "$out"
if [ ! -d "$wt" ]; then
	git -C "$TREE_DIR" worktree prune
	git -C "$TREE_DIR" worktree add -q --detach "$wt" "$BASELINE_TAG" ||
		die "cannot add the worktree $wt"
fi

# What get_maintainer.pl says of every commit of the series, on the
# MAINTAINERS of the tree the commit applies to: rcpt/N.txt for the N-th
# commit (from 0). It reads the paths from the patch itself, so it runs
# once a commit, on every core, before the topics are put together.
rcpt=$out/.recipients
rm -rf "$rcpt"
mkdir -p "$rcpt"
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	m=$rcpt/MAINTAINERS.$(git -C "$TREE_DIR" rev-parse "$c~1:MAINTAINERS")
	[ -f "$m" ] || git -C "$TREE_DIR" show "$c~1:MAINTAINERS" >"$m"
	git -C "$TREE_DIR" format-patch -1 --stdout "$c" >"$rcpt/$i.patch"
	printf '%s\0%s\0' "$i" "$m"
done | (cd "$wt" && xargs -0 -n 2 -P "$(nproc)" sh -c \
	'perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-keywords --no-tree \
		--mpath "$2" "$0/$1.patch" >"$0/$1.txt" 2>/dev/null' "$rcpt") ||
	die "get_maintainer.pl failed"

# The addresses get_maintainer.pl gave for the N-th commit: "to ADDRESS"
# and "cc ADDRESS" lines.
recipients() {
	awk '{ kind = ($0 ~ /\((maintainer|supporter|reviewer|odd fixer)/) ? "to" : "cc"
	       sub(/ \(.*$/, ""); if ($0 != "") print kind, $0 }' "$rcpt/$1.txt"
}

# Header lines "To: a, b" and "Cc: c, d" from "to/cc ADDRESS" lines; an
# address that is To: is not Cc: as well.
header() {
	awk '$1 == "to" { sub(/^to /, ""); if (!(($0) in to)) { to[$0] = 1; t = t (t ? ", " : "") $0 } }
	     $1 == "cc" { sub(/^cc /, ""); cc[$0] = 1; order[++n] = $0 }
	     END { if (t) print "To: " t
		   for (i = 1; i <= n; i++) if (!(order[i] in to) && !(order[i] in seen)) {
			seen[order[i]] = 1; c = c (c ? ", " : "") order[i] }
		   if (c) print "Cc: " c }' "$1"
}

# Insert header lines (file $2) at the end of the headers of mail $1,
# and unfold them all: b4 0.12 on Python 3.11 refuses a folded header
# (a line is allowed 998 characters).
add_header() {
	awk -v h="$2" 'done == 0 && /^[ \t]/ { sub(/^[ \t]+/, " "); held = held $0; next }
		done == 0 && held != "" { print held; held = "" }
		done == 0 && /^$/ { while ((getline l < h) > 0) print l; done = 1; print; next }
		done == 0 { held = $0; next }
		{ print }' "$1" >"$1.new"
	mv "$1.new" "$1"
}

# The topics that topic $1 applies on top of (patches/prerequisites).
prerequisites() {
	awk -v t="$1" '!/^[[:space:]]*(#|$)/ && $1 == t { $1 = ""; print }' "$prereqs"
}
# first_last TOPIC: the indexes of TOPIC's first and last commits.
first_last() {
	awk -v t="$1" '!/^[[:space:]]*(#|$)/ { if ($1 == t) { print i + 0, i + $2 - 1; f = 1; exit } i += $2 }
		END { if (!f) exit 1 }' "$topics"
}
# applies_alone DIR TOPIC: the mails of DIR apply, in order, to the pristine
# tree with only the commits of TOPIC's prerequisites before them (a
# scratch index: the checkout is not touched).
applies_alone() {
	local idx=$BUILD_DIR/post-index.$2 t a b p
	rm -f "$idx"
	GIT_INDEX_FILE=$idx git -C "$TREE_DIR" read-tree "$BASELINE_TAG"
	for t in $(prerequisites "$2"); do
		read -r a b < <(first_last "$t") || { echo "prerequisite $t of $2 is not a topic"; return 1; }
		git -C "$TREE_DIR" diff --binary "${commits[$a]}~1" "${commits[$b]}" |
			GIT_INDEX_FILE=$idx git -C "$TREE_DIR" apply --cached 2>&1 ||
			{ echo "prerequisite $t does not apply"; return 1; }
	done
	for p in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		GIT_INDEX_FILE=$idx git -C "$TREE_DIR" apply --cached "$p" 2>&1 ||
			{ echo "$(basename "$p") does not apply"; return 1; }
	done
	rm -f "$idx"
}

idx=0 failed=0
# fd 3: get_maintainer.pl, send-email and b4 must not eat the table.
while read -r dir count title <&3; do
	case $dir in "" | \#*) continue ;; esac
	first=$idx
	idx=$((idx + count))
	if [ "${#want[@]}" -gt 0 ] && ! grep -qx "$dir" <<<"$(printf '%s\n' "${want[@]}")"; then continue; fi
	[ "$idx" -le "${#commits[@]}" ] || die "$topics: the topics hold more commits than $SERIES_BRANCH (${#commits[@]})"
	cover=$PATCH_DIR/covers/$dir.txt
	[ -s "$cover" ] || die "topic $dir has no cover letter ($cover)"
	base=${commits[$first]}~1 tip=${commits[$((idx - 1))]}
	d=$out/$dir
	# Only this topic's folder is made anew: --out may name a folder
	# that holds other things.
	rm -rf "$d"
	git -C "$TREE_DIR" format-patch -q --cover-letter --thread=shallow --no-signature \
		-o "$d" "$base..$tip" || die "format-patch failed for topic $dir"
	# What it applies to, as --base would say it, but naming only the
	# topics it needs: --base names every commit before the topic.
	{
		echo
		echo "base-commit: $(git -C "$TREE_DIR" rev-parse "$BASELINE_TAG")"
		for t in $(prerequisites "$dir"); do
			read -r a b < <(first_last "$t") || die "$prereqs: $t is not a topic"
			for ((k = a; k <= b; k++)); do
				git -C "$TREE_DIR" show "${commits[$k]}" | git patch-id --stable | sed 's/ .*//; s/^/prerequisite-patch-id: /'
			done
		done
	} >>"$d/0000-cover-letter.patch"
	: >"$d/all.rcpt"
	n=0
	for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		c=${commits[$((first + n))]}
		recipients $((first + n)) >"$p.rcpt"
		n=$((n + 1))
		[ -s "$p.rcpt" ] || die "get_maintainer.pl gave no address for $p"
		cat "$p.rcpt" >>"$d/all.rcpt"
		header "$p.rcpt" >"$p.hdr"
		add_header "$p" "$p.hdr"
		# Into a file, not a pipe: under pipefail grep -q leaving early
		# on a long list kills diff-tree, and the pipeline reads as
		# "networking only".
		git -C "$TREE_DIR" diff-tree --no-commit-id --name-only -r "$c" >"$p.files"
		if [ -s "$p.files" ] && ! grep -qvE '^(drivers/net|net|include/net)/' "$p.files"; then
			sed -i '0,/^Subject: \[PATCH /s//Subject: [PATCH net-next /' "$p"
		fi
		rm -f "$p.rcpt" "$p.hdr" "$p.files"
	done
	# The cover letter: the subject and text of patches/covers/DIR.txt.
	c0=$d/0000-cover-letter.patch
	header "$d/all.rcpt" >"$d/all.hdr"
	add_header "$c0" "$d/all.hdr"
	subject=$(head -n 1 "$cover")
	tail -n +3 "$cover" >"$d/blurb"
	awk -v s="$subject" -v b="$d/blurb" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, s) }
		/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < b) > 0) print l; next }
		{ print }' "$c0" >"$c0.new"
	mv "$c0.new" "$c0"
	rm -f "$d/all.rcpt" "$d/all.hdr" "$d/blurb"
	mails=$(ls "$d"/*.patch | wc -l)
	if [ "$check" -eq 1 ] && ! why=$(applies_alone "$d" "$dir"); then
		rm -f "$BUILD_DIR/post-index.$dir"
		echo "not ok post $dir: the posting does not apply to $BASELINE_TAG: $(echo "$why" | tail -n 1)" >&2
		failed=$((failed + 1))
		continue
	fi
	if [ "$check" -eq 0 ]; then
		info "post: $dir: $mails mails in $d"
		continue
	fi
	# git send-email: every mail parses and validates; nothing is sent.
	log=$d/send-email.log
	if ! git -C "$TREE_DIR" send-email --dry-run --confirm=never --suppress-cc=all \
		--from="$(git -C "$TREE_DIR" log -1 --format='%an <%ae>' "$tip")" \
		--smtp-server=/bin/false "$d"/*.patch >"$log" 2>&1; then
		tail_log "$log" 5
		echo "not ok post $dir: git send-email --dry-run refused it (log: $log)" >&2
		failed=$((failed + 1))
		continue
	fi
	sent=$(grep -c '^Dry-OK\|^Dry-Sent' "$log" || true)
	# b4: the posting as one mailbox, taken as a maintainer would take it.
	cat "$d"/*.patch >"$d/posting.mbox"
	log=$d/b4.log
	mkdir -p "$d/b4"
	if ! (cd "$wt" && b4 -q am -C -n "$dir" -o "$d/b4" -m "$d/posting.mbox") >"$log" 2>&1 ||
		! ls "$d/b4/$dir.mbx" >/dev/null 2>&1 || grep -qi 'error\|missing patch\|not found' "$log"; then
		tail_log "$log" 10
		echo "not ok post $dir: b4 am did not take it (log: $log)" >&2
		failed=$((failed + 1))
		continue
	fi
	got=$(grep -c '^From ' "$d/b4/$dir.mbx" || true)
	if [ "$got" -ne "$count" ] || [ "$sent" -ne "$mails" ]; then
		echo "not ok post $dir: $count commits, but b4 took $got patches and send-email $sent of $mails mails" >&2
		failed=$((failed + 1))
		continue
	fi
	info "post: $dir: $mails mails (cover letter + $count), send-email dry run and b4 am ok ($d)"
done 3<"$topics"
[ "$idx" -eq "${#commits[@]}" ] || die "$topics: the topics hold $idx commits, $SERIES_BRANCH has ${#commits[@]}"
rm -rf "$rcpt"
[ "$failed" -eq 0 ] || die "$failed posting(s) failed (see above)"
