// SPDX-License-Identifier: GPL-2.0
/*
 * Documentation a removal leaves behind: files of Documentation/ and the
 * help texts of Kconfig that name removed files or directories, removed
 * Kconfig symbols (CONFIG_X) or removed functions, or that list a removed
 * architecture as supported (a row of Documentation/features, or a line
 * naming it beside two architectures that stay); the documentation
 * directory of a removed architecture itself; and the files of
 * Documentation/ABI that describe the sysfs, debugfs or procfs interface
 * of a removed driver.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chopblock.h"

struct dscan {
	struct lctx *c;
	const struct smap *syms;	/* removed Kconfig symbols */
	int file;
	struct lvec *out;		/* the findings of the chunk at hand */
};

/* the findings of one chunk of files, in file order */
struct lvec {
	struct leftover *v;
	int n, cap;
};

static int path_char(int ch)
{
	return is_ident(ch) || ch == '/' || ch == '.' || ch == '-' || ch == '*';
}

/* a removed file or directory that [s, e) names (e.g. "arch/sh/boot/") */
static int removed_path(struct lctx *c, const char *s, const char *e)
{
	const char *p;

	while (e > s && (e[-1] == '.' || e[-1] == '-' || e[-1] == '*'))
		e--;
	if (e - s >= 2 && s[0] == '.' && s[1] == '/')
		s += 2;
	if (e <= s || !memchr(s, '/', e - s))
		return 0;
	if (smap_get(&c->rm_paths, s, e - s) >= 0)
		return 1;
	for (p = s; p < e; p++)
		if (*p == '/' && smap_get(&c->rm_paths, s, p - s + 1) >= 0)
			return 1;
	return 0;
}

/*
 * word w, exactly (case included), as a word of [s, e); the candidates
 * come from memmem(), as every line of the documentation is asked
 */
static int has_word(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = s; p + n <= e && (p = memmem(p, e - p, w, n)); p++)
		if ((p == s || !is_ident(p[-1])) &&
		    (p + n == e || !is_ident(p[n])))
			return 1;
	return 0;
}

/* "|          sh: |  ok  |": a row of Documentation/features */
static int feature_row(const char *s, const char *e, const char *arch)
{
	size_t n = strlen(arch);
	const char *p;

	for (p = s; p + n < e && (p = memmem(p, e - p, arch, n)); p++)
		if (p + n < e && p[n] == ':' && p > s && p[-1] == ' ' &&
		    memchr(s, '|', p - s))
			return 1;
	return 0;
}

static int lists_arch(struct lctx *c, const char *s, const char *e,
		      const char **which)
{
	int i, a, others;

	for (i = 0; i < c->rm_arches.n; i++) {
		const char *x = c->rm_arches.v[i];

		if (feature_row(s, e, x)) {
			*which = x;
			return 1;
		}
		if (!has_word(s, e, x))
			continue;
		others = 0;
		for (a = 0; a < c->left_t->arches.n; a++) {
			const char *y = c->left_t->arches.v[a];
			int removed = 0, k;

			for (k = 0; k < c->rm_arches.n; k++)
				removed |= !strcmp(y, c->rm_arches.v[k]);
			if (!removed && strlen(y) > 2 && has_word(s, e, y))
				others++;
		}
		if (others >= 2) {
			*which = x;
			return 1;
		}
	}
	return 0;
}

static void doc_line(struct dscan *d, const char *s, const char *e, int line)
{
	struct lctx *c = d->c;
	const char *p = s, *which;
	char what[512], name[300];

	/* paths need a '/', symbols and function names a '_' */
	if (!memchr(s, '/', e - s) && !memchr(s, '_', e - s))
		p = e;
	while (p < e) {
		const char *q;

		if (!path_char(*p)) {
			p++;
			continue;
		}
		for (q = p; q < e && path_char(*q); q++)
			;
		if (removed_path(c, p, q)) {
			snprintf(what, sizeof(what), "names %.*s, which is removed",
				 (int)(q - p), p);
			snprintf(name, sizeof(name), "%.*s", (int)(q - p), p);
			goto found;
		}
		if (q - p > 9 && !memcmp(p, "CONFIG_", 7)) {
			const char *r = p + 7;

			while (r < q && is_ident(*r))
				r++;
			if (smap_get(d->syms, p + 7, r - p - 7) >= 0) {
				snprintf(what, sizeof(what),
					 "describes %.*s, which is removed",
					 (int)(r - p), p);
				snprintf(name, sizeof(name), "%.*s", (int)(r - p), p);
				goto found;
			}
		}
		{
			/* identifiers inside the token: foo_bar() */
			const char *r = p;

			while (r < q) {
				const char *w = r;
				int id = -1;

				while (r < q && is_ident(*r))
					r++;
				if (r - w >= 6 && memchr(w, '_', r - w) &&
				    c->gone_ident)
					id = idtab_find(&c->names,
							ident_hash(w, r - w), w,
							r - w);
				if (id >= 0 && c->gone_ident[id]) {
					snprintf(what, sizeof(what),
						 "describes %.*s(), which is removed",
						 (int)(r - w), w);
					snprintf(name, sizeof(name), "%.*s",
						 (int)(r - w), w);
					goto found;
				}
				while (r < q && !is_ident(*r))
					r++;
			}
		}
		p = q;
	}
	if (c->rm_arches.n && lists_arch(c, s, e, &which)) {
		snprintf(what, sizeof(what), "lists %s as supported", which);
		snprintf(name, sizeof(name), "%s", which);
		goto found;
	}
	return;
found:
	{
		struct leftover l = { LK_DOC, c->left_t->files[d->file].path, line,
				      xstrdup(name), xstrdup(what), 0 };

		vpush(*d->out, l);
	}
}

