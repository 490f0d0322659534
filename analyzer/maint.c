// SPDX-License-Identifier: GPL-2.0
/*
 * MAINTAINERS: entries and F: patterns, matched like get_maintainer.pl
 * does (a pattern matches a prefix of the path, '*' and '?' are globs,
 * and without a trailing '/' the number of path components must agree).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chopblock.h"

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	b = xmalloc(st.st_size + 1);
	while (got < (size_t)st.st_size &&
	       (n = read(fd, b + got, st.st_size - got)) > 0)
		got += n;
	close(fd);
	b[got] = 0;
	*len = got;
	return b;
}

void maint_load(const struct tree *t, struct mentries *out)
{
	char path[4096];
	size_t len;
	char *b, *l, *nl;
	int line = 0, prev_blank = 1;
	struct mentry *cur = NULL;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/MAINTAINERS", t->root);
	b = slurp(path, &len);
	if (!b)
		return;
	for (l = b; l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		line++;
		if (!*l) {
			prev_blank = 1;
			continue;
		}
		if (l[0] >= 'A' && l[0] <= 'Z' && l[1] == ':' &&
		    (l[2] == '\t' || l[2] == ' ')) {
			if (cur && l[0] == 'F') {
				struct mpat p = { 0 };
				char *s = l + 2, *e;

				while (*s == ' ' || *s == '\t')
					s++;
				e = s + strlen(s);
				while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
					e--;
				p.pat = xstrndup(s, e - s);
				p.line = line;
				vpush(cur->pats, p);
			}
		} else if (prev_blank) {
			struct mentry e = { 0 };

			e.title = xstrdup(l);
			e.line = line;
			vpush(*out, e);
			cur = &out->v[out->n - 1];
		}
		prev_blank = 0;
	}
	free(b);
}

/* [abc] at @p: does it hold @c?  Sets *end past the class. */
static int char_class(const char *p, char c, const char **end)
{
	const char *e = strchr(p + 1, ']');
	int neg = p[1] == '!' || p[1] == '^', hit = 0;
	const char *q;

	if (!e) {
		*end = p + 1;
		return c == '[';
	}
	for (q = p + 1 + neg; q < e; q++) {
		if (q + 2 < e && q[1] == '-') {
			hit |= c >= q[0] && c <= q[2];
			q += 2;
		} else {
			hit |= c == *q;
		}
	}
	*end = e + 1;
	return hit != neg;
}

/* prefix-anchored glob: '*' matches anything (also '/'), '?' one char */
static int glob_prefix(const char *p, const char *s)
{
	while (*p) {
		if (*p == '*') {
			/* a literal next: only where it occurs can the rest match */
			char c = p[1];
			int jump = c && c != '*' && c != '?' && c != '[';

			for (;; s++) {
				if (jump && !(s = strchr(s, c)))
					return 0;
				if (glob_prefix(p + 1, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (!*s)
			return 0;
		if (*p == '[') {
			if (!char_class(p, *s, &p))
				return 0;
			s++;
			continue;
		}
		if (*p != '?' && *p != *s)
			return 0;
		p++;
		s++;
	}
	return 1;
}

static int slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/*
 * Call @cb for every file matching @pat; stop and return early if @cb
 * returns non-zero.  Returns the number of matching files visited.
 */
int maint_match(const struct tree *t, const char *pat,
		int (*cb)(int idx, void *), void *arg)
{
	char buf[4096];
	size_t plen, lit;
	int lo = 0, hi = t->nfiles, n = 0, dir, ps;

	plen = strlen(pat);
	if (!plen || plen + 2 >= sizeof(buf))
		return 0;
	memcpy(buf, pat, plen + 1);
	lit = strcspn(buf, "*?[");
	if (lit == plen && buf[plen - 1] != '/') {
		buf[plen] = '/';
		buf[plen + 1] = 0;
		if (tree_has_dir(t, buf))
			lit = ++plen;
		else
			buf[plen] = 0;
	}
	dir = buf[plen - 1] == '/';
	ps = slashes(buf);
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (strncmp(t->files[mid].path, buf, lit) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nfiles && !strncmp(t->files[lo].path, buf, lit); lo++) {
		const char *p = t->files[lo].path;

		/* without wildcards, the prefix compared above is the match */
		if (lit < plen && !glob_prefix(buf, p))
			continue;
		if (!dir && slashes(p) != ps) {
			/* the pattern may name the directory the file is in */
			char q[4096];
			const char *sl = p;
			int k;

			for (k = 0; k <= ps && sl; k++)
				sl = strchr(sl + (k ? 1 : 0), '/');
			if (!sl || (size_t)(sl - p) >= sizeof(q))
				continue;
			memcpy(q, p, sl - p);
			q[sl - p] = 0;
			if (!glob_prefix(buf, q))
				continue;
		}
		n++;
		if (cb && cb(lo, arg))
			break;
	}
	return n;
}
