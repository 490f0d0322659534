// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock check: dangling references in a tree, optionally only those
 * that are new against a baseline tree.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "chopblock.h"

enum fkind_check {
	CK_SYMBOL, CK_INCLUDE, CK_OBJECT, CK_SOURCE, CK_MAINT, CK_NKINDS
};

static const char *const ck_name[] = {
	"undefined-symbol", "missing-include", "object-without-source",
	"missing-kconfig-source", "maintainers-pattern",
};

static const char *const ck_title[] = {
	"CONFIG_ symbols used but defined nowhere",
	"#include of headers that do not exist",
	"Makefile objects without a source",
	"Kconfig source of missing files",
	"MAINTAINERS F: patterns matching no file",
};

struct finding {
	int kind;
	char *file;
	int line;
	char *name;
	char *key;
	int isnew;
};

struct findings {
	struct finding *v;
	int n, cap;
	struct smap keys;
	struct smap kdefs;	/* symbols Kconfig defines */
	struct smap refs;	/* "file|symbol" for every CONFIG_ reference */
};

static void add(struct findings *fs, int kind, const char *file, int line,
		const char *name)
{
	struct finding f;
	size_t n = strlen(file) + strlen(name) + 32;

	f.kind = kind;
	f.file = xstrdup(file);
	f.line = line;
	f.name = xstrdup(name);
	f.key = xmalloc(n);
	snprintf(f.key, n, "%d|%s|%s", kind, file, name);
	f.isnew = 1;
	smap_put(&fs->keys, f.key, strlen(f.key), fs->n);
	vpush(*fs, f);
}

static int ignored_symbol(const char *s)
{
	return !strcmp(s, "FOO") || !strcmp(s, "BAR") || !strcmp(s, "FOO_BAR") ||
	       !strcmp(s, "XXX");
}

static int defined(const struct smap *defs, const struct smap *cdefs,
		   const char *name)
{
	size_t n = strlen(name);

	if (smap_get(defs, name, n) >= 0 || smap_get(cdefs, name, n) >= 0)
		return 1;
	if (n > 7 && !strcmp(name + n - 7, "_MODULE"))
		return smap_get(defs, name, n - 7) >= 0;
	return 0;
}

/* <stdio.h>, <sys/stat.h>: host programs, not kernel headers */
static int host_header(const struct inc *in)
{
	static const char *const host[] = { "sys/", "bits/", "netinet/",
		"arpa/", "gnu/", NULL };
	int i;

	if (!in->sys)
		return 0;
	if (!strchr(in->name, '/'))
		return 1;
	for (i = 0; host[i]; i++)
		if (!strncmp(in->name, host[i], strlen(host[i])))
			return 1;
	return 0;
}

static int generated_header(const char *name)
{
	return !strncmp(name, "generated/", 10) || strstr(name, "/generated/") ||
	       strstr(name, "asm-offsets") || strstr(name, ".tab.h") ||
	       strstr(name, ".lex.") || !strncmp(name, "config/", 7);
}

struct hit {
	int n;
};

static int hit_cb(int idx, void *arg)
{
	(void)idx;
	((struct hit *)arg)->n++;
	return 1;
}

