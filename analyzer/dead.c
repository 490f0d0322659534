// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock dead: what becomes dead when architectures or symbols go.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chopblock.h"

enum { ST_UNK, ST_BUSY, ST_LIVE, ST_DEAD };

struct item {
	char *path, *name, *extra;	/* what must be gone (see remnants) */
	char *subsys;
	char *sortkey;
	char *json;
	char *human;
	int kind;
	int lkind, line;	/* leftovers: LK_*, line */
};

enum ikind {
	IK_ARCH, IK_SYMBOL, IK_DIR, IK_FILE, IK_HEADER, IK_COND, IK_REF,
	IK_WEAK, IK_MAINT, IK_DEFCONFIG,
	/* what the removal leaves behind in what stays */
	IK_LDECL, IK_LPARAM, IK_LDOC, IK_LCOMMENT, IK_NKINDS
};
#define IK_FIRST_LEFT IK_LDECL

static const char *const kind_name[] = {
	"arch", "symbol", "dir", "file", "header", "conditional",
	"reference", "weak", "maintainers", "defconfig",
	"declaration", "constant-parameter", "documentation", "comment",
};

static const char *const kind_title[] = {
	"Removed architecture directories", "Kconfig symbols",
	"Directories", "Source files", "Headers",
	"Conditionals that become constant", "References to dead symbols",
	"Weak functions whose only override goes away",
	"MAINTAINERS", "Defconfigs",
	"Left behind: declarations nothing uses any more",
	"Left behind: parameters that became constant",
	"Left behind: documentation of what goes",
	"Left behind: comments naming the removed architecture (maybe)",
};

struct dctx {
	struct tree t;
	struct kresult kr;
	struct mkmodel mk;
	struct strvec rm_arch, rm_sym;
	struct strvec keep;	/* --keep: alive whatever the removal */
	uint32_t rmask;
	struct smap dead;	/* symbol -> 1 dead, 2 only COMPILE_TEST */
	unsigned char *dirst;	/* per file: state of its directory chain */
	struct smap dirmemo;
	unsigned char *refst;	/* per mk ref */
	unsigned char *fst;	/* per file: ST_LIVE/ST_DEAD after analysis */
	unsigned char *incl;	/* per file: reached from live code */
	int *nincluders;
	unsigned char *archincl;	/* included from its own arch/X/ */
	VEC(struct item) items;
	const char *remnant_root;	/* --baseline: report what is left here */
};

static int sym_dead(struct dctx *c, const char *name)
{
	size_t n = strlen(name);

	if (smap_get(&c->dead, name, n) > 0)
		return 1;
	if (n > 7 && !strcmp(name + n - 7, "_MODULE"))
		return smap_get(&c->dead, name, n - 7) > 0;
	return 0;
}

static int in_removed_arch(struct dctx *c, const char *path)
{
	int i;

	if (strncmp(path, "arch/", 5))
		return 0;
	for (i = 0; i < c->rm_arch.n; i++) {
		size_t n = strlen(c->rm_arch.v[i]);

		if (!strncmp(path + 5, c->rm_arch.v[i], n) && path[5 + n] == '/')
			return 1;
	}
	return 0;
}

static int dir_live(struct dctx *c, const char *dir);

static int ref_live(struct dctx *c, int ri)
{
	const struct mkref *r = &c->mk.refs.v[ri];
	const struct file *mf = &c->t.files[r->file];
	const struct mkent *e = &mf->res->mk.v[r->ent];
	int live = 1;

	if (c->refst[ri] == ST_LIVE)
		return 1;
	if (c->refst[ri] == ST_DEAD)
		return 0;
	if (c->refst[ri] == ST_BUSY)
		return 1;	/* cycle: be conservative */
	c->refst[ri] = ST_BUSY;
	if (in_removed_arch(c, mf->path))
		live = 0;
	if (live && e->guard && sym_dead(c, e->guard))
		live = 0;
	if (live && e->ifg && sym_dead(c, e->ifg))
		live = 0;
	if (live) {
		char *d = dir_of(mf->path);

		live = dir_live(c, d);
		if (live && !is_direct_prefix(e->pfx)) {
			/* a member of composite object <pfx>.o */
			char *comp = xmalloc(strlen(d) + strlen(e->pfx) + 3);
			int first;

			sprintf(comp, "%s%s.o", d, e->pfx);
			first = mk_first(&c->mk, comp);
			if (first >= 0) {
				int k;

				live = 0;
				for (k = first; k < c->mk.refs.n && !live; k++) {
					int o = c->mk.order[k];

					if (strcmp(c->mk.refs.v[o].target, comp))
						break;
					live = ref_live(c, o);
				}
			}
			free(comp);
		}
		free(d);
	}
	c->refst[ri] = live ? ST_LIVE : ST_DEAD;
	return live;
}

/* -1: nothing references @target; else whether any reference is live */
static int target_live(struct dctx *c, const char *target)
{
	int first = mk_first(&c->mk, target), k;

	if (first < 0)
		return -1;
	for (k = first; k < c->mk.refs.n; k++) {
		int o = c->mk.order[k];

		if (strcmp(c->mk.refs.v[o].target, target))
			break;
		if (ref_live(c, o))
			return 1;
	}
	return 0;
}

static int dir_live(struct dctx *c, const char *dir)
{
	int m = smap_get(&c->dirmemo, dir, strlen(dir));
	int live, tl;

	if (m == ST_LIVE || m == ST_BUSY)
		return 1;
	if (m == ST_DEAD)
		return 0;
	if (!*dir)
		return 1;
	if (in_removed_arch(c, dir))
		return 0;
	smap_put(&c->dirmemo, dir, strlen(dir), ST_BUSY);
	tl = target_live(c, dir);
	if (tl >= 0) {
		live = tl;
	} else {
		/* unreferenced: lives and dies with its parent */
		char *p = xstrndup(dir, strlen(dir) - 1);
		char *pd = dir_of(p);

		live = dir_live(c, pd);
		free(p);
		free(pd);
	}
	smap_set(&c->dirmemo, dir, strlen(dir), live ? ST_LIVE : ST_DEAD);
	return live;
}

/* ---- constant folding of preprocessor conditions ---- */

