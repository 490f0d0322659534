// SPDX-License-Identifier: GPL-2.0
/*
 * A C tokenizer for what the leftover analysis needs: identifiers with
 * their line, brace depth, enum bodies, the statement they start or the
 * directive they sit in; comments and literals skipped (comments can be
 * handed to a callback).  Plus a table of interned identifiers keyed by
 * the hash the tokenizer computes anyway, so that a filtered scan costs a
 * probe per identifier and a call only on a hit.
 */
#include <stdlib.h>
#include <string.h>

#include "chopblock.h"

/*
 * The bytes [s, s + n) of an identifier shorter than eight bytes, as
 * memcpy() into a zeroed word gives them, without a call of memcpy() for
 * a variable length (the tokenizer hashes some 58 million identifiers in
 * a kernel tree, most of them short): two overlapping loads, or three
 * single bytes, whose overlapping bytes are equal and so OR to themselves.
 */
static inline uint64_t short_word(const char *s, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t lo, hi;

	if (n >= 4) {
		memcpy(&lo, s, 4);
		memcpy(&hi, s + n - 4, 4);
		return lo | (uint64_t)hi << (8 * (n - 4));
	}
	if (!n)
		return 0;
	return (uint64_t)(unsigned char)s[0] |
	       (uint64_t)(unsigned char)s[n / 2] << (8 * (n / 2)) |
	       (uint64_t)(unsigned char)s[n - 1] << (8 * (n - 1));
#else
	uint64_t a = 0;

	memcpy(&a, s, n);
	return a;
#endif
}

/*
 * A hash of an identifier from its length and its first and last eight
 * bytes: no loop over the characters, which the scan already walks.
 */
static inline uint64_t hash_ident(const char *s, size_t n)
{
	uint64_t a, b = 0, h;

	if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
	} else {
		a = short_word(s, n);
	}
	h = (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL) ^ n;
	h ^= h >> 31;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 29);
}

uint64_t ident_hash(const char *s, size_t n)
{
	return hash_ident(s, n);
}

static void idtab_grow(struct idtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024, i;
	uint64_t *hs = xcalloc(cap, sizeof(*hs));
	int *ids = xmalloc(cap * sizeof(*ids));

	for (i = 0; i < cap; i++)
		ids[i] = -1;
	for (i = 0; i < t->cap; i++) {
		size_t j;

		if (t->ids[i] < 0)
			continue;
		for (j = t->hs[i] & (cap - 1); ids[j] >= 0; j = (j + 1) & (cap - 1))
			;
		hs[j] = t->hs[i];
		ids[j] = t->ids[i];
	}
	free(t->hs);
	free(t->ids);
	t->hs = hs;
	t->ids = ids;
	t->cap = cap;
}

/* [s, s + n) equals name (of length n): no call of memcmp() for short ones */
static inline int same_ident(const char *name, const char *s, size_t n)
{
	uint64_t x, y;

	if (n > 16)
		return !memcmp(name, s, n);
	if (n >= 8) {
		memcpy(&x, name, 8);
		memcpy(&y, s, 8);
		if (x != y)
			return 0;
		memcpy(&x, name + n - 8, 8);
		memcpy(&y, s + n - 8, 8);
		return x == y;
	}
	return short_word(name, n) == short_word(s, n);
}

/*
 * One bit per hash (its top BLOOM_BITS bits) of every name in the table,
 * 32 KB: most identifiers a filtered scan meets are not in the filter,
 * and this answers for them from the first-level cache instead of a probe
 * of the table (hs[] and ids[] are 768 KB for 30,000 names).
 */
#define BLOOM_BITS 18

