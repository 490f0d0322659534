// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/watchdog, backed by softdog, through the watchdog core the series
 * touches: WDIOC_GETSUPPORT answers, timeouts can be set and read back,
 * keepalives are taken, a close without the magic 'V' leaves the watchdog
 * running, and a magic close stops it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/watchdog.h>

#define STATE "/sys/class/watchdog/watchdog0/state"

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	printf(" (errno: %s)\n", strerror(errno));
	va_end(ap);
	exit(1);
}

static const char *state(void)
{
	static char buf[32];
	FILE *f = fopen(STATE, "r");

	if (!f)
		fail("cannot read %s", STATE);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static int open_watchdog(void)
{
	int fd = open("/dev/watchdog", O_WRONLY);

	if (fd < 0)
		fail("open /dev/watchdog");
	return fd;
}

int main(void)
{
	struct watchdog_info info;
	int fd, timeout, i;

	fd = open_watchdog();
	if (ioctl(fd, WDIOC_GETSUPPORT, &info))
		fail("WDIOC_GETSUPPORT");
	printf("identity '%s', options 0x%x\n", info.identity, info.options);
	if (!strstr((char *)info.identity, "Software Watchdog"))
		fail("unexpected identity '%s'", info.identity);
	if ((info.options & (WDIOF_MAGICCLOSE | WDIOF_KEEPALIVEPING |
			     WDIOF_SETTIMEOUT)) !=
	    (WDIOF_MAGICCLOSE | WDIOF_KEEPALIVEPING | WDIOF_SETTIMEOUT))
		fail("options 0x%x lack magic close, keepalive or settimeout",
		     info.options);
	if (strcmp(state(), "active"))
		fail("watchdog is '%s' while open", state());

	timeout = 42;
	if (ioctl(fd, WDIOC_SETTIMEOUT, &timeout))
		fail("WDIOC_SETTIMEOUT");
	timeout = 0;
	if (ioctl(fd, WDIOC_GETTIMEOUT, &timeout) || timeout != 42)
		fail("WDIOC_GETTIMEOUT returned %d, expected 42", timeout);
	for (i = 0; i < 3; i++) {
		if (ioctl(fd, WDIOC_KEEPALIVE, 0))
			fail("WDIOC_KEEPALIVE");
		if (write(fd, "k", 1) != 1)
			fail("keepalive write");
	}
	printf("timeout 42 s set and read back, 6 keepalives taken\n");

	/* Without the magic character the watchdog must keep running. */
	close(fd);
	if (strcmp(state(), "active"))
		fail("watchdog is '%s' after a close without 'V'", state());
	printf("close without magic: still %s\n", state());

	fd = open_watchdog();
	if (write(fd, "V", 1) != 1)
		fail("magic write");
	close(fd);
	if (strcmp(state(), "inactive"))
		fail("watchdog is '%s' after magic close", state());
	printf("magic close: %s\n", state());
	return 0;
}
