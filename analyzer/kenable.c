// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock enable: which Kconfig symbols a configuration needs so that
 * the requested ones are set, with the tree's own Kconfig semantics.
 *
 * The tree's Kconfig is parsed for one architecture and a base .config
 * (tinyconfig's, say) is read, as "make olddefconfig" would.  Each request
 * is then set as a user would set it: when the symbol cannot be set, the
 * unmet part of its prompt's dependencies is satisfied first (every
 * operand of an "&&", the first operand of an "||" that can be satisfied,
 * "!X" by setting X to n), or, for a symbol without a prompt, one of the
 * symbols that select it.  What was set is printed; a request that cannot
 * be met is printed with the part of the dependency that failed.  Every
 * attempt that fails is undone, so that no half-satisfied dependency is
 * left in the result.
 *
 * Toolchain probes answer "yes", as for "dead" (see kconf.c): the result
 * must still be checked against the real olddefconfig, which
 * harness/configure.sh does.  Choice values are not chosen here: a
 * configuration that needs one names it in its base.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The parser's API used here (conf_parse, conf_read, sym_find,
 * sym_calc_value, sym_set_tristate_value, sym_clear_all_valid,
 * sym_is_choice_value, expr_calc_value, expr_fprint, for_all_prompts,
 * for_all_defaults, struct symbol's def/flags/dir_dep/rev_dep/prop) is
 * the same in the 6.1 and 6.12 parsers; it comes through kcompat.h like
 * everything else of the parser.
 */
#include "kcompat.h"
#include "chopblock.h"

/* the CC/LD that kconf.c's popen() override answers for */
#define FAKE_TC "chopblock-fake-toolchain"

struct undo {
	struct symbol *sym;
	int had;	/* SYMBOL_DEF_USER was set */
	tristate old;
};

struct kept {
	struct symbol *sym;
	tristate val;
};

static VEC(struct undo) ulog;
static struct smap protect;	/* symbols a later request must not undo */
static VEC(struct kept) keep;	/* the same, with their values */
static struct smap forbid;	/* never set these (COMPILE_TEST on arm64) */
static struct sbuf why;		/* what blocked the last failure */
static int base_mode;		/* requests of the base may choose platforms */

static const char *sname(struct symbol *s)
{
	return s && s->name ? s->name : "<choice>";
}

static int is_bool(struct symbol *s)
{
	return s->type == S_BOOLEAN || s->type == S_TRISTATE;
}

static tristate val(struct symbol *s)
{
	sym_calc_value(s);
	return sym_get_tristate_value(s);
}

static int set(struct symbol *s, tristate v)
{
	struct undo u = { s, !!(s->flags & SYMBOL_DEF_USER), s->def[S_DEF_USER].tri };

	sym_calc_value(s);	/* its visibility may be stale */
	if (!sym_set_tristate_value(s, v))
		return 0;
	vpush(ulog, u);
	return 1;
}

/* A user value as a fragment line gives it, visible or not (conf_read). */
static void user_value(struct symbol *s, tristate v)
{
	struct undo u = { s, !!(s->flags & SYMBOL_DEF_USER), s->def[S_DEF_USER].tri };

	vpush(ulog, u);
	s->def[S_DEF_USER].tri = v;
	s->flags |= SYMBOL_DEF_USER;
	sym_clear_all_valid();
}

static void rollback(int mark)
{
	while (ulog.n > mark) {
		struct undo *u = &ulog.v[--ulog.n];

		if (u->had) {
			u->sym->def[S_DEF_USER].tri = u->old;
		} else {
			u->sym->flags &= ~SYMBOL_DEF_USER;
			u->sym->def[S_DEF_USER].tri = no;
		}
	}
	sym_clear_all_valid();
}

static void blame(const char *fmt, const char *name)
{
	why.len = 0;
	if (why.s)
		why.s[0] = 0;
	sb_addf(&why, fmt, name);
}

