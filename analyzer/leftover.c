// SPDX-License-Identifier: GPL-2.0
/*
 * What a removal leaves behind in the code that stays: declarations
 * (prototypes, extern variables, enum constants, struct types, macros,
 * static inline stubs of headers) whose every definition and user went
 * with the removal; bool parameters that every remaining caller passes as
 * false; branches on removed Kconfig symbols; comments that give a removed
 * architecture as the reason for code (the last ones as "maybe").
 *
 * Two passes.  The removed code (files that die, or that a series deletes
 * or edits) is tokenized whole: every identifier it uses or defines, and
 * for every call which arguments were not literally false.  Then the
 * remaining code is tokenized with those identifiers as a filter, and
 * each hit is classified as a declaration, a definition or a use.
 * Used by "dead" and "check --baseline" alike (see leftover_code()).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "chopblock.h"

enum occ { OCC_NONE, OCC_DECL, OCC_DEF, OCC_USE, OCC_CALL };

static const char *next_char(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
			 *p == '\\'))
		p++;
	return p;
}

/* memcmp() of a constant length once inlined: no call per identifier */
static inline int prev_is(const struct ctok *t, const char *w)
{
	size_t n = strlen(w);

	return t->prev == TOK_IDENT && t->prevlen == n && !memcmp(t->prevp, w, n);
}

static int is_keyword(const char *p, size_t n)
{
#define KW(w) (n == sizeof(w) - 1 && !memcmp(p, w, sizeof(w) - 1))
	switch (p[0]) {
	case 'r':
		return KW("return");
	case 's':
		return KW("sizeof") || KW("switch");
	case 'i':
		return KW("if");
	case 'w':
		return KW("while");
	case 'f':
		return KW("for");
	case 'c':
		return KW("case");
	case 'e':
		return KW("else");
	case 'd':
		return KW("do") || KW("defined");
	case 'g':
		return KW("goto");
	case 't':
		return KW("typeof");
	case '_':
		return KW("__typeof__");
	}
	return 0;
#undef KW
}

struct occinfo {
	int kind;		/* LK_* of a declaration */
	unsigned int args;	/* false arguments of a call */
	int nargs;
	unsigned int boolp;	/* bool parameters of a declaration */
};

/* What the identifier at t->p is: a declaration, a definition, a use. */
static int classify(const struct ctok *t, int header, struct occinfo *o)
{
	const char *after = t->p + t->len, *n, *end;

	memset(o, 0, sizeof(*o));
	if (t->directive == PP_COND || t->directive == PP_OTHER)
		return OCC_NONE;
	if (t->directive == PP_DEFINE) {
		if (t->ppfirst) {
			o->kind = LK_MACRO;
			return OCC_DECL;
		}
		return OCC_USE;
	}
	n = next_char(after, t->e);
	if (prev_is(t, "struct") || prev_is(t, "union") || prev_is(t, "enum")) {
		if (n < t->e && (*n == '{' || *n == ';')) {
			o->kind = LK_STRUCT;
			return OCC_DECL;
		}
		return OCC_USE;
	}
	if (t->enum_depth >= 0 && t->depth == t->enum_depth + 1 &&
	    (t->prev == '{' || t->prev == ',' || t->prev == ';')) {
		o->kind = LK_ENUM;
		return OCC_DECL;
	}
	if (n < t->e && *n == '(') {
		if (t->depth == 0 && (t->prev == '*' ||
				      (t->prev == TOK_IDENT &&
				       !is_keyword(t->prevp, t->prevlen)))) {
			const char *q;

			o->boolp = ctok_bool_params(n, t->e);
			ctok_args(n, t->e, &o->nargs, &end);
			if (!end)
				return OCC_USE;
			for (q = end + 1; q < t->e && *q != ';' && *q != '{' && *q != '='; q++)
				;
			if (q < t->e && *q == '{') {
				if (header) {
					o->kind = LK_INLINE;
					return OCC_DECL;
				}
				return OCC_DEF;
			}
			if (q < t->e && *q == ';') {
				o->kind = LK_PROTO;
				return OCC_DECL;
			}
			return OCC_USE;
		}
		if (t->depth > 0) {
			o->args = ctok_args(n, t->e, &o->nargs, &end);
			return end ? OCC_CALL : OCC_USE;
		}
		return OCC_USE;
	}
	if (t->depth == 0 && t->externed && n < t->e &&
	    (*n == ';' || *n == '[' || *n == ',')) {
		o->kind = LK_EXTERN;
		return OCC_DECL;
	}
	return OCC_USE;
}

