// SPDX-License-Identifier: GPL-2.0
/*
 * Kconfig semantics from the tree's own parser (scripts/kconfig, compiled
 * at build time from the tree named by the KSRC make variable).
 *
 * The parser keeps global state, so every architecture is parsed in a
 * forked child.  The child computes, for each symbol, whether any
 * configuration of that architecture can enable it (a least fixed point
 * over prompts, defaults, selects and implies, with the dependencies of
 * menus, ifs and choices that menu_finalize() folded into them), and writes
 * one line per symbol to a pipe.
 *
 * Toolchain probes ($(cc-option,...), $(success,...) with $(CC)) are
 * answered "yes" without running anything: popen() is overridden below.
 * Symbols whose definition uses $(...) are additionally treated as free
 * (both values possible), so that no answer of the fake toolchain can make
 * live code look dead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kcompat.h"
#include "chopblock.h"

extern char **environ;

#define FAKE_TC "chopblock-fake-toolchain"

/* ---- popen() override used by the Kconfig preprocessor ---- */

struct pproc {
	FILE *fp;
	pid_t pid;
};
static struct pproc procs[8];

static FILE *answer(const char *s)
{
	FILE *fp = fmemopen(NULL, strlen(s) + 2, "w+");

	if (!fp)
		return NULL;
	fputs(s, fp);
	rewind(fp);
	return fp;
}

/*
 * scripts/Kconfig.include wraps plain shell builtins in $(shell,...):
 * $(success,test ...) is "{ test A = B; } >/dev/null 2>&1 && echo "y" ||
 * echo "n"", and $(cc-name) and the like are "set -- GCC 140200 && echo
 * $1".  A real shell for each cost every one of the 21 parser children
 * some 16 fork()s and exec()s of /bin/sh.  Such commands are answered here
 * when all their words are plain (no expansion, globbing, escapes or
 * operators other than the ones named), exactly as sh would answer them;
 * anything else goes to a real shell.
 */
#define SH_MAXW 8

/* is @c a character sh takes literally in an unquoted word? */
static int sh_plain(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("_-./,:+=@%^", c));
}

/*
 * Split [@s, @end) into at most SH_MAXW words (in @buf, @len bytes), as
 * sh would if every word is made of plain characters, "double-quoted"
 * text without $, ` or \, and 'single-quoted' text.  Returns the number
 * of words, or -1 for anything else.
 */
static int sh_words(const char *s, const char *end, char *buf, size_t len,
		    char **w)
{
	size_t o = 0;
	int n = 0;

	while (s < end) {
		if (*s == ' ' || *s == '\t') {
			s++;
			continue;
		}
		if (n == SH_MAXW)
			return -1;
		w[n++] = buf + o;
		while (s < end && *s != ' ' && *s != '\t') {
			char q = *s;

			if (q == '"' || q == '\'') {
				for (s++; s < end && *s != q; s++) {
					if (q == '"' && strchr("$`\\", *s))
						return -1;
					if (o + 1 >= len)
						return -1;
					buf[o++] = *s;
				}
				if (s == end)
					return -1;
				s++;
			} else if (sh_plain(q) && o + 1 < len) {
				buf[o++] = *s++;
			} else {
				return -1;
			}
		}
		buf[o++] = 0;
	}
	return n;
}

/* an operand of test that dash cannot take for an operator */
static int sh_operand(const char *a)
{
	return a[0] != '-' && strcmp(a, "!") && strcmp(a, "(") &&
	       strcmp(a, ")");
}

/* "test ARGS" of sh: 1 true, 0 false, -1 not one of the simple forms */
static int sh_test(char **w, int n)
{
	struct stat st;

	if (n == 2 && sh_operand(w[1]))
		return w[1][0] != 0;
	if (n == 3 && sh_operand(w[2])) {
		if (!strcmp(w[1], "-z"))
			return w[2][0] == 0;
		if (!strcmp(w[1], "-n"))
			return w[2][0] != 0;
		if (!strcmp(w[1], "-e"))
			return !stat(w[2], &st);
	}
	if (n == 4 && sh_operand(w[1]) && sh_operand(w[3])) {
		if (!strcmp(w[2], "="))
			return !strcmp(w[1], w[3]);
		if (!strcmp(w[2], "!="))
			return !!strcmp(w[1], w[3]);
	}
	return -1;
}