struct pe {
	const char *p;
	struct dctx *c;
	int bad;
};

static void pe_ws(struct pe *e)
{
	while (*e->p == ' ' || *e->p == '\t' || *e->p == '\\' || *e->p == '\n')
		e->p++;
	if (e->p[0] == '/' && e->p[1] == '*') {
		const char *x = strstr(e->p + 2, "*/");

		e->p = x ? x + 2 : e->p + strlen(e->p);
		pe_ws(e);
	}
}

static int pe_or(struct pe *e);

static int atom_val(struct pe *e, const char *s, size_t n)
{
	char buf[256];

	if (n > 7 && n < sizeof(buf) && !memcmp(s, "CONFIG_", 7)) {
		memcpy(buf, s + 7, n - 7);
		buf[n - 7] = 0;
		return sym_dead(e->c, buf) ? 0 : 2;
	}
	return 2;
}

static int pe_unary(struct pe *e)
{
	const char *s;
	int v;

	pe_ws(e);
	if (*e->p == '!') {
		e->p++;
		v = pe_unary(e);
		return v == 2 ? 2 : !v;
	}
	if (*e->p == '(') {
		e->p++;
		v = pe_or(e);
		pe_ws(e);
		if (*e->p == ')')
			e->p++;
		else
			e->bad = 1;
		return v;
	}
	if (*e->p >= '0' && *e->p <= '9') {
		v = strtol(e->p, (char **)&e->p, 0) != 0;
		while (is_ident(*e->p))
			e->p++;
		return v;
	}
	if (!is_ident(*e->p)) {
		e->bad = 1;
		return 2;
	}
	s = e->p;
	while (is_ident(*e->p))
		e->p++;
	if ((size_t)(e->p - s) == 7 && !memcmp(s, "defined", 7)) {
		int par;

		pe_ws(e);
		par = *e->p == '(';
		if (par)
			e->p++;
		pe_ws(e);
		s = e->p;
		while (is_ident(*e->p))
			e->p++;
		v = atom_val(e, s, e->p - s);
		pe_ws(e);
		if (par && *e->p == ')')
			e->p++;
		return v;
	}
	pe_ws(e);
	if (*e->p == '(') {
		const char *a;
		int is_cfg = (e->p - s == 10 && !memcmp(s, "IS_ENABLED", 10)) ||
			     (e->p - s == 10 && !memcmp(s, "IS_BUILTIN", 10)) ||
			     (e->p - s == 9 && !memcmp(s, "IS_MODULE", 9)) ||
			     (e->p - s == 12 && !memcmp(s, "IS_REACHABLE", 12));
		int d = 0;

		e->p++;
		pe_ws(e);
		a = e->p;
		while (is_ident(*e->p))
			e->p++;
		v = is_cfg ? atom_val(e, a, e->p - a) : 2;
		for (; *e->p; e->p++) {
			if (*e->p == '(')
				d++;
			else if (*e->p == ')' && d-- == 0)
				break;
		}
		if (*e->p == ')')
			e->p++;
		return v;
	}
	return atom_val(e, s, e->p - s);
}

static int pe_and(struct pe *e)
{
	int v = pe_unary(e), w;

	for (;;) {
		pe_ws(e);
		if (e->p[0] != '&' || e->p[1] != '&')
			return v;
		e->p += 2;
		w = pe_unary(e);
		v = (v == 0 || w == 0) ? 0 : (v == 1 && w == 1) ? 1 : 2;
	}
}

static int pe_or(struct pe *e)
{
	int v = pe_and(e), w;

	for (;;) {
		pe_ws(e);
		if (e->p[0] != '|' || e->p[1] != '|')
			return v;
		e->p += 2;
		w = pe_and(e);
		v = (v == 1 || w == 1) ? 1 : (v == 0 && w == 0) ? 0 : 2;
	}
}

/* 0: always false, 1: always true, 2: not constant */
static int fold_cond(struct dctx *c, const char *text)
{
	struct pe e = { .c = c };
	const char *d = text + 1;
	int v;

	while (*d == ' ' || *d == '\t')
		d++;
	if (!strncmp(d, "ifdef", 5) || !strncmp(d, "ifndef", 6)) {
		int neg = d[2] == 'n';

		e.p = d + (neg ? 6 : 5);
		pe_ws(&e);
		{
			const char *s = e.p;

			while (is_ident(*e.p))
				e.p++;
			v = atom_val(&e, s, e.p - s);
		}
		return v == 2 ? 2 : neg ? !v : v;
	}
	e.p = d + (!strncmp(d, "elif", 4) ? 4 : 2);
	v = pe_or(&e);
	pe_ws(&e);
	if (e.bad || (*e.p && strncmp(e.p, "//", 2)))
		return 2;
	return v;
}

/* ---- items ---- */

static void add_item(struct dctx *c, int kind, const char *where,
		     const char *sortkey, const char *path, const char *name,
		     const char *extra, struct sbuf *json, struct sbuf *human)
{
	struct item it;

	it.kind = kind;
	it.lkind = -1;
	it.line = 0;
	it.path = xstrdup(path);
	it.name = name ? xstrdup(name) : NULL;
	it.extra = extra ? xstrdup(extra) : NULL;
	it.subsys = subsystem_of(where);
	it.sortkey = xstrdup(sortkey);
	it.json = json->s;
	it.human = human->s;
	memset(json, 0, sizeof(*json));
	memset(human, 0, sizeof(*human));
	vpush(c->items, it);
}

static int count_lines(struct dctx *c, int i)
{
	char path[4096];
	struct stat st;
	const char *m, *p, *e;
	int fd, n = 0;

	if (c->t.files[i].res && c->t.files[i].res->nlines)
		return c->t.files[i].res->nlines;
	snprintf(path, sizeof(path), "%s/%s", c->t.root, c->t.files[i].path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 0;
	for (p = m, e = m + st.st_size; (p = memchr(p, '\n', e - p)); p++)
		n++;
	munmap((void *)m, st.st_size);
	return n;
}

static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int r = strcmp(x->subsys, y->subsys);

	if (r)
		return r;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return strcmp(x->sortkey, y->sortkey);
}