/* Blame an expression, as the Kconfig file spells it. */
static void blame_expr(const char *fmt, struct expr *e)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return;
	expr_fprint(e, fp);
	fclose(fp);
	blame(fmt, text);
	free(text);
}

static int is_protected(struct symbol *s)
{
	return s->name && smap_get(&protect, s->name, strlen(s->name)) >= 0;
}

static int is_forbidden(struct symbol *s)
{
	return s->name && smap_get(&forbid, s->name, strlen(s->name)) >= 0;
}

static int enable(struct symbol *s, int depth);
static int satisfy(struct expr *e, int depth);
static int falsify(struct expr *e, int depth);

static int satisfy(struct expr *e, int depth)
{
	int mark = ulog.n;

	if (!e || expr_calc_value(e) != no)
		return 1;
	switch (e->type) {
	case E_SYMBOL:
		return enable(e->left.sym, depth + 1);
	case E_AND:
		if (satisfy(e->left.expr, depth) && satisfy(e->right.expr, depth) &&
		    expr_calc_value(e) != no)
			return 1;
		rollback(mark);
		return 0;
	case E_OR:
		if (satisfy(e->left.expr, depth) && expr_calc_value(e) != no)
			return 1;
		rollback(mark);
		if (satisfy(e->right.expr, depth) && expr_calc_value(e) != no)
			return 1;
		rollback(mark);
		blame_expr("needs one of %s, and none can be met", e);
		return 0;
	case E_NOT:
		return falsify(e->left.expr, depth);
	case E_EQUAL:
		if (e->right.sym == &symbol_yes || e->right.sym == &symbol_mod)
			return enable(e->left.sym, depth + 1);
		if (e->right.sym == &symbol_no) {
			struct expr x = { .type = E_SYMBOL, .left.sym = e->left.sym };

			return falsify(&x, depth);
		}
		blame("needs %s to have another value", sname(e->left.sym));
		return 0;
	case E_UNEQUAL:
		if (e->right.sym == &symbol_no)
			return enable(e->left.sym, depth + 1);
		if (e->right.sym == &symbol_yes) {
			struct expr x = { .type = E_SYMBOL, .left.sym = e->left.sym };

			return falsify(&x, depth);
		}
		blame("needs %s to have another value", sname(e->left.sym));
		return 0;
	default:
		blame("needs a comparison of %s to hold", e->left.sym ? sname(e->left.sym) : "?");
		return 0;
	}
}

static int falsify(struct expr *e, int depth)
{
	int mark = ulog.n;

	if (!e || expr_calc_value(e) == no)
		return !!e;
	switch (e->type) {
	case E_SYMBOL: {
		struct symbol *s = e->left.sym;

		if (!s->name || !is_bool(s)) {
			blame("needs %s to be off", sname(s));
			return 0;
		}
		if (is_protected(s)) {
			blame("needs %s off, but this configuration sets it", s->name);
			return 0;
		}
		sym_calc_value(s);
		if (s->rev_dep.tri != no) {
			blame("needs %s off, but something selects it", s->name);
			return 0;
		}
		if (set(s, no) && val(s) == no) {
			return 1;
		}
		rollback(mark);
		blame("needs %s off, and it cannot be switched off", s->name);
		return 0;
	}
	case E_NOT:
		return satisfy(e->left.expr, depth);
	case E_OR:
		if (falsify(e->left.expr, depth) && falsify(e->right.expr, depth))
			return 1;
		rollback(mark);
		return 0;
	case E_AND:
		if (falsify(e->left.expr, depth))
			return 1;
		rollback(mark);
		if (falsify(e->right.expr, depth))
			return 1;
		rollback(mark);
		return 0;
	default:
		blame("needs a comparison of %s to fail", e->left.sym ? sname(e->left.sym) : "?");
		return 0;
	}
}

struct exprs {
	struct expr **v;
	int n, cap;
};

