/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chopblock - find what dies with an architecture, and dangling references.
 */
#ifndef CHOPBLOCK_H
#define CHOPBLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_ARCH 32

/* util.c */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
int ncpus(void);
/* WORKERS threads, each running fn(arg); returns when all have ended. */
#define WORKERS (ncpus() + 1)	/* one more: reads block now and then */
void run_workers(void *(*fn)(void *), void *arg);
char *read_buf(const char *root, const char *path, char **buf, size_t *cap,
		size_t *n);
void phase(const char *name);

#define VEC(T) struct { T *v; int n, cap; }
#define vpush(vec, x) do {						\
	if ((vec).n == (vec).cap) {					\
		(vec).cap = (vec).cap ? 2 * (vec).cap : 8;		\
		(vec).v = xrealloc((vec).v, (vec).cap * sizeof(*(vec).v)); \
	}								\
	(vec).v[(vec).n++] = (x);					\
} while (0)

struct cptrvec {
	const char **v;
	int n, cap;
};

struct strvec {
	char **v;
	int n, cap;
};

struct sbuf {
	char *s;
	size_t len, cap;
};
void sb_addn(struct sbuf *b, const char *s, size_t n);
void sb_adds(struct sbuf *b, const char *s);
void sb_addf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_json(struct sbuf *b, const char *s);

/* string -> int map (open addressing), keys are copied */
struct smap {
	char **keys;
	int *vals;
	size_t cap, n;
};
int smap_get(const struct smap *m, const char *k, size_t len);
int smap_put(struct smap *m, const char *k, size_t len, int val);
void smap_set(struct smap *m, const char *k, size_t len, int val);
void smap_free(struct smap *m);

static inline int is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* file kinds */
enum fkind {
	FK_OTHER, FK_C, FK_H, FK_S, FK_RS, FK_DTS, FK_MAKE, FK_KCONFIG,
	FK_DEFCONFIG,
};

struct ref {		/* a CONFIG_ symbol reference */
	char *name;	/* without CONFIG_ */
	int line;
};

struct inc {		/* #include */
	char *name;
	int line;
	int sys;
};

struct cond {		/* preprocessor conditional naming CONFIG_ symbols */
	char *text;
	int line, end;
	int dend;	/* last line of the directive itself */
	char *funcs;	/* functions defined in the block, ", " separated */
};

struct fdef {		/* weak function or function definition */
	char *name;
	int line;
};

struct mkent {		/* Makefile assignment target */
	char *pfx;	/* obj, lib, core, ..., or composite object name */
	char *guard;	/* CONFIG symbol or NULL */
	int unknown;	/* condition we cannot evaluate: assume live */
	char *ifg;	/* innermost positive ifdef/ifeq CONFIG guard */
	char *tok;	/* target token */
	int line;
	int rootrel;	/* path relative to tree root */
};

struct ksrc {		/* Kconfig source statement */
	char *path;
	int line;
	int optional, relative;
};

struct fres {
	VEC(struct ref) refs;		/* CONFIG_ refs (code, Kconfig) */
	VEC(struct inc) incs;
	VEC(struct cond) conds;
	VEC(struct fdef) weak;
	VEC(struct fdef) defs;
	VEC(struct mkent) mk;
	VEC(struct fdef) kdefs;		/* Kconfig definitions */
	VEC(struct ksrc) ksrcs;
	VEC(char *) toolchain;		/* Kconfig symbols using $(...) */
	VEC(char *) cdefines;		/* #define CONFIG_xxx */
	int nlines;
};

struct file {
	char *path;
	int plen;
	int kind;
	int base;		/* offset of basename */
	struct fres *res;
	/* analysis state */
	uint64_t hash;		/* of the contents, if tree->want_hash */
	int dead;		/* 1 dead, 2 maybe */
	int live;
	const char *why;
};

struct tree {
	char *root;
	struct file *files;	/* sorted by path */
	int nfiles;
	struct smap pathmap;	/* path -> index */
	struct smap basemap;	/* basename -> first index in byname */
	int *byname;		/* file indices sorted by basename */
	VEC(char *) arches;
	int want_hash;		/* scan_file() hashes each file's contents */
};

/* tree.c */
void tree_load(struct tree *t, const char *root);
int tree_find(const struct tree *t, const char *path);
int tree_has_dir(const struct tree *t, const char *dir);
void tree_scan(struct tree *t, int kconfig_only, int light);
char *subsystem_of(const char *path);

/* scan.c */
void scan_file(const struct tree *t, struct file *f, int light);
void scan_thread_done(void);

/* kconf.c */
struct ksym_arch {
	char *name;
	uint32_t defined;	/* arches that define it */
	uint32_t y0;		/* can be enabled, no COMPILE_TEST */
	uint32_t y1;		/* same, with --remove-symbol applied */
	uint32_t y2;		/* same, with COMPILE_TEST allowed */
	char *loc;		/* first definition file:line */
};
struct kresult {
	VEC(struct ksym_arch) syms;
	struct smap map;
};
void kconf_eval(struct tree *t, char **toolchain, int ntool,
		char **forced, int nforced, struct kresult *res);

int kconf_start(struct tree *t, char **toolchain, int ntool,
		char **forced, int nforced);