static void jkv(struct sbuf *b, const char *k, const char *v)
{
	sb_addf(b, ",\"%s\":", k);
	sb_json(b, v);
}

static void begin(struct sbuf *b, int kind, const char *status)
{
	sb_addf(b, "{\"kind\":\"%s\",\"status\":\"%s\"", kind_name[kind], status);
}

/* ---- the analysis ---- */

static void dead_symbols(struct dctx *c)
{
	int i;

	for (i = 0; i < c->kr.syms.n; i++) {
		struct ksym_arch *k = &c->kr.syms.v[i];
		int forced = 0, j;

		for (j = 0; j < c->rm_sym.n; j++)
			if (!strcmp(c->rm_sym.v[j], k->name))
				forced = 1;
		if (!k->y0)
			continue;	/* dead before: not our business */
		for (j = 0; j < c->keep.n; j++)
			if (!strcmp(c->keep.v[j], k->name))
				break;
		if (j < c->keep.n && !forced)
			continue;	/* the change keeps it on purpose */
		if ((k->y1 & ~c->rmask) && !forced)
			continue;
		smap_put(&c->dead, k->name, strlen(k->name),
			 forced ? 3 : (k->y2 & ~c->rmask) ? 2 : 1);
	}
}

static void symbol_items(struct dctx *c)
{
	int i;

	for (i = 0; i < c->kr.syms.n; i++) {
		struct ksym_arch *k = &c->kr.syms.v[i];
		int st = smap_get(&c->dead, k->name, strlen(k->name));
		struct sbuf j = { 0 }, h = { 0 };
		const char *why;
		char *file = xstrdup(k->loc), *colon = strrchr(file, ':');
		int line = colon ? atoi(colon + 1) : 0;

		if (st <= 0) {
			free(file);
			continue;
		}
		if (colon)
			*colon = 0;
		if (st == 3)
			why = "removed with --remove-symbol";
		else if (st == 2)
			why = "only COMPILE_TEST can enable it on the remaining architectures";
		else if (!(k->defined & ~c->rmask))
			why = "defined only by the removed architectures";
		else
			why = "no remaining architecture can enable it";
		begin(&j, IK_SYMBOL, "dead");
		jkv(&j, "name", k->name);
		jkv(&j, "file", file);
		sb_addf(&j, ",\"line\":%d", line);
		jkv(&j, "reason", why);
		sb_adds(&j, "}");
		sb_addf(&h, "%s:%d: %s (%s)", file, line, k->name, why);
		add_item(c, IK_SYMBOL, file, k->name, file, k->name, NULL, &j, &h);
		free(file);
	}
}

static char *obj_of(const char *path)
{
	const char *dot = strrchr(path, '.');
	size_t n = dot ? (size_t)(dot - path) : strlen(path);
	char *o = xmalloc(n + 3);

	memcpy(o, path, n);
	strcpy(o + n, ".o");
	return o;
}

static void first_ref_desc(struct dctx *c, const char *target, struct sbuf *b)
{
	int first = mk_first(&c->mk, target);

	if (first >= 0) {
		const struct mkref *r = &c->mk.refs.v[c->mk.order[first]];
		const struct file *mf = &c->t.files[r->file];
		const struct mkent *e = &mf->res->mk.v[r->ent];

		sb_addf(b, "built via %s:%d", mf->path, e->line);
		if (e->guard)
			sb_addf(b, " (CONFIG_%s)", e->guard);
		else if (!is_direct_prefix(e->pfx))
			sb_addf(b, " (part of %s.o)", e->pfx);
	} else {
		sb_adds(b, "in a dead directory");
	}
}

/* both below the same arch/X/ */
static int same_arch(const char *a, const char *b)
{
	const char *s;

	if (strncmp(a, "arch/", 5) || strncmp(b, "arch/", 5))
		return 0;
	s = strchr(a + 5, '/');
	return s && !strncmp(a, b, s - a + 1);
}

static void analyze_files(struct dctx *c)
{
	struct tree *t = &c->t;
	int *adj_start, *adj, nadj = 0, cap = 1 << 16, i, k;
	int *queue, qh = 0, qt = 0;
	int cand[64];

	c->fst = xcalloc(t->nfiles, 1);
	c->incl = xcalloc(t->nfiles, 1);
	c->nincluders = xcalloc(t->nfiles, sizeof(int));
	c->archincl = xcalloc(t->nfiles, 1);
	adj_start = xmalloc(sizeof(int) * (t->nfiles + 1));
	adj = xmalloc(sizeof(int) * cap);
	for (i = 0; i < t->nfiles; i++) {
		struct file *f = &t->files[i];

		adj_start[i] = nadj;
		if (!f->res)
			continue;
		for (k = 0; k < f->res->incs.n; k++) {
			int n = resolve_include(t, i, &f->res->incs.v[k], cand, 64), m;

			for (m = 0; m < n; m++) {
				if (nadj == cap) {
					cap *= 2;
					adj = xrealloc(adj, sizeof(int) * cap);
				}
				adj[nadj++] = cand[m];
				c->nincluders[cand[m]]++;
				if (same_arch(f->path, t->files[cand[m]].path))
					c->archincl[cand[m]] = 1;
			}
		}
	}
	adj_start[t->nfiles] = nadj;

	for (i = 0; i < t->nfiles; i++) {
		struct file *f = &t->files[i];
		char *d;

		if (in_removed_arch(c, f->path)) {
			c->fst[i] = ST_DEAD;
			continue;
		}
		d = dir_of(f->path);
		if (f->kind == FK_C || f->kind == FK_S || f->kind == FK_RS) {
			char *o = obj_of(f->path);
			int tl = target_live(c, o);

			if (tl < 0)
				tl = dir_live(c, d);
			c->fst[i] = tl ? ST_LIVE : ST_DEAD;
			free(o);
		} else if (f->kind == FK_H) {
			c->fst[i] = ST_UNK;
		} else {
			c->fst[i] = dir_live(c, d) ? ST_LIVE : ST_DEAD;
		}
		free(d);
	}
	/* liveness through #include */
	queue = xmalloc(sizeof(int) * (t->nfiles + 1));
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		int root = 0;

		if (c->fst[i] == ST_LIVE && f->kind != FK_H)
			root = 1;
		if (f->kind == FK_H && !in_removed_arch(c, f->path) &&
		    (strstr(f->path, "include/uapi/") ||
		     (!c->nincluders[i] && dir_live(c, dir_of(f->path)))))
			root = 1;
		if (root) {
			c->incl[i] = 1;
			queue[qt++] = i;
		}
	}
	while (qh < qt) {
		int f = queue[qh++];

		for (k = adj_start[f]; k < adj_start[f + 1]; k++) {
			if (!c->incl[adj[k]] &&
			    !in_removed_arch(c, t->files[adj[k]].path)) {
				c->incl[adj[k]] = 1;
				queue[qt++] = adj[k];
			}
		}
	}
	for (i = 0; i < t->nfiles; i++) {
		if (in_removed_arch(c, t->files[i].path))
			c->fst[i] = ST_DEAD;
		else if (t->files[i].kind == FK_H)
			/*
			 * A header of another architecture reached only from
			 * outside it: the generous resolution of <asm/...>
			 * cannot tell whether it was ever used; keep it.
			 */
			c->fst[i] = c->incl[i] || (!strncmp(t->files[i].path, "arch/", 5) &&
						   !c->archincl[i]) ? ST_LIVE : ST_DEAD;
		else if (c->incl[i] && c->fst[i] == ST_DEAD &&
			 !in_removed_arch(c, t->files[i].path))
			c->fst[i] = ST_LIVE;	/* #included by live code */
	}
	free(queue);
	free(adj);
	free(adj_start);
}

