// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the sh4 "before" guest. Debian has no sh4 busybox to run
 * guest/init with, so this static program does the little that the
 * pristine sh4 kernel is asked to prove: it booted QEMU's r2d board to
 * userspace on the sh-sci console, the SH CPU and the platform bus work,
 * and the kernel log is clean. Output is KTAP on the console, like
 * guest/init's, followed by the kernel log and a reboot.
 *
 * It uses no C library: Debian's static sh4 glibc does not even get a
 * write() out. It is built on the nolibc of the kernel tree it tests
 * (tools/include/nolibc, put on the include path by harness/initramfs.sh),
 * with guest/nolibc-sh.h for the SuperH parts nolibc lacks. The KTAP
 * output is guest/ktap.h's, which writes every line with one write(), so
 * that it reaches the console in one piece (nolibc's printf() would write
 * every piece of a line separately). That nolibc has no strstr() or
 * memmem(), hence the few small helpers below.
 */
#include "nolibc-sh.h"
#include "ktap.h"

#define LOG_SIZE (1 << 20)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* syslog(2) actions, as klogctl() numbers them. */
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_CONSOLE_LEVEL	8

static char log_buf[LOG_SIZE];

/* Whether @needle occurs in the @len bytes at @hay. */
static int contains(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	size_t i;

	for (i = 0; n <= len && i <= len - n; i++)
		if (!memcmp(hay + i, needle, n))
			return 1;
	return 0;
}

/*
 * Reads the small file @path into @buf, NUL-terminated, and returns its
 * length, or -1. A file larger than @size - 1 bytes is cut there.
 */
static long read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

/*
 * The first line of @path that starts with @key, without its newline, or
 * NULL. The whole file is read into @buf.
 */
static char *find_line(const char *path, const char *key, char *buf,
		       size_t size)
{
	size_t klen = strlen(key);
	char *line, *nl;

	if (read_file(path, buf, size) < 0)
		return NULL;
	for (line = buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!strncmp(line, key, klen))
			return line;
		if (!nl)
			break;
	}
	return NULL;
}

static void test_userspace(void)
{
	struct utsname u;
	int sh4 = !uname(&u) && !strncmp(u.machine, "sh4", 3);

	ktap_diag("uname: %s %s %s", sh4 ? u.sysname : "?",
		  sh4 ? u.release : "?", sh4 ? u.machine : "not sh4");
	ktap_result(sh4 ? 0 : 1, "userspace", NULL);
}

static void test_cpu(void)
{
	static char buf[4096];
	char *line = find_line("/proc/cpuinfo", "cpu type", buf, sizeof(buf));

	ktap_diag("%s", line ? line : "no cpu type in /proc/cpuinfo");
	/* QEMU's r2d board carries an SH7751R. */
	ktap_result(line && contains(line, strlen(line), "SH7751R") ? 0 : 1,
		    "cpu", NULL);
}

static void test_console(void)
{
	static char buf[4096];
	char *line = find_line("/proc/consoles", "tty", buf, sizeof(buf));

	ktap_diag("console: %s", line ? line : "none in /proc/consoles");
	/* The board's console is the second SCIF, driven by sh-sci. */
	ktap_result(line && !strncmp(line, "ttySC1", 6) ? 0 : 1,
		    "sh-sci-console", NULL);
}

/* Whether /sys/bus/platform/devices/@name/driver exists, as lstat() does. */
static int has_driver(const char *name)
{
	static const char dir[] = "/sys/bus/platform/devices/";
	static const char leaf[] = "/driver";
	size_t dlen = sizeof(dir) - 1, nlen = strlen(name);
	char path[512];
	struct statx stx;

	if (dlen + nlen + sizeof(leaf) > sizeof(path))
		return 0;
	memcpy(path, dir, dlen);
	memcpy(path + dlen, name, nlen);
	memcpy(path + dlen + nlen, leaf, sizeof(leaf));
	return !statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_TYPE, &stx);
}

static void test_platform_bus(void)
{
	/* uint64_t: aligned for struct linux_dirent64 */
	static uint64_t dents[512];
	struct linux_dirent64 *e;
	int devices = 0, bound = 0;
	int fd = open("/sys/bus/platform/devices", O_RDONLY | O_DIRECTORY);
	long n, off;

	while (fd >= 0 &&
	       (n = getdents64(fd, (struct linux_dirent64 *)dents,
			       sizeof(dents))) > 0) {
		for (off = 0; off < n; off += e->d_reclen) {
			e = (struct linux_dirent64 *)((char *)dents + off);
			if (e->d_name[0] == '.')
				continue;
			devices++;
			if (has_driver(e->d_name)) {
				bound++;
				ktap_diag("bound: %s", e->d_name);
			}
		}
	}
	if (fd >= 0)
		close(fd);
	ktap_diag("%d platform devices, %d bound", devices, bound);
	ktap_result(bound > 0 ? 0 : 1, "platform-bus", NULL);
}

static void test_kernel_log(const char *log, long len)
{
	static const char *const bad[] = {
		"Oops", "BUG:", "WARNING:", "Kernel panic"
	};
	char buf[64];
	unsigned int i;
	long taint = -1;

	if (read_file("/proc/sys/kernel/tainted", buf, sizeof(buf)) > 0)
		taint = atol(buf);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (len > 0 && contains(log, len, bad[i])) {
			ktap_diag("the kernel log has \"%s\"", bad[i]);
			ktap_fail("kernel-log", NULL);
			return;
		}
	}
	ktap_diag("%ld bytes of kernel log, taint %ld", len, taint);
	ktap_result(len > 0 && taint == 0 ? 0 : 1, "kernel-log", NULL);
}

/* nolibc has no klogctl(): the syslog system call, -1 on error. */
static long klogctl(int type, char *buf, long len)
{
	long ret = my_syscall3(__NR_syslog, type, buf, len);

	return ret < 0 ? -1 : ret;
}

int main(void)
{
	const char *p, *end, *nl;
	long len;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	/* Keep kernel messages from tearing KTAP lines apart. */
	klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, 1);
	ktap_printf("chopblock: userspace reached\n");
	ktap_header();
	ktap_plan(5);

	test_userspace();
	test_cpu();
	test_console();
	test_platform_bus();
	len = klogctl(SYSLOG_ACTION_READ_ALL, log_buf, sizeof(log_buf));
	test_kernel_log(log_buf, len);

	ktap_printf("chopblock: tests done\n");
	/* Every complete line of the kernel log; nolibc has no memchr(). */
	end = log_buf + (len > 0 ? len : 0);
	for (p = nl = log_buf; nl < end; nl++) {
		if (*nl != '\n')
			continue;
		ktap_printf("dmesg: %.*s\n", (int)(nl - p), p);
		p = nl + 1;
	}
	/* nolibc 6.12 has neither sync() nor pause(). */
	my_syscall0(__NR_sync);
	/* glibc's RB_AUTOBOOT is the kernel's LINUX_REBOOT_CMD_RESTART. */
	reboot(LINUX_REBOOT_CMD_RESTART);
	/* Should the board not reset, the host stops QEMU after the marker. */
	for (;;)
		my_syscall0(__NR_pause);
}
