// SPDX-License-Identifier: GPL-2.0
/*
 * pktublk: the command line, in the manner of udftools' pktsetup.
 *
 *   pktublk [-f] [-w USEC] [-q DEPTH] [-t SEC] [-p auto|on|off] NAME DEVICE
 *                                                   set up /dev/pktcdvd/NAME
 *   pktublk -d NAME                                 tear it down
 *   pktublk -s                                      show what is set up
 *
 * Setting up forks the daemon, which checks and prepares the drive, adds
 * and starts the ublk device and links /dev/pktcdvd/NAME to it, then
 * tells the waiting command line that it is ready, or the one line that
 * says why not, after undoing whatever it had done. -f keeps the daemon in
 * the foreground (for a service manager).
 *
 * The daemon's state lives in /run/pktublk: NAME.state (pid, ublk device,
 * drive), NAME.lock and drive-MAJOR:MINOR.lock, both flock()ed by the
 * daemon for its whole life: the first makes NAME unique, the second the
 * drive's server, and a lock nobody holds means a daemon that died, whose
 * leftovers the next set up or -d of that name cleans away.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pktublk.h"

#define RUN_DIR		"/run/pktublk"
#define LINK_DIR	"/dev/pktcdvd"
#define PROG		"pktublk"

static bool quiet_log;

void note(const char *fmt, ...)
{
	char line[256];
	struct timespec t;
	va_list ap;
	int n;

	if (quiet_log)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	n = snprintf(line, sizeof(line), "[%5ld.%03ld] ", (long)t.tv_sec,
		     t.tv_nsec / 1000000);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0)
		quiet_log = true;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-f] [-w USEC] [-q DEPTH] [-t SEC] [-p MODE] NAME DEVICE\n"
		"                  set up " LINK_DIR "/NAME on DEVICE\n"
		"       " PROG " -d NAME  tear NAME down\n"
		"       " PROG " -s       show what is set up\n"
		"  -f        stay in the foreground (for a service manager), log to stderr\n"
		"  -w USEC   gather window of a partial packet (default 5000)\n"
		"  -q DEPTH  requests in flight (default 32)\n"
		"  -t SEC    timeout of a read or write command (default 30; SG_IO takes 7 at least)\n"
		"  -p MODE   a second thread writes packets while the next ones are copied:\n"
		"            auto (default: with more than one CPU), on, off\n");
}

static void die(const char *fmt, ...) __printf(1, 2)
	__attribute__((noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static bool valid_name(const char *name)
{
	const char *p;

	if (!*name || *name == '.' || strlen(name) > 32)
		return false;
	for (p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '_' && *p != '-' &&
		    *p != '.')
			return false;
	return true;
}

static void path_of(char *buf, size_t len, const char *name, const char *ext)
{
	snprintf(buf, len, RUN_DIR "/%s%s", name, ext);
}

/* Open and flock() a lock file; -EWOULDBLOCK when someone holds it. */
static int take_lock(const char *path, int *fdp)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno;

		close(fd);
		return -err;
	}
	*fdp = fd;
	return 0;
}

/* Is a lock file held (by a live daemon)? A missing one is not. */
static bool lock_held(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool held;

	if (fd < 0)
		return false;
	held = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

struct state {
	int pid;
	int dev_id;
	char drive[128];
};

static int read_state(const char *name, struct state *st)
{
	char path[128];
	FILE *f;
	int n;

	path_of(path, sizeof(path), name, ".state");
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fscanf(f, "pid %d\ndev %d\ndrive %127s\n", &st->pid, &st->dev_id,
		   st->drive);
	fclose(f);
	return n == 3 ? 0 : -EINVAL;
}

static int write_state(const char *name, const struct state *st)
{
	char path[128], tmp[140];
	FILE *f;

	path_of(path, sizeof(path), name, ".state");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f, "pid %d\ndev %d\ndrive %s\n", st->pid, st->dev_id,
		st->drive);
	if (fclose(f))
		return -errno;
	return rename(tmp, path) ? -errno : 0;
}

static void remove_files(const char *name)
{
	char path[128], target[64], link[128];
	ssize_t n;

	snprintf(link, sizeof(link), LINK_DIR "/%s", name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n > 0 && !strncmp(target, "/dev/ublkb", 10))
		unlink(link);
	path_of(path, sizeof(path), name, ".state");
	unlink(path);
}

/*
 * What a daemon killed with SIGKILL left behind: its ublk device (the
 * driver stopped it, the number stays taken), its link and state, a
 * locked door, and maybe data in the drive's write cache.
 */
