// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers: allocation, string buffers, a string hash map.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "chopblock.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("chopblock: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	if (n > 16)
		return 16;
	return (int)n;
}

void run_workers(void *(*fn)(void *), void *arg)
{
	pthread_t th[17];	/* ncpus() is at most 16 */
	int n = WORKERS, i;

	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, fn, arg))
			die("cannot create thread");
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

/*
 * Read ROOT/PATH whole into *buf, which is grown as needed and kept for
 * the next call (NUL-terminated; *n gets the length).  NULL if it cannot
 * be opened.  Three system calls for a file that fits the buffer: a
 * read() of a regular file returns less than asked only at its end, so
 * neither fstat() for the size nor a last read() that returns 0.  System
 * calls are dear in a virtual machine, and a scan makes four of them per
 * file otherwise.
 */
char *read_buf(const char *root, const char *path, char **buf, size_t *cap,
		size_t *n)
{
	char full[8192];
	size_t got = 0;
	int fd;

	*n = 0;
	snprintf(full, sizeof(full), "%s/%s", root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!*cap) {
		*cap = 1 << 16;
		*buf = xmalloc(*cap);
	}
	for (;;) {
		ssize_t r = read(fd, *buf + got, *cap - 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
		if (got < *cap - 1)
			break;		/* a short read: the end of the file */
		*cap *= 2;
		*buf = xrealloc(*buf, *cap);
	}
	close(fd);
	(*buf)[got] = 0;
	*n = got;
	return *buf;
}

void sb_addn(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_adds(struct sbuf *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

void sb_addf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	char tmp[512];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		sb_addn(b, tmp, n);
		return;
	}
	{
		char *big = xmalloc(n + 1);

		va_start(ap, fmt);
		vsnprintf(big, n + 1, fmt, ap);
		va_end(ap);
		sb_addn(b, big, n);
		free(big);
	}
}

/* Append @s as a JSON string literal. */
void sb_json(struct sbuf *b, const char *s)
{
	char esc[8];

	sb_addn(b, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = c;
			sb_addn(b, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			sb_addn(b, esc, 6);
		} else {
			sb_addn(b, (const char *)&c, 1);
		}
	}
	sb_addn(b, "\"", 1);
}

static uint64_t hash(const char *k, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)k[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static size_t slot(const struct smap *m, const char *k, size_t len)
{
	size_t i = hash(k, len) & (m->cap - 1);

	while (m->keys[i]) {
		if (!strncmp(m->keys[i], k, len) && m->keys[i][len] == 0)
			return i;
		i = (i + 1) & (m->cap - 1);
	}
	return i;
}

int smap_get(const struct smap *m, const char *k, size_t len)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = slot(m, k, len);
	return m->keys[i] ? m->vals[i] : -1;
}

static void grow(struct smap *m)
{
	struct smap n = { 0 };
	size_t i;

	n.cap = m->cap ? m->cap * 2 : 1024;
	n.keys = xcalloc(n.cap, sizeof(char *));
	n.vals = xcalloc(n.cap, sizeof(int));
	for (i = 0; i < m->cap; i++) {
		if (m->keys[i]) {
			size_t j = slot(&n, m->keys[i], strlen(m->keys[i]));

			n.keys[j] = m->keys[i];
			n.vals[j] = m->vals[i];
		}
	}
	n.n = m->n;
	free(m->keys);
	free(m->vals);
	*m = n;
}

/* Insert @k unless present; return the value stored for @k. */
int smap_put(struct smap *m, const char *k, size_t len, int val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	i = slot(m, k, len);
	if (m->keys[i])
		return m->vals[i];
	m->keys[i] = xstrndup(k, len);
	m->vals[i] = val;
	m->n++;
	return val;
}

/* Insert or overwrite. */
void smap_set(struct smap *m, const char *k, size_t len, int val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	i = slot(m, k, len);
	if (!m->keys[i]) {
		m->keys[i] = xstrndup(k, len);
		m->n++;
	}
	m->vals[i] = val;
}

void smap_free(struct smap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* CHOPBLOCK_TIMING=1 prints phase times to stderr */
void phase(const char *name)
{
	static struct timespec t0;
	static int on = -1;
	struct timespec t;
	struct rusage ru;

	if (on < 0) {
		on = getenv("CHOPBLOCK_TIMING") != NULL;
		clock_gettime(CLOCK_MONOTONIC, &t0);
	}
	if (!on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "[%8.3f s, cpu %7.3f s] %s\n", (t.tv_sec - t0.tv_sec) +
		(t.tv_nsec - t0.tv_nsec) / 1e9,
		ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6, name);
}
