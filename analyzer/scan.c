// SPDX-License-Identifier: GPL-2.0
/*
 * Per-file scanning: CONFIG_ references, #include, conditionals, weak
 * functions and definitions (C, assembly), Makefile objects and Kconfig
 * statements.  One pass with memchr/memmem, no regular expressions.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "chopblock.h"

struct buf {
	const char *p, *end;
};

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static int word_is(const char *p, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - p) >= n && !memcmp(p, w, n) &&
	       ((size_t)(e - p) == n || !is_ident(p[n]));
}

/* Offsets of "CONFIG_" references that start a symbol name. */
static void config_refs(struct fres *r, const char *b, const char *e,
			struct cptrvec *hits)
{
	const char *p = b;

	while (p < e && (p = memmem(p, e - p, "CONFIG_", 7))) {
		const char *s = p + 7, *q = s;
		int ok = 1, up = 0;

		if (p > b && is_ident(p[-1])) {
			/* allow -DCONFIG_FOO */
			if (!(p[-1] == 'D' && (p - 1 == b || !is_ident(p[-2]))))
				ok = 0;
		}
		while (q < e && is_ident(*q)) {
			if ((*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'))
				up++;
			q++;
		}
		if (ok && q - s >= 2 && up >= 2 && q[-1] != '_')
			vpush(*hits, p);
		p = q > p + 7 ? q : p + 7;
	}
	(void)r;
}

static char *ident_before_paren(const char *l, const char *e)
{
	const char *par = memchr(l, '(', e - l), *s;

	if (!par)
		return NULL;
	s = par;
	while (s > l && (s[-1] == ' ' || s[-1] == '\t'))
		s--;
	par = s;
	while (s > l && is_ident(s[-1]))
		s--;
	if (s == par || (*s >= '0' && *s <= '9'))
		return NULL;
	return xstrndup(s, par - s);
}

static const char *rtrim(const char *l, const char *e)
{
	while (e > l && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return e;
}

/*
 * Whether the parameter list opening at @par (on a line that starts at
 * column 0) belongs to a function definition: the line holding the
 * matching ')' must not end in ';' (a prototype) or ',' (an initializer
 * or a macro argument).  The list may span lines, as in
 *
 *	int module_finalize(const Elf_Ehdr *hdr,
 *			    const Elf_Shdr *sechdrs,
 *			    struct module *me)
 *
 * A list that does not close within 64 lines is taken as no definition.
 */
static int opens_definition(const char *par, const char *e)
{
	const char *q = par, *le;
	int depth = 0, lines = 0;

	for (; q < e; q++) {
		if (*q == '(') {
			depth++;
		} else if (*q == ')') {
			if (!--depth)
				break;
		} else if (*q == '\n' && ++lines > 64) {
			return 0;
		} else if (*q == ';' || *q == '{' || *q == '}') {
			return 0;
		}
	}
	if (q == e)
		return 0;
	le = memchr(q, '\n', e - q);
	le = rtrim(q, le ? le : e);
	return le[-1] != ';' && le[-1] != ',';
}

/* A directive with its continuation lines joined by single spaces. */
static char *join_lines(const char *p, const char *e)
{
	char *out = xmalloc(e - p + 1), *o = out;

	while (p < e) {
		if (*p == '\\' && p + 1 < e && p[1] == '\n') {
			p += 2;
			while (p < e && (*p == ' ' || *p == '\t'))
				p++;
			while (o > out && (o[-1] == ' ' || o[-1] == '\t'))
				o--;
			*o++ = ' ';
			continue;
		}
		*o++ = *p++;
	}
	*o = 0;
	return out;
}

struct ppframe {
	int cond;	/* index in conds or -1 */
};

/*
 * Record, as found on this line, the CONFIG_ hits that start before lim;
 * returns the index of the first hit not yet recorded.
 */
static int push_hits(struct fres *r, const struct cptrvec *hits, int hi,
		     const char *lim, const char *e, int line)
{
	while (hi < hits->n && hits->v[hi] < lim) {
		const char *s = hits->v[hi] + 7, *q = s;
		struct ref rf;

		while (q < e && is_ident(*q))
			q++;
		rf.name = xstrndup(s, q - s);
		rf.line = line;
		vpush(r->refs, rf);
		hi++;
	}
	return hi;
}

/* Record the header named by the "include" directive at d..le, if any. */
static void add_include(struct fres *r, const char *d, const char *le,
			int line)
{
	const char *q = skip_ws(d + 7, le), *c;
	char close = 0;

	if (q < le && *q == '"')
		close = '"';
	else if (q < le && *q == '<')
		close = '>';
	c = close ? memchr(q + 1, close, le - q - 1) : NULL;
	if (c) {
		struct inc in = {
			xstrndup(q + 1, c - q - 1), line, close == '>'
		};

		vpush(r->incs, in);
	}
}

static void scan_source(struct file *f, struct fres *r, const char *b,
			const char *e)
{
	struct cptrvec hits = { 0 };
	VEC(struct ppframe) st = { 0 };
	const char *l = b;
	int line = 0, hi = 0, i;
	int cfile = f->kind == FK_C || f->kind == FK_H;

	const char *weak = cfile ? memmem(b, e - b, "__weak", 6) : NULL;

	config_refs(r, b, e, &hits);
	while (l < e) {
		const char *nl = memchr(l, '\n', e - l), *le, *p;

		le = nl ? nl : e;
		line++;
		hi = push_hits(r, &hits, hi, le, e, line);
		p = skip_ws(l, le);
		if (p < le && *p == '#' && f->kind != FK_RS) {
			const char *d = skip_ws(p + 1, le), *de = le;
			int dline = line;

			/* join continuation lines */
			while (de > d && de[-1] == '\\' && de < e) {
				const char *n2 = memchr(de + 1, '\n', e - de - 1);

				de = n2 ? n2 : e;
				line++;
				hi = push_hits(r, &hits, hi, de, e, line);
			}
			le = de;
			nl = de < e ? de : NULL;
			if (word_is(d, le, "include")) {
				add_include(r, d, le, dline);
			} else if (word_is(d, le, "if") || word_is(d, le, "ifdef") ||
				   word_is(d, le, "ifndef") ||
				   word_is(d, le, "elif")) {
				struct ppframe fr = { -1 };
				int elif = word_is(d, le, "elif");

				if (elif && st.n) {
					int c = st.v[st.n - 1].cond;

					if (c >= 0 && !r->conds.v[c].end)
						r->conds.v[c].end = dline - 1;
					st.n--;
				}
				if (memmem(d, le - d, "CONFIG_", 7)) {
					struct cond c = { 0 };

					c.text = join_lines(p, rtrim(p, le));
					c.line = dline;
					c.dend = line;
					fr.cond = r->conds.n;
					vpush(r->conds, c);
				}
				vpush(st, fr);
			} else if (word_is(d, le, "else") || word_is(d, le, "endif")) {
				if (st.n) {
					int c = st.v[st.n - 1].cond;

					if (c >= 0 && !r->conds.v[c].end)
						r->conds.v[c].end = dline;
					if (word_is(d, le, "endif"))
						st.n--;
					else
						st.v[st.n - 1].cond = -1;
				}
			} else if (word_is(d, le, "define")) {
				const char *q = skip_ws(d + 6, le), *s = q;

				if (le - q > 7 && !memcmp(q, "CONFIG_", 7)) {
					s = q + 7;
					while (s < le && is_ident(*s))
						s++;
					vpush(r->cdefines, xstrndup(q + 7, s - q - 7));
				}
			}
		} else if (l < le && (cfile || f->kind == FK_S) &&
			   (is_ident(*l) && !(*l >= '0' && *l <= '9'))) {
			const char *te = rtrim(l, le);
			const char *eq = memchr(l, '=', te - l);
			const char *par = memchr(l, '(', te - l);

			if (f->kind == FK_S) {
				const char *c = memchr(l, ':', te - l);
				const char *q = l;

				while (q < te && is_ident(*q))
					q++;
				if (c && q == c) {
					struct fdef d = { xstrndup(l, q - l), line };

					vpush(r->defs, d);
				}
			} else if (par && (!eq || eq > par) && te > l &&
				   opens_definition(par, e)) {
				char *name = ident_before_paren(l, te);

				if (name) {
					struct fdef d = { name, line };

					vpush(r->defs, d);
				}
			}
		}
		if (f->kind == FK_S && p < le) {
			const char *m = memmem(p, le - p, "SYM_FUNC_START", 14);

			if (!m)
				m = memmem(p, le - p, "ENTRY(", 6);
			if (m) {
				const char *o = memchr(m, '(', le - m), *c;

				c = o ? memchr(o, ')', le - o) : NULL;
				if (c && c > o + 1) {
					struct fdef d = { xstrndup(o + 1, c - o - 1), line };

					vpush(r->defs, d);
				}
			}
		}
		while (weak && weak < p)
			weak = memmem(weak + 6, e - weak - 6, "__weak", 6);
		if (weak && weak < le && *p != '#') {
			const char *w = weak;
			const char *te = rtrim(l, le);
			char *name = NULL;

			if (te > l && te[-1] != ';') {
				name = ident_before_paren(w, te);
				if (!name && nl) {
					const char *n2 = nl + 1;
					const char *n2e = memchr(n2, '\n', e - n2);

					name = ident_before_paren(n2, n2e ? n2e : e);
				}
			}
			if (name) {
				struct fdef d = { name, line };

				vpush(r->weak, d);
			}
		}
		l = nl ? nl + 1 : e;
	}
	r->nlines = line;
	/* functions defined inside conditional blocks */
	for (i = 0; i < r->conds.n; i++) {
		struct cond *c = &r->conds.v[i];
		struct sbuf sb = { 0 };
		int k;

		if (!c->end)
			c->end = line;
		for (k = 0; k < r->defs.n; k++) {
			if (r->defs.v[k].line <= c->line || r->defs.v[k].line > c->end)
				continue;
			if (sb.len > 200)
				break;
			if (sb.len)
				sb_adds(&sb, ", ");
			sb_adds(&sb, r->defs.v[k].name);
		}
		c->funcs = sb.s;
	}
	free(hits.v);
	free(st.v);
}

/* Count newlines in [p, e); written so that the compiler vectorizes it. */
static int count_nl(const char *p, const char *e)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
	int n = 0;

	while (p < e && ((uintptr_t)p & 7))
		n += *p++ == '\n';
	for (; e - p >= 8; p += 8) {
		uint64_t x, y;

		memcpy(&x, p, 8);
		x ^= ones * '\n';
		/* high bit set in every byte that is zero */
		y = ~(((x & low7) + low7) | x | low7);
		n += (int)(((y >> 7) * ones) >> 56);
	}
	while (p < e)
		n += *p++ == '\n';
	return n;
}

/* First "CONFIG_" in [p, e), searching for the rare 'G'. */
static const char *find_config(const char *b, const char *p, const char *e)
{
	for (p += 5; p < e && (p = memchr(p, 'G', e - p)); p++) {
		if (p - 5 >= b && e - p >= 2 && !memcmp(p - 5, "CONFIG_", 7))
			return p - 5;
	}
	return NULL;
}

/*
 * The light scan used by "check": CONFIG_ references, #include and
 * #define CONFIG_, found by jumping from hit to hit instead of walking
 * every line.
 */
static void scan_source_light(struct fres *r, const char *b, const char *e)
{
	const char *cfg = find_config(b, b, e);
	const char *hash = memchr(b, '#', e - b);
	const char *pos = b;
	int line = 1;

	while (cfg || hash) {
		const char *at = cfg && (!hash || cfg < hash) ? cfg : hash;

		line += count_nl(pos, at);
		pos = at;
		if (at == cfg) {
			const char *s = cfg + 7, *q = s;
			int up = 0, ok = 1;

			if (cfg > b && is_ident(cfg[-1]) &&
			    !(cfg[-1] == 'D' && (cfg - 1 == b || !is_ident(cfg[-2]))))
				ok = 0;
			while (q < e && is_ident(*q)) {
				if ((*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'))
					up++;
				q++;
			}
			if (ok && q - s >= 2 && up >= 2 && q[-1] != '_') {
				struct ref rf = { xstrndup(s, q - s), line };

				vpush(r->refs, rf);
			}
			cfg = find_config(b, q, e);
		} else {
			const char *l = hash, *d, *le;

			while (l > b && (l[-1] == ' ' || l[-1] == '\t'))
				l--;
			le = memchr(hash, '\n', e - hash);
			if (!le)
				le = e;
			if (l == b || l[-1] == '\n') {
				d = skip_ws(hash + 1, le);
				if (word_is(d, le, "include")) {
					add_include(r, d, le, line);
				} else if (word_is(d, le, "define")) {
					const char *q = skip_ws(d + 6, le), *s;

					if (le - q > 7 && !memcmp(q, "CONFIG_", 7)) {
						s = q + 7;
						while (s < le && is_ident(*s))
							s++;
						vpush(r->cdefines,
						      xstrndup(q + 7, s - q - 7));
					}
				}
			}
			hash = hash + 1 < e ? memchr(hash + 1, '#', e - hash - 1) : NULL;
		}
	}
	r->nlines = line + count_nl(pos, e) - 1;
}

/* --- Makefiles --- */

static int mk_guard(const char *s, const char *e, char **guard)
{
	const char *c;

	*guard = NULL;
	if ((e - s == 1 && (*s == 'y' || *s == 'm')) ||
	    (e - s == 4 && !memcmp(s, "objs", 4)))
		return 0;
	c = memmem(s, e - s, "$(CONFIG_", 9);
	if (c && (c == s || (e - s > 13 && !memcmp(s, "$(subst m,y,", 12)))) {
		const char *q = c + 9;

		while (q < e && is_ident(*q))
			q++;
		if (q < e && *q == ')' && !memmem(q, e - q, "$(", 2)) {
			*guard = xstrndup(c + 9, q - c - 9);
			return 0;
		}
	}
	return 1;
}

/*
 * $(foo-y), $(foo-objs), $(foo-m): the members of composite foo, which the
 * foo-... assignments already list (and which live when foo.o is not
 * referenced as an object).
 */
static int composite_var(const char *t, size_t n)
{
	const char *dash;
	size_t k;

	if (n < 6 || t[0] != '$' || t[1] != '(' || t[n - 1] != ')')
		return 0;
	for (k = 2; k < n - 1; k++)
		if (!is_ident(t[k]) && t[k] != '-')
			return 0;
	dash = memrchr(t, '-', n);
	return dash && (!memcmp(dash, "-y)", 3) || !memcmp(dash, "-m)", 3) ||
			!memcmp(dash, "-objs)", 6));
}

static int rootrel_prefix(const struct file *f, const char *pfx)
{
	static const char *const v[] = { "core", "drivers", "libs", "net",
		"virt", "init", "head", NULL };
	int i;

	if (strcmp(f->path, "Makefile") &&
	    !(!strncmp(f->path, "arch/", 5) &&
	      !strcmp(f->path + f->base, "Makefile") &&
	      memchr(f->path + 5, '/', f->base - 5) == f->path + f->base - 1))
		return 0;
	for (i = 0; v[i]; i++)
		if (!strcmp(pfx, v[i]))
			return 1;
	return 0;
}

static void mk_line(const struct file *f, struct fres *r, char *s, int line,
		    struct strvec *ifs)
{
	char *op = NULL, *lhs_end, *q, *cut;
	char *pfx, *guard = NULL;
	int depth = 0, unknown, rootrel;

	/* strip comment */
	for (q = s; *q; q++)
		if (*q == '#' && (q == s || q[-1] != '\\')) {
			*q = 0;
			break;
		}
	q = s;
	while (*q == ' ' || *q == '\t')
		q++;
	if (!strncmp(q, "ifdef ", 6) || !strncmp(q, "ifeq ", 5) ||
	    !strncmp(q, "ifneq ", 6) || !strncmp(q, "ifndef ", 7)) {
		char *g = NULL;
		char *c = strstr(q, "CONFIG_");

		if (c && (!strncmp(q, "ifdef ", 6) ||
			  (!strncmp(q, "ifeq ", 5) &&
			   (strstr(q, ",y)") || strstr(q, ",m)"))) ||
			  (!strncmp(q, "ifneq ", 6) && strstr(q, ",)")))) {
			char *e = c + 7;

			while (is_ident(*e))
				e++;
			g = xstrndup(c + 7, e - c - 7);
		}
		vpush(*ifs, g);
		return;
	}
	if (!strncmp(q, "else", 4) && (!q[4] || q[4] == ' ' || q[4] == '\t')) {
		if (ifs->n) {
			free(ifs->v[ifs->n - 1]);
			ifs->v[ifs->n - 1] = NULL;
		}
		return;
	}
	if (!strncmp(q, "endif", 5)) {
		if (ifs->n)
			free(ifs->v[--ifs->n]);
		return;
	}
	for (cut = q; *cut; cut++) {
		if (*cut == '(')
			depth++;
		else if (*cut == ')')
			depth--;
		else if (!depth && (*cut == '=' || *cut == ':')) {
			if (*cut == ':' && cut[1] != '=')
				return;		/* a rule */
			op = cut;
			break;
		}
	}
	if (!op)
		return;
	lhs_end = op;
	if (op > q && (op[-1] == '+' || op[-1] == '?' || op[-1] == ':'))
		lhs_end = op - 1;
	while (lhs_end > q && (lhs_end[-1] == ' ' || lhs_end[-1] == '\t'))
		lhs_end--;
	/* split prefix-suffix at the last '-' outside $() */
	depth = 0;
	cut = NULL;
	for (char *c = q; c < lhs_end; c++) {
		if (*c == '(')
			depth++;
		else if (*c == ')')
			depth--;
		else if (!depth && *c == '-')
			cut = c;
	}
	if (!cut || cut == q)
		return;
	pfx = xstrndup(q, cut - q);
	if (strchr(pfx, '$') || strchr(pfx, ' ')) {
		free(pfx);
		return;
	}
	unknown = mk_guard(cut + 1, lhs_end, &guard);
	rootrel = rootrel_prefix(f, pfx);
	for (q = op + 1; *q; ) {
		char *t, *te;
		size_t n;

		while (*q == ' ' || *q == '\t')
			q++;
		if (!*q)
			break;
		t = q;
		while (*q && *q != ' ' && *q != '\t')
			q++;
		te = q;
		if (!strncmp(t, "$(obj)/", 7) || !strncmp(t, "$(src)/", 7))
			t += 7;
		n = te - t;
		if (memchr(t, '$', n) && *t != '-' && !memchr(t, '=', n) &&
		    !composite_var(t, n) &&
		    strcmp(pfx, "ccflags") && strcmp(pfx, "asflags") &&
		    strcmp(pfx, "subdir-ccflags") && strcmp(pfx, "ldflags")) {
			/* an object list built from variables: cannot follow */
			struct mkent m = { 0 };

			m.pfx = xstrdup(pfx);
			m.tok = xstrdup("$");
			m.line = line;
			m.unknown = 1;
			vpush(r->mk, m);
			continue;
		}
		if (*t == '-' || memchr(t, '$', n) || memchr(t, '=', n) || n < 2)
			continue;
		if (!(t[n - 1] == '/' || (n > 2 && !memcmp(te - 2, ".o", 2))))
			continue;
		{
			struct mkent m = { 0 };

			m.pfx = xstrdup(pfx);
			m.guard = guard ? xstrdup(guard) : NULL;
			m.unknown = unknown;
			m.tok = xstrndup(t, n);
			m.line = line;
			m.rootrel = rootrel;
			for (int k = ifs->n - 1; k >= 0; k--)
				if (ifs->v[k]) {
					m.ifg = xstrdup(ifs->v[k]);
					break;
				}
			vpush(r->mk, m);
		}
	}
	free(pfx);
	free(guard);
}

static void scan_make(const struct file *f, struct fres *r, const char *b,
		      const char *e)
{
	struct cptrvec hits = { 0 };
	struct strvec ifs = { 0 };
	struct sbuf sb = { 0 };
	const char *l = b;
	int line = 0, hi = 0, start = 0;

	config_refs(r, b, e, &hits);
	while (l < e) {
		const char *nl = memchr(l, '\n', e - l), *le = nl ? nl : e;

		line++;
		hi = push_hits(r, &hits, hi, le, e, line);
		if (!sb.len)
			start = line;
		if (le > l && le[-1] == '\\') {
			sb_addn(&sb, l, le - l - 1);
			sb_addn(&sb, " ", 1);
		} else {
			sb_addn(&sb, l, le - l);
			mk_line(f, r, sb.s, start, &ifs);
			sb.len = 0;
		}
		l = nl ? nl + 1 : e;
	}
	if (sb.len)
		mk_line(f, r, sb.s, start, &ifs);
	r->nlines = line;
	while (ifs.n)
		free(ifs.v[--ifs.n]);
	free(ifs.v);
	free(sb.s);
	free(hits.v);
}

/* --- Kconfig --- */

static int indent_of(const char *l, const char *e)
{
	int n = 0;

	for (; l < e && (*l == ' ' || *l == '\t'); l++)
		n = *l == '\t' ? (n + 8) & ~7 : n + 1;
	return n;
}

static void kc_refs(struct fres *r, const char *p, const char *e, int line)
{
	while (p < e) {
		if (*p == '"') {
			const char *c = memchr(p + 1, '"', e - p - 1);

			p = c ? c + 1 : e;
		} else if (*p == '$' && p + 1 < e && p[1] == '(') {
			int d = 0;

			for (; p < e; p++) {
				if (*p == '(')
					d++;
				else if (*p == ')' && --d == 0)
					break;
			}
			p++;
		} else if (*p == '#') {
			break;
		} else if (is_ident(*p)) {
			const char *s = p;
			int up = 0, digit = 1, hex = 0;

			while (p < e && is_ident(*p)) {
				if ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
					up++;
				if (!(*p >= '0' && *p <= '9'))
					digit = 0;
				p++;
			}
			if (p - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
				hex = 1;
			if (up >= 2 && !digit && !hex && p - s >= 2) {
				struct ref rf = { xstrndup(s, p - s), line };

				vpush(r->refs, rf);
			}
		} else {
			p++;
		}
	}
}

static void scan_kconfig(struct fres *r, const char *b, const char *e)
{
	const char *l = b;
	int line = 0, help = 0, hind = -1, hstart = 0;
	int cur = -1;	/* index in kdefs of current config */
	int tooled = 0;

	while (l < e) {
		const char *nl = memchr(l, '\n', e - l), *le = nl ? nl : e;
		const char *p = skip_ws(l, le);
		const char *kw;
		int ind;

		line++;
		if (help) {
			ind = indent_of(l, le);
			if (p == le)
				goto next;
			if (hind < 0)
				hind = ind;
			if (ind >= hind && ind > hstart)
				goto next;
			help = 0;
		}
		if (p == le || *p == '#')
			goto next;
		kw = p;
		if (word_is(kw, le, "help") || word_is(kw, le, "---help---")) {
			help = 1;
			hind = -1;
			hstart = indent_of(l, le);
			goto next;
		}
		if (word_is(kw, le, "config") || word_is(kw, le, "menuconfig")) {
			const char *s = skip_ws(kw + (*kw == 'c' ? 6 : 10), le);
			const char *q = s;
			struct fdef d;

			while (q < le && is_ident(*q))
				q++;
			d.name = xstrndup(s, q - s);
			d.line = line;
			cur = r->kdefs.n;
			tooled = 0;
			vpush(r->kdefs, d);
			goto next;
		}
		if (word_is(kw, le, "source") || word_is(kw, le, "rsource") ||
		    word_is(kw, le, "osource") || word_is(kw, le, "orsource")) {
			const char *q = memchr(kw, '"', le - kw), *c;

			c = q ? memchr(q + 1, '"', le - q - 1) : NULL;
			if (c) {
				struct ksrc s = { xstrndup(q + 1, c - q - 1), line,
						  *kw == 'o', kw[0] == 'r' || kw[1] == 'r' };
				vpush(r->ksrcs, s);
			}
			goto next;
		}
		if (word_is(kw, le, "menu") || word_is(kw, le, "choice") ||
		    word_is(kw, le, "comment") || word_is(kw, le, "endmenu") ||
		    word_is(kw, le, "endchoice") || word_is(kw, le, "endif") ||
		    word_is(kw, le, "mainmenu"))
			cur = -1;
		if (word_is(kw, le, "if"))
			cur = -1;
		if (cur >= 0 && !tooled && memmem(p, le - p, "$(", 2)) {
			tooled = 1;
			vpush(r->toolchain, xstrdup(r->kdefs.v[cur].name));
		}
		if (word_is(kw, le, "depends") || word_is(kw, le, "select") ||
		    word_is(kw, le, "imply") || word_is(kw, le, "default") ||
		    word_is(kw, le, "def_bool") || word_is(kw, le, "def_tristate") ||
		    word_is(kw, le, "if") || word_is(kw, le, "visible") ||
		    word_is(kw, le, "range")) {
			const char *q = kw;

			while (q < le && is_ident(*q))
				q++;
			if (word_is(kw, le, "depends"))
				q = skip_ws(q, le) + 2;
			kc_refs(r, q, le, line);
		} else if (word_is(kw, le, "bool") || word_is(kw, le, "tristate") ||
			   word_is(kw, le, "prompt") || word_is(kw, le, "string") ||
			   word_is(kw, le, "int") || word_is(kw, le, "hex")) {
			/* "prompt" if EXPR */
			const char *q = memchr(kw, '"', le - kw), *c;

			c = q ? memchr(q + 1, '"', le - q - 1) : NULL;
			if (c) {
				c = skip_ws(c + 1, le);
				if (word_is(c, le, "if"))
					kc_refs(r, c + 2, le, line);
			}
		}
next:
		l = nl ? nl + 1 : e;
	}
	r->nlines = line;
}

/* Defconfigs and other config fragments: CONFIG_FOO=... and "is not set" */
static void scan_defconfig(struct fres *r, const char *b, const char *e)
{
	struct cptrvec hits = { 0 };
	const char *l = b;
	int line = 0, hi = 0;

	config_refs(r, b, e, &hits);
	while (l < e) {
		const char *nl = memchr(l, '\n', e - l), *le = nl ? nl : e;

		line++;
		hi = push_hits(r, &hits, hi, le, e, line);
		l = nl ? nl + 1 : e;
	}
	r->nlines = line;
	free(hits.v);
}

/*
 * A quick hash of a file's contents, to tell changed files apart (within
 * one run: it is never stored).  Four independent lanes over 32-byte
 * blocks, so that the multiplies do not wait for each other: "check
 * --baseline" hashes both trees, 2.8 GB, and one lane took 0.25 s/GB.
 */
#define HMIX(h, x) do {							\
		(h) = ((h) ^ (x)) * 0xff51afd7ed558ccdULL;		\
		(h) ^= (h) >> 29;					\
	} while (0)

static uint64_t content_hash(const char *p, size_t n)
{
	uint64_t h = n * 0x9e3779b97f4a7c15ULL, x;
	uint64_t l[4] = { h, h ^ 1, h ^ 2, h ^ 3 };
	int k;

	for (; n >= 32; p += 32, n -= 32) {
		for (k = 0; k < 4; k++) {
			memcpy(&x, p + 8 * k, 8);
			HMIX(l[k], x);
		}
	}
	h = l[0];
	for (k = 1; k < 4; k++)
		HMIX(h, l[k]);
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&x, p, 8);
		HMIX(h, x);
	}
	x = 0;
	memcpy(&x, p, n);
	h = (h ^ x) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 32);
}

/* per-thread read buffer: read() beats mmap() for many small files */
static __thread char *rbuf;
static __thread size_t rcap;

void scan_thread_done(void)
{
	free(rbuf);
	rbuf = NULL;
	rcap = 0;
}

void scan_file(const struct tree *t, struct file *f, int light)
{
	struct fres *r = xcalloc(1, sizeof(*r));
	size_t got;
	char *m;

	f->res = r;
	m = read_buf(t->root, f->path, &rbuf, &rcap, &got);
	if (!m || !got)
		return;
	if (t->want_hash)
		f->hash = content_hash(m, got);
	switch (f->kind) {
	case FK_MAKE:
		scan_make(f, r, m, m + got);
		break;
	case FK_KCONFIG:
		scan_kconfig(r, m, m + got);
		break;
	case FK_DEFCONFIG:
		scan_defconfig(r, m, m + got);
		break;
	default:
		if (light)
			scan_source_light(r, m, m + got);
		else
			scan_source(f, r, m, m + got);
		break;
	}
}