static int under_dead_dir(struct dctx *c, const char *path)
{
	char *d = dir_of(path);
	int r = !dir_live(c, d);

	free(d);
	return r;
}

static void file_items(struct dctx *c)
{
	struct tree *t = &c->t;
	int i, k, a;

	/* removed architecture directories */
	for (a = 0; a < c->rm_arch.n; a++) {
		char dir[256];
		int nf = 0, nl = 0;
		struct sbuf j = { 0 }, h = { 0 };

		snprintf(dir, sizeof(dir), "arch/%s/", c->rm_arch.v[a]);
		for (i = 0; i < t->nfiles; i++)
			if (!strncmp(t->files[i].path, dir, strlen(dir))) {
				nf++;
				nl += count_lines(c, i);
			}
		begin(&j, IK_ARCH, "dead");
		jkv(&j, "path", dir);
		sb_addf(&j, ",\"files\":%d,\"lines\":%d}", nf, nl);
		sb_addf(&h, "%s (%d files, %d lines)", dir, nf, nl);
		add_item(c, IK_ARCH, dir, dir, dir, NULL, NULL, &j, &h);
	}
	/* topmost dead directories referenced from Makefiles */
	for (k = 0; k < c->mk.refs.n; k++) {
		const char *tg = c->mk.refs.v[c->mk.order[k]].target;
		size_t n = strlen(tg);
		char *parent, *p;
		int nf = 0, nl = 0, maybe = -1;
		struct sbuf j = { 0 }, h = { 0 }, why = { 0 };

		if (k && !strcmp(tg, c->mk.refs.v[c->mk.order[k - 1]].target))
			continue;
		if (!n || tg[n - 1] != '/' || in_removed_arch(c, tg) ||
		    dir_live(c, tg) || !tree_has_dir(t, tg))
			continue;
		p = xstrndup(tg, n - 1);
		parent = dir_of(p);
		free(p);
		if (!dir_live(c, parent)) {
			free(parent);
			continue;
		}
		free(parent);
		for (i = 0; i < t->nfiles; i++) {
			if (strncmp(t->files[i].path, tg, n))
				continue;
			nf++;
			nl += count_lines(c, i);
			if (c->fst[i] == ST_LIVE && maybe < 0 &&
			    t->files[i].kind != FK_OTHER &&
			    t->files[i].kind != FK_MAKE &&
			    t->files[i].kind != FK_KCONFIG)
				maybe = i;
		}
		first_ref_desc(c, tg, &why);
		if (maybe >= 0)
			sb_addf(&why, "; but %s is used by live code",
				t->files[maybe].path);
		begin(&j, IK_DIR, maybe >= 0 ? "maybe" : "dead");
		jkv(&j, "path", tg);
		sb_addf(&j, ",\"files\":%d,\"lines\":%d", nf, nl);
		jkv(&j, "reason", why.s);
		sb_adds(&j, "}");
		sb_addf(&h, "%s (%d files, %d lines; %s)%s", tg, nf, nl, why.s,
			maybe >= 0 ? " [maybe]" : "");
		add_item(c, IK_DIR, tg, tg, tg, NULL, NULL, &j, &h);
		free(why.s);
	}
	/* single files and headers in live directories */
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		struct sbuf j = { 0 }, h = { 0 }, why = { 0 };
		const char *status = "dead";
		int kind;

		if (c->fst[i] != ST_DEAD || in_removed_arch(c, f->path) ||
		    under_dead_dir(c, f->path))
			continue;
		if (f->kind == FK_H) {
			kind = IK_HEADER;
			sb_addf(&why, "included only by dead code (%d includer%s)",
				c->nincluders[i], c->nincluders[i] == 1 ? "" : "s");
		} else if (f->kind == FK_C || f->kind == FK_S || f->kind == FK_RS) {
			char *o = obj_of(f->path);
			char *d = dir_of(f->path);

			kind = IK_FILE;
			first_ref_desc(c, o, &why);
			if (smap_get(&c->mk.wild, d, strlen(d)) >= 0) {
				sb_adds(&why, "; but its Makefile also lists objects through variables");
				status = "maybe";
			}
			free(d);
			free(o);
		} else {
			continue;
		}
		begin(&j, kind, status);
		jkv(&j, "path", f->path);
		sb_addf(&j, ",\"lines\":%d", count_lines(c, i));
		jkv(&j, "reason", why.s);
		sb_adds(&j, "}");
		sb_addf(&h, "%s (%d lines; %s)", f->path, count_lines(c, i), why.s);
		add_item(c, kind, f->path, f->path, f->path, NULL, NULL, &j, &h);
		free(why.s);
	}
}