static void collect1(struct tree *t, struct findings *fs)
{
	struct smap defs = { 0 }, cdefs = { 0 };
	int cand[4];
	int i, k;

	for (i = 0; i < t->nfiles; i++) {
		const struct fres *r = t->files[i].res;

		if (!r)
			continue;
		for (k = 0; k < r->kdefs.n; k++)
			smap_put(&defs, r->kdefs.v[k].name,
				 strlen(r->kdefs.v[k].name), 1);
		for (k = 0; k < r->cdefines.n; k++)
			smap_put(&cdefs, r->cdefines.v[k], strlen(r->cdefines.v[k]), 1);
	}
	phase("check: definitions");
	for (i = 0; i < t->nfiles; i++) {
		const struct fres *r = t->files[i].res;

		if (!r)
			continue;
		for (k = 0; k < r->refs.n; k++) {
			char key[4400];

			snprintf(key, sizeof(key), "%s|%s", t->files[i].path,
				 r->refs.v[k].name);
			smap_put(&fs->refs, key, strlen(key), 1);
		}
	}
	fs->kdefs = defs;
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		const struct fres *r = f->res;
		const char *last = NULL;

		if (!r)
			continue;
		for (k = 0; k < r->refs.n; k++) {
			const char *s = r->refs.v[k].name;

			if (defined(&defs, &cdefs, s) || ignored_symbol(s))
				continue;
			if (last && !strcmp(last, s))
				continue;
			last = s;
			add(fs, CK_SYMBOL, f->path, r->refs.v[k].line, s);
		}
		if (!strncmp(f->path, "scripts/", 8) || !strncmp(f->path, "usr/", 4) ||
		    !strncmp(f->path, "samples/", 8))
			continue;
		for (k = 0; k < r->incs.n; k++) {
			const struct inc *in = &r->incs.v[k];

			if (generated_header(in->name) || host_header(in))
				continue;
			if (resolve_include(t, i, in, cand, 4))
				continue;
			add(fs, CK_INCLUDE, f->path, in->line, in->name);
		}
	}
	phase("check: symbols and includes");
}

/* Makefile objects, Kconfig source, MAINTAINERS: a second thread */
struct part2 {
	struct tree *t;
	struct findings fs;
};

static void *collect2(void *arg)
{
	struct part2 *p2 = arg;
	struct tree *t = p2->t;
	struct findings *fs = &p2->fs;
	struct smap comps = { 0 };
	struct mkmodel mk;
	struct mentries me;
	int i, k;

	mk_build(t, &mk);
	for (i = 0; i < mk.refs.n; i++) {
		const struct mkref *r = &mk.refs.v[i];
		const struct file *mf = &t->files[r->file];
		const struct mkent *e = &mf->res->mk.v[r->ent];

		if (!is_direct_prefix(e->pfx)) {
			char *d = dir_of(mf->path);
			char *c = xmalloc(strlen(d) + strlen(e->pfx) + 3);

			sprintf(c, "%s%s.o", d, e->pfx);
			smap_put(&comps, c, strlen(c), 1);
			free(c);
			free(d);
		}
	}
	for (i = 0; i < mk.refs.n; i++) {
		const struct mkref *r = &mk.refs.v[i];
		const struct file *mf = &t->files[r->file];
		const struct mkent *e = &mf->res->mk.v[r->ent];
		size_t n = strlen(r->target);
		static const char *const ext[] = { ".c", ".S", ".rs", ".c_shipped",
			".S_shipped", ".asn1", ".y", ".l", "" };
		char *base;
		int found = 0, x;

		if (!strncmp(mf->path, "tools/", 6) || !strncmp(mf->path, "scripts/", 8) ||
		    strchr(r->target, '%'))
			continue;
		if (r->target[n - 1] == '/') {
			if (!tree_has_dir(t, r->target))
				add(fs, CK_OBJECT, mf->path, e->line, r->target);
			continue;
		}
		if (smap_get(&comps, r->target, n) >= 0)
			continue;
		base = xstrndup(r->target, n - 2);
		for (x = 0; ext[x][0] && !found; x++) {
			char *p = xmalloc(n + 16);

			sprintf(p, "%s%s", base, ext[x]);
			found = tree_find(t, p) >= 0;
			free(p);
		}
		/* foo.tab.o from foo.y, foo.lex.o from foo.l */
		if (!found && n > 6) {
			char *dot = strrchr(base, '.');

			if (dot && (!strcmp(dot, ".tab") || !strcmp(dot, ".lex"))) {
				char *p = xmalloc(n + 16);

				sprintf(p, "%.*s%s", (int)(dot - base), base,
					dot[1] == 't' ? ".y" : ".l");
				found = tree_find(t, p) >= 0;
				free(p);
			}
		}
		if (!found)
			add(fs, CK_OBJECT, mf->path, e->line, r->target);
		free(base);
	}
	phase("check: objects");
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		const struct fres *r = f->res;

		if (!r || f->kind != FK_KCONFIG)
			continue;
		for (k = 0; k < r->ksrcs.n; k++) {
			const struct ksrc *s = &r->ksrcs.v[k];
			const char *var = strstr(s->path, "$(");
			char *d = s->relative ? dir_of(f->path) : xstrdup("");
			int a, missing = 0;

			if (s->optional) {
				free(d);
				continue;
			}
			if (!var) {
				char *p = path_norm(d, s->path);

				missing = tree_find(t, p) < 0;
				free(p);
			} else if (!strncmp(var, "$(SRCARCH)", 10) ||
				   !strncmp(var, "$(HEADER_ARCH)", 14)) {
				int hdr = var[2] == 'H';
				const char *rest = var + (hdr ? 14 : 10);

				for (a = 0; a < t->arches.n && !missing; a++) {
					const char *arch = t->arches.v[a];
					char *p, *q;

					if (hdr && strcmp(arch, "x86"))
						continue;
					q = xmalloc(strlen(s->path) + 64);
					sprintf(q, "%.*s%s%s", (int)(var - s->path),
						s->path, arch, rest);
					if (strstr(q, "$(")) {
						free(q);
						break;
					}
					p = path_norm(d, q);
					missing = tree_find(t, p) < 0;
					free(p);
					free(q);
				}
			}
			if (missing)
				add(fs, CK_SOURCE, f->path, s->line, s->path);
			free(d);
		}
	}
	maint_load(t, &me);
	for (i = 0; i < me.n; i++) {
		for (k = 0; k < me.v[i].pats.n; k++) {
			struct hit h = { 0 };

			maint_match(t, me.v[i].pats.v[k].pat, hit_cb, &h);
			if (!h.n)
				add(fs, CK_MAINT, "MAINTAINERS", me.v[i].pats.v[k].line,
				    me.v[i].pats.v[k].pat);
		}
	}
	phase("check: kconfig sources, MAINTAINERS");
	return NULL;
}