/*
 * Is [@s, @end) printed as it is by echo "...", and short enough for
 * sh_builtin()'s buffer?  No quote, $, ` or backslash, no leading -.
 */
static int sh_echo_plain(const char *s, const char *end)
{
	const char *p;

	if (end - s > 256 || (s < end && *s == '-'))
		return 0;
	for (p = s; p < end; p++)
		if (strchr("\"$`\\", *p))
			return 0;
	return 1;
}

/* the answer to @cmd if it is one of the forms above, else NULL */
static FILE *sh_builtin(const char *cmd)
{
	static const char ifs[] = "; } >/dev/null 2>&1 && echo \"";
	static const char els[] = "\" || echo \"";
	static const char set[] = " && echo $";
	char buf[1024], out[300], *w[SH_MAXW];
	const char *t, *then, *q, *end = cmd + strlen(cmd);
	int n, r;

	/* $(if-success,test ARGS,THEN,ELSE) */
	t = strstr(cmd, ifs);
	if (!strncmp(cmd, "{ ", 2) && t) {
		n = sh_words(cmd + 2, t, buf, sizeof(buf), w);
		if (n < 1 || strcmp(w[0], "test"))
			return NULL;
		r = sh_test(w, n);
		then = t + strlen(ifs);
		q = strstr(then, els);
		if (r < 0 || !q || end - q < (long)strlen(els) + 1 ||
		    end[-1] != '"')
			return NULL;
		/*
		 * "THEN" and "ELSE" with no quote in them: the whole command
		 * is that form.  echo takes a leading - for an option and
		 * interprets backslashes.
		 */
		q += strlen(els);
		if (!sh_echo_plain(then, q - strlen(els)) ||
		    !sh_echo_plain(q, end - 1))
			return NULL;
		if (r)
			snprintf(out, sizeof(out), "%.*s\n",
				 (int)(q - strlen(els) - then), then);
		else
			snprintf(out, sizeof(out), "%.*s\n", (int)(end - 1 - q), q);
		return answer(out);
	}
	/* set -- WORDS && echo $N */
	t = end - strlen(set) - 1;
	if (!strncmp(cmd, "set -- ", 7) && t >= cmd + 6 &&
	    !strncmp(t, set, strlen(set)) && end[-1] >= '1' && end[-1] <= '9') {
		n = sh_words(cmd + 7, t, buf, sizeof(buf), w);
		r = end[-1] - '1';
		/* an unquoted $N is split at $IFS and globbed: plain words */
		if (n < 0 || getenv("IFS"))
			return NULL;
		if (r >= n) {
			out[0] = 0;
		} else {
			for (q = w[r]; *q; q++)
				if (!sh_plain(*q))
					return NULL;
			if (!sh_echo_plain(w[r], q))
				return NULL;
			snprintf(out, sizeof(out), "%s", w[r]);
		}
		strcat(out, "\n");
		return answer(out);
	}
	return NULL;
}

FILE *popen(const char *cmd, const char *type)
{
	const char *t, *q;
	FILE *fp;
	posix_spawn_file_actions_t fa;
	char *argv[4];
	int fds[2], i;
	pid_t pid;

	(void)type;
	/* "{ CMD; } >/dev/null 2>&1 && echo "THEN" || echo "ELSE"" */
	if (!strncmp(cmd, "{ ", 2) && (t = strstr(cmd, "&& echo \""))) {
		if (memmem(cmd, t - cmd, FAKE_TC, strlen(FAKE_TC))) {
			char buf[256];

			t += 9;
			q = strchr(t, '"');
			if (q && q - t < (long)sizeof(buf)) {
				memcpy(buf, t, q - t);
				buf[q - t] = 0;
				return answer(buf);
			}
		}
	}
	if (strstr(cmd, "cc-version.sh"))
		return answer("GCC 140200");
	if (strstr(cmd, "as-version.sh"))
		return answer("GNU 24400");
	if (strstr(cmd, "ld-version.sh"))
		return answer("BFD 24400");
	if (strstr(cmd, "rustc-version.sh") || strstr(cmd, "rustc-llvm-version") ||
	    strstr(cmd, "bindgen"))
		return answer("0");
	if (strstr(cmd, FAKE_TC))
		return answer("");
	fp = sh_builtin(cmd);
	if (fp)
		return fp;
	/* anything else: a real shell */
	if (pipe(fds))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)cmd;
	argv[3] = NULL;
	if (posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	for (i = 0; i < 8; i++) {
		if (!procs[i].fp) {
			procs[i].fp = fdopen(fds[0], "r");
			procs[i].pid = pid;
			return procs[i].fp;
		}
	}
	close(fds[0]);
	return NULL;
}