static void ref_item(struct dctx *c, const struct file *f, int line,
		     const char *sym, const char *where)
{
	struct sbuf j = { 0 }, h = { 0 };
	char key[4200];

	begin(&j, IK_REF, "dead");
	jkv(&j, "file", f->path);
	sb_addf(&j, ",\"line\":%d", line);
	jkv(&j, "symbol", sym);
	jkv(&j, "where", where);
	sb_adds(&j, "}");
	sb_addf(&h, "%s:%d: %s reference to %s", f->path, line, where, sym);
	snprintf(key, sizeof(key), "%s:%08d", f->path, line);
	add_item(c, IK_REF, f->path, key, f->path, sym, NULL, &j, &h);
}

static void cond_items(struct dctx *c)
{
	struct tree *t = &c->t;
	int i, k;

	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		const struct fres *r = f->res;
		int lastline = -1;

		if (!r || c->fst[i] != ST_LIVE)
			continue;
		if (f->kind == FK_C || f->kind == FK_H || f->kind == FK_S ||
		    f->kind == FK_RS || f->kind == FK_DTS) {
			for (k = 0; k < r->conds.n; k++) {
				const struct cond *cd = &r->conds.v[k];
				struct sbuf j = { 0 }, h = { 0 }, syms = { 0 };
				const char *p = cd->text;
				char key[4200];
				int v;
				static const char *const bec[] = {
					"false", "true", "partly constant" };

				while ((p = strstr(p, "CONFIG_"))) {
					const char *s = p + 7, *q = s;
					char name[256];

					while (is_ident(*q))
						q++;
					if (q - s > 0 && q - s < 256) {
						memcpy(name, s, q - s);
						name[q - s] = 0;
						if (sym_dead(c, name)) {
							if (syms.len)
								sb_adds(&syms, " ");
							sb_adds(&syms, name);
						}
					}
					p = q;
				}
				if (!syms.len)
					continue;
				v = fold_cond(c, cd->text);
				begin(&j, IK_COND, "dead");
				jkv(&j, "file", f->path);
				sb_addf(&j, ",\"line\":%d,\"end\":%d", cd->line, cd->end);
				jkv(&j, "text", cd->text);
				jkv(&j, "symbols", syms.s);
				jkv(&j, "becomes", bec[v]);
				jkv(&j, "functions", cd->funcs ? cd->funcs : "");
				sb_adds(&j, "}");
				sb_addf(&h, "%s:%d-%d: %s -> %s", f->path, cd->line,
					cd->end, cd->text, bec[v]);
				if (cd->funcs)
					sb_addf(&h, " [defines %s]", cd->funcs);
				snprintf(key, sizeof(key), "%s:%08d", f->path, cd->line);
				add_item(c, IK_COND, f->path, key, f->path, cd->text,
					 NULL, &j, &h);
				free(syms.s);
			}
			for (k = 0; k < r->refs.n; k++) {
				const struct ref *rf = &r->refs.v[k];
				int m, incond = 0;

				if (!sym_dead(c, rf->name) || rf->line == lastline)
					continue;
				for (m = 0; m < r->conds.n && !incond; m++)
					incond = r->conds.v[m].line <= rf->line &&
						 rf->line <= r->conds.v[m].dend;
				if (incond)
					continue;
				lastline = rf->line;
				ref_item(c, f, rf->line, rf->name, "source");
			}
		} else if (f->kind == FK_MAKE || f->kind == FK_DEFCONFIG) {
			for (k = 0; k < r->refs.n; k++) {
				if (!sym_dead(c, r->refs.v[k].name))
					continue;
				ref_item(c, f, r->refs.v[k].line, r->refs.v[k].name,
					 f->kind == FK_MAKE ? "make" : "defconfig");
			}
		} else if (f->kind == FK_KCONFIG) {
			for (k = 0; k < r->refs.n; k++) {
				const struct ref *rf = &r->refs.v[k];
				const char *owner = NULL;
				int m;

				if (!sym_dead(c, rf->name))
					continue;
				for (m = 0; m < r->kdefs.n; m++)
					if (r->kdefs.v[m].line <= rf->line)
						owner = r->kdefs.v[m].name;
				if (owner && sym_dead(c, owner))
					continue;	/* goes with its symbol */
				ref_item(c, f, rf->line, rf->name, "kconfig");
			}
		}
	}
	/* defconfigs of removed architectures */
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		struct sbuf j = { 0 }, h = { 0 };

		if (f->kind != FK_DEFCONFIG || !in_removed_arch(c, f->path))
			continue;
		begin(&j, IK_DEFCONFIG, "dead");
		jkv(&j, "path", f->path);
		sb_adds(&j, "}");
		sb_adds(&h, f->path);
		add_item(c, IK_DEFCONFIG, f->path, f->path, f->path, NULL, NULL,
			 &j, &h);
	}
}

static void weak_items(struct dctx *c)
{
	struct tree *t = &c->t;
	struct smap weak = { 0 };
	struct {
		int file, line;
		char *name;
		struct sbuf ovr;
		int nlive, ndead;
	} *w = NULL;
	int nw = 0, i, k;

	for (i = 0; i < t->nfiles; i++) {
		const struct fres *r = t->files[i].res;

		if (!r || c->fst[i] != ST_LIVE)
			continue;
		for (k = 0; k < r->weak.n; k++) {
			const char *n = r->weak.v[k].name;

			if (smap_get(&weak, n, strlen(n)) >= 0)
				continue;
			w = xrealloc(w, sizeof(*w) * (nw + 1));
			memset(&w[nw], 0, sizeof(*w));
			w[nw].file = i;
			w[nw].line = r->weak.v[k].line;
			w[nw].name = r->weak.v[k].name;
			smap_put(&weak, n, strlen(n), nw++);
		}
	}
	for (i = 0; i < t->nfiles; i++) {
		const struct fres *r = t->files[i].res;

		if (!r || (t->files[i].kind != FK_C && t->files[i].kind != FK_S))
			continue;
		for (k = 0; k < r->defs.n; k++) {
			const char *n = r->defs.v[k].name;
			int x = smap_get(&weak, n, strlen(n));

			if (x < 0 || (w[x].file == i))
				continue;
			if (c->fst[i] == ST_DEAD) {
				w[x].ndead++;
				if (w[x].ovr.len)
					sb_adds(&w[x].ovr, " ");
				sb_addf(&w[x].ovr, "%s:%d", t->files[i].path,
					r->defs.v[k].line);
			} else {
				w[x].nlive++;
			}
		}
	}
	for (k = 0; k < nw; k++) {
		struct sbuf j = { 0 }, h = { 0 };
		const char *path = t->files[w[k].file].path;

		if (!w[k].ndead || w[k].nlive) {
			free(w[k].ovr.s);
			continue;
		}
		begin(&j, IK_WEAK, "dead");
		jkv(&j, "name", w[k].name);
		jkv(&j, "file", path);
		sb_addf(&j, ",\"line\":%d", w[k].line);
		jkv(&j, "overrides", w[k].ovr.s);
		sb_adds(&j, "}");
		sb_addf(&h, "%s:%d: __weak %s() is overridden only in %s",
			path, w[k].line, w[k].name, w[k].ovr.s);
		add_item(c, IK_WEAK, path, w[k].name, path, w[k].name, NULL, &j, &h);
		free(w[k].ovr.s);
	}
	free(w);
	smap_free(&weak);
}

