// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock guards: what compiles the lines a series changes.
 *
 * Input: a unified diff (git diff BASE..TIP) and the tree at TIP.  For
 * every surviving file the diff modifies:
 *
 *  - the Makefile guards that build it, walking up the directories
 *    (composite objects, ifdef/ifeq blocks), as alternative paths; a
 *    header, or a .c file that no Makefile names, takes the paths of the
 *    files that #include it;
 *  - the changed lines, grouped into spans that sit in the same
 *    preprocessor branch, each with the condition of that branch
 *    (#if/#ifdef/#elif/#else folded into one expression; IS_ENABLED()
 *    and friends spelled out with defined());
 *  - for Kconfig files, the symbol whose entry a change edits;
 *  - the debug options of the touched subsystem: DEBUG symbols of its
 *    Kconfig files and the Makefile switches that add -DDEBUG;
 *  - with --arch, per architecture: whether some configuration can build
 *    it (y), only with COMPILE_TEST (ct) or never (n), by the Kconfig
 *    model of "dead" (which symbols some configuration can enable).
 */
#include <stdlib.h>
#include <string.h>

#include "chopblock.h"

/* ---- the diff ---- */

struct dchange {
	int pos;	/* new-side line; a removal sits before this line */
	char sign;	/* '+' or '-' */
	int hunk;
	int kentry;	/* Kconfig: removed line starts a config entry */
	char *text;
};

struct dfile {
	char *path;	/* new path (old path if deleted) */
	char status;	/* M, A, D, R */
	int added, removed;
	VEC(struct dchange) ch;
};

static VEC(struct dfile) dfiles;

static char *diff_path(const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		n--;
	if ((s[0] == 'a' || s[0] == 'b') && s[1] == '/')
		return xstrndup(s + 2, n - 2);
	return xstrndup(s, n);
}

static int kconfig_entry_line(const char *l)
{
	while (*l == ' ' || *l == '\t')
		l++;
	return !strncmp(l, "config ", 7) || !strncmp(l, "menuconfig ", 11);
}

static void parse_diff(const char *name)
{
	FILE *fp = strcmp(name, "-") ? fopen(name, "r") : stdin;
	struct dfile *cur = NULL;
	char *line = NULL;
	size_t cap = 0;
	int newl = 0, oldleft = 0, newleft = 0, hunk = 0, inentry = 0;

	if (!fp)
		die("guards: cannot read the diff '%s'", name);
	while (getline(&line, &cap, fp) > 0) {
		if (!strncmp(line, "diff --git ", 11)) {
			struct dfile f = { 0 };

			vpush(dfiles, f);
			cur = &dfiles.v[dfiles.n - 1];
			cur->status = 'M';
			oldleft = newleft = 0;
			continue;
		}
		if (!cur)
			continue;
		if (oldleft > 0 || newleft > 0) {
			struct dchange c = { 0 };

			if (line[0] == '\\')
				continue;
			if (line[0] == ' ' || line[0] == '\n') {
				newl++;
				oldleft--;
				newleft--;
				inentry = 0;
				continue;
			}
			if (line[0] != '+' && line[0] != '-') {
				oldleft = newleft = 0;
				goto header;
			}
			c.sign = line[0];
			c.hunk = hunk;
			c.text = xstrndup(line + 1, strcspn(line + 1, "\n"));
			if (c.sign == '+') {
				c.pos = newl++;
				newleft--;
				cur->added++;
				inentry = 0;
			} else {
				c.pos = newl;
				oldleft--;
				cur->removed++;
				if (kconfig_entry_line(c.text))
					inentry = 1;
				c.kentry = inentry;
			}
			vpush(cur->ch, c);
			continue;
		}
header:
		if (!strncmp(line, "--- ", 4)) {
			if (!strncmp(line + 4, "/dev/null", 9))
				cur->status = 'A';
			else if (!cur->path)
				cur->path = diff_path(line + 4);
		} else if (!strncmp(line, "+++ ", 4)) {
			if (!strncmp(line + 4, "/dev/null", 9)) {
				cur->status = 'D';
			} else {
				free(cur->path);
				cur->path = diff_path(line + 4);
			}
		} else if (!strncmp(line, "rename to ", 10)) {
			free(cur->path);
			cur->path = diff_path(line + 10);
			cur->status = 'R';
		} else if (!strncmp(line, "deleted file mode", 17)) {
			cur->status = 'D';
		} else if (!strncmp(line, "@@ -", 4)) {
			int os, oc = 1, ns, nc = 1;
			char *p = line + 4;

			os = strtol(p, &p, 10);
			if (*p == ',')
				oc = strtol(p + 1, &p, 10);
			if (strncmp(p, " +", 2))
				die("guards: bad hunk header in %s: %s", name, line);
			ns = strtol(p + 2, &p, 10);
			if (*p == ',')
				nc = strtol(p + 1, &p, 10);
			(void)os;
			/* an empty new side "+N,0" sits after line N */
			newl = nc ? ns : ns + 1;
			oldleft = oc;
			newleft = nc;
			hunk++;
			inentry = 0;
		}
	}
	free(line);
	if (fp != stdin)
		fclose(fp);
}

/* ---- reading a file of the tree ---- */

static char *read_file(const struct tree *t, const char *path, size_t *len)
{
	char full[4096];
	FILE *fp;
	char *b;
	long n;

	snprintf(full, sizeof(full), "%s/%s", t->root, path);
	fp = fopen(full, "r");
	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	b = xmalloc(n + 1);
	n = fread(b, 1, n, fp);
	b[n] = 0;
	fclose(fp);
	*len = n;
	return b;
}

/* ---- preprocessor branches ---- */

/*
 * Normalize a directive's expression: comments out, white space
 * collapsed, IS_ENABLED(CONFIG_X) and friends spelled with defined().
 */