int pclose(FILE *fp)
{
	int i, st = 0;

	for (i = 0; i < 8; i++) {
		if (procs[i].fp == fp) {
			fclose(fp);
			while (waitpid(procs[i].pid, &st, 0) < 0 && errno == EINTR)
				;
			procs[i].fp = NULL;
			return st;
		}
	}
	fclose(fp);
	return 0;
}

/* ---- possibility analysis inside the child ---- */

struct kstate {
	struct symbol *sym;
	struct menu *menu;	/* its first definition */
	unsigned char cany, cann, free, forced;
};

static struct kstate *ks;
static int nks;
static struct symbol **pm_key;
static int *pm_val;
static size_t pm_cap;
static int allow_ct, use_forced;
static struct symbol *compile_test;

static size_t pm_slot(struct symbol *s)
{
	size_t i = ((uintptr_t)s >> 4) * 0x9E3779B97F4A7C15ULL;

	i &= pm_cap - 1;
	while (pm_key[i] && pm_key[i] != s)
		i = (i + 1) & (pm_cap - 1);
	return i;
}

static int sym_idx(struct symbol *s)
{
	size_t i = pm_slot(s);

	return pm_key[i] ? pm_val[i] : -1;
}

static int poss_y(struct expr *e);
static int poss_n(struct expr *e);

static int sym_y(struct symbol *s)
{
	int i;

	if (s == &symbol_yes || s == &symbol_mod)
		return 1;
	if (s == &symbol_no)
		return 0;
	if (s->type != S_BOOLEAN && s->type != S_TRISTATE && s->type != S_UNKNOWN)
		return 1;
	i = sym_idx(s);
	if (i < 0)
		return (s->flags & SYMBOL_CONST) ? 1 : 0;
	return ks[i].cany;
}

static int sym_n(struct symbol *s)
{
	int i;

	if (s == &symbol_yes || s == &symbol_mod)
		return 0;
	if (s == &symbol_no)
		return 1;
	i = sym_idx(s);
	if (i < 0)
		return 1;
	return ks[i].cann;
}

static int poss_y(struct expr *e)
{
	if (!e)
		return 1;
	switch (e->type) {
	case E_SYMBOL:
		return sym_y(e->left.sym);
	case E_NOT:
		return poss_n(e->left.expr);
	case E_AND:
		return poss_y(e->left.expr) && poss_y(e->right.expr);
	case E_OR:
		return poss_y(e->left.expr) || poss_y(e->right.expr);
	case E_EQUAL:
		if (e->right.sym == &symbol_yes || e->right.sym == &symbol_mod)
			return sym_y(e->left.sym);
		if (e->right.sym == &symbol_no)
			return sym_n(e->left.sym);
		return 1;
	case E_UNEQUAL:
		if (e->right.sym == &symbol_no)
			return sym_y(e->left.sym);
		return 1;
	default:
		return 1;
	}
}

static int poss_n(struct expr *e)
{
	if (!e)
		return 0;
	switch (e->type) {
	case E_SYMBOL:
		return sym_n(e->left.sym);
	case E_NOT:
		return poss_y(e->left.expr);
	case E_AND:
		return poss_n(e->left.expr) || poss_n(e->right.expr);
	case E_OR:
		return poss_n(e->left.expr) && poss_n(e->right.expr);
	default:
		return 1;
	}
}

static int can_enable(struct kstate *k)
{
	struct symbol *s = k->sym;
	struct property *p;
	int dep, via = 0;

	if (s == compile_test && !allow_ct)
		return 0;
	if (k->forced && use_forced)
		return 0;
	if (s->rev_dep.expr && poss_y(s->rev_dep.expr))
		return 1;
	dep = poss_y(s->dir_dep.expr);
	if (!dep)
		return 0;
	if (k->free)
		return 1;
	for (p = s->prop; p && !via; p = p->next) {
		if (p->type == P_PROMPT || p->type == P_MENU)
			via = poss_y(p->visible.expr);
		else if (p->type == P_DEFAULT)
			via = poss_y(p->visible.expr) &&
			      (s->type == S_BOOLEAN || s->type == S_TRISTATE ?
			       poss_y(p->expr) : 1);
	}
	if (!via && s->implied.expr)
		via = poss_y(s->implied.expr);
	return via;
}