struct mcount {
	struct dctx *c;
	int n, dead;
};

static int mcount_cb(int idx, void *arg)
{
	struct mcount *m = arg;

	m->n++;
	if (m->c->fst[idx] == ST_DEAD)
		m->dead++;
	return 0;
}

static void maint_items(struct dctx *c)
{
	struct mentries me;
	int i, k;

	maint_load(&c->t, &me);
	for (i = 0; i < me.n; i++) {
		struct mentry *e = &me.v[i];
		int matched = 0, dead = 0;
		struct sbuf pats = { 0 }, j = { 0 }, h = { 0 };

		for (k = 0; k < e->pats.n; k++) {
			struct mcount m = { c, 0, 0 };

			maint_match(&c->t, e->pats.v[k].pat, mcount_cb, &m);
			if (!m.n)
				continue;
			matched++;
			if (m.dead == m.n) {
				dead++;
				if (pats.len)
					sb_adds(&pats, " ");
				sb_adds(&pats, e->pats.v[k].pat);
			}
		}
		if (dead) {
			const char *st = dead == matched ? "dead" : "partial";

			begin(&j, IK_MAINT, st);
			jkv(&j, "title", e->title);
			sb_addf(&j, ",\"line\":%d", e->line);
			jkv(&j, "patterns", pats.s);
			sb_adds(&j, "}");
			sb_addf(&h, "MAINTAINERS:%d: %s: %s (%s)", e->line, e->title,
				dead == matched ? "whole entry" : "F: lines",
				pats.s);
			add_item(c, IK_MAINT, dead == matched && e->pats.n ?
				 e->pats.v[0].pat : "MAINTAINERS", e->title,
				 "MAINTAINERS", e->title, pats.s, &j, &h);
		}
		free(pats.s);
		for (k = 0; k < e->pats.n; k++)
			free(e->pats.v[k].pat);
		free(e->pats.v);
		free(e->title);
	}
	free(me.v);
}

/* ---- what the removal leaves behind in the files that stay ---- */

static int left_ikind(int lk)
{
	switch (lk) {
	case LK_PARAM:
	case LK_BRANCH:
		return IK_LPARAM;
	case LK_DOC:
		return IK_LDOC;
	case LK_COMMENT:
		return IK_LCOMMENT;
	default:
		return IK_LDECL;
	}
}

/*
 * The code pass of the leftovers needs only which files die: it runs on
 * its own thread from there (leftover_begin()), beside the item phases,
 * which leave the tree alone and keep one core busy; leftover_items()
 * waits for it, then does the documentation, which needs the items.
 */
struct lrun {
	struct lctx *l;
	pthread_t th;
};

static void *leftover_code_thread(void *arg)
{
	leftover_code(arg);
	return NULL;
}

static struct lrun *leftover_begin(struct dctx *c)
{
	struct tree *t = &c->t;
	struct lrun *r = xcalloc(1, sizeof(*r));
	struct lctx *l = xcalloc(1, sizeof(*l));
	unsigned char *gone = xcalloc(t->nfiles + 1, 1);
	unsigned char *left = xcalloc(t->nfiles + 1, 1);
	int i;

	for (i = 0; i < t->nfiles; i++) {
		gone[i] = c->fst[i] == ST_DEAD;
		left[i] = !gone[i];
	}
	for (i = 0; i < c->rm_arch.n; i++) {
		char kc[300];
		int f;

		vpush(l->rm_arches, c->rm_arch.v[i]);
		vpush(l->arch_words, c->rm_arch.v[i]);
		snprintf(kc, sizeof(kc), "arch/%s/Kconfig", c->rm_arch.v[i]);
		f = tree_find(t, kc);
		if (f >= 0 && t->files[f].res && t->files[f].res->kdefs.n)
			vpush(l->arch_words, t->files[f].res->kdefs.v[0].name);
	}
	l->gone_t = t;
	l->gone = gone;
	l->left_t = t;
	l->left = left;
	r->l = l;
	if (pthread_create(&r->th, NULL, leftover_code_thread, l))
		die("cannot create thread");
	return r;
}