/* ---- pass 1: the removed code ---- */

struct rmscan {
	struct lctx *c;
	int header;
	uint32_t where;		/* bit of the file's arch/X/, or bit 31 */
	char *subsys;		/* subsystem_of() the file */
	const char *also_left;	/* path, when the file also stays (edited) */
};

/* bit a for a file of arch/<arches[a]>/, bit 31 for one outside arch/ */
static uint32_t where_bit(const struct tree *t, const char *path)
{
	int a;

	if (strncmp(path, "arch/", 5))
		return 1u << 31;
	for (a = 0; a < t->arches.n && a < 31; a++) {
		size_t n = strlen(t->arches.v[a]);

		if (!strncmp(path + 5, t->arches.v[a], n) && path[5 + n] == '/')
			return 1u << a;
	}
	return 1u << 31;
}

static int boring(const char *p, size_t n)
{
	static const char *const w[] = { "int", "void", "char", "long", "short",
		"unsigned", "signed", "const", "static", "inline", "struct",
		"union", "enum", "extern", "return", "sizeof", "if", "else",
		"for", "while", "do", "switch", "case", "break", "continue",
		"default", "goto", "typedef", "volatile", "bool", "true",
		"false", "NULL", "u8", "u16", "u32", "u64", "__init", "__exit",
		"define", "include", "ifdef", "ifndef", "endif", "defined", NULL };
	int i;

	if (n < 3)
		return 1;
	for (i = 0; w[i]; i++)
		if (strlen(w[i]) == n && !memcmp(w[i], p, n))
			return 1;
	return 0;
}

static void rm_cb(struct ctok *t, int id)
{
	struct rmscan *s = t->arg;
	struct lctx *c = s->c;
	struct occinfo o;
	int k = classify(t, s->header, &o);

	(void)id;
	if (k == OCC_NONE || boring(t->p, t->len))
		return;
	if (k == OCC_DECL && o.kind != LK_MACRO && o.kind != LK_ENUM &&
	    o.kind != LK_STRUCT)
		return;
	id = idtab_add(&c->names, t->p, t->len);
	if (id >= c->ncap) {
		int cap = c->ncap ? c->ncap * 2 : 4096;

		while (cap <= id)
			cap *= 2;
		c->rm = xrealloc(c->rm, cap);
		c->rm_nonfalse = xrealloc(c->rm_nonfalse, cap);
		c->rm_where = xrealloc(c->rm_where, cap * sizeof(uint32_t));
		memset(c->rm + c->ncap, 0, cap - c->ncap);
		memset(c->rm_nonfalse + c->ncap, 0, cap - c->ncap);
		memset(c->rm_where + c->ncap, 0, (cap - c->ncap) * sizeof(uint32_t));
		c->ncap = cap;
	}
	if (k == OCC_DECL) {
		/*
		 * A removed file with its own macro, enum or struct of that
		 * name (not an edited one, which holds the very declaration)
		 */
		if (!s->also_left)
			c->rm[id] |= RM_OWN;
		return;
	}
	c->rm[id] |= RM_USE;
	c->rm_where[id] |= s->where;
	{
		char key[4400];

		snprintf(key, sizeof(key), "%s|%.*s", s->subsys, (int)t->len, t->p);
		smap_put(&c->rm_sub, key, strlen(key), 1);
	}
	if (s->also_left) {
		char key[4400];

		snprintf(key, sizeof(key), "%s|%.*s", s->also_left, (int)t->len, t->p);
		smap_put(&c->rm_here, key, strlen(key), 1);
	}
	if (k == OCC_DEF)
		c->rm[id] |= RM_DEF;
	if (k == OCC_CALL)
		c->rm_nonfalse[id] |= ~o.args & ((1u << (o.nargs < 8 ? o.nargs : 8)) - 1);
}

static int code_kind(int kind)
{
	return kind == FK_C || kind == FK_H || kind == FK_S;
}

/* ---- pass 2: the code that stays ---- */

struct site {
	int id, kind, file, line;
};