static void clean_stale(const char *name, bool verbose)
{
	struct state st;
	struct drive d;
	int ret;

	if (read_state(name, &st)) {
		remove_files(name);
		return;
	}
	if (st.dev_id >= 0) {
		ret = ublk_delete_stale(st.dev_id);
		if (ret && ret != -ENODEV && verbose)
			fprintf(stderr, PROG ": %s: deleting ublk device %d: %s\n",
				name, st.dev_id, strerror(-ret));
	}
	memset(&d, 0, sizeof(d));
	d.fd = open(st.drive, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (d.fd >= 0) {
		d.path = st.drive;
		/* What it wrote may still be in the drive's write cache. */
		mmc_sync_cache(&d);
		mmc_lock_door(&d, false);
		/* The speeds it found died with it: the drive's maximum. */
		mmc_set_speed(&d, 0xffff, 0xffff);
		close(d.fd);
	}
	remove_files(name);
	if (verbose)
		fprintf(stderr, PROG ": %s: its daemon (pid %d) had died; removed ublk device %d, unlocked %s, speed to maximum\n",
			name, st.pid, st.dev_id, st.drive);
}

/* ---- the daemon ---- */

struct setup {
	const char *name;
	const char *device;
	bool foreground;
	unsigned int timeout_s;		/* of a READ or WRITE */
	struct server_opts opts;
	int report_fd;			/* the waiting command line */
	int name_lock;
	int drive_lock;
	char drive_lock_path[128];
	char why[200];
};

static void report(struct setup *su, const char *fmt, ...)
	__printf(2, 3);

static void report(struct setup *su, const char *fmt, ...)
{
	char line[300];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (su->report_fd >= 0) {
		if (write(su->report_fd, line, n) < 0)
			note("cannot report to the command line");
		close(su->report_fd);
		su->report_fd = -1;
	} else if (line[0] == 'E') {
		fprintf(stderr, PROG ": %.*s", n - 1, line + 1);
	} else {
		fwrite(line + 3, 1, n - 3, stdout);
		fflush(stdout);
	}
}

static int wait_signal(void)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	while (sigwait(&set, &sig))
		;
	return sig;
}

static int link_device(const char *name, int dev_id)
{
	char link[128], target[64];

	if (mkdir(LINK_DIR, 0755) && errno != EEXIST)
		return -errno;
	snprintf(link, sizeof(link), LINK_DIR "/%s", name);
	snprintf(target, sizeof(target), "/dev/ublkb%d", dev_id);
	return symlink(target, link) ? -errno : 0;
}