static void leftover_items(struct dctx *c, struct lrun *r)
{
	struct tree *t = &c->t;
	struct lctx *l = r->l;
	int i;

	pthread_join(r->th, NULL);
	free(r);
	for (i = 0; i < t->nfiles; i++)
		if (l->gone[i])
			smap_put(&l->rm_paths, t->files[i].path, t->files[i].plen, 1);
	for (i = 0; i < c->items.n; i++)
		if (c->items.v[i].kind == IK_DIR || c->items.v[i].kind == IK_ARCH)
			smap_put(&l->rm_paths, c->items.v[i].path,
				 strlen(c->items.v[i].path), 1);
	for (i = 0; i < c->kr.syms.n; i++)
		if (sym_dead(c, c->kr.syms.v[i].name))
			vpush(l->doc_syms, c->kr.syms.v[i].name);
	leftover_docs(l);
	leftover_sort(l);
	for (i = 0; i < l->out.n; i++) {
		const struct leftover *lo = &l->out.v[i];
		int ik = left_ikind(lo->kind);
		struct sbuf j = { 0 }, h = { 0 };
		char key[4400];

		begin(&j, ik, lo->maybe ? "maybe" : "dead");
		jkv(&j, "what", lk_name[lo->kind]);
		jkv(&j, "file", lo->file);
		sb_addf(&j, ",\"line\":%d", lo->line);
		jkv(&j, "name", lo->name);
		jkv(&j, "reason", lo->what);
		sb_adds(&j, "}");
		sb_addf(&h, "%s:%d: %s%s: %s", lo->file, lo->line,
			lo->maybe ? "maybe: " : "", lo->name, lo->what);
		snprintf(key, sizeof(key), "%s:%08d:%s", lo->file, lo->line, lo->name);
		add_item(c, ik, lo->file, key, lo->file, lo->name, NULL, &j, &h);
		c->items.v[c->items.n - 1].lkind = lo->kind;
		c->items.v[c->items.n - 1].line = lo->line;
	}
}

static void output(struct dctx *c, int json)
{
	int i, counts[IK_NKINDS] = { 0 };
	const char *last = "";
	int lastkind = -1;

	if (c->items.n)
		qsort(c->items.v, c->items.n, sizeof(struct item), item_cmp);
	for (i = 0; i < c->items.n; i++)
		counts[c->items.v[i].kind]++;
	if (json) {
		printf("{\"tool\":\"chopblock\",\"format\":1,\"command\":\"dead\",\"tree\":");
		{
			struct sbuf b = { 0 };

			sb_json(&b, c->remnant_root ? c->remnant_root : c->t.root);
			sb_adds(&b, ",\"baseline\":");
			if (c->remnant_root)
				sb_json(&b, c->t.root);
			else
				sb_adds(&b, "null");
			sb_adds(&b, ",\"removed_arches\":[");
			for (i = 0; i < c->rm_arch.n; i++) {
				if (i)
					sb_adds(&b, ",");
				sb_json(&b, c->rm_arch.v[i]);
			}
			sb_adds(&b, "],\"removed_symbols\":[");
			for (i = 0; i < c->rm_sym.n; i++) {
				if (i)
					sb_adds(&b, ",");
				sb_json(&b, c->rm_sym.v[i]);
			}
			sb_adds(&b, "],\"counts\":{");
			for (i = 0; i < IK_NKINDS; i++)
				sb_addf(&b, "%s\"%s\":%d", i ? "," : "",
					kind_name[i], counts[i]);
			sb_adds(&b, "},\"items\":[");
			fputs(b.s, stdout);
			free(b.s);
		}
		for (i = 0; i < c->items.n; i++) {
			struct sbuf b = { 0 };

			/* add the subsystem to every item */
			sb_addn(&b, c->items.v[i].json,
				strlen(c->items.v[i].json) - 1);
			sb_adds(&b, ",\"subsystem\":");
			sb_json(&b, c->items.v[i].subsys);
			printf("%s\n%s}", i ? "," : "", b.s);
			free(b.s);
		}
		printf("\n]}\n");
		return;
	}
	if (c->remnant_root)
		printf("chopblock dead: what is left in %s of what the analysis of %s found dead\n",
		       c->remnant_root, c->t.root);
	printf("chopblock dead: tree %s, removing", c->t.root);
	for (i = 0; i < c->rm_arch.n; i++)
		printf(" arch/%s", c->rm_arch.v[i]);
	for (i = 0; i < c->rm_sym.n; i++)
		printf(" %s", c->rm_sym.v[i]);
	printf("\n");
	for (i = 0; i < IK_NKINDS; i++)
		printf("  %-46s %d\n", kind_title[i], counts[i]);
	{
		long files = 0, lines = 0;
		int k;

		for (k = 0; k < c->items.n; k++) {
			const char *j = c->items.v[k].json, *p;
			int kind = c->items.v[k].kind;

			if (kind != IK_ARCH && kind != IK_DIR && kind != IK_FILE &&
			    kind != IK_HEADER)
				continue;
			p = strstr(j, "\"files\":");
			files += p ? atol(p + 8) : 1;
			p = strstr(j, "\"lines\":");
			lines += p ? atol(p + 8) : 0;
		}
		printf("  %-46s %ld files, %ld lines\n", "Total to delete", files, lines);
	}
	for (i = 0; i < c->items.n; i++) {
		const struct item *it = &c->items.v[i];

		if (strcmp(last, it->subsys)) {
			printf("\n== %s ==\n", it->subsys);
			last = it->subsys;
			lastkind = -1;
		}
		if (it->kind != lastkind) {
			printf("  %s:\n", kind_title[it->kind]);
			lastkind = it->kind;
		}
		/* symbols of a removed architecture: count only */
		if (it->kind == IK_SYMBOL && in_removed_arch(c, it->human)) {
			int n = 0;

			while (i + n < c->items.n && c->items.v[i + n].kind == IK_SYMBOL &&
			       !strcmp(c->items.v[i + n].subsys, it->subsys))
				n++;
			printf("    %d symbols defined in %s (see --json)\n", n,
			       it->subsys);
			i += n - 1;
			continue;
		}
		printf("    %s\n", it->human);
	}
}

/* ---- remnants: what the baseline analysis found dead, still in a tree ---- */

static int ref_in(const struct tree *t, const char *path, const char *sym)
{
	int i = tree_find(t, path), k;
	const struct fres *r;

	if (i < 0 || !(r = t->files[i].res))
		return 0;
	for (k = 0; k < r->refs.n; k++)
		if (!strcmp(r->refs.v[k].name, sym))
			return 1;
	return 0;
}