static char *norm_expr(const char *s)
{
	struct sbuf b = { 0 };
	int sp = 0;

	while (*s) {
		if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			s = e ? e + 2 : s + strlen(s);
			sp = 1;
			continue;
		}
		if (s[0] == '/' && s[1] == '/')
			break;
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
		    (*s == '\\' && (s[1] == '\n' || !s[1]))) {
			sp = 1;
			s++;
			continue;
		}
		if (is_ident(*s) && (s[0] < '0' || s[0] > '9')) {
			static const char *const mac[] = {
				"IS_ENABLED", "IS_BUILTIN", "IS_MODULE",
				"IS_REACHABLE", NULL
			};
			const char *e = s;
			int k;

			while (is_ident(*e))
				e++;
			for (k = 0; mac[k]; k++) {
				size_t ml = strlen(mac[k]);
				const char *a, *ae;

				if ((size_t)(e - s) != ml || strncmp(s, mac[k], ml))
					continue;
				a = e;
				while (*a == ' ')
					a++;
				if (*a != '(')
					continue;
				a++;
				while (*a == ' ')
					a++;
				ae = a;
				while (is_ident(*ae))
					ae++;
				while (*ae == ' ')
					ae++;
				if (*ae != ')' || ae == a)
					continue;
				{
					int n = 0;

					while (is_ident(a[n]))
						n++;
					if (sp && b.len)
						sb_adds(&b, " ");
					sp = 0;
					if (k == 0)
						sb_addf(&b, "(defined(%.*s) || defined(%.*s_MODULE))",
							n, a, n, a);
					else if (k == 1)
						sb_addf(&b, "defined(%.*s)", n, a);
					else if (k == 2)
						sb_addf(&b, "defined(%.*s_MODULE)", n, a);
					else
						sb_addf(&b, "(defined(%.*s) || (defined(%.*s_MODULE) && defined(MODULE)))",
							n, a, n, a);
					s = ae + 1;
				}
				break;
			}
			if (mac[k])
				continue;
			if (sp && b.len)
				sb_adds(&b, " ");
			sp = 0;
			sb_addn(&b, s, e - s);
			s = e;
			continue;
		}
		if (sp && b.len)
			sb_adds(&b, " ");
		sp = 0;
		sb_addn(&b, s, 1);
		s++;
	}
	return b.s ? b.s : xstrdup("");
}

struct ppframe {
	struct sbuf prev;	/* "!(e1) && !(e2)" of the branches before */
	char *cur;		/* this branch's expression, NULL for #else */
	char *last;		/* the expression of the branch before */
	int guard;		/* the file's include guard: always true */
};

static void frame_cond(const struct ppframe *f, struct sbuf *out)
{
	if (f->guard && !f->prev.len)
		return;
	if (f->prev.len) {
		sb_adds(out, f->prev.s);
		if (f->cur)
			sb_adds(out, " && ");
	}
	if (f->cur)
		sb_addf(out, "(%s)", f->cur);
}

/* The condition of the stack's branches, frames [0, n). */
static char *stack_cond(struct ppframe *st, int n)
{
	struct sbuf b = { 0 };
	int i;

	for (i = 0; i < n; i++) {
		struct sbuf one = { 0 };

		frame_cond(&st[i], &one);
		if (!one.len)
			continue;
		if (b.len)
			sb_adds(&b, " && ");
		sb_adds(&b, one.s);
		free(one.s);
	}
	return b.s ? b.s : xstrdup("");
}

enum { PD_NONE, PD_IF, PD_ELIF, PD_ELSE, PD_ENDIF, PD_OTHER };

/* The kind of directive that @text (a line, its '#' first) is. */
static int directive_kind(const char *text)
{
	const char *p = text;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return PD_NONE;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "if", 2))
		return PD_IF;
	if (!strncmp(p, "elif", 4))
		return PD_ELIF;
	if (!strncmp(p, "else", 4) && !is_ident(p[4]))
		return PD_ELSE;
	if (!strncmp(p, "endif", 5) && !is_ident(p[5]))
		return PD_ENDIF;
	return PD_OTHER;
}

static int closes(int kind)
{
	return kind == PD_ELIF || kind == PD_ELSE || kind == PD_ENDIF;
}

/* Is the #ifndef X at @d..@le followed by #define X (an include guard)? */
static int include_guard(const char *text, const char *after, const char *e)
{
	const char *x = text + 6, *xe, *p = after;

	while (*x == ' ' || *x == '\t')
		x++;
	xe = x;
	while (is_ident(*xe))
		xe++;
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p >= e || *p != '#')
		return 0;
	p++;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p < 7 || strncmp(p, "define", 6))
		return 0;
	p += 6;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return xe > x && e - p >= xe - x && !strncmp(p, x, xe - x) &&
	       (p + (xe - x) >= e || !is_ident(p[xe - x]));
}

/*
 * Walk the file's lines; for each change (sorted by position), record the
 * condition of the branch it sits in.  A change to a directive (its first
 * line or a continuation line) is evaluated where the directive is: an
 * #if in the enclosing branch, an #elif/#else/#endif in the branch around
 * its #if.  A removed #elif/#else/#endif replaced by one of its kind
 * counts as that directive.
 */