static inline __attribute__((always_inline)) int
idtab_lookup(const struct idtab *t, uint64_t h, const char *s, size_t n)
{
	uint64_t bit = h >> (64 - BLOOM_BITS);
	size_t j;

	if (!t->cap || !(t->bloom[bit / 64] & (1ULL << (bit % 64))))
		return -1;
	for (j = h & (t->cap - 1); t->ids[j] >= 0; j = (j + 1) & (t->cap - 1)) {
		int id = t->ids[j];

		if (t->hs[j] == h && t->lens[id] == n &&
		    same_ident(t->names.v[id], s, n))
			return id;
	}
	return -1;
}

int idtab_find(const struct idtab *t, uint64_t h, const char *s, size_t n)
{
	return idtab_lookup(t, h, s, n);
}

int idtab_add(struct idtab *t, const char *s, size_t n)
{
	uint64_t h = hash_ident(s, n), bit = h >> (64 - BLOOM_BITS);
	int id = idtab_lookup(t, h, s, n);
	size_t j;

	if (id >= 0)
		return id;
	if (2 * (t->names.n + 1) > (int)t->cap)
		idtab_grow(t);
	if (!t->bloom)
		t->bloom = xcalloc((1u << BLOOM_BITS) / 64, sizeof(uint64_t));
	t->bloom[bit / 64] |= 1ULL << (bit % 64);
	id = t->names.n;
	vpush(t->names, xstrndup(s, n));
	if (id >= t->lcap) {
		t->lcap = t->lcap ? 2 * t->lcap : 1024;
		t->lens = xrealloc(t->lens, t->lcap * sizeof(*t->lens));
	}
	t->lens[id] = n;
	for (j = h & (t->cap - 1); t->ids[j] >= 0; j = (j + 1) & (t->cap - 1))
		;
	t->hs[j] = h;
	t->ids[j] = id;
	return id;
}

/* End of the comment or literal that starts at p; counts its newlines. */
static const char *skip_comment(const char *p, const char *e, int *line)
{
	const char *s = p + 2, *q = s;

	while (q < e && (q = memchr(q, '*', e - q))) {
		if (q + 1 < e && q[1] == '/') {
			for (; (s = memchr(s, '\n', q - s)); s++)
				(*line)++;
			return q + 2;
		}
		q++;
	}
	for (; (s = memchr(s, '\n', e - s)); s++)
		(*line)++;
	return e;
}

static const char *skip_literal(const char *p, const char *e, int *line)
{
	char q = *p++;

	for (; p < e; p++) {
		if (*p == '\\' && p + 1 < e) {
			if (p[1] == '\n')
				(*line)++;
			p++;
		} else if (*p == q) {
			return p + 1;
		} else if (*p == '\n') {
			return p;	/* unterminated: stop at the line */
		}
	}
	return e;
}

enum { C_OTHER, C_ID, C_DIGIT, C_SPACE, C_NL };
#define IDCHAR(c) (cls[(unsigned char)(c)] - 1u <= 1)

static const unsigned char cls[256] = {
	['a' ... 'z'] = C_ID, ['A' ... 'Z'] = C_ID, ['_'] = C_ID,
	['0' ... '9'] = C_DIGIT,
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\r'] = C_SPACE, ['\f'] = C_SPACE,
	['\v'] = C_SPACE, ['\\'] = C_SPACE,
	['\n'] = C_NL,
};

/*
 * The end of the identifier characters from p (and of dots too, for a
 * number): eight bytes at a time, each byte's class found without a
 * branch (a byte below 0x80 plus at most 0x80 stays within its byte),
 * then the first byte that is none.  Most identifiers are longer than a
 * few bytes, and the byte loop missed its exit once each.
 */
static inline const char *ident_end(const char *p, const char *e, int dots)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL, high = ones * 0x80;

	while (e - p >= 8) {
		uint64_t w, x, l, digit, letter, other, stop;

		memcpy(&w, p, 8);
		x = w & ~high;
		l = x | ones * 0x20;
		digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x80 - '9' - 1));
		letter = (l + ones * (0x80 - 'a')) & ~(l + ones * (0x80 - 'z' - 1));
		other = ~((x ^ ones * '_') + ones * 0x7f);
		if (dots)
			other |= ~((x ^ ones * '.') + ones * 0x7f);
		stop = ~((digit | letter | other) & ~w) & high;
		if (stop)
			return p + __builtin_ctzll(stop) / 8;
		p += 8;
	}
