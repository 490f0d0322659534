// SPDX-License-Identifier: GPL-2.0
/*
 * leftfloor: what the leftover pass of "dead" and "check --baseline" costs
 * at least, and what a per-file summary made by the main scan would cost
 * instead (issue 16, part 4).  Not part of chopblock: a measurement, kept
 * so that the figures of README.md can be made again.
 *
 *	leftfloor TREE [ARCH [RUNS [NAMES]]]
 *
 * Over every .c, .h and .S file of TREE, one thread, CPU time (user+sys)
 * of each step, median of RUNS:
 *
 *   read            read_buf() only (what the main scan pays already);
 *   read+ctok       read, and ctok_scan() with a filter: the leftover
 *                   pass's core.  The filter is every identifier of three
 *                   characters or more of arch/ARCH/, a stand-in for the
 *                   names of the removed code;
 *   read+summary    read, and the least any summary that serves every
 *                   filter needs: each file's distinct identifiers (their
 *                   hashes), without classifying a single one;
 *   keep            read, and keep a copy of every file for later (what
 *                   holding the scan's buffers costs instead of reading
 *                   twice);
 *   precheck        read, and look for any name of the filter without
 *                   tokenizing (SSE2, x86-64 only): how many files a
 *                   pre-filter could leave unread;
 *   precheck2       the same over the .c and .S files, with the filter
 *                   narrowed to the names that no header outside
 *                   arch/ARCH/ holds (a stand-in for the names the
 *                   leftover pass still needs after the headers), or to
 *                   the names of the file NAMES, one a line (the real
 *                   ones, dumped from narrow() in leftover.c).
 *
 * "keep" runs once: a second run would reuse the freed heap.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "chopblock.h"

static struct idtab filt, narrowed, seen;
static long nhits;

/* per-file distinct hashes: open addressing, emptied by a new generation */
#define SET_BITS 20
static uint32_t *set_key, *set_gen, gen;
static uint32_t *summary;
static size_t nsummary, summary_cap;

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int is_code(const struct file *f)
{
	return f->kind == FK_C || f->kind == FK_H || f->kind == FK_S;
}

static void filter_add(struct ctok *t, int id)
{
	(void)id;
	if (t->len >= 3)
		idtab_add(&filt, t->p, t->len);
}

static void see(struct ctok *t, int id)
{
	(void)id;
	idtab_add(&seen, t->p, t->len);
}

static void count_hit(struct ctok *t, int id)
{
	(void)t;
	(void)id;
	nhits++;
}

static void summarize(struct ctok *t, int id)
{
	uint64_t h = ident_hash(t->p, t->len);
	uint32_t k = (uint32_t)h | 1, mask = (1u << SET_BITS) - 1, j;

	(void)id;
	for (j = (h >> 32) & mask; set_gen[j] == gen; j = (j + 1) & mask)
		if (set_key[j] == k)
			return;
	set_gen[j] = gen;
	set_key[j] = k;
	if (nsummary == summary_cap) {
		summary_cap = summary_cap ? 2 * summary_cap : 1 << 20;
		summary = xrealloc(summary, summary_cap * sizeof(*summary));
	}
	summary[nsummary++] = k;
}

#ifdef __SSE2__
/* bit k: byte k of the 64 at p is a letter, digit or '_' */
static uint64_t ident_bits(const char *p)
{
	uint64_t m = 0;
	int k;

	for (k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k));
		__m128i l = _mm_or_si128(v, _mm_set1_epi8(0x20));
		__m128i let = _mm_and_si128(_mm_cmpgt_epi8(l, _mm_set1_epi8('a' - 1)),
					    _mm_cmplt_epi8(l, _mm_set1_epi8('z' + 1)));
		__m128i dig = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
					    _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
		__m128i us = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
		__m128i any = _mm_or_si128(_mm_or_si128(let, dig), us);

		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(any) << (16 * k);
	}
	return m;
}

static const struct idtab *pre;

static int in_filter(const char *q, const char *e)
{
	const char *r = q + 1;

	while (r < e && is_ident(*r))
		r++;
	return r - q >= 3 && idtab_find(pre, ident_hash(q, r - q), q, r - q) >= 0;
}

/*
 * Does [b, e) hold a name of the filter?  Every maximal run of identifier
 * characters that does not start with a digit, comments and literals
 * included: more than ctok_scan() reports, never less.
 */
static int precheck(const char *b, const char *e)
{
	const char *p = b;
	uint64_t carry = 0;

	for (; e - p >= 64; p += 64) {
		uint64_t m = ident_bits(p), starts = m & ~((m << 1) | carry);

		carry = m >> 63;
		for (; starts; starts &= starts - 1) {
			const char *q = p + __builtin_ctzll(starts);

			if (!(*q >= '0' && *q <= '9') && in_filter(q, e))
				return 1;
		}
	}
	for (; p < e; p++)
		if (is_ident(*p) && (p == b || !is_ident(p[-1])) &&
		    !(*p >= '0' && *p <= '9') && in_filter(p, e))
			return 1;
	return 0;
}
#endif

