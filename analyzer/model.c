// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-file facts: path helpers, #include resolution and the Makefile
 * object graph.
 */
#include <stdlib.h>
#include <string.h>

#include "chopblock.h"

/* Join @dir (ends with '/' or is empty) and @rel, resolving "." and "..". */
char *path_norm(const char *dir, const char *rel)
{
	size_t n = strlen(dir) + strlen(rel) + 1;
	char *in = xmalloc(n + 1), *out = xmalloc(n + 1), *s, *tok;
	size_t o = 0;

	snprintf(in, n + 1, "%s%s", dir, rel);
	for (s = in; (tok = strsep(&s, "/")); ) {
		if (!*tok || !strcmp(tok, ".")) {
			if (!s && o)	/* keep a trailing '/' */
				out[o++] = '/';
			continue;
		}
		if (!strcmp(tok, "..")) {
			if (o && out[o - 1] == '/')
				o--;
			while (o && out[o - 1] != '/')
				o--;
			continue;
		}
		if (o && out[o - 1] != '/')
			out[o++] = '/';
		memcpy(out + o, tok, strlen(tok));
		o += strlen(tok);
	}
	out[o] = 0;
	/* collapse a doubled trailing slash */
	if (o > 1 && out[o - 1] == '/' && out[o - 2] == '/')
		out[o - 1] = 0;
	free(in);
	return out;
}

char *dir_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? xstrndup(path, s - path + 1) : xstrdup("");
}

/* In arch/X/ (arch_len covers "arch/X/"), never resolve into arch/Y/. */
static int other_arch(const char *path, const char *from, size_t arch_len)
{
	return arch_len && !strncmp(path, "arch/", 5) &&
	       strncmp(path, from, arch_len);
}

static int add_suffix(const struct tree *t, const char *name, int *out, int n,
		      int max, const char *from, size_t arch_len)
{
	const char *base = strrchr(name, '/');
	size_t nl = strlen(name);
	int i;

	base = base ? base + 1 : name;
	i = smap_get(&t->basemap, base, strlen(base));
	if (i < 0)
		return n;
	for (; i < t->nfiles && n < max; i++) {
		const struct file *f = &t->files[t->byname[i]];

		if (strcmp(f->path + f->base, base))
			break;
		if ((size_t)f->plen < nl)
			continue;
		if (!strcmp(f->path + f->plen - nl, name) &&
		    ((size_t)f->plen == nl || f->path[f->plen - nl - 1] == '/') &&
		    !other_arch(f->path, from, arch_len))
			out[n++] = t->byname[i];
	}
	return n;
}

/*
 * Resolve an #include to the files it may name.  Quoted includes relative
 * to the including file win; otherwise every file whose path ends with the
 * included name may be meant (generous on purpose: more includers means
 * fewer headers called dead).
 */
int resolve_include(const struct tree *t, int from, const struct inc *in,
		    int *out, int max)
{
	const char *name = in->name;
	const char *fp = t->files[from].path;
	size_t arch_len = 0;
	int n = 0, i;

	if (!strncmp(fp, "arch/", 5) && strchr(fp + 5, '/'))
		arch_len = strchr(fp + 5, '/') - fp + 1;

	if (!in->sys) {
		char *d = dir_of(t->files[from].path);
		char *p = path_norm(d, name);

		i = tree_find(t, p);
		free(d);
		free(p);
		if (i >= 0) {
			out[0] = i;
			return 1;
		}
	}
	while (!strncmp(name, "../", 3) || !strncmp(name, "./", 2))
		name += name[1] == '/' ? 2 : 3;
	n = add_suffix(t, name, out, n, max, fp, arch_len);
	if (!strncmp(name, "asm/", 4)) {
		char buf[512];

		snprintf(buf, sizeof(buf), "asm-generic/%s", name + 4);
		n = add_suffix(t, buf, out, n, max, fp, arch_len);
	}
	return n;
}

int is_direct_prefix(const char *pfx)
{
	static const char *const v[] = { "obj", "lib", "core", "drivers",
		"libs", "net", "virt", "init", "head", "subdir", NULL };
	int i;

	for (i = 0; v[i]; i++)
		if (!strcmp(pfx, v[i]))
			return 1;
	return 0;
}

static const struct mkmodel *sort_m;

static int cmp_ref(const void *a, const void *b)
{
	const struct mkref *ra = &sort_m->refs.v[*(const int *)a];
	const struct mkref *rb = &sort_m->refs.v[*(const int *)b];
	int r = strcmp(ra->target, rb->target);

	return r ? r : *(const int *)a - *(const int *)b;
}

void mk_build(const struct tree *t, struct mkmodel *m)
{
	int i, k;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		char *d;

		if (f->kind != FK_MAKE || !f->res)
			continue;
		d = dir_of(f->path);
		for (k = 0; k < f->res->mk.n; k++) {
			const struct mkent *e = &f->res->mk.v[k];
			struct mkref r;

			r.file = i;
			r.ent = k;
			if (!strcmp(e->tok, "$")) {
				smap_put(&m->wild, d, strlen(d), k);
				continue;
			}
			r.target = path_norm(e->rootrel ? "" : d, e->tok);
			vpush(m->refs, r);
		}
		free(d);
	}
	m->order = xmalloc(sizeof(int) * (m->refs.n + 1));
	for (i = 0; i < m->refs.n; i++)
		m->order[i] = i;
	sort_m = m;
	if (m->refs.n)
		qsort(m->order, m->refs.n, sizeof(int), cmp_ref);
	for (i = 0; i < m->refs.n; i++) {
		const char *tg = m->refs.v[m->order[i]].target;

		smap_put(&m->bytarget, tg, strlen(tg), i);
	}
}

/* Index in m->order of the first reference to @target, or -1. */
int mk_first(const struct mkmodel *m, const char *target)
{
	return smap_get(&m->bytarget, target, strlen(target));
}
