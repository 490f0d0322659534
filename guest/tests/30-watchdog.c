// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/watchdog, backed by softdog, through the watchdog core the series
 * touches: WDIOC_GETSUPPORT answers, timeouts can be set and read back,
 * keepalives are taken, a close without the magic 'V' leaves the watchdog
 * running, and a magic close stops it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/watchdog.h>

#include "../ktap.h"

#define STATE "/sys/class/watchdog/watchdog0/state"

/* A failed check, with the errno the system call before it left. */
#define fail_errno(fmt, ...) \
	fail(fmt " (errno: %s)", ##__VA_ARGS__, strerror(errno))

static const char *state(void)
{
	static char buf[32];
	FILE *f = fopen(STATE, "r");

	if (!f)
		fail_errno("cannot read %s", STATE);
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
		fail_errno("open /dev/watchdog");
	return fd;
}

int main(void)
{
	struct watchdog_info info;
	int fd, timeout, i;

	fd = open_watchdog();
	if (ioctl(fd, WDIOC_GETSUPPORT, &info))
		fail_errno("WDIOC_GETSUPPORT");
	ktap_printf("identity '%s', options 0x%x\n", info.identity,
		    info.options);
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
		fail_errno("WDIOC_SETTIMEOUT");
	timeout = 0;
	if (ioctl(fd, WDIOC_GETTIMEOUT, &timeout) || timeout != 42)
		fail_errno("WDIOC_GETTIMEOUT returned %d, expected 42",
			   timeout);
	for (i = 0; i < 3; i++) {
		if (ioctl(fd, WDIOC_KEEPALIVE, 0))
			fail_errno("WDIOC_KEEPALIVE");
		if (write(fd, "k", 1) != 1)
			fail_errno("keepalive write");
	}
	ok("timeout 42 s set and read back, 6 keepalives taken");

	/* Without the magic character the watchdog must keep running. */
	close(fd);
	if (strcmp(state(), "active"))
		fail("watchdog is '%s' after a close without 'V'", state());
	ok("close without magic: still %s", state());

	fd = open_watchdog();
	if (write(fd, "V", 1) != 1)
		fail_errno("magic write");
	close(fd);
	if (strcmp(state(), "inactive"))
		fail("watchdog is '%s' after magic close", state());
	ok("magic close: %s", state());
	return 0;
}