static int always_y(struct kstate *k)
{
	struct symbol *s = k->sym;
	struct property *p;

	if (k->free || k->forced || !s->name || s == compile_test)
		return 0;
	if (s->type != S_BOOLEAN && s->type != S_TRISTATE)
		return 0;
	if (s->dir_dep.expr && !(s->dir_dep.expr->type == E_SYMBOL &&
				 s->dir_dep.expr->left.sym == &symbol_yes))
		return 0;
	for (p = s->prop; p; p = p->next) {
		if (p->type == P_PROMPT || p->type == P_MENU)
			return 0;
		if (p->type == P_DEFAULT) {
			if (p->visible.expr &&
			    !(p->visible.expr->type == E_SYMBOL &&
			      p->visible.expr->left.sym == &symbol_yes))
				return 0;
			return p->expr && p->expr->type == E_SYMBOL &&
			       p->expr->left.sym == &symbol_yes;
		}
	}
	return 0;
}

/*
 * Enable what can be enabled, over and over until nothing changes: the
 * least fixed point of can_enable() above what is enabled already.
 * can_enable() only grows with the cany of other symbols (poss_y() and
 * poss_n() are monotone in it; cann is fixed for a run), so starting from
 * a set that the fixed point contains reaches the same fixed point as
 * starting from nothing.
 */
static void fixpoint_more(void)
{
	int changed = 1, i;

	while (changed) {
		changed = 0;
		for (i = 0; i < nks; i++) {
			if (!ks[i].cany && can_enable(&ks[i])) {
				ks[i].cany = 1;
				changed = 1;
			}
		}
	}
}

static void fixpoint(void)
{
	int i;

	for (i = 0; i < nks; i++) {
		ks[i].cany = 0;
		ks[i].cann = (use_forced && ks[i].forced) || !always_y(&ks[i]);
	}
	fixpoint_more();
}

static int in_list(char **v, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return 1;
	return 0;
}