static void pp_conds(const char *b, size_t len, struct dfile *df, char **cond)
{
	VEC(struct ppframe) st = { 0 };
	const char *l = b, *e = b + len;
	int line = 1, k = 0, incomment = 0, code = 0;
	int *order = xmalloc(sizeof(int) * (df->ch.n + 1)), i, j;

	/* changes by position (a stable insertion sort: lists are short) */
	for (i = 0; i < df->ch.n; i++) {
		for (j = i; j > 0 && df->ch.v[order[j - 1]].pos > df->ch.v[i].pos; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (;;) {
		const char *nl = l < e ? memchr(l, '\n', e - l) : NULL;
		const char *le = nl ? nl : e, *p = l, *de = le;
		int kind = PD_NONE, last = line;

		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		if (l < e && !incomment && p < le && *p == '#') {
			char *first = xstrndup(p, le - p);

			kind = directive_kind(first);
			free(first);
			/* continuation lines */
			while (de > p && de[-1] == '\\' && de < e) {
				const char *n2 = memchr(de + 1, '\n', e - de - 1);

				de = n2 ? n2 : e;
				last++;
			}
		}
		while (k < df->ch.n && df->ch.v[order[k]].pos <= last) {
			struct dchange *c = &df->ch.v[order[k]];
			int n = st.n, ck = directive_kind(c->text);

			if (kind != PD_NONE && c->pos > line) {
				/* a continuation line of this directive */
				if (closes(kind))
					n--;
			} else if (kind != PD_NONE && c->pos == line && c->sign == '+') {
				if (closes(ck))
					n--;
			} else if (c->pos == line && c->sign == '-' && closes(kind) && closes(ck)) {
				n--;
			} else if (c->pos > line) {
				break;
			}
			cond[order[k]] = stack_cond(st.v, n < 0 ? 0 : n);
			k++;
		}
		if (l >= e)
			break;
		if (kind != PD_NONE) {
			const char *d = p + 1;
			char *text, *x;

			le = de;
			nl = de < e ? de : NULL;
			while (d < le && (*d == ' ' || *d == '\t'))
				d++;
			text = xstrndup(d, le - d);
			if (!strncmp(text, "ifdef", 5) || !strncmp(text, "ifndef", 6)) {
				struct ppframe f = { 0 };
				int neg = text[2] == 'n';

				x = norm_expr(text + (neg ? 6 : 5));
				f.cur = xmalloc(strlen(x) + 16);
				sprintf(f.cur, "%sdefined(%s)", neg ? "!" : "", x);
				f.last = xstrdup(f.cur);
				f.guard = neg && !code && !st.n &&
					  include_guard(text, nl ? nl + 1 : e, e);
				vpush(st, f);
				free(x);
			} else if (!strncmp(text, "if", 2) && !is_ident(text[2])) {
				struct ppframe f = { 0 };

				f.cur = norm_expr(text + 2);
				f.last = xstrdup(f.cur);
				vpush(st, f);
			} else if (!strncmp(text, "elif", 4) && st.n) {
				struct ppframe *f = &st.v[st.n - 1];

				if (f->prev.len)
					sb_adds(&f->prev, " && ");
				sb_addf(&f->prev, "!(%s)", f->last);
				free(f->cur);
				free(f->last);
				if (!strncmp(text, "elifdef", 7) || !strncmp(text, "elifndef", 8)) {
					int neg = text[4] == 'n';

					x = norm_expr(text + (neg ? 8 : 7));
					f->cur = xmalloc(strlen(x) + 16);
					sprintf(f->cur, "%sdefined(%s)", neg ? "!" : "", x);
					free(x);
				} else {
					f->cur = norm_expr(text + 4);
				}
				f->last = xstrdup(f->cur);
			} else if (kind == PD_ELSE && st.n) {
				struct ppframe *f = &st.v[st.n - 1];

				if (f->prev.len)
					sb_adds(&f->prev, " && ");
				sb_addf(&f->prev, "!(%s)", f->last);
				free(f->cur);
				f->cur = NULL;
			} else if (kind == PD_ENDIF && st.n) {
				struct ppframe *f = &st.v[--st.n];

				free(f->prev.s);
				free(f->cur);
				free(f->last);
			}
			free(text);
			line = last;
		} else {
			/* block comments, so that "#" inside one is no directive */
			const char *q;

			for (q = l; q < le; q++) {
				if (incomment) {
					if (q[0] == '*' && q + 1 < le && q[1] == '/') {
						incomment = 0;
						q++;
					}
				} else if (q[0] == '/' && q + 1 < le && q[1] == '*') {
					incomment = 1;
					q++;
				} else if (q[0] == '/' && q + 1 < le && q[1] == '/') {
					break;
				} else if (*q == ' ' || *q == '\t' || *q == '\r') {
					continue;
				} else {
					code = 1;
					if (*q == '"' || *q == '\'') {
						char qc = *q;

						for (q++; q < le && *q != qc; q++)
							if (*q == '\\')
								q++;
					}
				}
			}
		}
		line++;
		l = nl ? nl + 1 : e;
	}
	while (k < df->ch.n) {
		cond[order[k]] = stack_cond(st.v, st.n);
		k++;
	}
	for (i = 0; i < st.n; i++) {
		free(st.v[i].prev.s);
		free(st.v[i].cur);
		free(st.v[i].last);
	}
	free(st.v);
	free(order);
}

/* Makefile changes: the ifdef/ifeq blocks around them, as text. */
static void make_conds(const char *b, size_t len, struct dfile *df, char **cond)
{
	struct strvec st = { 0 };
	const char *l = b, *e = b + len;
	int line = 1, i;

	for (;;) {
		for (i = 0; i < df->ch.n; i++) {
			if (df->ch.v[i].pos == line && !cond[i]) {
				struct sbuf s = { 0 };
				int k;

				for (k = 0; k < st.n; k++) {
					if (s.len)
						sb_adds(&s, " && ");
					sb_adds(&s, st.v[k]);
				}
				cond[i] = s.s ? s.s : xstrdup("");
			}
		}
		if (l >= e)
			break;
		{
			const char *nl = memchr(l, '\n', e - l), *le = nl ? nl : e;
			const char *p = l;

			while (p < le && (*p == ' ' || *p == '\t'))
				p++;
			if (!strncmp(p, "ifeq", 4) || !strncmp(p, "ifneq", 5) ||
			    !strncmp(p, "ifdef", 5) || !strncmp(p, "ifndef", 6)) {
				const char *q = le;

				while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
					q--;
				vpush(st, xstrndup(p, q - p));
			} else if (!strncmp(p, "else", 4) && st.n) {
				char *o = st.v[st.n - 1];

				st.v[st.n - 1] = xmalloc(strlen(o) + 8);
				sprintf(st.v[st.n - 1], "not(%s)", o);
				free(o);
			} else if (!strncmp(p, "endif", 5) && st.n) {
				free(st.v[--st.n]);
			}
			line++;
			l = nl ? nl + 1 : e;
		}
	}
	for (i = 0; i < df->ch.n; i++)
		if (!cond[i])
			cond[i] = xstrdup("");
	while (st.n)
		free(st.v[--st.n]);
	free(st.v);
}

/* The keyword that starts a Kconfig line, or 0; *name gets config's symbol. */
static int kconfig_kw(const char *p, const char *le, char **name)
{
	static const char *const kw[] = { "config", "menuconfig", "menu",
		"endmenu", "choice", "endchoice", "if", "endif", "source",
		"rsource", "osource", "orsource", "comment", "mainmenu", NULL };
	int k;

	*name = NULL;
	while (p < le && (*p == ' ' || *p == '\t'))
		p++;
	for (k = 0; kw[k]; k++) {
		size_t n = strlen(kw[k]);
		const char *s, *q;

		if ((size_t)(le - p) < n || strncmp(p, kw[k], n) ||
		    (p + n < le && is_ident(p[n])))
			continue;
		if (k < 2) {
			s = p + n;
			while (s < le && (*s == ' ' || *s == '\t'))
				s++;
			q = s;
			while (q < le && is_ident(*q))
				q++;
			*name = xstrndup(s, q - s);
		}
		return 1;
	}
	return 0;
}

/*
 * Kconfig changes: the symbol whose entry each change edits, or NULL.  An
 * added line belongs to the entry it is in; a removed one to the entry
 * before its position, unless it removed a whole entry (it starts with
 * "config") or sits between entries.
 */
static void kconfig_syms(const char *b, size_t len, struct dfile *df, char **sym)
{
	const char *l = b, *e = b + len;
	char *cur = NULL;
	int line = 1, i;

	for (;;) {
		const char *nl = l < e ? memchr(l, '\n', e - l) : NULL;
		const char *le = nl ? nl : e;
		char *before = cur ? xstrdup(cur) : NULL, *name = NULL;
		int kw = l < e && kconfig_kw(l, le, &name);

		if (kw) {
			free(cur);
			cur = name;
		}
		for (i = 0; i < df->ch.n; i++) {
			struct dchange *c = &df->ch.v[i];

			const char *t = c->text;

			while (*t == ' ' || *t == '\t')
				t++;
			/* a comment or a blank line edits no entry */
			if (c->pos != line || sym[i] || !*t || *t == '#')
				continue;
			if (c->sign == '+' && cur)
				sym[i] = xstrdup(cur);
			else if (c->sign == '-' && !c->kentry && before)
				sym[i] = xstrdup(before);
		}
		free(before);
		if (l >= e)
			break;
		line++;
		l = nl ? nl + 1 : e;
	}
	free(cur);
}

/* ---- Makefile paths ---- */

#define MAX_PATHS 16

struct gpath {
	struct sbuf syms;	/* " A B" */
	struct sbuf where;	/* " Makefile:N ..." */
	char *cond;		/* the #if around the #include(s), or NULL */
	int unknown;		/* a condition chopblock cannot read */
	int unbuilt;		/* no Makefile names the object */
};

struct gpaths {
	struct gpath *v;
	int n, cap;
};

struct gctx {
	struct tree t;
	struct mkmodel mk;
	struct kresult kr;
	int have_k;
	int *radj_start, *radj;	/* includers of each file */
	int *radj_line;		/* the line of each #include */
	struct strvec arches;	/* --arch, as SRCARCH names */
	int json;
};

static void path_copy(struct gpath *d, const struct gpath *s)
{
	memset(d, 0, sizeof(*d));
	if (s->syms.s)
		sb_adds(&d->syms, s->syms.s);
	if (s->where.s)
		sb_adds(&d->where, s->where.s);
	d->unknown = s->unknown;
	d->unbuilt = s->unbuilt;
}

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while (p && (p = strstr(p, w))) {
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

static void add_sym(struct gpath *p, const char *s)
{
	if (!s || has_word(p->syms.s, s))
		return;
	sb_addf(&p->syms, " %s", s);
}

/* The Kconfig symbol that arch/X/ is built for: X86 for x86, ... */
static char *arch_symbol(const char *path)
{
	static const char *const map[][2] = {
		{ "arm", "ARM" }, { "arm64", "ARM64" }, { "x86", "X86" },
		{ "powerpc", "PPC" }, { "sh", "SUPERH" }, { "um", "UML" },
		{ "openrisc", "OPENRISC" }, { NULL, NULL },
	};
	const char *a = path + 5, *e = strchr(a, '/');
	char *sym;
	int i;

	if (strncmp(path, "arch/", 5) || !e)
		return NULL;
	for (i = 0; map[i][0]; i++)
		if ((size_t)(e - a) == strlen(map[i][0]) && !strncmp(a, map[i][0], e - a))
			return xstrdup(map[i][1]);
	sym = xstrndup(a, e - a);
	for (i = 0; sym[i]; i++)
		if (sym[i] >= 'a' && sym[i] <= 'z')
			sym[i] -= 'a' - 'A';
	return sym;
}

static void chain(struct gctx *c, const char *target, struct gpath *pre,
		  struct gpaths *out, int depth)
{
	int first = mk_first(&c->mk, target), k, any = 0;
	size_t tl = strlen(target);

	if (out->n >= MAX_PATHS)
		return;
	if (depth > 40) {
		struct gpath p;

		path_copy(&p, pre);
		p.unknown = 1;
		vpush(*out, p);
		return;
	}
	for (k = first; first >= 0 && k < c->mk.refs.n && out->n < MAX_PATHS; k++) {
		const struct mkref *r = &c->mk.refs.v[c->mk.order[k]];
		const struct file *mf = &c->t.files[r->file];
		const struct mkent *e = &mf->res->mk.v[r->ent];
		struct gpath p;
		char *d;

		if (strcmp(r->target, target))
			break;
		any = 1;
		path_copy(&p, pre);
		add_sym(&p, e->guard);
		add_sym(&p, e->ifg);
		{
			/* a Makefile of arch/X/ is read for X only */
			char *as = arch_symbol(mf->path);

			add_sym(&p, as);
			free(as);
		}
		p.unknown |= e->unknown;
		sb_addf(&p.where, " %s:%d", mf->path, e->line);
		d = dir_of(mf->path);
		if (!is_direct_prefix(e->pfx)) {
			char *comp = xmalloc(strlen(d) + strlen(e->pfx) + 3);

			sprintf(comp, "%s%s.o", d, e->pfx);
			chain(c, comp, &p, out, depth + 1);
			free(comp);
		} else if (!*d) {
			vpush(*out, p);
			p.syms.s = p.where.s = NULL;
		} else {
			chain(c, d, &p, out, depth + 1);
		}
		free(d);
		free(p.syms.s);
		free(p.where.s);
	}
	if (any)
		return;
	if (tl && target[tl - 1] == '/') {
		/* an unreferenced directory is built with its parent */
		char *up = xstrndup(target, tl - 1);
		char *pd = dir_of(up);

		if (*pd) {
			chain(c, pd, pre, out, depth + 1);
		} else {
			struct gpath p;

			path_copy(&p, pre);
			vpush(*out, p);
		}
		free(up);
		free(pd);
	} else {
		struct gpath p;

		path_copy(&p, pre);
		p.unbuilt = 1;
		vpush(*out, p);
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

/*
 * Resolve an #include strictly: the generous resolution of "dead" (any
 * file whose path ends with the name) would make a "core.h" of one
 * driver an includer of every other.  Keep a candidate when it is the
 * only one, is next to the includer, or sits under an include/ directory.
 */
static int strict_include(const struct tree *t, int from, const struct inc *in,
			  int *cand)
{
	int n = resolve_include(t, from, in, cand, 64), m, kept = 0;
	size_t nl = strlen(in->name);
	char *d;

	if (n <= 1)
		return n;
	d = dir_of(t->files[from].path);
	for (m = 0; m < n; m++) {
		const char *p = t->files[cand[m]].path;
		size_t pl = strlen(p);
		char *local = path_norm(d, in->name);
		int ok = !strcmp(p, local);

		free(local);
		if (!ok && pl >= nl + 8 && !strcmp(p + pl - nl, in->name) &&
		    !strncmp(p + pl - nl - 8, "include/", 8) &&
		    (pl == nl + 8 || p[pl - nl - 9] == '/'))
			ok = 1;
		if (!ok && !strncmp(in->name, "asm/", 4) && strstr(p, "include/asm-generic/"))
			ok = 1;
		if (ok)
			cand[kept++] = cand[m];
	}
	free(d);
	return kept;
}

static void build_includers(struct gctx *c)
{
	struct tree *t = &c->t;
	int *cnt = xcalloc(t->nfiles + 1, sizeof(int)), cand[64], i, k, m, tot = 0;
	int *fill;

	for (i = 0; i < t->nfiles; i++) {
		const struct fres *r = t->files[i].res;

		if (!r || (t->files[i].kind != FK_C && t->files[i].kind != FK_H &&
			   t->files[i].kind != FK_S))
			continue;
		for (k = 0; k < r->incs.n; k++) {
			int n = strict_include(t, i, &r->incs.v[k], cand);

			for (m = 0; m < n; m++) {
				cnt[cand[m]]++;
				tot++;
			}
		}
	}
	c->radj_start = xmalloc(sizeof(int) * (t->nfiles + 1));
	c->radj = xmalloc(sizeof(int) * (tot + 1));
	c->radj_line = xmalloc(sizeof(int) * (tot + 1));
	fill = xcalloc(t->nfiles + 1, sizeof(int));
	for (i = 0, tot = 0; i < t->nfiles; i++) {
		c->radj_start[i] = tot;
		tot += cnt[i];
	}
	c->radj_start[t->nfiles] = tot;
	for (i = 0; i < t->nfiles; i++) {
		const struct fres *r = t->files[i].res;

		if (!r || (t->files[i].kind != FK_C && t->files[i].kind != FK_H &&
			   t->files[i].kind != FK_S))
			continue;
		for (k = 0; k < r->incs.n; k++) {
			int n = strict_include(t, i, &r->incs.v[k], cand);

			for (m = 0; m < n; m++) {
				int at = c->radj_start[cand[m]] + fill[cand[m]]++;

				c->radj[at] = i;
				c->radj_line[at] = r->incs.v[k].line;
			}
		}
	}
	free(cnt);
	free(fill);
}

static size_t path_weight(const struct gpath *p)
{
	return p->syms.len + (p->cond ? 100000 : 0);
}

/* Unconditional paths first, then fewest symbols; stable. */
static void sort_paths(struct gpaths *all)
{
	int i, j;

	for (i = 1; i < all->n; i++) {
		struct gpath x = all->v[i];

		for (j = i; j > 0 && path_weight(&all->v[j - 1]) > path_weight(&x); j--)
			all->v[j] = all->v[j - 1];
		all->v[j] = x;
	}
}

static void path_free(struct gpath *p)
{
	free(p->syms.s);
	free(p->where.s);
	free(p->cond);
}

/* The #if condition around line @line of @path, or NULL for none. */
static char *cond_at(struct gctx *c, const char *path, int line)
{
	struct dchange ch = { .pos = line, .sign = '+', .text = "x" };
	struct dfile df = { 0 };
	char *cond = NULL, *b;
	size_t len;

	b = read_file(&c->t, path, &len);
	if (!b)
		return NULL;
	df.ch.v = &ch;
	df.ch.n = 1;
	pp_conds(b, len, &df, &cond);
	free(b);
	if (cond && !*cond) {
		free(cond);
		cond = NULL;
	}
	return cond;
}

static char *cond_and(const char *a, const char *b)
{
	char *r;

	if (!a && !b)
		return NULL;
	if (!a || !b)
		return xstrdup(a ? a : b);
	r = xmalloc(strlen(a) + strlen(b) + 16);
	sprintf(r, "(%s) && (%s)", a, b);
	return r;
}

/*
 * The Makefile paths of a file: a source file's own; otherwise (headers,
 * #included .c files) those of the source files that include it,
 * transitively, each noted "via" that file.  Paths with fewer symbols
 * first: a header that something always built includes is always built.
 */
static void file_paths(struct gctx *c, const char *path, int kind,
		       struct gpaths *out)
{
	struct gpath none = { 0 };
	int idx = tree_find(&c->t, path), i;

	if (kind == FK_MAKE || kind == FK_KCONFIG) {
		char *d = dir_of(path);

		if (kind == FK_MAKE) {
			if (*d)
				chain(c, d, &none, out, 0);
			else
				vpush(*out, none);
		}
		free(d);
		return;
	}
	if (kind == FK_C || kind == FK_S) {
		char *o = obj_of(path);

		chain(c, o, &none, out, 0);
		free(o);
		if (out->n && !out->v[0].unbuilt) {
			sort_paths(out);
			return;
		}
		for (i = 0; i < out->n; i++)
			path_free(&out->v[i]);
		out->n = 0;
	}
	if (idx < 0 || (kind != FK_C && kind != FK_H && kind != FK_S))
		return;
	{
		/*
		 * Breadth first through the includers, each with the #if
		 * conditions of the #include lines on the way; stop at the
		 * first file built always, unconditionally (a header of
		 * include/linux has thousands of includers).
		 */
		int *queue = xmalloc(sizeof(int) * 4096), qh = 0, qt = 0, always = 0;
		char **qcond = xcalloc(4096, sizeof(char *));
		struct smap seen = { 0 };
		struct gpaths all = { 0 };

		queue[qt++] = idx;
		smap_put(&seen, path, strlen(path), 1);
		while (qh < qt && all.n < 256 && !always) {
			int f = queue[qh], k;
			char *fc = qcond[qh++];

			for (k = c->radj_start[f]; k < c->radj_start[f + 1] && !always; k++) {
				int inc = c->radj[k];
				const struct file *fi = &c->t.files[inc];
				char *ec, *acc;

				if (smap_get(&seen, fi->path, fi->plen) >= 0)
					continue;
				smap_put(&seen, fi->path, fi->plen, 1);
				if (!strncmp(fi->path, "tools/", 6) ||
				    !strncmp(fi->path, "scripts/", 8) ||
				    !strncmp(fi->path, "samples/", 8) ||
				    !strncmp(fi->path, "usr/", 4))
					continue;
				ec = cond_at(c, fi->path, c->radj_line[k]);
				acc = cond_and(ec, fc);
				free(ec);
				if (fi->kind == FK_C || fi->kind == FK_S) {
					struct gpaths sub = { 0 };
					char *o = obj_of(fi->path);
					int m, built = 0;

					chain(c, o, &none, &sub, 0);
					free(o);
					for (m = 0; m < sub.n; m++) {
						if (sub.v[m].unbuilt) {
							path_free(&sub.v[m]);
							continue;
						}
						built = 1;
						sub.v[m].where.len = 0;
						if (sub.v[m].where.s)
							sub.v[m].where.s[0] = 0;
						sb_addf(&sub.v[m].where, " via %s", fi->path);
						sub.v[m].cond = acc ? xstrdup(acc) : NULL;
						if (!sub.v[m].syms.len && !acc && !sub.v[m].unknown &&
						    strncmp(fi->path, "arch/", 5))
							always = 1;
						vpush(all, sub.v[m]);
					}
					if (!built && qt < 4096) {
						/* an #included .c file: go on up */
						qcond[qt] = acc ? xstrdup(acc) : NULL;
						queue[qt++] = inc;
					}
					free(sub.v);
				} else if (qt < 4096) {
					qcond[qt] = acc ? xstrdup(acc) : NULL;
					queue[qt++] = inc;
				}
				free(acc);
			}
		}
		/* unconditional and fewest symbols first, keep MAX_PATHS */
		sort_paths(&all);
		for (i = 0; i < all.n; i++) {
			const struct gpath *last = out->n ? &out->v[out->n - 1] : NULL;

			if (out->n < MAX_PATHS &&
			    (!last || strcmp(all.v[i].syms.s ? all.v[i].syms.s : "",
					     last->syms.s ? last->syms.s : "") ||
			     strcmp(all.v[i].cond ? all.v[i].cond : "", last->cond ? last->cond : "")))
				vpush(*out, all.v[i]);
			else
				path_free(&all.v[i]);
		}
		for (i = 0; i < qt; i++)
			free(qcond[i]);
		free(qcond);
		free(all.v);
		free(queue);
		smap_free(&seen);
	}
}

/* ---- debug options ---- */

struct dbg {
	char *sym;
	char *where;
	int ccflags;	/* a Makefile switch that adds -DDEBUG */
};

struct dbgs {
	struct dbg *v;
	int n, cap;
};

static void kconfig_debug(struct gctx *c, const char *dir, struct dbgs *out)
{
	size_t dl = strlen(dir);
	int i, k;

	for (i = 0; i < c->t.nfiles; i++) {
		const struct file *f = &c->t.files[i];

		if (f->kind != FK_KCONFIG || !f->res || strncmp(f->path, dir, dl) ||
		    strchr(f->path + dl, '/'))
			continue;
		for (k = 0; k < f->res->kdefs.n; k++) {
			const struct fdef *d = &f->res->kdefs.v[k];
			struct dbg g;

			if (!strstr(d->name, "DEBUG"))
				continue;
			g.sym = d->name;
			g.where = xmalloc(f->plen + 16);
			sprintf(g.where, "%s:%d", f->path, d->line);
			g.ccflags = 0;
			vpush(*out, g);
		}
	}
}

/* ccflags-$(CONFIG_X) += -DDEBUG, or inside ifdef/ifeq CONFIG_X blocks */
static void make_debug(struct gctx *c, const char *dir, struct dbgs *out)
{
	static const char *const names[] = { "Makefile", "Kbuild", NULL };
	int n;

	for (n = 0; names[n]; n++) {
		char path[4096], *b, *l, *e;
		struct strvec ifs = { 0 };
		size_t len;
		int line = 1;

		snprintf(path, sizeof(path), "%s%s", dir, names[n]);
		b = read_file(&c->t, path, &len);
		if (!b)
			continue;
		e = b + len;
		for (l = b; l < e; ) {
			char *nl = memchr(l, '\n', e - l), *le = nl ? nl : e, *p = l;
			int start = line;
			char *s, *cfg;

			while (le < e && le > l && le[-1] == '\\') {
				char *n2 = memchr(le + 1, '\n', e - le - 1);

				le = n2 ? n2 : e;
				line++;
			}
			nl = le < e ? le : NULL;
			s = xstrndup(l, le - l);
			p = s;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!strncmp(p, "ifdef", 5) || !strncmp(p, "ifeq", 4) ||
			    !strncmp(p, "ifndef", 6) || !strncmp(p, "ifneq", 5)) {
				char *g = NULL;

				cfg = strstr(p, "CONFIG_");
				if (cfg && (!strncmp(p, "ifdef", 5) ||
					    (!strncmp(p, "ifeq", 4) && strstr(p, ",y)")))) {
					char *q = cfg + 7;

					while (is_ident(*q))
						q++;
					g = xstrndup(cfg + 7, q - cfg - 7);
				}
				vpush(ifs, g);
			} else if (!strncmp(p, "else", 4) && ifs.n) {
				free(ifs.v[ifs.n - 1]);
				ifs.v[ifs.n - 1] = NULL;
			} else if (!strncmp(p, "endif", 5) && ifs.n) {
				free(ifs.v[--ifs.n]);
			} else if (*p != '#' && (strstr(p, "-DDEBUG") || strstr(p, "-DVERBOSE_DEBUG"))) {
				char *sym = NULL;
				int k;

				cfg = strstr(p, "$(CONFIG_");
				if (cfg && cfg < strchr(p, '=')) {
					char *q = cfg + 9;

					while (is_ident(*q))
						q++;
					sym = xstrndup(cfg + 9, q - cfg - 9);
				}
				for (k = ifs.n - 1; !sym && k >= 0; k--)
					if (ifs.v[k])
						sym = xstrdup(ifs.v[k]);
				if (sym) {
					struct dbg g;

					g.sym = sym;
					g.where = xmalloc(strlen(path) + 16);
					sprintf(g.where, "%s:%d", path, start);
					g.ccflags = 1;
					vpush(*out, g);
				}
			}
			free(s);
			line++;
			l = nl ? nl + 1 : e;
		}
		while (ifs.n)
			free(ifs.v[--ifs.n]);
		free(ifs.v);
		free(b);
	}
}

/* The subsystem's directories: the file's own up to two components. */
static void file_debug(struct gctx *c, const char *path, struct dbgs *out)
{
	char *d = dir_of(path);

	for (;;) {
		int slashes = 0;
		const char *q;
		char *up, *pd;

		for (q = d; *q; q++)
			slashes += *q == '/';
		if (slashes < 2)
			break;
		make_debug(c, d, out);
		kconfig_debug(c, d, out);
		up = xstrndup(d, strlen(d) - 1);
		pd = dir_of(up);
		free(up);
		free(d);
		d = pd;
	}
	free(d);
}

/* ---- per architecture ---- */

static const struct ksym_arch *ksym(struct gctx *c, const char *name)
{
	int i = smap_get(&c->kr.map, name, strlen(name));

	return i < 0 ? NULL : &c->kr.syms.v[i];
}

static int arch_bit(struct gctx *c, const char *arch)
{
	int a;

	for (a = 0; a < c->t.arches.n; a++)
		if (!strcmp(c->t.arches.v[a], arch))
			return a;
	return -1;
}

/* Where else a symbol can be enabled: "alpha, parisc" or "". */
static void where_possible(struct gctx *c, const struct ksym_arch *k, struct sbuf *b)
{
	int a, n = 0;

	for (a = 0; a < c->t.arches.n; a++) {
		if (!(k->y0 & (1u << a)))
			continue;
		if (n++ < 6)
			sb_addf(b, "%s%s", n > 1 ? ", " : "", c->t.arches.v[a]);
	}
	if (n > 6)
		sb_addf(b, " and %d more", n - 6);
}

/*
 * The verdict of one path on an architecture: 2 some configuration builds
 * it, 1 only with COMPILE_TEST, 0 never; @why says what blocks it.
 */
static int path_verdict(struct gctx *c, const char *path, const struct gpath *p,
			int a, struct sbuf *why)
{
	char *syms = xstrdup(p->syms.s ? p->syms.s : ""), *s, *save = NULL;
	int v = 2;

	if (!strncmp(path, "arch/", 5)) {
		size_t n = strlen(c->t.arches.v[a]);

		if (strncmp(path + 5, c->t.arches.v[a], n) || path[5 + n] != '/') {
			const char *e = strchr(path + 5, '/');

			sb_addf(why, "in arch/%.*s/: another architecture",
				e ? (int)(e - path - 5) : 0, path + 5);
			free(syms);
			return 0;
		}
	}
	for (s = strtok_r(syms, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		const struct ksym_arch *k = ksym(c, s);

		if (!k) {
			sb_addf(why, "%s%s is defined by no Kconfig file", why->len ? "; " : "", s);
			v = 0;
		} else if (k->y0 & (1u << a)) {
			continue;
		} else if (k->y2 & (1u << a)) {
			if (v > 1)
				v = 1;
			sb_addf(why, "%s%s only with COMPILE_TEST", why->len ? "; " : "", s);
		} else {
			struct sbuf w = { 0 };

			where_possible(c, k, &w);
			sb_addf(why, "%s%s needs another architecture (%s)", why->len ? "; " : "",
				s, w.len ? w.s : "none");
			free(w.s);
			v = 0;
		}
	}
	free(syms);
	return v;
}

/* The kernel's ARCH names the Kconfig model knows by their SRCARCH. */
static const char *srcarch(const char *arch)
{
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "i386"))
		return "x86";
	if (!strcmp(arch, "sparc64") || !strcmp(arch, "sparc32"))
		return "sparc";
	return arch;
}

/* ---- output ---- */

static const char *kind_name(int kind)
{
	switch (kind) {
	case FK_C: return "c";
	case FK_H: return "h";
	case FK_S: return "S";
	case FK_RS: return "rust";
	case FK_DTS: return "dts";
	case FK_MAKE: return "make";
	case FK_KCONFIG: return "kconfig";
	case FK_DEFCONFIG: return "defconfig";
	default: return "other";
	}
}

static const char *trimmed(const struct sbuf *b)
{
	return b->s && b->s[0] == ' ' ? b->s + 1 : b->s ? b->s : "";
}

static void out_json_kv(struct sbuf *b, const char *k, const char *v)
{
	sb_addf(b, ",\"%s\":", k);
	sb_json(b, v);
}

static int first_item = 1;

static void emit(struct gctx *c, struct sbuf *j, struct sbuf *h)
{
	if (c->json) {
		printf("%s%s}", first_item ? "\n" : ",\n", j->s);
		first_item = 0;
	} else {
		printf("%s\n", h->s);
	}
	j->len = h->len = 0;
	if (j->s)
		j->s[0] = 0;
	if (h->s)
		h->s[0] = 0;
}

static void report_file(struct gctx *c, struct dfile *df)
{
	int idx = tree_find(&c->t, df->path), kind, i, a;
	struct gpaths paths = { 0 };
	struct dbgs dbg = { 0 };
	struct sbuf j = { 0 }, h = { 0 };
	char **cond, **ksyms;
	char *b = NULL;
	size_t len = 0;
	int hostprog;

	if (idx < 0) {
		fprintf(stderr, "chopblock: guards: %s is not in the tree %s (the diff's tip?)\n",
			df->path, c->t.root);
		return;
	}
	kind = c->t.files[idx].kind;
	hostprog = !strncmp(df->path, "tools/", 6) || !strncmp(df->path, "scripts/", 8) ||
		   !strncmp(df->path, "samples/", 8) || !strncmp(df->path, "usr/", 4);
	sb_adds(&j, "{\"kind\":\"file\"");
	out_json_kv(&j, "path", df->path);
	out_json_kv(&j, "type", kind_name(kind));
	sb_addf(&j, ",\"added\":%d,\"removed\":%d", df->added, df->removed);
	sb_addf(&h, "file\t%s\t%s\t+%d\t-%d", df->path, kind_name(kind), df->added,
		df->removed);
	emit(c, &j, &h);

	if (!hostprog)
		file_paths(c, df->path, kind, &paths);
	for (i = 0; i < paths.n; i++) {
		const struct gpath *p = &paths.v[i];

		sb_adds(&j, "{\"kind\":\"path\"");
		out_json_kv(&j, "path", df->path);
		sb_addf(&j, ",\"n\":%d", i + 1);
		out_json_kv(&j, "symbols", trimmed(&p->syms));
		out_json_kv(&j, "where", trimmed(&p->where));
		out_json_kv(&j, "cond", p->cond ? p->cond : "");
		sb_addf(&j, ",\"unknown\":%d", p->unknown);
		sb_addf(&h, "path\t%s\t%d\t%s\t%s%s\t%s", df->path, i + 1,
			p->syms.len ? trimmed(&p->syms) : "-", trimmed(&p->where),
			p->unknown ? " (a condition chopblock cannot read)" : "",
			p->cond ? p->cond : "-");
		emit(c, &j, &h);
	}

	/* spans: consecutive changes of one hunk in the same branch */
	cond = xcalloc(df->ch.n + 1, sizeof(char *));
	ksyms = xcalloc(df->ch.n + 1, sizeof(char *));
	if (kind == FK_C || kind == FK_H || kind == FK_S || kind == FK_DTS ||
	    kind == FK_MAKE || kind == FK_KCONFIG)
		b = read_file(&c->t, df->path, &len);
	if (b && (kind == FK_C || kind == FK_H || kind == FK_S || kind == FK_DTS))
		pp_conds(b, len, df, cond);
	else if (b && kind == FK_MAKE)
		make_conds(b, len, df, cond);
	else if (b && kind == FK_KCONFIG)
		kconfig_syms(b, len, df, ksyms);
	for (i = 0; i < df->ch.n; ) {
		int k = i, first, last, add = 0, rem = 0;
		const char *ci = cond[i] ? cond[i] : "";

		first = last = df->ch.v[i].pos;
		while (k < df->ch.n && df->ch.v[k].hunk == df->ch.v[i].hunk &&
		       !strcmp(cond[k] ? cond[k] : "", ci) &&
		       !strcmp(ksyms[k] ? ksyms[k] : "", ksyms[i] ? ksyms[i] : "")) {
			if (df->ch.v[k].pos < first)
				first = df->ch.v[k].pos;
			if (df->ch.v[k].pos > last)
				last = df->ch.v[k].pos;
			if (df->ch.v[k].sign == '+')
				add++;
			else
				rem++;
			k++;
		}
		sb_adds(&j, "{\"kind\":\"span\"");
		out_json_kv(&j, "path", df->path);
		sb_addf(&j, ",\"line\":%d,\"end\":%d,\"added\":%d,\"removed\":%d",
			first, last, add, rem);
		out_json_kv(&j, "cond", ci);
		if (ksyms[i])
			out_json_kv(&j, "entry", ksyms[i]);
		sb_addf(&h, "span\t%s\t%d\t%d\t+%d\t-%d\t%s", df->path, first, last,
			add, rem, *ci ? ci : "-");
		if (kind == FK_KCONFIG)
			sb_addf(&h, "\t%s", ksyms[i] ? ksyms[i] : "-");
		emit(c, &j, &h);
		i = k;
	}
	for (i = 0; i < df->ch.n; i++) {
		free(cond[i]);
		free(ksyms[i]);
	}
	free(cond);
	free(ksyms);
	free(b);

	/* arch/X/Kconfig.debug is the architecture's, not a subsystem's */
	if (!hostprog && strncmp(df->path, "arch/", 5) &&
	    (kind == FK_C || kind == FK_H || kind == FK_S || kind == FK_MAKE ||
	     kind == FK_KCONFIG))
		file_debug(c, df->path, &dbg);
	for (i = 0; i < dbg.n; i++) {
		sb_adds(&j, "{\"kind\":\"debug\"");
		out_json_kv(&j, "path", df->path);
		out_json_kv(&j, "symbol", dbg.v[i].sym);
		out_json_kv(&j, "where", dbg.v[i].where);
		sb_addf(&j, ",\"ddebug\":%d", dbg.v[i].ccflags);
		sb_addf(&h, "debug\t%s\t%s\t%s%s", df->path, dbg.v[i].sym, dbg.v[i].where,
			dbg.v[i].ccflags ? "\t-DDEBUG" : "");
		emit(c, &j, &h);
	}

	for (a = 0; c->have_k && a < c->arches.n; a++) {
		int bit = arch_bit(c, srcarch(c->arches.v[a])), best = -1, bv = -1;
		struct sbuf why = { 0 };

		for (i = 0; i < paths.n; i++) {
			struct sbuf w = { 0 };
			int v = paths.v[i].unbuilt ? 0 : path_verdict(c, df->path, &paths.v[i], bit, &w);

			if (v > bv) {
				bv = v;
				best = i;
				why.len = 0;
				if (why.s)
					why.s[0] = 0;
				if (w.s)
					sb_adds(&why, w.s);
			}
			free(w.s);
			if (v == 2)
				break;
		}
		if (hostprog) {
			bv = 0;
			sb_adds(&why, "not kernel code: a host or user-space program (tools/, scripts/, samples/, usr/)");
		} else if (kind == FK_KCONFIG) {
			bv = 2;
			best = -1;
		} else if (best < 0) {
			bv = 0;
			sb_adds(&why, kind == FK_DTS ? "device trees are not modelled" :
				"no Makefile builds it and nothing built includes it");
		}
		sb_adds(&j, "{\"kind\":\"arch\"");
		out_json_kv(&j, "path", df->path);
		out_json_kv(&j, "arch", c->arches.v[a]);
		out_json_kv(&j, "verdict", bv == 2 ? "y" : bv == 1 ? "ct" : "n");
		out_json_kv(&j, "symbols", best >= 0 ? trimmed(&paths.v[best].syms) : "");
		out_json_kv(&j, "reason", why.s ? why.s : "");
		sb_addf(&h, "arch\t%s\t%s\t%s\t%s\t%s", df->path, c->arches.v[a],
			bv == 2 ? "y" : bv == 1 ? "ct" : "n",
			best >= 0 && paths.v[best].syms.len ? trimmed(&paths.v[best].syms) : "-",
			why.len ? why.s : "-");
		emit(c, &j, &h);
		free(why.s);
	}
	for (i = 0; i < paths.n; i++)
		path_free(&paths.v[i]);
	free(paths.v);
	for (i = 0; i < dbg.n; i++)
		free(dbg.v[i].where);
	free(dbg.v);
	free(j.s);
	free(h.s);
}

int cmd_guards(int argc, char **argv)
{
	struct gctx *c = xcalloc(1, sizeof(*c));
	struct strvec tool = { 0 };
	const char *root = NULL, *diff = NULL;
	int i, kfd = -1;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--tree") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--diff") && i + 1 < argc)
			diff = argv[++i];
		else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
			vpush(c->arches, argv[++i]);
		else if (!strcmp(argv[i], "--json"))
			c->json = 1;
		else
			die("guards: unknown or incomplete option '%s' (see chopblock --help)",
			    argv[i]);
	}
	if (!root || !diff)
		die("guards: --tree DIR and --diff FILE are required");
	parse_diff(diff);
	tree_load(&c->t, root);
	for (i = 0; i < c->arches.n; i++) {
		const char *a = srcarch(c->arches.v[i]);

		if (arch_bit(c, a) < 0)
			die("guards: unknown architecture '%s' (no arch/%s/Kconfig in %s)",
			    c->arches.v[i], a, root);
	}
	tree_scan(&c->t, 1, 0);
	if (c->arches.n) {
		for (i = 0; i < c->t.nfiles; i++) {
			const struct fres *r = c->t.files[i].res;
			int k;

			if (r && c->t.files[i].kind == FK_KCONFIG)
				for (k = 0; k < r->toolchain.n; k++)
					vpush(tool, r->toolchain.v[k]);
		}
		kfd = kconf_start(&c->t, tool.v, tool.n, NULL, 0);
	}
	tree_scan(&c->t, 0, 1);
	if (c->arches.n) {
		kconf_finish(kfd, &c->kr);
		c->have_k = 1;
	}
	mk_build(&c->t, &c->mk);
	build_includers(c);
	{
		if (c->json) {
			printf("{\"tool\":\"chopblock\",\"format\":1,\"command\":\"guards\",\"tree\":");
			{
				struct sbuf b = { 0 };

				sb_json(&b, root);
				printf("%s,\"items\":[", b.s);
				free(b.s);
			}
		}
		for (i = 0; i < dfiles.n; i++) {
			if (dfiles.v[i].status == 'D')
				continue;
			report_file(c, &dfiles.v[i]);
		}
		if (c->json)
			printf("\n]}\n");
	}
	free(tool.v);
	return 0;
}