static int run_daemon(struct setup *su)
{
	struct server *srv = NULL;
	struct drive d;
	struct state st;
	char path[128], owner[64];
	bool prepared = false, linked = false;
	sigset_t set;
	int ret, sig, n;

	memset(&d, 0, sizeof(d));
	d.fd = -1;
	d.timeout_ms = su->timeout_s * 1000;

	/* A stop request during the set up is served once it is done. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);

	path_of(path, sizeof(path), su->name, ".lock");
	ret = take_lock(path, &su->name_lock);
	if (ret) {
		if (!read_state(su->name, &st))
			snprintf(su->why, sizeof(su->why), "%s is in use (pktublk daemon pid %d on %s)",
				 su->name, st.pid, st.drive);
		else
			snprintf(su->why, sizeof(su->why), "%s is in use (%s: %s)",
				 su->name, path, strerror(-ret));
		goto fail;
	}
	path_of(path, sizeof(path), su->name, ".state");
	if (!access(path, F_OK))
		clean_stale(su->name, !su->foreground);
	snprintf(path, sizeof(path), LINK_DIR "/%s", su->name);
	if (!access(path, F_OK) || errno != ENOENT) {
		snprintf(su->why, sizeof(su->why), "%s is in use (%s exists)",
			 su->name, path);
		goto fail;
	}

	ret = mmc_open(&d, su->device);
	if (ret == -EBUSY) {
		/* Is it one of ours? */
		struct stat sb;

		if (!stat(su->device, &sb)) {
			snprintf(path, sizeof(path), RUN_DIR "/drive-%u:%u.lock",
				 major(sb.st_rdev), minor(sb.st_rdev));
			if (lock_held(path)) {
				int fd = open(path, O_RDONLY | O_CLOEXEC);

				n = fd >= 0 ? read(fd, owner, sizeof(owner) - 1) : -1;
				if (fd >= 0)
					close(fd);
				owner[n > 0 ? n : 0] = 0;
				owner[strcspn(owner, "\n")] = 0;
				snprintf(su->why, sizeof(su->why), "%s is already served by another pktublk daemon (%s)",
					 su->device, n > 0 ? owner : "?");
				goto fail;
			}
		}
	}
	if (ret) {
		snprintf(su->why, sizeof(su->why), "%s", d.why);
		goto fail;
	}
	snprintf(su->drive_lock_path, sizeof(su->drive_lock_path),
		 RUN_DIR "/drive-%u:%u.lock", d.major, d.minor);
	ret = take_lock(su->drive_lock_path, &su->drive_lock);
	if (ret) {
		snprintf(su->why, sizeof(su->why), "%s is already served by another pktublk daemon",
			 su->device);
		su->drive_lock_path[0] = 0;
		goto fail;
	}
	n = snprintf(owner, sizeof(owner), "%s pid %d\n", su->name, getpid());
	if (ftruncate(su->drive_lock, 0) || write(su->drive_lock, owner, n) < 0)
		note("cannot record the drive's owner");

	ret = mmc_probe(&d);
	if (ret) {
		snprintf(su->why, sizeof(su->why), "%s", d.why);
		goto fail;
	}
	ret = server_create(&srv, &d, &su->opts, su->why, sizeof(su->why));
	if (ret)
		goto fail;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		note("mlockall: %s", strerror(errno));
	if (prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0))
		note("PR_SET_IO_FLUSHER: %s", strerror(errno));

	ret = mmc_prepare(&d);
	if (ret) {
		snprintf(su->why, sizeof(su->why), "%s: %s", su->device, d.why);
		goto fail;
	}
	prepared = true;

	ret = server_start(srv, su->why, sizeof(su->why));
	if (ret)
		goto fail;
	ret = link_device(su->name, server_dev_id(srv));
	if (ret) {
		snprintf(su->why, sizeof(su->why), "%s/%s: %s", LINK_DIR,
			 su->name, strerror(-ret));
		goto fail;
	}
	linked = true;
	st.pid = getpid();
	st.dev_id = server_dev_id(srv);
	snprintf(st.drive, sizeof(st.drive), "%s", su->device);
	ret = write_state(su->name, &st);
	if (ret) {
		snprintf(su->why, sizeof(su->why), "%s: %s", RUN_DIR,
			 strerror(-ret));
		goto fail;
	}
	note("%s: /dev/ublkb%d on %s, %s, packets of %u frames, %u frames",
	     su->name, st.dev_id, su->device, mmc_profile_name(d.profile),
	     d.packet, d.frames);
	report(su, "OK %s: " LINK_DIR "/%s -> /dev/ublkb%d on %s (%s, packets of %u frames, %u KiB)",
	       su->name, su->name, st.dev_id, su->device,
	       mmc_profile_name(d.profile), d.packet, d.frames * 2);

	sig = wait_signal();
	note("signal %d: tearing down", sig);
	ret = 0;
	goto teardown;

fail:
	ret = 1;
teardown:
	if (linked) {
		snprintf(path, sizeof(path), LINK_DIR "/%s", su->name);
		unlink(path);
	}
	server_stop(srv);
	if (prepared)
		mmc_release(&d);
	server_destroy(srv);
	if (d.fd >= 0)
		close(d.fd);
	if (su->name_lock >= 0) {
		path_of(path, sizeof(path), su->name, ".state");
		unlink(path);
	}
	if (su->drive_lock_path[0]) {
		unlink(su->drive_lock_path);
		close(su->drive_lock);
	}
	if (su->name_lock >= 0) {
		path_of(path, sizeof(path), su->name, ".lock");
		unlink(path);
		close(su->name_lock);
	}
	if (ret) {
		note("setup failed: %s", su->why);
		report(su, "E%s", su->why);
	} else {
		note("%s: torn down", su->name);
	}
	return ret;
}