static void collect(struct tree *t, struct findings *fs)
{
	struct part2 p2 = { .t = t };
	pthread_t th;
	int i;

	if (pthread_create(&th, NULL, collect2, &p2))
		die("cannot create thread");
	collect1(t, fs);
	pthread_join(th, NULL);
	for (i = 0; i < p2.fs.n; i++) {
		struct finding *f = &p2.fs.v[i];

		smap_put(&fs->keys, f->key, strlen(f->key), fs->n);
		vpush(*fs, *f);
	}
	free(p2.fs.v);
	smap_free(&p2.fs.keys);
}

/*
 * What the change from the baseline to the tree leaves behind: the
 * removed code is every baseline file the tree lacks or has changed.
 */
static struct lctx *leftovers(struct tree *t, struct tree *bt,
			      struct findings *fs, struct findings *bfs)
{
	struct lctx *l = xcalloc(1, sizeof(*l));
	unsigned char *gone = xcalloc(bt->nfiles + 1, 1);
	unsigned char *left = xcalloc(t->nfiles + 1, 1);
	size_t k;
	int i, a;

	for (i = 0; i < t->nfiles; i++)
		left[i] = 1;
	for (i = 0; i < bt->nfiles; i++) {
		const char *p = bt->files[i].path;
		int o = tree_find(t, p);

		if (o >= 0) {
			gone[i] = t->files[o].hash != bt->files[i].hash;
			continue;
		}
		gone[i] = 1;
		smap_put(&l->rm_paths, p, strlen(p), 1);
		/* the directories that went with it */
		for (const char *s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
			char *d = xstrndup(p, s - p + 1);

			if (!tree_has_dir(t, d))
				smap_put(&l->rm_paths, d, strlen(d), 1);
			free(d);
		}
	}
	for (k = 0; k < bfs->kdefs.cap; k++) {
		char *sym = bfs->kdefs.keys[k];

		if (sym && smap_get(&fs->kdefs, sym, strlen(sym)) < 0) {
			vpush(l->rm_syms, sym);
			vpush(l->doc_syms, sym);
		}
	}
	for (a = 0; a < bt->arches.n; a++) {
		char kc[300];
		int b, f;

		for (b = 0; b < t->arches.n; b++)
			if (!strcmp(t->arches.v[b], bt->arches.v[a]))
				break;
		if (b < t->arches.n)
			continue;
		vpush(l->rm_arches, bt->arches.v[a]);
		vpush(l->arch_words, bt->arches.v[a]);
		snprintf(kc, sizeof(kc), "arch/%s/Kconfig", bt->arches.v[a]);
		f = tree_find(bt, kc);
		if (f >= 0 && bt->files[f].res && bt->files[f].res->kdefs.n)
			vpush(l->arch_words, bt->files[f].res->kdefs.v[0].name);
	}
	l->gone_t = bt;
	l->gone = gone;
	l->left_t = t;
	l->left = left;
	leftover_code(l);
	leftover_docs(l);
	leftover_sort(l);
	return l;
}