static int doc_text(const char *path)
{
	const char *b = strrchr(path, '/'), *dot;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	return !dot || !strcmp(dot, ".rst") || !strcmp(dot, ".txt") ||
	       !strcmp(dot, ".yaml") || !strcmp(dot, ".tmpl");
}

static int indent_width(const char *l, const char *e)
{
	int n = 0;

	for (; l < e && (*l == ' ' || *l == '\t'); l++)
		n = *l == '\t' ? (n + 8) & ~7 : n + 1;
	return n;
}

static void scan_doc(struct dscan *d, const char *b, const char *e, int kconfig)
{
	const char *l = b;
	int line = 0, help = 0, hind = -1, hkw = 0, gone = 0;

	while (l < e) {
		const char *nl = memchr(l, '\n', e - l), *le = nl ? nl : e;

		line++;
		if (!kconfig) {
			doc_line(d, l, le, line);
		} else {
			const char *p = l;
			int ind = indent_width(l, le);

			while (p < le && (*p == ' ' || *p == '\t'))
				p++;
			if (help && p < le) {
				if (hind < 0 && ind > hkw)
					hind = ind;
				if (hind < 0 || ind < hind)
					help = 0;
				else if (!gone)	/* the entry goes with its symbol */
					doc_line(d, p, le, line);
			}
			if (!help && ((le - p > 7 && !memcmp(p, "config ", 7)) ||
				      (le - p > 11 && !memcmp(p, "menuconfig ", 11)))) {
				const char *n = p + (*p == 'c' ? 7 : 11), *q;

				while (n < le && (*n == ' ' || *n == '\t'))
					n++;
				for (q = n; q < le && is_ident(*q); q++)
					;
				gone = smap_get(d->syms, n, q - n) >= 0;
			}
			if (!help && le - p >= 4 && !memcmp(p, "help", 4) &&
			    (le - p == 4 || p[4] == ' ' || p[4] == '\t')) {
				help = 1;
				hind = -1;
				hkw = ind;
			}
		}
		l = nl ? nl + 1 : e;
	}
}

/* "sh_keysc" -> "sh-keysc": ABI file names spell words with '-' */
static char *abi_word(const char *s, size_t n)
{
	char *w = xstrndup(s, n), *p;

	for (p = w; *p; p++)
		if (*p == '_')
			*p = '-';
	return w;
}

/*
 * Documentation/ABI/testing/sysfs-class-pktcdvd, debugfs-pktcdvd: an ABI
 * file is named after the module whose interface it describes, at its
 * end.  A removed driver source file outside arch/ (whose name no file
 * that stays shares: arch code and generic names like cpu.c would match
 * ABI files of code that stays) takes its ABI files with it.  They are
 * reported whole and count as removed, so that documentation naming
 * them is reported too.
 */
static void abi_docs(struct lctx *c, unsigned char *skip)
{
	const struct tree *t = c->left_t;
	struct smap mods = { 0 };
	VEC(char *) gone_abi = { 0 };
	size_t k;
	int i;

	for (k = 0; k < c->rm_paths.cap; k++) {
		const char *p = c->rm_paths.keys ? c->rm_paths.keys[k] : NULL;
		const char *b, *e;
		int o;
		char *w;

		if (!p || !strncmp(p, "arch/", 5))
			continue;
		e = p + strlen(p);
		if (e - p < 3 || strcmp(e - 2, ".c"))
			continue;
		b = strrchr(p, '/');
		b = b ? b + 1 : p;
		if (e - 2 - b < 4)
			continue;
		o = smap_get(&t->basemap, b, strlen(b));
		if (o >= 0 && c->left[t->byname[o]])
			continue;
		w = abi_word(b, e - 2 - b);
		smap_put(&mods, w, strlen(w), 1);
		free(w);
	}
	for (i = 0; mods.n && i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		const char *b = f->path + f->base, *s;
		char *w;

		if (!c->left[i] || strncmp(f->path, "Documentation/ABI/", 18))
			continue;
		w = abi_word(b, strlen(b));
		for (s = w; (s = strchr(s, '-')); s++) {
			if (smap_get(&mods, s + 1, strlen(s + 1)) < 0)
				continue;
			{
				char what[400];
				struct leftover l = { LK_DOC, f->path, 1,
						      xstrdup(b + (s + 1 - w)), NULL, 0 };

				snprintf(what, sizeof(what),
					 "the ABI of %s, which is removed: the whole file",
					 s + 1);
				l.what = xstrdup(what);
				vpush(c->out, l);
				vpush(gone_abi, f->path);
				skip[i] = 1;
			}
			break;
		}
		free(w);
	}
	for (i = 0; i < (int)gone_abi.n; i++)
		smap_put(&c->rm_paths, gone_abi.v[i], strlen(gone_abi.v[i]), 1);
	free(gone_abi.v);
	smap_free(&mods);
}

