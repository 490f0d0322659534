/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one KTAP library of chopblock's C guest programs: the static tests
 * of guest/tests/ (glibc) and the sh4 guest's PID 1, guest/minimal-init.c
 * (the kernel's nolibc). It is the C twin of harness/ktap.sh and keeps its
 * conventions, so that harness/ktap.awk reads both alike
 * (Documentation/dev-tools/ktap.rst is the format):
 *
 *   KTAP version 1          ktap_header()
 *   1..N                    ktap_plan(N), right after the version line
 *   # text                  ktap_diag(fmt, ...)
 *   ok N name               ktap_result(0, name, NULL), ktap_pass(name)
 *   ok N name # SKIP why    ktap_result(4, name, why), ktap_skip(name, why)
 *   not ok N name # TIMEOUT ktap_timeout(name, seconds)
 *   not ok N name [# why]   ktap_result(rc, name, why), ktap_fail(name, why)
 *   N passed, N failed[, N skipped]    ktap_totals() (the summary)
 *
 * There is no deferred mode: a C producer knows its plan beforehand.
 *
 * The second half holds the checks a single test makes, as in ktap.sh:
 * fail(), ok(), skip() and soft_checks(), printing "FAIL: ...", "ok: ..."
 * and "SKIP: ...". A test's exit status is its result: 0 passes, 4 skips
 * (kselftest's KSFT_SKIP), anything else fails.
 *
 * Only write(2) and exit(2) are used, never stdio or malloc(): nolibc has
 * no stdio on files, and a test that mixed buffered stdio output with
 * these writes would see its lines come out of order. Every call writes
 * its text with one write(), so that a line reaches the console whole.
 * ktap_printf() formats a small printf() subset: the flags '-' and '0', a
 * width, a precision ('*' too; for %s only), the length modifiers h, l,
 * ll and z, and the conversions d i u x X c s p and %.
 *
 * With nolibc, include nolibc.h (or guest/nolibc-sh.h) before this file.
 */
#ifndef _CHOPBLOCK_KTAP_H
#define _CHOPBLOCK_KTAP_H

#ifndef NOLIBC
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#endif

#define KTAP_SKIP_STATUS	4

/* ---- output ---- */

/* Text on its way to a file descriptor, written out in one piece. */
struct ktap_out {
	int fd;
	size_t len;
	char buf[1024];
};

static inline void ktap_out_flush(struct ktap_out *o)
{
	int saved_errno = errno;
	size_t done = 0;
	ssize_t n;

	while (done < o->len) {
		n = write(o->fd, o->buf + done, o->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	o->len = 0;
	errno = saved_errno;
}

static inline void ktap_out_mem(struct ktap_out *o, const char *s, size_t len)
{
	size_t n;

	while (len) {
		if (o->len == sizeof(o->buf))
			ktap_out_flush(o);
		n = sizeof(o->buf) - o->len;
		if (n > len)
			n = len;
		memcpy(o->buf + o->len, s, n);
		o->len += n;
		s += n;
		len -= n;
	}
}

static inline void ktap_out_str(struct ktap_out *o, const char *s)
{
	ktap_out_mem(o, s, strlen(s));
}

static inline void ktap_out_pad(struct ktap_out *o, char c, int n)
{
	while (n-- > 0)
		ktap_out_mem(o, &c, 1);
}

/* @len bytes at @s, right-aligned in @width unless @left. */
static inline void ktap_out_field(struct ktap_out *o, const char *s,
				  size_t len, int width, int left)
{
	int pad = width > (int)len ? width - (int)len : 0;

	if (!left)
		ktap_out_pad(o, ' ', pad);
	ktap_out_mem(o, s, len);
	if (left)
		ktap_out_pad(o, ' ', pad);
}

static inline void ktap_out_num(struct ktap_out *o, unsigned long long v,
				int neg, unsigned int base, int upper,
				int width, int zero, int left)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	int len;

	do {
		*--p = digits[v % base];
		v /= base;
	} while (v);
	if (zero && !left) {
		len = tmp + sizeof(tmp) - p + neg;
		while (len++ < width && p > tmp + 1)
			*--p = '0';
	}
	if (neg)
		*--p = '-';
	ktap_out_field(o, p, tmp + sizeof(tmp) - p, width, left);
}

/* printf()'s formatting, the subset the header comment lists. */
static inline void ktap_out_vformat(struct ktap_out *o, const char *fmt,
				    va_list ap)
{
	const char *s;
	int left, zero, width, prec, lng, neg;
	unsigned long long u;
	long long v;
	char c;

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			s = fmt;
			while (fmt[1] && fmt[1] != '%')
				fmt++;
			ktap_out_mem(o, s, fmt - s + 1);
			continue;
		}
		s = fmt++;
		left = zero = 0;
		for (;; fmt++) {
			if (*fmt == '-')
				left = 1;
			else if (*fmt == '0')
				zero = 1;
			else
				break;
		}
		width = 0;
		if (*fmt == '*') {
			width = va_arg(ap, int);
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		prec = -1;
		if (*fmt == '.') {
			prec = 0;
			if (*++fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				prec = prec * 10 + *fmt++ - '0';
		}
		/* 0 int, 1 long, 2 long long, 3 size_t; h is promoted */
		lng = 0;
		for (;; fmt++) {
			if (*fmt == 'l')
				lng++;
			else if (*fmt == 'z')
				lng = 3;
			else if (*fmt != 'h')
				break;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			if (lng == 1)
				v = va_arg(ap, long);
			else if (lng == 2)
				v = va_arg(ap, long long);
			else if (lng == 3)
				v = va_arg(ap, ssize_t);
			else
				v = va_arg(ap, int);
			neg = v < 0;
			u = neg ? -(unsigned long long)v : (unsigned long long)v;
			ktap_out_num(o, u, neg, 10, 0, width, zero, left);
			break;
		case 'u':
		case 'x':
		case 'X':
			if (lng == 1)
				u = va_arg(ap, unsigned long);
			else if (lng == 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 3)
				u = va_arg(ap, size_t);
			else
				u = va_arg(ap, unsigned int);
			ktap_out_num(o, u, 0, *fmt == 'u' ? 10 : 16, *fmt == 'X',
				     width, zero, left);
			break;
		case 'p':
			ktap_out_str(o, "0x");
			u = (unsigned long)va_arg(ap, void *);
			ktap_out_num(o, u, 0, 16, 0, 0, 0, 0);
			break;
		case 'c':
			c = va_arg(ap, int);
			ktap_out_field(o, &c, 1, width, left);
			break;
		case 's':
			s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			if (prec >= 0)
				u = strnlen(s, prec);
			else
				u = strlen(s);
			ktap_out_field(o, s, u, width, left);
			break;
		case '%':
			ktap_out_mem(o, "%", 1);
			break;
		default:
			/* not supported: shown as it is */
			ktap_out_mem(o, s, fmt - s + (*fmt != '\0'));
			if (!*fmt)
				return;
			break;
		}
	}
}

/* Formatted text to @fd, as dprintf() does; one write() up to 1 KiB. */
__attribute__((format(printf, 2, 3)))
static inline void ktap_dprintf(int fd, const char *fmt, ...)
{
	struct ktap_out o = { .fd = fd };
	va_list ap;

	va_start(ap, fmt);
	ktap_out_vformat(&o, fmt, ap);
	va_end(ap);
	ktap_out_flush(&o);
}

/* Formatted text to standard output. */
#define ktap_printf(...)	ktap_dprintf(1, __VA_ARGS__)

/* One line to standard output: @prefix, then the formatted text. */
static inline void ktap_vline(const char *prefix, const char *fmt, va_list ap)
{
	struct ktap_out o = { .fd = 1 };

	ktap_out_str(&o, prefix);
	ktap_out_vformat(&o, fmt, ap);
	ktap_out_mem(&o, "\n", 1);
	ktap_out_flush(&o);
}

/* ---- the KTAP producer ---- */

/* What ktap.sh counts in KTAP_N, KTAP_PASS, KTAP_FAIL and KTAP_SKIP. */
static struct ktap_counts {
	unsigned int n, pass, fail, skip;
} ktap_counts __attribute__((unused));

static inline void ktap_header(void)
{
	ktap_printf("KTAP version 1\n");
}

static inline void ktap_plan(unsigned int tests)
{
	ktap_printf("1..%u\n", tests);
}

/* One diagnostic line, "# " and the formatted text. */
__attribute__((format(printf, 1, 2)))
static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vline("# ", fmt, ap);
	va_end(ap);
}

/*
 * The result line of one test from its exit status @rc: 0 passes, 4
 * (KTAP_SKIP_STATUS) skips, anything else fails. @why, which may be NULL,
 * is the skip reason or the failure reason.
 */
static inline void ktap_result(int rc, const char *name, const char *why)
{
	unsigned int n = ++ktap_counts.n;

	if (rc == 0) {
		ktap_counts.pass++;
		ktap_printf("ok %u %s\n", n, name);
	} else if (rc == KTAP_SKIP_STATUS) {
		ktap_counts.skip++;
		ktap_printf("ok %u %s # SKIP %s\n", n, name,
			    why && *why ? why : "no reason given");
	} else {
		ktap_counts.fail++;
		ktap_printf("not ok %u %s%s%s\n", n, name,
			    why && *why ? " # " : "", why ? why : "");
	}
}

static inline void ktap_pass(const char *name)
{
	ktap_result(0, name, NULL);
}

static inline void ktap_fail(const char *name, const char *why)
{
	ktap_result(1, name, why);
}

static inline void ktap_skip(const char *name, const char *why)
{
	ktap_result(KTAP_SKIP_STATUS, name, why);
}

/* A test killed at its timeout of @seconds. */
static inline void ktap_timeout(const char *name, unsigned int seconds)
{
	unsigned int n = ++ktap_counts.n;

	ktap_counts.fail++;
	ktap_printf("not ok %u %s # TIMEOUT after %us\n", n, name, seconds);
}

/* The summary line; returns the exit status, 1 when a test failed. */
static inline int ktap_totals(void)
{
	if (ktap_counts.skip)
		ktap_printf("%u passed, %u failed, %u skipped\n",
			    ktap_counts.pass, ktap_counts.fail,
			    ktap_counts.skip);
	else
		ktap_printf("%u passed, %u failed\n", ktap_counts.pass,
			    ktap_counts.fail);
	return ktap_counts.fail ? 1 : 0;
}

/* ---- inside one test ---- */

/* Whether a soft check failed; a soft_checks() test returns it. */
static int failed __attribute__((unused));
static int ktap_soft_checks __attribute__((unused));

/*
 * A failed check: "FAIL: " and the formatted text, then exit status 1;
 * after soft_checks() the failure is recorded in failed and the test goes
 * on.
 */
__attribute__((format(printf, 1, 2)))
static inline void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vline("FAIL: ", fmt, ap);
	va_end(ap);
	failed = 1;
	if (!ktap_soft_checks)
		exit(1);
}

/* A check that passed: "ok: " and the formatted text. */
__attribute__((format(printf, 1, 2)))
static inline void ok(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vline("ok: ", fmt, ap);
	va_end(ap);
}

/* The test cannot run here: "SKIP: " and the reason, then exit status 4. */
__attribute__((format(printf, 1, 2), noreturn))
static inline void skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vline("SKIP: ", fmt, ap);
	va_end(ap);
	exit(KTAP_SKIP_STATUS);
}

/*
 * From here on fail() records the failure and the test goes on, so that
 * one failed check does not hide the result of the others; the test ends
 * with "return failed;".
 */
static inline void soft_checks(void)
{
	failed = 0;
	ktap_soft_checks = 1;
}

#endif /* _CHOPBLOCK_KTAP_H */
