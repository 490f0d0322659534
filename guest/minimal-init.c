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
 * with guest/nolibc-sh.h for the SuperH parts nolibc lacks. That nolibc
 * has no formatting into memory, no stdio on files and no strstr() or
 * memmem(), hence the few small helpers below.
 */
#include "nolibc-sh.h"

#define LOG_SIZE (1 << 20)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* syslog(2) actions, as klogctl() numbers them. */
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_CONSOLE_LEVEL	8

static char log_buf[LOG_SIZE];
static int test_no;

/*
 * Console output. A line is assembled here and written with one write(),
 * so that it reaches the console in one piece; nolibc's printf() would
 * write every piece of a line separately.
 */
static char out_buf[1024];
static size_t out_len;

static void out_flush(void)
{
	size_t done = 0;
	ssize_t n;

	while (done < out_len) {
		n = write(1, out_buf + done, out_len - done);
		if (n <= 0)
			break;
		done += n;
	}
	out_len = 0;
}

static void out_mem(const char *s, size_t len)
{
	size_t n;

	while (len) {
		if (out_len == sizeof(out_buf))
			out_flush();
		n = sizeof(out_buf) - out_len;
		if (n > len)
			n = len;
		memcpy(out_buf + out_len, s, n);
		out_len += n;
		s += n;
		len -= n;
	}
}

static void out_str(const char *s)
{
	out_mem(s, strlen(s));
}

static void out_num(long v)
{
	char buf[24];

	out_str(ltoa_r(v, buf));
}

/* Ends the current line and writes it out. */
static void out_line(void)
{
	out_mem("\n", 1);
	out_flush();
}

/* The KTAP result line; the test has written its "# " line before. */
static void result(int ok, const char *name)
{
	out_str(ok ? "ok " : "not ok ");
	out_num(++test_no);
	out_str(" ");
	out_str(name);
	out_line();
}

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
	int ok = !uname(&u) && !strncmp(u.machine, "sh4", 3);

	out_str("# uname: ");
	out_str(ok ? u.sysname : "?");
	out_str(" ");
	out_str(ok ? u.release : "?");
	out_str(" ");
	out_str(ok ? u.machine : "not sh4");
	out_line();
	result(ok, "userspace");
}

static void test_cpu(void)
{
	static char buf[4096];
	char *line = find_line("/proc/cpuinfo", "cpu type", buf, sizeof(buf));

	out_str("# ");
	out_str(line ? line : "no cpu type in /proc/cpuinfo");
	out_line();
	/* QEMU's r2d board carries an SH7751R. */
	result(line && contains(line, strlen(line), "SH7751R"), "cpu");
}

static void test_console(void)
{
	static char buf[4096];
	char *line = find_line("/proc/consoles", "tty", buf, sizeof(buf));

	out_str("# console: ");
	out_str(line ? line : "none in /proc/consoles");
	out_line();
	/* The board's console is the second SCIF, driven by sh-sci. */
	result(line && !strncmp(line, "ttySC1", 6), "sh-sci-console");
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
				out_str("# bound: ");
				out_str(e->d_name);
				out_line();
			}
		}
	}
	if (fd >= 0)
		close(fd);
	out_str("# ");
	out_num(devices);
	out_str(" platform devices, ");
	out_num(bound);
	out_str(" bound");
	out_line();
	result(bound > 0, "platform-bus");
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
			out_str("# the kernel log has \"");
			out_str(bad[i]);
			out_str("\"");
			out_line();
			result(0, "kernel-log");
			return;
		}
	}
	out_str("# ");
	out_num(len);
	out_str(" bytes of kernel log, taint ");
	out_num(taint);
	out_line();
	result(len > 0 && taint == 0, "kernel-log");
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
	out_str("chopblock: userspace reached");
	out_line();
	out_str("KTAP version 1");
	out_line();
	out_str("1..5");
	out_line();

	test_userspace();
	test_cpu();
	test_console();
	test_platform_bus();
	len = klogctl(SYSLOG_ACTION_READ_ALL, log_buf, sizeof(log_buf));
	test_kernel_log(log_buf, len);

	out_str("chopblock: tests done");
	out_line();
	/* Every complete line of the kernel log; nolibc has no memchr(). */
	end = log_buf + (len > 0 ? len : 0);
	for (p = nl = log_buf; nl < end; nl++) {
		if (*nl != '\n')
			continue;
		out_str("dmesg: ");
		out_mem(p, nl - p);
		out_line();
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