#endif
	while (p < e && (IDCHAR(*p) || (dots && *p == '.')))
		p++;
	return p;
}

void ctok_scan(struct ctok *t, const char *b, const char *e)
{
	const char *p = b;
	int bol = 1;		/* at the beginning of a line (only blanks) */
	int enum_pending = 0;
	int pp_idents = 0;

	t->b = b;
	t->e = e;
	t->line = 1;
	t->depth = 0;
	t->enum_depth = -1;
	t->directive = PP_NONE;
	t->prev = 0;
	t->prevp = NULL;
	t->prevlen = 0;
	t->externed = 0;
	t->stmt = 1;
	while (p < e) {
		char c = *p;
		int k = cls[(unsigned char)c];

		if (k == C_SPACE) {
			/*
			 * Runs of blanks, eight at a time: register headers
			 * align their values with some fifty spaces a line,
			 * and code is indented with runs of tabs.
			 */
			uint64_t w, run = c == ' ' ? 0x2020202020202020ULL :
					  0x0909090909090909ULL;

			p++;
			while (e - p >= 8 && (memcpy(&w, p, 8), w == run))
				p += 8;
			continue;
		}
		if (k == C_ID) {
			const char *s = p;
			size_t n;
			int id = -1;

			p = ident_end(p + 1, e, 0);
			n = p - s;
			t->p = s;
			t->len = n;
			t->ppfirst = t->directive != PP_NONE && pp_idents == 0;
			if (t->directive != PP_NONE)
				pp_idents++;
			if (t->filter)
				id = idtab_lookup(t->filter, hash_ident(s, n), s, n);
			if (id >= 0 || !t->filter)
				t->cb(t, id);
			if (t->directive == PP_NONE) {
				/* "enum {" or "enum tag {" opens a body */
				if (n == 4 && !memcmp(s, "enum", 4))
					enum_pending = 2;
				else
					enum_pending = enum_pending == 2;
				if (n == 6 && t->depth == 0 && !memcmp(s, "extern", 6))
					t->externed = 1;
			}
			t->prev = TOK_IDENT;
			t->prevp = s;
			t->prevlen = n;
			t->stmt = 0;
			bol = 0;
			continue;
		}
		if (k == C_DIGIT) {
			p = ident_end(p + 1, e, 1);
			t->prev = TOK_NUM;
			t->stmt = 0;
			bol = 0;
			continue;
		}
		if (k == C_NL) {
			t->line++;
			if (t->directive != PP_NONE && !(p > b && p[-1] == '\\')) {
				t->directive = PP_NONE;
				t->prev = ';';
			}
			bol = 1;
			p++;
			continue;
		}
		switch (c) {
		case '/':
			if (p + 1 < e && p[1] == '*') {
				const char *s = p;
				int l0 = t->line;

				p = skip_comment(p, e, &t->line);
				if (t->comment)
					t->comment(t, s, p, l0);
				continue;
			}
			if (p + 1 < e && p[1] == '/') {
				const char *s = p, *nl = memchr(p, '\n', e - p);

				p = nl ? nl : e;
				if (t->comment)
					t->comment(t, s, p, t->line);
				continue;
			}
			break;
		case '"':
		case '\'':
			p = skip_literal(p, e, &t->line);
			t->prev = TOK_LIT;
			t->stmt = 0;
			bol = 0;
			continue;
		case '#':
			if (bol && t->directive == PP_NONE) {
				const char *d = p + 1;

				while (d < e && (*d == ' ' || *d == '\t'))
					d++;
				if (e - d >= 6 && !memcmp(d, "define", 6))
					t->directive = PP_DEFINE;
				else if ((e - d >= 2 && !memcmp(d, "if", 2)) ||
					 (e - d >= 4 && !memcmp(d, "elif", 4)) ||
					 (e - d >= 5 && !memcmp(d, "undef", 5)))
					t->directive = PP_COND;
				else
					t->directive = PP_OTHER;
				while (d < e && is_ident(*d))
					d++;
				p = d;
				pp_idents = 0;
				bol = 0;
				continue;
			}
			break;
		}
		if (t->directive == PP_NONE) {
			if (c == '{') {
				if (enum_pending && t->enum_depth < 0)
					t->enum_depth = t->depth;
				enum_pending = 0;
				t->depth++;
				t->stmt = 1;
				t->externed = 0;
			} else if (c == '}') {
				if (t->depth > 0)
					t->depth--;
				if (t->enum_depth == t->depth)
					t->enum_depth = -1;
				t->stmt = 1;
				t->externed = 0;
			} else if (c == ';') {
				enum_pending = 0;
				t->stmt = 1;
				if (t->depth == 0)
					t->externed = 0;
			} else {
				t->stmt = 0;
				enum_pending = 0;
			}
		}
		t->prev = (unsigned char)c;
		bol = 0;
		p++;
	}
}