/* The terms of an "||" (the selects of rev_dep), left to right. */
static void or_terms(struct expr *e, struct exprs *out)
{
	if (!e)
		return;
	if (e->type == E_OR) {
		or_terms(e->left.expr, out);
		or_terms(e->right.expr, out);
	} else {
		vpush(*out, e);
	}
}

/*
 * Set @s through one of the symbols that select it: the term that costs
 * the fewest changes (DRM_TTM through a small driver, not the first one
 * the Kconfig file names).
 */
static int enable_by_select(struct symbol *s, int depth)
{
	struct exprs terms = { 0 };
	int mark = ulog.n, best = -1, cost = 0, i;

	or_terms(s->rev_dep.expr, &terms);
	for (i = 0; i < terms.n; i++) {
		if (satisfy(terms.v[i], depth) && val(s) != no &&
		    (best < 0 || ulog.n - mark < cost)) {
			best = i;
			cost = ulog.n - mark;
		}
		rollback(mark);
	}
	if (best >= 0 && !(satisfy(terms.v[best], depth) && val(s) != no)) {
		rollback(mark);
		best = -1;
	}
	free(terms.v);
	return best >= 0;
}

static int enable(struct symbol *s, int depth)
{
	struct property *p;
	int mark = ulog.n, prompt = 0;

	if (s == &symbol_yes || s == &symbol_mod)
		return 1;
	if (s == &symbol_no || !s->name) {
		blame("needs %s", s == &symbol_no ? "n to be y" : "a choice");
		return 0;
	}
	if (s->type == S_UNKNOWN) {
		blame("needs %s, which this architecture does not define", s->name);
		return 0;
	}
	if (!is_bool(s)) {
		blame("needs %s (not a bool or tristate) to be set", s->name);
		return 0;
	}
	if (val(s) != no)
		return 1;
	if (is_protected(s)) {
		blame("needs %s, which this configuration keeps off", s->name);
		return 0;
	}
	if (is_forbidden(s)) {
		blame("needs %s, which this configuration must not set", s->name);
		return 0;
	}
	for_all_prompts(s, p)
		prompt = 1;
	if (!base_mode && prompt && !strncmp(s->name, "ARCH_", 5)) {
		blame("needs the platform %s, which the base does not choose", s->name);
		return 0;
	}
	prompt = 0;
	if (sym_is_choice_value(s)) {
		blame("needs %s, a choice value (name it in the base fragment)", s->name);
		return 0;
	}
	if (depth > 40) {
		blame("needs %s: dependencies nested too deep", s->name);
		return 0;
	}
	if (getenv("CHOPBLOCK_DEBUG")) {
		fprintf(stderr, "enable %s (depth %d): dir_dep ", s->name, depth);
		expr_fprint(s->dir_dep.expr, stderr);
		fprintf(stderr, "\n");
	}
	if (set(s, yes) && val(s) != no)
		return 1;
	rollback(mark);
	/* its prompt's dependencies */
	for_all_prompts(s, p) {
		prompt = 1;
		if (satisfy(p->visible.expr, depth) && set(s, yes) && val(s) != no)
			return 1;
		rollback(mark);
	}
	/* the symbols that select it */
	if (s->rev_dep.expr) {
		struct sbuf keep_why = { 0 };

		if (why.s)
			sb_adds(&keep_why, why.s);
		if (enable_by_select(s, depth)) {
			free(keep_why.s);
			return 1;
		}
		if (prompt && keep_why.s) {
			why.len = 0;
			sb_adds(&why, keep_why.s);
		} else if (!prompt) {
			blame("needs %s, which only a select sets, and no selecting symbol can be set",
			      s->name);
		}
		free(keep_why.s);
		return 0;
	}
	/* a default that can become y */
	for_all_defaults(s, p) {
		if (satisfy(p->visible.expr, depth) && satisfy(s->dir_dep.expr, depth) &&
		    val(s) != no)
			return 1;
		rollback(mark);
	}
	if (!prompt && !why.len)
		blame("needs %s, which has no prompt and no default that can be y", s->name);
	return 0;
}

