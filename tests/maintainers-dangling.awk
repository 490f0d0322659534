# SPDX-License-Identifier: GPL-2.0
# Input: the tree's file list, a line "--MAINTAINERS--", then MAINTAINERS.
# Output: every F: pattern that matches no file, matched the way
# get_maintainer.pl's file_match_pattern() does: a directory matches
# everything below it; in a glob, * is any string (crossing /) and ? any
# character, anchored at the start; a glob not ending in / must also have
# as many / as the file. A glob is tried only on the files below its
# literal directory prefix, which keeps the whole tree to a few seconds.
BEGIN { files = 1 }
$0 == "--MAINTAINERS--" { files = 0; next }
files {
	file[$0] = 1
	# Index every directory prefix, and the files directly under each.
	p = $0
	while ((i = match(p, /\/[^\/]*$/)) > 0) {
		p = substr(p, 1, i - 1)
		if (p in dir)
			break
		dir[p] = 1
	}
	d = $0; sub(/\/[^\/]*$/, "", d); if (d == $0) d = ""
	under[d] = under[d] SUBSEP $0
	next
}
/^F:[ \t]/ {
	pat = $0
	sub(/^F:[ \t]+/, "", pat); sub(/[ \t]+$/, "", pat)
	if (pat !~ /[*?\[]/) {
		q = pat; sub(/\/$/, "", q)
		if (!(q in file) && !(q in dir))
			print pat
		next
	}
	# Glob: turn it into an anchored regex; a pattern ending in / also
	# matches everything below the directories it names.
	re = pat
	gsub(/\./, "\\.", re); gsub(/\+/, "\\+", re)
	gsub(/\*/, ".*", re); gsub(/\?/, ".", re)
	re = "^" re
	slashes = (pat ~ /\/$/) ? -1 : gsub(/\//, "/", pat)
	base = pat; sub(/[*?\[].*$/, "", base); sub(/\/[^\/]*$/, "", base)
	found = 0
	for (d in under) {
		if (base != "" && d != base && index(d, base "/") != 1)
			continue
		n = split(substr(under[d], 2), list, SUBSEP)
		for (k = 1; k <= n; k++) {
			f = list[k]
			if (f ~ re && (slashes < 0 || gsub(/\//, "/", f) == slashes)) {
				found = 1
				break
			}
		}
		if (found) break
	}
	if (!found)
		print pat
}