static void child(struct tree *t, const char *arch, int out, char **tool,
		  int ntool, char **forced, int nforced)
{
	struct smap toolmap = { 0 };
	struct menu *menu;
	unsigned char *bits;
	int any_forced = 0;
	FILE *fp;
	int i;

	if (!getenv("CHOPBLOCK_DEBUG")) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
	}
	if (chdir(t->root))
		_exit(3);
	setenv("srctree", ".", 1);
	setenv("SRCARCH", arch, 1);
	setenv("ARCH", arch, 1);
	if (!strcmp(arch, "um")) {
		setenv("SUBARCH", "x86", 1);
		setenv("HEADER_ARCH", "x86", 1);
	}
	setenv("CC", FAKE_TC, 1);
	setenv("LD", FAKE_TC, 1);
	setenv("RUSTC", FAKE_TC, 1);
	setenv("BINDGEN", FAKE_TC, 1);
	setenv("KERNELVERSION", "chopblock", 1);
	setenv("CC_VERSION_TEXT", "chopblock", 1);
	unsetenv("KCONFIG_ALLCONFIG");
	conf_parse("Kconfig");
	phase(arch);

	for (i = 0; i < ntool; i++)
		smap_put(&toolmap, tool[i], strlen(tool[i]), 1);
	/* collect the symbols that have menu entries */
	nks = 0;
	for (menu = rootmenu.list; menu; menu = kc_menu_next(menu, &rootmenu))
		if (menu->sym)
			nks++;
	ks = xcalloc(nks + 1, sizeof(*ks));
	pm_cap = 16;
	while (pm_cap < (size_t)nks * 2 + 16)
		pm_cap *= 2;
	pm_key = xcalloc(pm_cap, sizeof(*pm_key));
	pm_val = xcalloc(pm_cap, sizeof(*pm_val));
	nks = 0;
	for (menu = rootmenu.list; menu; menu = kc_menu_next(menu, &rootmenu)) {
		struct symbol *s = menu->sym;
		size_t j;

		if (!s)
			continue;
		j = pm_slot(s);
		if (pm_key[j])
			continue;
		pm_key[j] = s;
		pm_val[j] = nks;
		ks[nks].sym = s;
		ks[nks].menu = menu;
		if (s->name) {
			ks[nks].free = smap_get(&toolmap, s->name,
						strlen(s->name)) >= 0;
			ks[nks].forced = in_list(forced, nforced, s->name);
			any_forced |= ks[nks].forced;
		}
		nks++;
	}
	compile_test = sym_find("COMPILE_TEST");
	bits = xcalloc(nks + 1, 1);
	allow_ct = 0;
	use_forced = 0;
	fixpoint();
	for (i = 0; i < nks; i++)
		bits[i] |= ks[i].cany;
	/*
	 * The --remove-symbol symbols forced off: with none of them here,
	 * nothing changes, and the fixed point is the one just computed.
	 */
	use_forced = 1;
	if (any_forced)
		fixpoint();
	for (i = 0; i < nks; i++)
		bits[i] |= ks[i].cany << 1;
	/*
	 * COMPILE_TEST allowed: can_enable() only grows, so what was
	 * enabled without it stays, and the fixed point goes on from there.
	 */
	allow_ct = 1;
	fixpoint_more();
	for (i = 0; i < nks; i++)
		bits[i] |= ks[i].cany << 2;

	phase("fixpoints");
	fp = fdopen(out, "w");
	if (!fp)
		_exit(3);
	if (getenv("CHOPBLOCK_SYM") && getenv("CHOPBLOCK_DEBUG")) {
		struct symbol *s = sym_find(getenv("CHOPBLOCK_SYM"));
		struct property *p;

		if (s) {
			fprintf(stderr, "%s: dir_dep: ", arch);
			expr_fprint(s->dir_dep.expr, stderr);
			fprintf(stderr, "\nrev_dep: ");
			expr_fprint(s->rev_dep.expr, stderr);
			for (p = s->prop; p; p = p->next) {
				fprintf(stderr, "\nprop %d vis: ", p->type);
				expr_fprint(p->visible.expr, stderr);
				fprintf(stderr, " expr: ");
				expr_fprint(p->expr, stderr);
			}
			fprintf(stderr, "\n");
		}
	}
	for (i = 0; i < nks; i++) {
		struct symbol *s = ks[i].sym;

		if (!s->name)
			continue;
		fprintf(fp, "%s %d %s:%d\n", s->name, bits[i],
			kc_menu_file(ks[i].menu), ks[i].menu->lineno);
	}
	fflush(fp);
	_exit(ferror(fp) ? 3 : 0);
}

static void absorb(struct kresult *res, int arch, char *line)
{
	char *sp = strchr(line, ' '), *sp2;
	struct ksym_arch *k;
	int bits, idx;

	if (!sp)
		return;
	sp2 = strchr(sp + 1, ' ');
	if (!sp2)
		return;
	bits = atoi(sp + 1);
	if (getenv("CHOPBLOCK_SYM") && !strncmp(getenv("CHOPBLOCK_SYM"), line, sp - line) &&
	    !getenv("CHOPBLOCK_SYM")[sp - line])
		fprintf(stderr, "arch %d: %s\n", arch, line);
	idx = smap_put(&res->map, line, sp - line, res->syms.n);
	if (idx == res->syms.n) {
		struct ksym_arch n = { 0 };

		n.name = xstrndup(line, sp - line);
		n.loc = xstrdup(sp2 + 1);
		vpush(res->syms, n);
	}
	k = &res->syms.v[idx];
	k->defined |= 1u << arch;
	if (bits & 1)
		k->y0 |= 1u << arch;
	if (bits & 2)
		k->y1 |= 1u << arch;
	if (bits & 4)
		k->y2 |= 1u << arch;
}

struct kjob {
	pid_t pid;
	int fd;
	int arch;
	struct sbuf buf;
};