enum { M_READ, M_CTOK, M_SUMMARY, M_KEEP, M_PRECHECK, M_PRECHECK2, M_N };
static const char *const mname[M_N] = {
	"read", "read+ctok", "read+summary", "keep", "precheck", "precheck2",
};

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	const char *arch = argc > 2 ? argv[2] : "sh";
	int runs = argc > 3 ? atoi(argv[3]) : 3, m, r, i;
	struct tree t;
	struct ctok tk = { 0 };
	char prefix[300], *buf = NULL;
	size_t cap = 0, n, mb = 0, hitf = 0, hitmb = 0, nfiles = 0;
	double *times;

	if (argc < 2 || runs < 1)
		die("usage: leftfloor TREE [ARCH [RUNS [NAMES]]]");
	tree_load(&t, argv[1]);
	snprintf(prefix, sizeof(prefix), "arch/%s/", arch);
	tk.cb = filter_add;
	for (i = 0; i < t.nfiles; i++)
		if (is_code(&t.files[i]) &&
		    !strncmp(t.files[i].path, prefix, strlen(prefix)) &&
		    read_buf(t.root, t.files[i].path, &buf, &cap, &n))
			ctok_scan(&tk, buf, buf + n);
	/* the stand-in for what the other files are read for */
	tk.cb = see;
	tk.filter = &filt;
	for (i = 0; i < t.nfiles; i++)
		if (t.files[i].kind == FK_H &&
		    strncmp(t.files[i].path, prefix, strlen(prefix)) &&
		    read_buf(t.root, t.files[i].path, &buf, &cap, &n))
			ctok_scan(&tk, buf, buf + n);
	for (i = 0; i < filt.names.n; i++) {
		const char *s = filt.names.v[i];
		size_t len = strlen(s);

		if (idtab_find(&seen, ident_hash(s, len), s, len) < 0)
			idtab_add(&narrowed, s, len);
	}
	if (argc > 4) {
		FILE *nf = fopen(argv[4], "r");
		char line[512];

		if (!nf)
			die("cannot open %s", argv[4]);
		memset(&narrowed, 0, sizeof(narrowed));
		while (fgets(line, sizeof(line), nf)) {
			line[strcspn(line, "\n")] = 0;
			if (*line)
				idtab_add(&narrowed, line, strlen(line));
		}
		fclose(nf);
	}
	set_key = xmalloc(sizeof(*set_key) << SET_BITS);
	set_gen = xcalloc(1u << SET_BITS, sizeof(*set_gen));
	times = xcalloc(runs, sizeof(*times));
	printf("%s: filter of %d names (arch/%s/), %d narrowed, one thread\n",
	       t.root, filt.names.n, arch, narrowed.names.n);
	for (m = 0; m < M_N; m++) {
		int nr = m == M_KEEP ? 1 : runs;

#ifndef __SSE2__
		if (m == M_PRECHECK || m == M_PRECHECK2)
			continue;
#endif
		pre = m == M_PRECHECK2 ? &narrowed : &filt;
		for (r = 0; r < nr; r++) {
			double c0 = cpu_now();

			mb = hitf = hitmb = nfiles = 0;
			nhits = 0;
			nsummary = 0;
			for (i = 0; i < t.nfiles; i++) {
				const struct file *f = &t.files[i];

				if (!is_code(f) ||
				    (m == M_PRECHECK2 && f->kind == FK_H) ||
				    !read_buf(t.root, f->path, &buf, &cap, &n))
					continue;
				nfiles++;
				mb += n;
				memset(&tk, 0, sizeof(tk));
				gen++;
				switch (m) {
				case M_CTOK:
					tk.filter = &filt;
					tk.cb = count_hit;
					ctok_scan(&tk, buf, buf + n);
					break;
				case M_SUMMARY:
					tk.cb = summarize;
					ctok_scan(&tk, buf, buf + n);
					break;
				case M_KEEP:
					/* leaked on purpose: kept for the run */
					memcpy(xmalloc(n + 1), buf, n + 1);
					break;
#ifdef __SSE2__
				case M_PRECHECK:
				case M_PRECHECK2:
					if (precheck(buf, buf + n)) {
						hitf++;
						hitmb += n;
					}
					break;
#endif
				}
			}
			times[r] = cpu_now() - c0;
		}
		qsort(times, nr, sizeof(*times), dcmp);
		printf("%-13s %6.2f s CPU (median; runs:", mname[m],
		       times[nr / 2]);
		for (r = 0; r < nr; r++)
			printf(" %.2f", times[r]);
		printf(")");
		if (m == M_CTOK)
			printf("  %ld hits", nhits);
		if (m == M_SUMMARY)
			printf("  %zu distinct identifiers in all", nsummary);
		if (m == M_KEEP)
			printf("  (keeps %zu MB)", mb >> 20);
		if (m == M_PRECHECK || m == M_PRECHECK2)
			printf("  %zu of %zu files (%zu of %zu MB) hold a name",
			       hitf, nfiles, hitmb >> 20, mb >> 20);
		printf("\n");
	}
	return 0;
}