struct lacc {			/* one thread's findings */
	struct lctx *c;
	unsigned char *use;	/* used or defined (not only declared) */
	unsigned char *any;	/* occurs at all */
	unsigned char *af;	/* AND of the false-argument masks of calls */
	int *ncalls;
	unsigned char *boolp;
	int *bfile, *bline, *bdef;
	VEC(struct site) sites;	/* declarations */
	VEC(struct site) branches;
	VEC(struct site) comments;
	int file, header;
};

/*
 * The bool parameters a declaration or definition of id shows, and where
 * to report them: every site's bits together, at the first definition
 * (in file order), or the first declaration when there is none. The join
 * of the workers takes the least site too, so that the finding does not
 * depend on which worker read which file.
 */
static int site_before(int def, int file, int line, int bdef, int bfile,
		       int bline)
{
	if (def != bdef)
		return def > bdef;
	return file < bfile || (file == bfile && line < bline);
}

static void note_boolp(struct lacc *a, int id, unsigned int bits, int def,
		       int file, int line)
{
	if (!a->boolp[id] || site_before(def, file, line, a->bdef[id],
					 a->bfile[id], a->bline[id])) {
		a->bfile[id] = file;
		a->bline[id] = line;
		a->bdef[id] = def;
	}
	a->boolp[id] |= bits;
}

/*
 * Calls joined: the AND of the false-argument masks over those that saw
 * calls, and their count.
 */
static void join_calls(unsigned char *af, int *calls, unsigned char more_af,
		       int more_calls)
{
	if (more_calls)
		*af = *calls ? *af & more_af : more_af;
	*calls += more_calls;
}

static void left_cb(struct ctok *t, int id)
{
	struct lacc *a = t->arg;
	struct lctx *c = a->c;
	struct occinfo o;
	int k;

	if (c->map)
		id = c->map[id];
	if (c->rm[id] & RM_SYM) {
		if (t->directive == PP_COND ||
		    (t->prev == '(' && t->prevp &&
		     (prev_is(t, "IS_ENABLED") || prev_is(t, "IS_BUILTIN") ||
		      prev_is(t, "IS_MODULE") || prev_is(t, "IS_REACHABLE")))) {
			struct site s = { id, LK_BRANCH, a->file, t->line };

			vpush(a->branches, s);
		}
		return;
	}
	a->any[id] = 1;
	if (a->use[id] && (!c->rm_nonfalse[id] || (a->ncalls[id] && !a->af[id])))
		return;		/* nothing more to learn */
	k = classify(t, a->header, &o);
	switch (k) {
	case OCC_DECL: {
		struct site s = { id, o.kind, a->file, t->line };

		vpush(a->sites, s);
		if (o.boolp && (o.kind == LK_PROTO || o.kind == LK_INLINE))
			note_boolp(a, id, o.boolp, 0, a->file, t->line);
		break;
	}
	case OCC_DEF:
		a->use[id] = 1;
		if (o.boolp)
			note_boolp(a, id, o.boolp, 1, a->file, t->line);
		break;
	case OCC_CALL:
		a->use[id] = 1;
		a->af[id] = a->ncalls[id] ? a->af[id] & o.args : o.args;
		a->ncalls[id]++;
		break;
	case OCC_USE:
		a->use[id] = 1;
		/* a function pointer: a caller we cannot see */
		a->af[id] = 0;
		a->ncalls[id]++;
		break;
	}
}

/*
 * A whole word w in [s, e), in any case; a name of three letters or less
 * ("sh", "um") only in capitals, as in lower case it is mostly a variable.
 * Not part of a path ("/bin/sh") nor of a longer name ("SH-Mobile").
 */
static const char *find_word(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w), k;
	const char *p, *lp, *up_p;
	char lo = w[0] | 0x20, up = w[0] & ~0x20;
	int caps = n <= 3;

	if ((size_t)(e - s) < n)
		return NULL;
	/*
	 * Candidates in order, found with memchr(): the first letter in
	 * capitals, and (for a long name) in lower case too.  Comments are
	 * a quarter of the code and most hold neither.
	 */
	e -= n - 1;		/* the last place a match can start, plus one */
	up_p = memchr(s, up, e - s);
	lp = caps || lo == up ? NULL : memchr(s, lo, e - s);
	while (up_p || lp) {
		if (up_p && (!lp || up_p < lp)) {
			p = up_p;
			up_p = p + 1 < e ? memchr(p + 1, up, e - p - 1) : NULL;
		} else {
			p = lp;
			lp = p + 1 < e ? memchr(p + 1, lo, e - p - 1) : NULL;
		}
		if (strncasecmp(p, w, n))
			continue;
		for (k = 0; caps && k < n && !(p[k] >= 'a' && p[k] <= 'z'); k++)
			;
		if (caps && k < n)
			continue;
		if ((p == s || (!is_ident(p[-1]) && !strchr("/.$-", p[-1]))) &&
		    (p + n == e + n - 1 ||
		     (!is_ident(p[n]) && p[n] != '/' && p[n] != '-')))
			return p;
	}
	return NULL;
}