static void finish(struct tree *t, struct kresult *res, struct kjob *j)
{
	char *l = j->buf.s, *nl;
	int st = 0;

	while (waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("Kconfig parse failed for architecture '%s' in '%s' (set CHOPBLOCK_DEBUG=1 for the parser's messages)",
		    t->arches.v[j->arch], t->root);
	while (l && (nl = strchr(l, '\n'))) {
		*nl = 0;
		absorb(res, j->arch, l);
		l = nl + 1;
	}
	free(j->buf.s);
	memset(&j->buf, 0, sizeof(j->buf));
}

void kconf_eval(struct tree *t, char **toolchain, int ntool,
		char **forced, int nforced, struct kresult *res)
{
	struct kjob jobs[MAX_ARCH];
	int next = 0, active = 0, width = ncpus() + 1, i;

	memset(res, 0, sizeof(*res));
	fflush(NULL);
	while (next < t->arches.n || active) {
		struct pollfd pfd[MAX_ARCH];
		int map[MAX_ARCH], np = 0;

		while (next < t->arches.n && active < width) {
			int fds[2];
			struct kjob *j = &jobs[next];

			if (pipe(fds))
				die("pipe: %s", strerror(errno));
			memset(j, 0, sizeof(*j));
			j->arch = next;
			j->pid = fork();
			if (j->pid < 0)
				die("fork: %s", strerror(errno));
			if (!j->pid) {
				close(fds[0]);
				child(t, t->arches.v[next], fds[1], toolchain,
				      ntool, forced, nforced);
			}
			close(fds[1]);
			j->fd = fds[0];
			next++;
			active++;
		}
		for (i = 0; i < next; i++) {
			if (jobs[i].fd > 0) {
				pfd[np].fd = jobs[i].fd;
				pfd[np].events = POLLIN;
				map[np++] = i;
			}
		}
		if (poll(pfd, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		for (i = 0; i < np; i++) {
			struct kjob *j = &jobs[map[i]];
			char tmp[65536];
			ssize_t n;

			if (!pfd[i].revents)
				continue;
			n = read(j->fd, tmp, sizeof(tmp));
			if (n > 0) {
				sb_addn(&j->buf, tmp, n);
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			close(j->fd);
			j->fd = -1;
			active--;
			finish(t, res, j);
		}
	}
}

/*
 * Run kconf_eval() in a helper process, so that Kconfig parsing overlaps
 * with the scan of the source files.
 */
static pid_t helper_pid;
static char cache_path[8192];
static int cache_hit;

/*
 * The Kconfig result depends only on the Kconfig files (names, sizes,
 * mtimes), the --remove-symbol list and this binary: cache it, so that
 * repeated runs on an unchanged tree skip the parse.  CHOPBLOCK_CACHE=off
 * disables the cache, CHOPBLOCK_CACHE=DIR moves it.
 */
static void cache_key(struct tree *t, char **toolchain, int ntool,
		      char **forced, int nforced)
{
	const char *env = getenv("CHOPBLOCK_CACHE"), *dir;
	char root[4096], def[4096];
	uint64_t h = 1469598103934665603ULL;
	int i;

#define MIX(p, n) do {							\
		const unsigned char *q_ = (const void *)(p);		\
		size_t k_;						\
		for (k_ = 0; k_ < (size_t)(n); k_++) {			\
			h ^= q_[k_];					\
			h *= 1099511628211ULL;				\
		}							\
	} while (0)

	cache_path[0] = 0;
	if (env && !strcmp(env, "off"))
		return;
	if (env && *env) {
		dir = env;
	} else if (getenv("XDG_CACHE_HOME")) {
		snprintf(def, sizeof(def), "%s/chopblock", getenv("XDG_CACHE_HOME"));
		dir = def;
	} else if (getenv("HOME")) {
		snprintf(def, sizeof(def), "%s/.cache/chopblock", getenv("HOME"));
		dir = def;
	} else {
		return;
	}
	MIX(__DATE__ __TIME__, sizeof(__DATE__ __TIME__));
	MIX(KC_VERSION, sizeof(KC_VERSION));
	if (!realpath(t->root, root))
		snprintf(root, sizeof(root), "%s", t->root);
	MIX(root, strlen(root) + 1);
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[i];
		char path[4096];
		struct stat st;

		if (f->kind != FK_KCONFIG && strncmp(f->path + f->base, "Kconfig", 7))
			continue;
		snprintf(path, sizeof(path), "%s/%s", t->root, f->path);
		if (stat(path, &st))
			continue;
		MIX(f->path, f->plen + 1);
		MIX(&st.st_size, sizeof(st.st_size));
		MIX(&st.st_mtim, sizeof(st.st_mtim));
	}
	for (i = 0; i < ntool; i++)
		MIX(toolchain[i], strlen(toolchain[i]) + 1);
	MIX("|", 1);
	for (i = 0; i < nforced; i++)
		MIX(forced[i], strlen(forced[i]) + 1);
#undef MIX
	{
		char mk[4096], *sl;

		snprintf(mk, sizeof(mk), "%s", dir);
		for (sl = strchr(mk + 1, '/'); sl; sl = strchr(sl + 1, '/')) {
			*sl = 0;
			mkdir(mk, 0755);
			*sl = '/';
		}
		mkdir(mk, 0755);
	}
	snprintf(cache_path, sizeof(cache_path), "%s/kconfig-%016llx", dir,
		 (unsigned long long)h);
}

/*
 * The tree's Kconfig must be read by its own parser: a kernel tree (one
 * whose top Makefile says VERSION and PATCHLEVEL) of another version than
 * the parser compiled in is refused.
 */
static void check_parser_version(const struct tree *t)
{
	char path[4096], line[256];
	int ver = -1, patch = -1, n = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/Makefile", t->root);
	fp = fopen(path, "r");
	if (!fp)
		return;
	while (n++ < 20 && fgets(line, sizeof(line), fp)) {
		sscanf(line, "VERSION = %d", &ver);
		sscanf(line, "PATCHLEVEL = %d", &patch);
	}
	fclose(fp);
	if (ver < 0 || patch < 0)
		return;
	snprintf(line, sizeof(line), "%d.%d", ver, patch);
	if (strcmp(line, KC_VERSION))
		die("%s is Linux %s, but this chopblock has the Kconfig parser of %s: build one with the tree's own (make -C analyzer KSRC=%s; it is analyzer/obj-%s/chopblock)",
		    t->root, line, KC_VERSION, t->root, line);
}

int kconf_start(struct tree *t, char **toolchain, int ntool,
		char **forced, int nforced)
{
	int fds[2];

	check_parser_version(t);
	cache_key(t, toolchain, ntool, forced, nforced);
	cache_hit = cache_path[0] && !access(cache_path, R_OK);
	if (cache_hit)
		return -1;

	fflush(NULL);
	if (pipe(fds))
		die("pipe: %s", strerror(errno));
	helper_pid = fork();
	if (helper_pid < 0)
		die("fork: %s", strerror(errno));
	if (!helper_pid) {
		struct kresult res;
		FILE *fp;
		int i;

		close(fds[0]);
		kconf_eval(t, toolchain, ntool, forced, nforced, &res);
		fp = fdopen(fds[1], "w");
		if (!fp)
			_exit(3);
		for (i = 0; i < res.syms.n; i++) {
			const struct ksym_arch *k = &res.syms.v[i];

			fprintf(fp, "%s %u %u %u %u %s\n", k->name, k->defined,
				k->y0, k->y1, k->y2, k->loc);
		}
		fflush(fp);
		_exit(ferror(fp) ? 3 : 0);
	}
	close(fds[1]);
	return fds[0];
}

void kconf_finish(int fd, struct kresult *res)
{
	FILE *fp = cache_hit ? fopen(cache_path, "r") : fdopen(fd, "r");
	FILE *out = NULL, *dump = NULL;
	char line[1024], tmp[8300];
	int st = 0;

	memset(res, 0, sizeof(*res));
	if (!fp)
		die("cannot read the Kconfig result: %s", strerror(errno));
	if (!cache_hit && cache_path[0]) {
		snprintf(tmp, sizeof(tmp), "%s.%d", cache_path, (int)getpid());
		out = fopen(tmp, "w");
	}
	/* CHOPBLOCK_KDUMP=FILE: the per-architecture table, for validation */
	if (getenv("CHOPBLOCK_KDUMP"))
		dump = fopen(getenv("CHOPBLOCK_KDUMP"), "w");
	while (fgets(line, sizeof(line), fp)) {
		if (out)
			fputs(line, out);
		if (dump)
			fputs(line, dump);
		struct ksym_arch k = { 0 };
		char name[512], loc[512];

		if (sscanf(line, "%511s %u %u %u %u %511s", name, &k.defined,
			   &k.y0, &k.y1, &k.y2, loc) != 6)
			continue;
		k.name = xstrdup(name);
		k.loc = xstrdup(loc);
		smap_put(&res->map, name, strlen(name), res->syms.n);
		vpush(res->syms, k);
	}
	fclose(fp);
	if (dump)
		fclose(dump);
	if (cache_hit)
		return;
	while (waitpid(helper_pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		if (out) {
			fclose(out);
			unlink(tmp);
		}
		exit(2);	/* the helper already said why */
	}
	if (out) {
		if (fclose(out) || rename(tmp, cache_path))
			unlink(tmp);
	}
}