/*
 * The arguments of the parenthesised list that opens at p (which points
 * at '('): for the first 8, bit k of the result is set when argument k is
 * the literal false (or 0).  *nargs gets their number, *end the ')'.
 */
unsigned int ctok_args(const char *p, const char *e, int *nargs,
		       const char **end)
{
	unsigned int mask = 0;
	const char *a = p + 1;
	int depth = 0, k = 0;

	*nargs = 0;
	*end = NULL;
	for (p++; p < e; p++) {
		char c = *p;

		if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == '"' || c == '\'') {
			int dummy = 0;

			p = skip_literal(p, e, &dummy) - 1;
		} else if ((c == ')' || c == ']' || c == '}') && depth) {
			depth--;
		} else if ((c == ',' && !depth) || c == ')') {
			const char *s = a, *q = p;

			while (s < q && (*s == ' ' || *s == '\t' || *s == '\n' ||
					 *s == '\\'))
				s++;
			while (q > s && (q[-1] == ' ' || q[-1] == '\t' ||
					 q[-1] == '\n' || q[-1] == '\\'))
				q--;
			if (q > s || k || c == ',') {
				if (k < 8 && ((q - s == 5 && !memcmp(s, "false", 5)) ||
					      (q - s == 1 && *s == '0')))
					mask |= 1u << k;
				k++;
			}
			if (c == ')') {
				*nargs = k;
				*end = p;
				return mask;
			}
			a = p + 1;
		} else if (c == ';' && !depth) {
			return 0;	/* not a call after all */
		}
	}
	return 0;
}

/* Bit k set when parameter k of the list opening at p is a bool. */
unsigned int ctok_bool_params(const char *p, const char *e)
{
	unsigned int mask = 0;
	const char *a = p + 1;
	int depth = 0, k = 0;

	for (p++; p < e; p++) {
		char c = *p;

		if (c == '(') {
			depth++;
		} else if (c == ')' && depth) {
			depth--;
		} else if ((c == ',' && !depth) || c == ')') {
			const char *s = a;

			while (s < p && !is_ident(*s))
				s++;
			if (p - s > 6 && !memcmp(s, "const", 5) && !is_ident(s[5])) {
				s += 5;
				while (s < p && !is_ident(*s))
					s++;
			}
			if (k < 8 && p - s >= 4 && !memcmp(s, "bool", 4) &&
			    (p - s == 4 || !is_ident(s[4])))
				mask |= 1u << k;
			k++;
			if (c == ')')
				return mask;
			a = p + 1;
		} else if (c == ';' || c == '{') {
			return 0;
		}
	}
	return 0;
}
