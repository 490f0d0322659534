// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock-timeout: 300
 * chopblock-arch: x86_64 (the module is built for the x86_64 kernel; pktublk)
 *
 * pktublk against a model: rounds of concurrent O_DIRECT writes, from one
 * frame up to three packets each, some of them into the same packet (the
 * bug class of patches/pktcdvd/0001: a partial packet's frames put at the
 * wrong place), each round's writes disjoint so that the outcome is
 * determined, applied to an in-memory copy of the area as they complete.
 * The area read back through the device must equal the model; after
 * teardown, read straight from the sr device, too. The drive rejected no
 * write and wrote only whole packets. A CD-RW, then a DVD+RW, each with
 * the daemon's drive thread (-p on: runs of whole packets are written
 * while the next ones are copied) and without it (-p off), whatever the
 * number of CPUs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../ktap.h"

#define KO		"/lib/modules/mmc_rw_emu.ko"
#define STATS		"/sys/kernel/debug/mmc_rw_emu/stats"
#define NAME		"mdl0"
#define DEV		"/dev/pktcdvd/" NAME
#define FRAME		2048
#define PACKET		packet_frames		/* of the current disc */
#define AREA		(24 * PACKET)		/* frames under test */
#define WRITERS		8
#define ROUNDS		40

#define fail_errno(fmt, ...) \
	fail(fmt " (errno: %s)", ##__VA_ARGS__, strerror(errno))

struct job {
	int fd;
	uint32_t frame, frames;
	uint8_t *buf;
	pthread_barrier_t *start;
	int err;
};

static uint32_t packet_frames;
static uint8_t *model;
static uint32_t rng = 0x14c0ffee;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static long stat_of(const char *key)
{
	char line[128], k[64];
	long v, found = -1;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", k, &v) == 2 && !strcmp(k, key))
			found = v;
	fclose(f);
	return found;
}

static void *writer(void *arg)
{
	struct job *j = arg;
	size_t len = (size_t)j->frames * FRAME;
	ssize_t n;

	pthread_barrier_wait(j->start);
	n = pwrite(j->fd, j->buf, len, (off_t)j->frame * FRAME);
	j->err = n == (ssize_t)len ? 0 : n < 0 ? errno : EIO;
	return NULL;
}

/* Read the area from a device with O_DIRECT and compare with the model. */
static int compare(const char *path, const char *what)
{
	size_t len = (size_t)AREA * FRAME;
	uint8_t *buf;
	uint32_t f, bad = 0, first = 0;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		fail_errno("%s: open %s", what, path);
		return -1;
	}
	if (posix_memalign((void **)&buf, 4096, len) ||
	    pread(fd, buf, len, 0) != (ssize_t)len) {
		fail_errno("%s: read of %zu bytes", what, len);
		close(fd);
		return -1;
	}
	close(fd);
	for (f = 0; f < AREA; f++) {
		if (memcmp(buf + (size_t)f * FRAME, model + (size_t)f * FRAME,
			   FRAME)) {
			if (!bad)
				first = f;
			bad++;
		}
	}
	free(buf);
	if (bad) {
		fail("%s: %u of %u frames differ from the model, the first at frame %u",
		     what, bad, AREA, first);
		return -1;
	}
	ok("%s: all %u frames equal the model", what, AREA);
	return 0;
}

static bool overlaps(const struct job *jobs, int n, uint32_t frame,
		     uint32_t frames)
{
	int i;

	for (i = 0; i < n; i++)
		if (frame < jobs[i].frame + jobs[i].frames &&
		    jobs[i].frame < frame + frames)
			return true;
	return false;
}

/* A round: WRITERS disjoint writes; the odd ones share a packet with the
 * one before them when they can. */
static void plan_round(struct job *jobs, int round)
{
	uint32_t frame, frames, k;
	int i, tries;

	for (i = 0; i < WRITERS; i++) {
		for (tries = 0; tries < 1000; tries++) {
			switch (rnd(4)) {
			case 0:
				frames = 1;
				break;
			case 1:
				frames = 1 + rnd(PACKET - 1);
				break;
			case 2:
				frames = PACKET;
				break;
			default:
				frames = 1 + rnd(3 * PACKET);
				break;
			}
			if (i % 2 && tries < 500) {
				/* near the previous one: the same packet */
				frame = jobs[i - 1].frame / PACKET * PACKET +
					rnd(PACKET);
				frames = 1 + rnd(4);
			} else {
				frame = rnd(AREA);
			}
			if (frame + frames > AREA)
				continue;
			if (!overlaps(jobs, i, frame, frames))
				break;
		}
		jobs[i].frame = frame;
		jobs[i].frames = frames;
		for (k = 0; k < frames; k++) {
			uint8_t *p = jobs[i].buf + (size_t)k * FRAME;
			uint32_t w;

			for (w = 0; w < FRAME / 4; w++)
				((uint32_t *)p)[w] = (round << 24) ^ (i << 20) ^
					((frame + k) << 8) ^ w;
		}
	}
}

static const char *find_sr(void)
{
	static char path[64];
	glob_t g;
	int i;

	for (i = 0; i < 100; i++) {
		if (!glob("/sys/devices/mmc_rw_emu/host*/target*/*/block/*", 0,
			  NULL, &g)) {
			snprintf(path, sizeof(path), "/dev/%s",
				 strrchr(g.gl_pathv[0], '/') + 1);
			globfree(&g);
			if (!access(path, F_OK))
				return path;
		}
		usleep(100000);
	}
	return NULL;
}

/*
 * The daemon's account of the runs of whole packets, from its log after
 * teardown: the drive thread must have run as asked, and in "-p on" have
 * written some of this test's packets (or the test would not reach it).
 */