static int in_list(const char *p, size_t n, const char *const *l)
{
	for (; *l; l++)
		if (strlen(*l) == n && !strncasecmp(p, *l, n))
			return 1;
	return 0;
}

/*
 * A reason given with the architecture's name w (of length n) in the
 * comment [s, e): "for SH", "on sh", "because of sh" just before it, or
 * "sh needs", "SH only" just after, within four words.
 */
static int reason_cue(const char *s, const char *e, const char *w, size_t n)
{
	static const char *const before[] = { "for", "on", "because", "since",
		"due", "workaround", "quirk", "hack", "broken", "needed",
		"required", NULL };
	static const char *const after[] = { "needs", "need", "requires",
		"require", "only", "specific", "wants", "cannot", "lacks",
		"doesn", "does", "has", "quirk", "workaround", "hack", NULL };
	const char *p = w;
	int k;

	for (k = 0; k < 4 && p > s; k++) {
		const char *we;

		while (p > s && !is_ident(p[-1]))
			p--;
		we = p;
		while (p > s && is_ident(p[-1]))
			p--;
		if (we > p && in_list(p, we - p, before))
			return 1;
	}
	p = w + n;
	for (k = 0; k < 4 && p < e; k++) {
		const char *ws;

		while (p < e && !is_ident(*p))
			p++;
		ws = p;
		while (p < e && is_ident(*p))
			p++;
		if (p > ws && in_list(ws, p - ws, after))
			return 1;
	}
	return 0;
}

static void comment_cb(struct ctok *t, const char *s, const char *e, int line)
{
	struct lacc *a = t->arg;
	struct lctx *c = a->c;
	int i;

	for (i = 0; i < c->arch_words.n; i++) {
		const char *w = find_word(s, e, c->arch_words.v[i]);
		size_t n = strlen(c->arch_words.v[i]);

		if (w && reason_cue(s, e, w, n)) {
			const char *q;
			struct site st = { i, LK_COMMENT, a->file, line };

			for (q = s; q < w; q++)
				if (*q == '\n')
					st.line++;
			vpush(a->comments, st);
			return;
		}
	}
}

struct ljob {
	struct lctx *c;
	int next;
	int stage;		/* 0: headers (and edited files), 1: the rest */
	const unsigned char *first;	/* per file of left_t: read in stage 0 */
	pthread_mutex_t lock;
	struct lacc acc[17];	/* one a worker: WORKERS is at most 17 */
	int nacc;
};

static void acc_init(struct lacc *a, struct lctx *c)
{
	int n = c->names.names.n + 1;

	memset(a, 0, sizeof(*a));
	a->c = c;
	a->use = xcalloc(n, 1);
	a->any = xcalloc(n, 1);
	a->af = xcalloc(n, 1);
	a->boolp = xcalloc(n, 1);
	a->ncalls = xcalloc(n, sizeof(int));
	a->bfile = xcalloc(n, sizeof(int));
	a->bline = xcalloc(n, sizeof(int));
	a->bdef = xcalloc(n, sizeof(int));
}

static void *left_worker(void *arg)
{
	struct ljob *j = arg;
	struct lctx *c = j->c;
	struct lacc *a;
	struct ctok t = { 0 };
	char *buf = NULL;
	size_t cap = 0;

	pthread_mutex_lock(&j->lock);
	a = &j->acc[j->nacc++];
	pthread_mutex_unlock(&j->lock);
	if (!a->c)
		acc_init(a, c);
	t.filter = c->map ? &c->names2 : &c->names;
	t.cb = left_cb;
	t.comment = c->arch_words.n ? comment_cb : NULL;
	t.arg = a;
	for (;;) {
		int i, end;

		pthread_mutex_lock(&j->lock);
		i = j->next;
		j->next += 32;
		pthread_mutex_unlock(&j->lock);
		if (i >= c->left_t->nfiles)
			break;
		end = i + 32 < c->left_t->nfiles ? i + 32 : c->left_t->nfiles;
		for (; i < end; i++) {
			const struct file *f = &c->left_t->files[i];
			size_t n;
			char *b;

			if (!c->left[i] || !code_kind(f->kind) ||
			    j->first[i] != !j->stage)
				continue;
			b = read_buf(c->left_t->root, f->path, &buf, &cap, &n);
			if (!b)
				continue;
			a->file = i;
			a->header = f->kind == FK_H;
			/* another architecture's comments compare, not reason */
			t.comment = c->arch_words.n && strncmp(f->path, "arch/", 5) ?
				    comment_cb : NULL;
			ctok_scan(&t, b, b + n);
		}
	}
	free(buf);
	return NULL;
}