static void commit(struct symbol *s, tristate v)
{
	struct kept k = { s, v };

	if (smap_get(&protect, s->name, strlen(s->name)) >= 0)
		return;
	smap_put(&protect, s->name, strlen(s->name), 1);
	vpush(keep, k);
}

static void env_for(const char *root, const char *arch)
{
	const char *src = arch;

	if (!strcmp(arch, "x86_64") || !strcmp(arch, "i386"))
		src = "x86";
	if (chdir(root))
		die("enable: cannot enter %s", root);
	setenv("srctree", ".", 1);
	setenv("SRCARCH", src, 1);
	setenv("ARCH", arch, 1);
	setenv("CC", FAKE_TC, 1);
	setenv("LD", FAKE_TC, 1);
	setenv("RUSTC", FAKE_TC, 1);
	setenv("BINDGEN", FAKE_TC, 1);
	setenv("KERNELVERSION", "chopblock", 1);
	setenv("CC_VERSION_TEXT", "chopblock", 1);
	unsetenv("KCONFIG_ALLCONFIG");
}

static char tri_char(tristate v)
{
	return v == yes ? 'y' : v == mod ? 'm' : 'n';
}

/* One request; prints its result, returns 0 when a required one failed. */
static int request(const char *verb, char *name, const char *label, const char *arch)
{
	int mark = ulog.n, ok = 0, opt, k;
	tristate want = yes;
	struct symbol *s;
	char *eq;

	opt = !strcmp(verb, "soft") || !strcmp(verb, "try");
	base_mode = !strcmp(verb, "base");
	if (!strncmp(name, "CONFIG_", 7))
		name += 7;
	eq = strchr(name, '=');
	if (eq) {
		*eq = 0;
		want = eq[1] == 'n' ? no : eq[1] == 'm' ? mod : yes;
	}
	if (!strcmp(verb, "off"))
		want = no;
	why.len = 0;
	if (why.s)
		why.s[0] = 0;
	s = sym_find(name);
	if (!s || s->type == S_UNKNOWN) {
		printf("%s\t%s\t%s\tno such symbol on %s\n", opt ? "skip" : "fail", name,
		       label, arch);
		return opt;
	}
	if (!is_bool(s)) {
		if (base_mode) {
			/* a string or number of the base: olddefconfig keeps it */
			printf("have\t%s\t%s\n", name, label);
			return 1;
		}
		printf("%s\t%s\t%s\tnot a bool or tristate\n", opt ? "skip" : "fail", name, label);
		return opt;
	}
	if (base_mode) {
		/* as the fragment line will: a user value, visible or not */
		user_value(s, want);
	}
	if (val(s) == want) {
		printf("have\t%s=%c\t%s\n", name, tri_char(want), label);
		commit(s, want);
		return 1;
	}
	if (want == no) {
		struct expr x = { .type = E_SYMBOL, .left.sym = s };

		ok = falsify(&x, 0);
	} else if (!strcmp(verb, "soft")) {
		if (s->type != S_BOOLEAN) {
			printf("skip\t%s\t%s\ta tristate: not a debug switch\n", name, label);
			return 1;
		}
		ok = set(s, yes) && val(s) == yes;
		if (!ok)
			blame("its dependencies do not hold here (%s)",
			      "they are not chased for a debug option");
	} else if (!strcmp(verb, "need") || !strcmp(verb, "try") || base_mode) {
		ok = enable(s, 0);
	} else {
		die("enable: bad request verb '%s'", verb);
	}
	/* a request must not cost an earlier one */
	for (k = 0; ok && k < keep.n; k++) {
		if (val(keep.v[k].sym) != keep.v[k].val) {
			blame("would change %s, which this configuration sets",
			      keep.v[k].sym->name);
			ok = 0;
		}
	}
	if (!ok) {
		rollback(mark);
		printf("%s\t%s\t%s\t%s\n", opt ? "skip" : "fail", name, label,
		       why.len ? why.s : "cannot be set");
		return opt;
	}
	/* what it set, in order, then the request itself */
	for (k = mark; k < ulog.n; k++) {
		struct symbol *o = ulog.v[k].sym;
		int j;

		for (j = mark; j < k && ulog.v[j].sym != o; j++)
			;
		if (j < k || o == s)
			continue;
		printf("set\t%s=%c\t%s\t%s\n", o->name, tri_char(val(o)), name, label);
		commit(o, val(o));
	}
	printf("set\t%s=%c\t%s\t%s\n", name, tri_char(val(s)), name, label);
	commit(s, val(s));
	return 1;
}