static void check_runs(const char *mode)
{
	FILE *f = fopen("/run/pktublk/" NAME ".log", "r");
	char line[256], got[8] = "";
	unsigned long packets = 0, commands = 0;
	const char *p;
	bool seen = false;

	while (f && fgets(line, sizeof(line), f)) {
		p = strstr(line, "runs of whole packets: ");
		if (p && sscanf(p, "runs of whole packets: %lu packets in %lu commands, drive thread %7s",
				&packets, &commands, got) == 3)
			seen = true;
	}
	if (f)
		fclose(f);
	if (!seen)
		fail("the daemon's log has no account of its runs of whole packets");
	else if (strcmp(got, mode))
		fail("the drive thread was %s, not %s", got, mode);
	else if (!strcmp(mode, "on") && !packets)
		fail("-p on: no run of whole packets reached the drive thread");
	else
		ok("drive thread %s: %lu packets of runs in %lu commands", got,
		   packets, commands);
}

static void run_profile(unsigned int profile, const char *media,
			uint32_t packet, const char *mode)
{
	struct job jobs[WRITERS];
	pthread_t th[WRITERS];
	pthread_barrier_t start;
	long w0, r0, pw0, bw0, w, r, pw, bw;
	char cmd[160];
	const char *sr;
	int fd, round, i, errs = 0;
	size_t len;

	packet_frames = packet;
	len = (size_t)AREA * FRAME;
	ktap_printf("== %s, packets of %u frames, pktublk -p %s\n", media,
		    packet, mode);
	snprintf(cmd, sizeof(cmd),
		 "insmod " KO " profile=0x%x packet_blocks=%u size_mb=8",
		 profile, packet);
	if (run(cmd)) {
		fail("%s", cmd);
		return;
	}
	sr = find_sr();
	if (!sr) {
		fail("the emulated drive's sr device did not appear");
		run("rmmod mmc_rw_emu");
		return;
	}
	snprintf(cmd, sizeof(cmd), "pktublk -p %s " NAME " %s", mode, sr);
	if (run(cmd)) {
		fail("%s", cmd);
		run("cat /run/pktublk/" NAME ".log; rmmod mmc_rw_emu");
		return;
	}
	ok("%s", cmd);

	for (i = 0; i < WRITERS; i++)
		jobs[i].buf = NULL;
	if (posix_memalign((void **)&model, 4096, len))
		model = NULL;
	fd = open(DEV, O_RDWR | O_DIRECT);
	if (!model || fd < 0 || pread(fd, model, len, 0) != (ssize_t)len) {
		fail_errno("reading the area through " DEV);
		goto out;
	}
	w0 = stat_of("writes");
	r0 = stat_of("writes_rejected");
	pw0 = stat_of("packets_written");
	bw0 = stat_of("blocks_written");

	pthread_barrier_init(&start, NULL, WRITERS);
	for (i = 0; i < WRITERS; i++) {
		jobs[i].fd = fd;
		jobs[i].start = &start;
		if (posix_memalign((void **)&jobs[i].buf, 4096,
				   3 * PACKET * FRAME))
			fail("out of memory");
	}
	for (round = 0; round < ROUNDS; round++) {
		plan_round(jobs, round);
		for (i = 0; i < WRITERS; i++)
			pthread_create(&th[i], NULL, writer, &jobs[i]);
		for (i = 0; i < WRITERS; i++) {
			pthread_join(th[i], NULL);
			if (jobs[i].err) {
				errs++;
				ktap_printf("round %d writer %d: %u frames at %u: %s\n",
					    round, i, jobs[i].frames,
					    jobs[i].frame,
					    strerror(jobs[i].err));
				continue;
			}
			memcpy(model + (size_t)jobs[i].frame * FRAME,
			       jobs[i].buf, (size_t)jobs[i].frames * FRAME);
		}
	}
	if (errs)
		fail("%d of %d writes failed", errs, ROUNDS * WRITERS);
	else
		ok("%d rounds of %d concurrent O_DIRECT writes", ROUNDS,
		   WRITERS);
	if (fsync(fd))
		fail_errno("fsync " DEV);
	close(fd);
	compare(DEV, "through " DEV);

	w = stat_of("writes") - w0;
	r = stat_of("writes_rejected") - r0;
	pw = stat_of("packets_written") - pw0;
	bw = stat_of("blocks_written") - bw0;
	ktap_printf("drive: %ld write commands, %ld packets, %ld blocks, %ld rejected\n",
		    w, pw, bw, r);
	if (r || w > pw || bw != pw * PACKET)
		fail("the drive saw other writes than whole packets");
	else
		ok("every write a whole aligned packet, none rejected");
out:
	if (run("pktublk -d " NAME)) {
		fail("pktublk -d " NAME);
	} else {
		check_runs(mode);
		if (model)
			compare(sr, "after teardown, straight from the sr device");
	}
	if (run("rmmod mmc_rw_emu"))
		fail("rmmod mmc_rw_emu");
	for (i = 0; i < WRITERS; i++)
		free(jobs[i].buf);
	free(model);
	model = NULL;
}

int main(void)
{
	soft_checks();
	if (access(KO, F_OK))
		skip("%s is not in the initramfs", KO);
	if (access("/usr/sbin/pktublk", X_OK))
		skip("pktublk is not in the initramfs");
	if (access("/dev/ublk-control", F_OK))
		skip("no /dev/ublk-control: kernel without CONFIG_BLK_DEV_UBLK");
	run_profile(0xa, "CD-RW", 32, "on");
	run_profile(0xa, "CD-RW", 32, "off");
	run_profile(0x1a, "DVD+RW", 16, "on");
	run_profile(0x1a, "DVD+RW", 16, "off");
	return failed;
}