/*
 * After the headers: the names the other files still matter for.  A
 * declaration no header uses (the other files may), a function with
 * bool parameters whose callers have not all been seen yet, a name
 * defined in the removed code and not seen at all (is it really gone?),
 * and the removed symbols.  Files edited by a series (check --baseline)
 * can hold declarations themselves: they are read with the headers, with
 * every name; the declarations of the other .c and .S files are never
 * ones the removed code could see (visible()), so these only need the
 * names left open, as in "dead".
 */
static void narrow(struct lctx *c, struct ljob *j)
{
	int n = c->names.names.n, i, k;
	unsigned char *keep;

	keep = xcalloc(n + 1, 1);
	for (k = 0; k < j->nacc; k++) {
		const struct lacc *a = &j->acc[k];

		for (i = 0; i < a->sites.n; i++)
			keep[a->sites.v[i].id] = 1;
	}
	/* on what all workers saw together, not on what one of them did */
	for (i = 0; i < n; i++) {
		unsigned char use = 0, boolp = 0, af = 0;
		int calls = 0;

		for (k = 0; k < j->nacc; k++) {
			const struct lacc *a = &j->acc[k];

			use |= a->use[i];
			boolp |= a->boolp[i];
			join_calls(&af, &calls, a->af[i], a->ncalls[i]);
		}
		if (use && !(boolp && c->rm_nonfalse[i] && !(calls && !af)))
			keep[i] |= 2;
	}
	c->map = xmalloc((n + 1) * sizeof(int));
	for (i = 0; i < n; i++) {
		int any = 0, id;

		for (k = 0; k < j->nacc; k++)
			any |= j->acc[k].any[i];
		if (keep[i] == 1 || (c->rm[i] & RM_SYM) ||
		    ((c->rm[i] & RM_DEF) && !any)) {
			id = idtab_add(&c->names2, c->names.names.v[i],
				       strlen(c->names.names.v[i]));
			c->map[id] = i;
		}
	}
	free(keep);
}

static void add_left(struct lctx *c, int kind, const struct tree *t, int file,
		     int line, const char *name, const char *what, int maybe)
{
	struct leftover l = { kind, t->files[file].path, line, xstrdup(name),
			      xstrdup(what), maybe };

	vpush(c->out, l);
}

/*
 * Could the removed code have used the declaration at st?  One in a .c
 * or .S file only if that very file lost a use of it (an edited file);
 * one in arch/Y/ only if removed code of arch/Y/ used the name.
 */
static int visible(struct lctx *c, const struct site *st)
{
	const char *path = c->left_t->files[st->file].path;
	const char *name = c->names.names.v[st->id];
	int kind = c->left_t->files[st->file].kind;
	uint32_t w;

	if (strstr(path, "include/uapi/"))
		return 0;	/* the user ABI: nothing of it is ours to drop */
	if ((c->rm[st->id] & RM_OWN) && st->kind != LK_PROTO &&
	    st->kind != LK_EXTERN && st->kind != LK_INLINE)
		return 0;	/* the removed uses meant the removed definition */
	if (kind != FK_H) {
		char key[4400];

		snprintf(key, sizeof(key), "%s|%s", path, name);
		return smap_get(&c->rm_here, key, strlen(key)) >= 0;
	}
	if (!strncmp(path, "include/", 8))
		return 1;
	if (strncmp(path, "arch/", 5)) {
		/* a subsystem's own header: its removed code only */
		char key[4400], *sub = subsystem_of(path);

		snprintf(key, sizeof(key), "%s|%s", sub, name);
		free(sub);
		return smap_get(&c->rm_sub, key, strlen(key)) >= 0;
	}
	w = where_bit(c->gone_t, path);	/* arch/Y/ as the other tree counts */
	return w != 1u << 31 && (c->rm_where[st->id] & w);
}