/*
 * Requests, one a line: "base SYM=VALUE" (a line of the base fragment:
 * may choose platforms), "need SYM" (set it and what it needs), "try SYM"
 * (the same, but failing is no error), "soft SYM" (a bool, set only when
 * nothing else has to change for it), "off SYM"; anything after the
 * symbol is a label that the output repeats.  What a request sets is
 * kept: a later request that would change it fails.  Platforms (ARCH_*
 * symbols with a prompt) are the base's to choose.
 *
 * Output, one a line, tab-separated: "set SYM=V REQUEST LABEL" for each
 * symbol set (the request's own last), "have SYM=V LABEL" when it already
 * held, "fail SYM LABEL WHY" (exit status 1), "skip SYM LABEL WHY" for a
 * try or soft request that cannot be met.
 */
int cmd_enable(int argc, char **argv)
{
	const char *root = NULL, *arch = NULL, *config = NULL, *reqs = NULL;
	char *line = NULL, cwd[4096];
	size_t cap = 0;
	FILE *fp;
	int i, failed = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--tree") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
			arch = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!strcmp(argv[i], "--requests") && i + 1 < argc)
			reqs = argv[++i];
		else if (!strcmp(argv[i], "--forbid") && i + 1 < argc) {
			const char *f = argv[++i];

			if (!strncmp(f, "CONFIG_", 7))
				f += 7;
			smap_put(&forbid, f, strlen(f), 1);
		} else {
			die("enable: unknown or incomplete option '%s' (see chopblock --help)",
			    argv[i]);
		}
	}
	if (!root || !arch || !config || !reqs)
		die("enable: --tree DIR --arch ARCH --config FILE --requests FILE are required");
	if (!getcwd(cwd, sizeof(cwd)))
		die("enable: no working directory");
	fp = strcmp(reqs, "-") ? fopen(reqs, "r") : stdin;
	if (!fp)
		die("enable: cannot read %s", reqs);
	if (config[0] != '/') {
		char *full = xmalloc(strlen(cwd) + strlen(config) + 2);

		sprintf(full, "%s/%s", cwd, config);
		config = full;
	}
	if (access(config, R_OK))
		die("enable: cannot read the base configuration %s", config);
	/* the parser's warnings about the base are not ours */
	if (!getenv("CHOPBLOCK_DEBUG") && !freopen("/dev/null", "w", stderr))
		die("enable: cannot silence the parser");
	env_for(root, arch);
	conf_parse("Kconfig");
	if (conf_read(config))
		die("enable: cannot read the base configuration %s", config);
	while (getline(&line, &cap, fp) > 0) {
		char verb[16], name[256];
		int n = 0;

		line[strcspn(line, "\n")] = 0;
		if (!*line || *line == '#')
			continue;
		if (sscanf(line, "%15s %255s %n", verb, name, &n) < 2)
			die("enable: bad request '%s'", line);
		if (!request(verb, name, line + n, arch))
			failed++;
	}
	free(line);
	if (fp != stdin)
		fclose(fp);
	fflush(stdout);
	return failed ? 1 : 0;
}