static int fcmp(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	int r;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	r = strcmp(x->file, y->file);
	if (r)
		return r;
	if (x->line != y->line)
		return x->line - y->line;
	return strcmp(x->name, y->name);
}

static const char *what(int kind)
{
	switch (kind) {
	case CK_SYMBOL:
		return "undefined symbol CONFIG_";
	case CK_INCLUDE:
		return "missing header ";
	case CK_OBJECT:
		return "no source for ";
	case CK_SOURCE:
		return "missing Kconfig file ";
	default:
		return "pattern matches nothing: ";
	}
}

int cmd_check(int argc, char **argv)
{
	struct tree t, bt;
	struct findings fs = { 0 }, bfs = { 0 };
	const char *root = NULL, *base = NULL;
	int json = 0, i, counts[CK_NKINDS] = { 0 }, nnew = 0;
	int lcounts[LK_NKINDS] = { 0 }, noleft = 0;
	struct lctx *lc = NULL;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--tree") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--baseline") && i + 1 < argc)
			base = argv[++i];
		else if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--no-leftovers"))
			noleft = 1;
		else
			die("check: unknown or incomplete option '%s' (see chopblock --help)",
			    argv[i]);
	}
	if (!root)
		die("check: --tree DIR is required");
	phase("start");
	tree_load(&t, root);
	if (base) {
		tree_load(&bt, base);
		t.want_hash = !noleft;
		bt.want_hash = !noleft;
	}
	phase("load");
	tree_scan(&t, 1, 1);
	tree_scan(&t, 0, 1);
	phase("scan");
	collect(&t, &fs);
	if (base) {
		tree_scan(&bt, 1, 1);
		tree_scan(&bt, 0, 1);
		collect(&bt, &bfs);
		for (i = 0; i < fs.n; i++) {
			struct finding *f = &fs.v[i];
			char key[4400];

			f->isnew = smap_get(&bfs.keys, f->key, strlen(f->key)) < 0;
			if (!f->isnew || f->kind != CK_SYMBOL)
				continue;
			/*
			 * The same reference was there before and the symbol was
			 * no Kconfig symbol then either (a #define elsewhere hid
			 * it): not new.
			 */
			snprintf(key, sizeof(key), "%s|%s", f->file, f->name);
			if (smap_get(&bfs.refs, key, strlen(key)) >= 0 &&
			    smap_get(&bfs.kdefs, f->name, strlen(f->name)) < 0)
				f->isnew = 0;
		}
		phase("baseline");
		if (!noleft)
			lc = leftovers(&t, &bt, &fs, &bfs);
	}
	if (fs.n)
		qsort(fs.v, fs.n, sizeof(*fs.v), fcmp);
	for (i = 0; i < fs.n; i++) {
		if (!fs.v[i].isnew)
			continue;
		counts[fs.v[i].kind]++;
		nnew++;
	}
	for (i = 0; lc && i < lc->out.n; i++)
		lcounts[lc->out.v[i].kind]++;
	if (json) {
		struct sbuf b = { 0 };
		int first = 1;

		sb_adds(&b, "{\"tool\":\"chopblock\",\"format\":1,\"command\":\"check\",\"tree\":");
		sb_json(&b, root);
		sb_adds(&b, ",\"baseline\":");
		if (base)
			sb_json(&b, base);
		else
			sb_adds(&b, "null");
		sb_addf(&b, ",\"result\":\"%s\",\"counts\":{", nnew ? "fail" : "pass");
		for (i = 0; i < CK_NKINDS; i++)
			sb_addf(&b, "%s\"%s\":%d", i ? "," : "", ck_name[i], counts[i]);
		sb_adds(&b, "},\"findings\":[");
		fputs(b.s, stdout);
		b.len = 0;
		for (i = 0; i < fs.n; i++) {
			const struct finding *f = &fs.v[i];

			if (!f->isnew)
				continue;
			b.len = 0;
			sb_addf(&b, "{\"kind\":\"%s\",\"file\":", ck_name[f->kind]);
			sb_json(&b, f->file);
			sb_addf(&b, ",\"line\":%d,\"name\":", f->line);
			sb_json(&b, f->name);
			sb_adds(&b, "}");
			printf("%s\n%s", first ? "" : ",", b.s);
			first = 0;
		}
		printf("\n],\"leftover_counts\":{");
		for (i = 0; i < LK_NKINDS; i++)
			printf("%s\"%s\":%d", i ? "," : "", lk_name[i], lcounts[i]);
		printf("},\"leftovers\":[");
		for (i = 0; lc && i < lc->out.n; i++) {
			const struct leftover *l = &lc->out.v[i];

			b.len = 0;
			sb_addf(&b, "{\"kind\":\"%s\",\"status\":\"%s\",\"file\":",
				lk_name[l->kind], l->maybe ? "maybe" : "left");
			sb_json(&b, l->file);
			sb_addf(&b, ",\"line\":%d,\"name\":", l->line);
			sb_json(&b, l->name);
			sb_adds(&b, ",\"reason\":");
			sb_json(&b, l->what);
			sb_adds(&b, "}");
			printf("%s\n%s", i ? "," : "", b.s);
		}
		printf("\n]}\n");
		free(b.s);
		return nnew ? 1 : 0;
	}
	printf("chopblock check: tree %s%s%s\n", root, base ? ", new against " : "",
	       base ? base : "");
	for (i = 0; i < CK_NKINDS; i++)
		printf("  %-44s %d\n", ck_title[i], counts[i]);
	{
		int last = -1;

		for (i = 0; i < fs.n; i++) {
			const struct finding *f = &fs.v[i];

			if (!f->isnew)
				continue;
			if (f->kind != last) {
				printf("\n== %s ==\n", ck_title[f->kind]);
				last = f->kind;
			}
			printf("%s:%d: %s%s\n", f->file, f->line, what(f->kind), f->name);
		}
	}
	if (lc) {
		printf("\n== Left behind by the change (not counted in the result) ==\n");
		for (i = 0; i < LK_NKINDS; i++)
			printf("  %-44s %d\n", lk_name[i], lcounts[i]);
		for (i = 0; i < lc->out.n; i++) {
			const struct leftover *l = &lc->out.v[i];

			printf("%s:%d: %s%s %s: %s\n", l->file, l->line,
			       l->maybe ? "maybe: " : "", lk_name[l->kind], l->name,
			       l->what);
		}
	}
	printf("\nresult: %s (%d finding%s)\n", nnew ? "FAIL" : "PASS", nnew,
	       nnew == 1 ? "" : "s");
	return nnew ? 1 : 0;
}