/*
 * The files to scan are cut into chunks of DOC_CHUNK, taken in turn by
 * the threads; each chunk keeps its own findings, and they are joined
 * in chunk order, so that the result is the one a single thread gives.
 */
#define DOC_CHUNK 32

struct djob {
	struct lctx *c;
	const struct smap *syms;
	const int *todo;	/* indices of the files to scan */
	int ntodo;
	struct lvec *outs;	/* per chunk */
	int next;
	pthread_mutex_t lock;
};

static void *doc_worker(void *arg)
{
	struct djob *j = arg;
	const struct tree *t = j->c->left_t;
	struct dscan d = { .c = j->c, .syms = j->syms };
	char *buf = NULL;
	size_t cap = 0;

	for (;;) {
		int k, end;

		pthread_mutex_lock(&j->lock);
		k = j->next;
		j->next += DOC_CHUNK;
		pthread_mutex_unlock(&j->lock);
		if (k >= j->ntodo)
			break;
		d.out = &j->outs[k / DOC_CHUNK];
		end = k + DOC_CHUNK < j->ntodo ? k + DOC_CHUNK : j->ntodo;
		for (; k < end; k++) {
			const struct file *f = &t->files[j->todo[k]];
			size_t n;
			char *b = read_buf(t->root, f->path, &buf, &cap, &n);

			if (!b)
				continue;
			d.file = j->todo[k];
			scan_doc(&d, b, b + n, f->kind == FK_KCONFIG);
		}
	}
	free(buf);
	return NULL;
}

void leftover_docs(struct lctx *c)
{
	const struct tree *t = c->left_t;
	struct smap syms = { 0 }, archdocs = { 0 };
	struct djob j = { .c = c, .syms = &syms };
	unsigned char *abi = xcalloc(t->nfiles + 1, 1);
	int *todo = xmalloc((t->nfiles + 1) * sizeof(*todo));
	int i, k, nchunks;

	abi_docs(c, abi);

	for (i = 0; i < c->doc_syms.n; i++)
		smap_put(&syms, c->doc_syms.v[i], strlen(c->doc_syms.v[i]), 1);
	for (i = 0; i < c->rm_arches.n; i++) {
		char dir[300];

		snprintf(dir, sizeof(dir), "Documentation/arch/%s/", c->rm_arches.v[i]);
		smap_put(&archdocs, dir, strlen(dir), 1);
		snprintf(dir, sizeof(dir), "Documentation/%s/", c->rm_arches.v[i]);
		smap_put(&archdocs, dir, strlen(dir), 1);
	}
	/*
	 * Which files to read, in order; a removed architecture's own
	 * documentation directory is reported here, once, without reading.
	 * The findings of the files read come after, as they always did.
	 */
	j.ntodo = 0;
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		int kconfig = f->kind == FK_KCONFIG;

		if (!c->left[i] || abi[i])
			continue;
		if (!kconfig && (strncmp(f->path, "Documentation/", 14) ||
				 !doc_text(f->path)))
			continue;
		if (!kconfig) {
			const char *s = strchr(f->path + 14, '/');
			int found = -1;

			if (s && !strncmp(f->path + 14, "arch/", 5))
				s = strchr(s + 1, '/');
			if (s)
				found = smap_get(&archdocs, f->path, s - f->path + 1);
			if (found >= 0) {
				if (found == 1) {
					struct leftover l = { LK_DOC, f->path, 1,
						xstrndup(f->path, s - f->path + 1),
						xstrdup("documentation of a removed architecture: the whole directory"),
						0 };

					vpush(c->out, l);
					smap_set(&archdocs, f->path, s - f->path + 1, 2);
				}
				continue;
			}
		}
		todo[j.ntodo++] = i;
	}
	j.todo = todo;
	nchunks = (j.ntodo + DOC_CHUNK - 1) / DOC_CHUNK;
	j.outs = xcalloc(nchunks + 1, sizeof(*j.outs));
	pthread_mutex_init(&j.lock, NULL);
	run_workers(doc_worker, &j);
	pthread_mutex_destroy(&j.lock);
	for (k = 0; k < nchunks; k++) {
		for (i = 0; i < j.outs[k].n; i++)
			vpush(c->out, j.outs[k].v[i]);
		free(j.outs[k].v);
	}
	free(j.outs);
	free(todo);
	smap_free(&syms);
	smap_free(&archdocs);
	free(abi);
	phase("leftovers: documentation");
}