static int set_up(struct setup *su)
{
	char line[320], log[128];
	int pfd[2], fd, status;
	ssize_t n, got = 0;
	pid_t pid;

	if (su->foreground) {
		su->report_fd = -1;
		return run_daemon(su);
	}
	if (pipe2(pfd, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		close(pfd[0]);
		su->report_fd = pfd[1];
		setsid();
		if (chdir("/"))
			_exit(1);
		path_of(log, sizeof(log), su->name, ".log");
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		dup2(fd, STDIN_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
		_exit(run_daemon(su));
	}
	close(pfd[1]);
	while ((n = read(pfd[0], line + got, sizeof(line) - 1 - got)) > 0)
		got += n;
	close(pfd[0]);
	line[got] = 0;
	line[strcspn(line, "\n")] = 0;
	if (!strncmp(line, "OK ", 3)) {
		printf("%s\n", line + 3);
		return 0;
	}
	/* The daemon failed: it undid its work before it reported. */
	waitpid(pid, &status, 0);
	if (line[0] == 'E')
		fprintf(stderr, PROG ": %s\n", line + 1);
	else
		fprintf(stderr, PROG ": the daemon ended without a word (see %s/%s.log)\n",
			RUN_DIR, su->name);
	return 1;
}

static int tear_down(const char *name)
{
	char path[128], dev[64];
	struct state st;
	int fd, i;

	if (!valid_name(name))
		die("%s is not a valid name", name);
	if (read_state(name, &st)) {
		snprintf(path, sizeof(path), LINK_DIR "/%s", name);
		die("%s is not set up%s", name,
		    access(path, F_OK) ? "" : " by pktublk (is it pktcdvd's?)");
	}
	path_of(path, sizeof(path), name, ".lock");
	if (!lock_held(path)) {
		clean_stale(name, true);
		return 0;
	}
	/* Refuse while mounted or open; else write back its page cache. */
	snprintf(dev, sizeof(dev), "/dev/ublkb%d", st.dev_id);
	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		die("%s is in use (%s is mounted or open)", name, dev);
	if (fd >= 0) {
		if (fsync(fd))
			fprintf(stderr, PROG ": %s: flush of %s failed: %s\n",
				name, dev, strerror(errno));
		close(fd);
	}
	if (kill(st.pid, SIGTERM))
		die("%s: cannot signal its daemon (pid %d): %s", name, st.pid,
		    strerror(errno));
	for (i = 0; i < 1200 && lock_held(path); i++)
		usleep(50000);
	if (lock_held(path))
		die("%s: its daemon (pid %d) did not end in 60 s", name,
		    st.pid);
	return 0;
}

static int show(void)
{
	struct dirent *de;
	struct state st;
	char name[64], path[128];
	DIR *dir = opendir(RUN_DIR);
	size_t len;

	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		len = strlen(de->d_name);
		if (len < 7 || len - 6 >= sizeof(name) ||
		    strcmp(de->d_name + len - 6, ".state"))
			continue;
		memcpy(name, de->d_name, len - 6);
		name[len - 6] = 0;
		if (read_state(name, &st))
			continue;
		path_of(path, sizeof(path), name, ".lock");
		printf("%s: " LINK_DIR "/%s -> /dev/ublkb%d on %s, pid %d%s\n",
		       name, name, st.dev_id, st.drive, st.pid,
		       lock_held(path) ? "" : " (daemon dead: -d cleans up)");
	}
	closedir(dir);
	return 0;
}

static unsigned int number(const char *s, unsigned int min, unsigned int max,
			   const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !*s || v < min || v > max)
		die("%s must be a number from %u to %u, not '%s'", what, min,
		    max, s);
	return v;
}

int main(int argc, char **argv)
{
	struct setup su = {
		.opts = { .queue_depth = 32, .gather_us = 5000,
			  .drive_thread = -1 },
		.report_fd = -1, .name_lock = -1, .drive_lock = -1,
		.timeout_s = 30,
	};
	const char *del = NULL;
	bool list = false;
	int c;

	while ((c = getopt(argc, argv, "d:sfw:q:t:p:h")) != -1) {
		switch (c) {
		case 'd':
			del = optarg;
			break;
		case 's':
			list = true;
			break;
		case 'f':
			su.foreground = true;
			break;
		case 'w':
			su.opts.gather_us = number(optarg, 0, 1000000,
						   "the gather window");
			break;
		case 'q':
			su.opts.queue_depth = number(optarg, 1, 256,
						     "the queue depth");
			break;
		case 't':
			su.timeout_s = number(optarg, 1, 3600, "the timeout");
			break;
		case 'p':
			if (!strcmp(optarg, "auto"))
				su.opts.drive_thread = -1;
			else if (!strcmp(optarg, "on"))
				su.opts.drive_thread = 1;
			else if (!strcmp(optarg, "off"))
				su.opts.drive_thread = 0;
			else
				die("-p is auto, on or off, not '%s'", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (geteuid())
		die("must run as root (SG_IO writes, ublk, mlockall)");
	if (mkdir("/run", 0755) && errno != EEXIST)
		die("/run: %s", strerror(errno));
	if (mkdir(RUN_DIR, 0755) && errno != EEXIST)
		die(RUN_DIR ": %s", strerror(errno));
	if (list) {
		if (del || optind != argc)
			die("-s takes no other argument");
		return show();
	}
	if (del) {
		if (optind != argc)
			die("-d takes one NAME");
		return tear_down(del);
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}
	su.name = argv[optind];
	su.device = argv[optind + 1];
	if (!valid_name(su.name))
		die("%s is not a valid name (letters, digits, '_', '-', '.'; up to 32)",
		    su.name);
	return set_up(&su);
}