void kconf_finish(int fd, struct kresult *res);

/* maint.c */
struct mpat {
	char *pat;
	int line;
	int nmatch;
	int ndead;
};
struct mentry {
	char *title;
	int line;
	VEC(struct mpat) pats;
};
struct mentries {
	struct mentry *v;
	int n, cap;
};
void maint_load(const struct tree *t, struct mentries *out);
int maint_match(const struct tree *t, const char *pat, int (*cb)(int idx, void *),
		void *arg);

/* model.c: cross-file facts shared by the commands */
char *path_norm(const char *dir, const char *rel);
char *dir_of(const char *path);
int resolve_include(const struct tree *t, int from, const struct inc *in,
		    int *out, int max);
struct mkref {
	int file;	/* Makefile */
	int ent;	/* index in its mk vector */
	char *target;	/* normalized target path */
};
struct mkmodel {
	VEC(struct mkref) refs;
	struct smap bytarget;	/* target -> first index in order[] */
	int *order;		/* refs sorted by target */
	struct smap wild;	/* dirs whose Makefile lists objects via $(...) */
};
void mk_build(const struct tree *t, struct mkmodel *m);
int mk_first(const struct mkmodel *m, const char *target);
int is_direct_prefix(const char *pfx);

/* ctok.c: a C tokenizer, and identifiers interned by its hash */
struct idtab {
	struct strvec names;
	size_t *lens;
	int lcap;
	uint64_t *hs;
	int *ids;
	size_t cap;
	uint64_t *bloom;	/* see idtab_lookup() */
};
uint64_t ident_hash(const char *s, size_t n);
int idtab_find(const struct idtab *t, uint64_t h, const char *s, size_t n);
int idtab_add(struct idtab *t, const char *s, size_t n);

enum { PP_NONE, PP_DEFINE, PP_COND, PP_OTHER };
enum { TOK_IDENT = 256, TOK_NUM, TOK_LIT };

struct ctok {
	/* set by the caller */
	const struct idtab *filter;	/* NULL: every identifier */
	void (*cb)(struct ctok *t, int id);
	void (*comment)(struct ctok *t, const char *s, const char *e, int line);
	void *arg;
	/* the identifier at hand and where it stands */
	const char *b, *e;
	const char *p;
	size_t len;
	int line;
	int depth;		/* braces, outside directives */
	int enum_depth;		/* depth of the enum body we are in, or -1 */
	int directive;		/* PP_* of the line we are in */
	int ppfirst;		/* first identifier after the directive's name */
	int prev;		/* previous token: a char or TOK_* */
	const char *prevp;	/* previous identifier */
	size_t prevlen;
	int externed;		/* "extern" seen in this top-level statement */
	int stmt;		/* the identifier starts a statement */
};
void ctok_scan(struct ctok *t, const char *b, const char *e);
unsigned int ctok_args(const char *p, const char *e, int *nargs,
		       const char **end);
unsigned int ctok_bool_params(const char *p, const char *e);

/* leftover.c, leftdoc.c: what a removal leaves behind */
enum lkind {
	LK_PROTO, LK_EXTERN, LK_ENUM, LK_STRUCT, LK_MACRO, LK_INLINE,
	LK_PARAM, LK_BRANCH, LK_DOC, LK_COMMENT, LK_NKINDS
};
extern const char *const lk_name[LK_NKINDS];

struct leftover {
	int kind;
	const char *file;
	int line;
	char *name;
	char *what;
	int maybe;
};

enum { RM_USE = 1, RM_DEF = 2, RM_SYM = 4, RM_OWN = 8 };

struct lctx {
	/* input: what was removed, and from which tree */
	const struct tree *gone_t;
	const unsigned char *gone;	/* per file of gone_t */
	/* the code and documentation that stay */
	const struct tree *left_t;
	const unsigned char *left;	/* per file of left_t */
	struct strvec rm_syms;		/* removed Kconfig symbols (branches) */
	struct strvec doc_syms;		/* removed Kconfig symbols (documentation) */
	struct strvec arch_words;	/* names of removed architectures */
	struct strvec rm_arches;	/* removed arch/X directories: X */
	struct smap rm_paths;		/* removed files, and dirs with '/' */
	/* state */
	struct idtab names;
	struct idtab names2;		/* the names files other than headers need */
	int *map;			/* names2 id -> names id */
	unsigned char *rm;		/* per name: RM_* */
	unsigned char *rm_nonfalse;	/* per name: call arguments not false */
	uint32_t *rm_where;		/* per name: arch/X/ bits (31: outside) */
	struct smap rm_here;		/* "path|name": lost by an edited file */
	struct smap rm_sub;		/* "subsystem|name": used by removed code */
	int ncap;
	unsigned char *gone_ident;	/* per name: defined only in removed code */
	/* output */
	VEC(struct leftover) out;
};
void leftover_code(struct lctx *c);
void leftover_docs(struct lctx *c);
void leftover_sort(struct lctx *c);
int leftover_present(const struct tree *t, const struct leftover *l);

/* commands */
int cmd_dead(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_guards(int argc, char **argv);
int cmd_enable(int argc, char **argv);

#endif