static const char *const decl_what[] = {
	[LK_PROTO] = "prototype", [LK_EXTERN] = "extern variable",
	[LK_ENUM] = "enum constant", [LK_STRUCT] = "struct type",
	[LK_MACRO] = "macro", [LK_INLINE] = "static inline function",
};

void leftover_code(struct lctx *c)
{
	struct ljob j = { .c = c };
	int i, k, n;
	unsigned char *use, *any, *af, *boolp;
	int *ncalls, *bfile, *bline;
	struct rmscan rs = { .c = c };
	struct ctok t = { 0 };
	unsigned char *first;
	char *buf = NULL;
	size_t cap = 0;

	/* pass 1: the removed code */
	t.cb = rm_cb;
	t.arg = &rs;
	for (i = 0; i < c->gone_t->nfiles; i++) {
		const struct file *f = &c->gone_t->files[i];
		size_t len;
		char *b;

		if (!c->gone[i] || !code_kind(f->kind))
			continue;
		b = read_buf(c->gone_t->root, f->path, &buf, &cap, &len);
		if (!b)
			continue;
		rs.header = f->kind == FK_H;
		rs.where = where_bit(c->gone_t, f->path);
		free(rs.subsys);
		rs.subsys = subsystem_of(f->path);
		rs.also_left = c->gone_t != c->left_t &&
			       tree_find(c->left_t, f->path) >= 0 ? f->path : NULL;
		ctok_scan(&t, b, b + len);
	}
	free(buf);
	/* removed Kconfig symbols, for the branches on them */
	for (i = 0; i < c->rm_syms.n; i++) {
		char name[300];
		int m;

		for (m = 0; m < 2; m++) {
			snprintf(name, sizeof(name), "CONFIG_%s%s", c->rm_syms.v[i],
				 m ? "_MODULE" : "");
			k = idtab_add(&c->names, name, strlen(name));
			if (k >= c->ncap) {
				int cap = c->ncap ? c->ncap * 2 : 4096;

				while (cap <= k)
					cap *= 2;
				c->rm = xrealloc(c->rm, cap);
				c->rm_nonfalse = xrealloc(c->rm_nonfalse, cap);
				c->rm_where = xrealloc(c->rm_where, cap * sizeof(uint32_t));
				memset(c->rm + c->ncap, 0, cap - c->ncap);
				memset(c->rm_nonfalse + c->ncap, 0, cap - c->ncap);
				memset(c->rm_where + c->ncap, 0,
				       (cap - c->ncap) * sizeof(uint32_t));
				c->ncap = cap;
			}
			c->rm[k] = RM_SYM;
		}
	}
	phase("leftovers: removed code");
	if (!c->names.names.n)
		return;

	/*
	 * pass 2: the code that stays, headers first (and the files a series
	 * edited, which can hold declarations the removed code saw); then
	 * the other files with only the names left open as a filter
	 */
	first = xcalloc(c->left_t->nfiles + 1, 1);
	for (i = 0; i < c->left_t->nfiles; i++) {
		const struct file *f = &c->left_t->files[i];

		first[i] = f->kind == FK_H;
		if (!first[i] && c->gone_t != c->left_t && code_kind(f->kind)) {
			int o = tree_find(c->gone_t, f->path);

			first[i] = o >= 0 && c->gone[o];
		}
	}
	j.first = first;
	pthread_mutex_init(&j.lock, NULL);
	for (j.stage = 0; j.stage < 2; j.stage++) {
		j.next = 0;
		j.nacc = 0;
		run_workers(left_worker, &j);
		if (!j.stage) {
			phase("leftovers: headers");
			narrow(c, &j);
			if (getenv("CHOPBLOCK_DEBUG"))
				fprintf(stderr, "leftovers: %d names, %d after the headers\n",
					c->names.names.n, c->names2.names.n);
		}
	}
	pthread_mutex_destroy(&j.lock);
	free(first);
	n = c->names.names.n;
	use = j.acc[0].use;
	any = j.acc[0].any;
	af = j.acc[0].af;
	boolp = j.acc[0].boolp;
	ncalls = j.acc[0].ncalls;
	bfile = j.acc[0].bfile;
	bline = j.acc[0].bline;
	for (k = 1; k < j.nacc; k++) {
		struct lacc *a = &j.acc[k];

		for (i = 0; i < n; i++) {
			use[i] |= a->use[i];
			any[i] |= a->any[i];
			join_calls(&af[i], &ncalls[i], a->af[i], a->ncalls[i]);
			/* into the first worker's (boolp, bfile, ... above) */
			if (a->boolp[i])
				note_boolp(&j.acc[0], i, a->boolp[i], a->bdef[i],
					   a->bfile[i], a->bline[i]);
		}
	}
	c->gone_ident = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++)
		if ((c->rm[i] & RM_DEF) && !any[i])
			c->gone_ident[i] = 1;
	for (k = 0; k < j.nacc; k++) {
		struct lacc *a = &j.acc[k];
		int s;

		for (s = 0; s < a->sites.n; s++) {
			const struct site *st = &a->sites.v[s];
			char what[160];

			if (use[st->id] || !(c->rm[st->id] & RM_USE) ||
			    !visible(c, st))
				continue;
			snprintf(what, sizeof(what), "%s; its every %s went with the removal",
				 decl_what[st->kind],
				 st->kind == LK_PROTO || st->kind == LK_EXTERN ?
				 "definition and user" : "user");
			add_left(c, st->kind, c->left_t, st->file, st->line,
				 c->names.names.v[st->id], what, 0);
		}
		for (s = 0; s < a->branches.n; s++) {
			const struct site *st = &a->branches.v[s];
			char what[400];

			snprintf(what, sizeof(what), "branch on %s, which is gone: constant",
				 c->names.names.v[st->id]);
			add_left(c, LK_BRANCH, c->left_t, st->file, st->line,
				 c->names.names.v[st->id], what, 0);
		}
		for (s = 0; s < a->comments.n; s++) {
			const struct site *st = &a->comments.v[s];
			char what[300];

			snprintf(what, sizeof(what),
				 "comment gives %s as a reason; the code stays",
				 c->arch_words.v[st->id]);
			add_left(c, LK_COMMENT, c->left_t, st->file, st->line,
				 c->arch_words.v[st->id], what, 1);
		}
	}
	for (i = 0; i < n; i++) {
		unsigned int p = boolp[i] & af[i] & c->rm_nonfalse[i];
		char what[200];
		int b;

		if (!p || !ncalls[i] || !use[i])
			continue;
		for (b = 0; b < 8 && !(p & (1u << b)); b++)
			;
		snprintf(what, sizeof(what),
			 "bool parameter %d: all %d remaining callers pass false", b + 1,
			 ncalls[i]);
		add_left(c, LK_PARAM, c->left_t, bfile[i], bline[i],
			 c->names.names.v[i], what, 0);
	}
	phase("leftovers: remaining code");
}

