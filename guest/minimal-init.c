// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the sh4 "before" guest. Debian has no sh4 busybox to run
 * guest/init with, so this static program does the little that the
 * pristine sh4 kernel is asked to prove: it booted QEMU's r2d board to
 * userspace on the sh-sci console, the SH CPU and the platform bus work,
 * and the kernel log is clean. Output is KTAP on the console, like
 * guest/init's, followed by the kernel log and a reboot.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define LOG_SIZE (1 << 20)

static int test_no;

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		printf("# ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	printf("%s %d %s\n", ok ? "ok" : "not ok", ++test_no, name);
	fflush(stdout);
}

/* The first line of @path that starts with @key, or NULL. */
static char *find_line(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char *found = NULL;

	if (!f)
		return NULL;
	while (fgets(buf, len, f)) {
		if (!strncmp(buf, key, strlen(key))) {
			buf[strcspn(buf, "\n")] = '\0';
			found = buf;
			break;
		}
	}
	fclose(f);
	return found;
}

static void test_userspace(void)
{
	struct utsname u;
	int ok = !uname(&u) && !strncmp(u.machine, "sh4", 3);

	result(ok, "userspace", "uname: %s %s %s", ok ? u.sysname : "?",
	       ok ? u.release : "?", ok ? u.machine : "not sh4");
}

static void test_cpu(void)
{
	char buf[256];
	char *line = find_line("/proc/cpuinfo", "cpu type", buf, sizeof(buf));

	/* QEMU's r2d board carries an SH7751R. */
	result(line && strstr(line, "SH7751R"), "cpu", "%s",
	       line ? line : "no cpu type in /proc/cpuinfo");
}

static void test_console(void)
{
	char buf[256];
	char *line = find_line("/proc/consoles", "tty", buf, sizeof(buf));

	/* The board's console is the second SCIF, driven by sh-sci. */
	result(line && !strncmp(line, "ttySC1", 6), "sh-sci-console", "console: %s",
	       line ? line : "none in /proc/consoles");
}

static void test_platform_bus(void)
{
	DIR *d = opendir("/sys/bus/platform/devices");
	struct dirent *e;
	char path[512];
	struct stat st;
	int devices = 0, bound = 0;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		devices++;
		snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/driver",
			 e->d_name);
		if (!lstat(path, &st)) {
			bound++;
			printf("# bound: %s\n", e->d_name);
		}
	}
	if (d)
		closedir(d);
	result(bound > 0, "platform-bus", "%d platform devices, %d bound",
	       devices, bound);
}

static void test_kernel_log(char *log, int len)
{
	static const char *const bad[] = { "Oops", "BUG:", "WARNING:", "Kernel panic" };
	char buf[64];
	unsigned int i;
	long taint = -1;
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			taint = strtol(buf, NULL, 10);
		fclose(f);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (len > 0 && memmem(log, len, bad[i], strlen(bad[i]))) {
			result(0, "kernel-log", "the kernel log has \"%s\"", bad[i]);
			return;
		}
	}
	result(len > 0 && taint == 0, "kernel-log", "%d bytes of kernel log, taint %ld",
	       len, taint);
}

int main(void)
{
	char *log = malloc(LOG_SIZE);
	int len;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	/* Keep kernel messages from tearing KTAP lines apart. */
	klogctl(8, NULL, 1);
	printf("chopblock: userspace reached\n");
	printf("KTAP version 1\n1..5\n");
	fflush(stdout);

	test_userspace();
	test_cpu();
	test_console();
	test_platform_bus();
	len = log ? klogctl(3, log, LOG_SIZE) : -1;
	test_kernel_log(log, len);

	printf("chopblock: tests done\n");
	if (len > 0) {
		char *p = log, *nl;

		while (p < log + len && (nl = memchr(p, '\n', log + len - p))) {
			printf("dmesg: %.*s\n", (int)(nl - p), p);
			p = nl + 1;
		}
	}
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	/* Should the board not reset, the host stops QEMU after the marker. */
	for (;;)
		pause();
}