static int item_present(const struct tree *t, const struct smap *kdefs,
			const struct mentries *me, const struct item *it)
{
	const struct fres *r;
	int i, k;

	switch (it->kind) {
	case IK_ARCH:
	case IK_DIR:
		return tree_has_dir(t, it->path);
	case IK_FILE:
	case IK_HEADER:
	case IK_DEFCONFIG:
		return tree_find(t, it->path) >= 0;
	case IK_SYMBOL:
		return smap_get(kdefs, it->name, strlen(it->name)) >= 0;
	case IK_REF:
		return ref_in(t, it->path, it->name);
	case IK_COND:
	case IK_WEAK:
		i = tree_find(t, it->path);
		if (i < 0 || !(r = t->files[i].res))
			return 0;
		if (it->kind == IK_COND) {
			for (k = 0; k < r->conds.n; k++)
				if (!strcmp(r->conds.v[k].text, it->name))
					return 1;
		} else {
			for (k = 0; k < r->weak.n; k++)
				if (!strcmp(r->weak.v[k].name, it->name))
					return 1;
		}
		return 0;
	case IK_LDECL:
	case IK_LPARAM:
	case IK_LDOC:
	case IK_LCOMMENT: {
		struct leftover l = { it->lkind, it->path, it->line, it->name,
				      NULL, 0 };

		return leftover_present(t, &l);
	}
	case IK_MAINT:
		for (i = 0; i < me->n; i++) {
			if (strcmp(me->v[i].title, it->name))
				continue;
			for (k = 0; k < me->v[i].pats.n; k++) {
				const char *p = strstr(it->extra, me->v[i].pats.v[k].pat);
				size_t n = strlen(me->v[i].pats.v[k].pat);

				if (p && (p == it->extra || p[-1] == ' ') &&
				    (!p[n] || p[n] == ' '))
					return 1;
			}
		}
		return 0;
	}
	return 1;
}

static void keep_remnants(struct dctx *c, const char *root)
{
	struct tree *t = xcalloc(1, sizeof(*t));
	struct smap kdefs = { 0 };
	struct mentries me;
	int i, k, n = 0;

	tree_load(t, root);
	tree_scan(t, 1, 0);
	tree_scan(t, 0, 0);
	maint_load(t, &me);
	for (i = 0; i < t->nfiles; i++) {
		const struct fres *r = t->files[i].res;

		if (r && t->files[i].kind == FK_KCONFIG)
			for (k = 0; k < r->kdefs.n; k++)
				smap_put(&kdefs, r->kdefs.v[k].name,
					 strlen(r->kdefs.v[k].name), 1);
	}
	for (i = 0; i < c->items.n; i++)
		if (item_present(t, &kdefs, &me, &c->items.v[i]))
			c->items.v[n++] = c->items.v[i];
	c->items.n = n;
	c->remnant_root = root;
}

int cmd_dead(int argc, char **argv)
{
	struct dctx *c = xcalloc(1, sizeof(*c));
	struct strvec tool = { 0 };
	const char *root = NULL, *base = NULL, *target = NULL;
	int json = 0, noleft = 0, i, a, kfd;
	struct lrun *lrun = NULL;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--tree") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--remove-arch") && i + 1 < argc)
			vpush(c->rm_arch, argv[++i]);
		else if (!strcmp(argv[i], "--remove-symbol") && i + 1 < argc) {
			const char *s = argv[++i];

			if (!strncmp(s, "CONFIG_", 7))
				s += 7;
			vpush(c->rm_sym, (char *)s);
		} else if (!strcmp(argv[i], "--keep") && i + 1 < argc) {
			const char *s = argv[++i];

			if (!strncmp(s, "CONFIG_", 7))
				s += 7;
			vpush(c->keep, (char *)s);
		} else if (!strcmp(argv[i], "--baseline") && i + 1 < argc) {
			base = argv[++i];
		} else if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--no-leftovers")) {
			noleft = 1;
		} else {
			die("dead: unknown or incomplete option '%s' (see chopblock --help)",
			    argv[i]);
		}
	}
	if (!root)
		die("dead: --tree DIR is required");
	if (!c->rm_arch.n && !c->rm_sym.n)
		die("dead: give at least one --remove-arch or --remove-symbol");
	if (base) {
		/* analyze the baseline, then keep what is left in --tree */
		target = root;
		root = base;
	}
	phase("start");
	tree_load(&c->t, root);
	phase("load");
	for (i = 0; i < c->rm_arch.n; i++) {
		for (a = 0; a < c->t.arches.n; a++)
			if (!strcmp(c->t.arches.v[a], c->rm_arch.v[i]))
				break;
		if (a == c->t.arches.n)
			die("dead: unknown architecture '%s' (no arch/%s/Kconfig in %s%s)",
			    c->rm_arch.v[i], c->rm_arch.v[i], root, base ? "" :
			    "; if it was removed already, give the tree before with --baseline DIR");
		c->rmask |= 1u << a;
	}
	tree_scan(&c->t, 1, 0);
	for (i = 0; i < c->t.nfiles; i++) {
		const struct fres *r = c->t.files[i].res;
		int k;

		if (r && c->t.files[i].kind == FK_KCONFIG)
			for (k = 0; k < r->toolchain.n; k++)
				vpush(tool, r->toolchain.v[k]);
	}
	kfd = kconf_start(&c->t, tool.v, tool.n, c->rm_sym.v, c->rm_sym.n);
	phase("kconfig scan");
	tree_scan(&c->t, 0, 0);
	phase("scan");
	kconf_finish(kfd, &c->kr);
	phase("kconfig");
	for (i = 0; i < c->rm_sym.n; i++)
		if (smap_get(&c->kr.map, c->rm_sym.v[i], strlen(c->rm_sym.v[i])) < 0)
			die("dead: unknown symbol '%s' (no architecture defines it)",
			    c->rm_sym.v[i]);
	dead_symbols(c);
	mk_build(&c->t, &c->mk);
	c->refst = xcalloc(c->mk.refs.n + 1, 1);
	phase("mk");
	analyze_files(c);
	phase("files");
	if (!noleft)
		lrun = leftover_begin(c);
	symbol_items(c);
	file_items(c);
	phase("file items");
	cond_items(c);
	phase("conds");
	weak_items(c);
	phase("weak");
	maint_items(c);
	phase("maint");
	if (lrun)
		leftover_items(c, lrun);
	if (target)
		keep_remnants(c, target);
	output(c, json);
	free(tool.v);
	for (i = 0, a = 0; i < c->items.n; i++)
		a += c->items.v[i].kind < IK_FIRST_LEFT;
	return target && a ? 1 : 0;
}