const char *const lk_name[LK_NKINDS] = {
	"prototype", "extern", "enum-constant", "struct", "macro", "inline",
	"constant-parameter", "constant-branch", "documentation", "comment",
};

static int lcmp(const void *a, const void *b)
{
	const struct leftover *x = a, *y = b;
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

void leftover_sort(struct lctx *c)
{
	if (c->out.n)
		qsort(c->out.v, c->out.n, sizeof(*c->out.v), lcmp);
}

/*
 * Whether a leftover found in one tree is still in another: the file is
 * there and still names it (as a word).  Used by "dead --baseline".
 */
int leftover_present(const struct tree *t, const struct leftover *l)
{
	static char *buf;
	static size_t cap;
	const char *name = l->name, *p;
	size_t n, len = strlen(name);
	int found = 0;
	char *b;

	if (tree_find(t, l->file) < 0)
		return 0;
	if (l->kind == LK_DOC && len && name[len - 1] == '/' &&
	    !strncmp(name, "Documentation/", 14))
		return tree_has_dir(t, name);
	b = read_buf(t->root, l->file, &buf, &cap, &n);
	if (!b)
		return 0;
	if (l->kind == LK_COMMENT) {
		/* the architecture's name, as the comment spells it */
		for (p = b; !found && p + len <= b + n; p++)
			found = !strncasecmp(p, name, len) &&
				(p == b || !is_ident(p[-1])) &&
				(p + len == b + n || !is_ident(p[len]));
	}
	for (p = b; !found && (p = memmem(p, b + n - p, name, len)); p++)
		found = (p == b || !is_ident(p[-1])) &&
			(p + len == b + n || !is_ident(p[len]));
	return found;
}
