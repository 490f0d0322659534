// SPDX-License-Identifier: GPL-2.0
/*
 * The ublk side: a block device of 2 KiB logical blocks whose physical
 * block, io_min, io_opt, chunk and maximum request size are one packet,
 * so that the block layer never hands us a request that crosses a packet
 * boundary, with a volatile write cache (a flush becomes SYNCHRONIZE
 * CACHE). One queue, served by one thread on one io_uring (and, for
 * runs of whole packets, a second thread that talks to the drive).
 *
 * A write that covers a whole packet goes to the drive at once. Any other
 * write is gathered: its frames are copied into the packet's buffer, and
 * its request waits. The packet is written when it is complete, when its
 * gather window has passed, when every request of the queue is waiting,
 * before a flush, or when the buffers run out; the frames no write
 * covered are read from the disc first. A waiting request completes only
 * after the drive accepted its packet, with -EIO when it did not. Reads
 * see the frames of a packet still being gathered. Contiguous reads that
 * arrive together go to the drive as one command (SG_IO with an iovec of
 * their buffers); so do contiguous whole-packet writes, as many of them as
 * are ready when the drive is free.
 *
 * The device copies nothing by itself (UBLK_F_USER_COPY): a write's data
 * is read from the request with pread() on the ublk character device,
 * and a read's data is written into it with pwrite(). That lets a run of
 * whole-packet writes overlap its two copies on a machine of more than
 * one CPU: while a second thread, the drive thread, hands packets to the
 * drive (which copies them onto the disc), the I/O thread copies the next
 * ones out of their requests. With the driver's own copy, which ran
 * before we saw the requests, the two copies could only follow each
 * other.
 *
 * Control commands (add, parameters, start, stop, delete) go through
 * /dev/ublk-control on a second ring with 128-byte SQEs; liburing 2.3 has
 * no helpers for either kind, so the SQEs are filled here.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <scsi/sg.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pktublk.h"
#include "ublk_compat.h"

#define CONTROL_PATH	"/dev/ublk-control"
#define MAX_PENDING	8
#define WORDS		((MAX_PACKET_FRAMES + 63) / 64)
#define MAX_RUN		64		/* requests in one drive command */

struct pending {
	bool used;
	uint32_t packet;		/* packet number */
	uint8_t *buf;			/* the packet's frames */
	uint64_t covered[WORDS];	/* frames some write covered */
	unsigned int covered_count;
	unsigned int nwait;
	uint16_t *tags;			/* requests waiting for the packet */
	struct timespec since;
};

/* Whole packets for the drive thread to write. */
struct drive_job {
	uint32_t lba;
	uint32_t frames;
	uint8_t *buf;
	int ret;			/* 0, or what mmc_writev() answered */
};

struct server {
	struct drive *d;
	unsigned int qd;
	unsigned int gather_us;
	uint32_t packet;		/* frames */
	size_t packet_bytes;

	int ctrl_fd;
	struct io_uring ctrl;
	bool ctrl_ring;
	struct ublksrv_ctrl_dev_info info;
	uint32_t dev_id;
	bool added;
	bool started;

	int cdev_fd;
	const struct ublksrv_io_desc *iod;
	size_t iod_len;
	uint8_t **bufs;
	int *results;

	pthread_t thread;
	bool thread_running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int thread_state;		/* 0 starting, 1 serving, <0 -errno */

	/* the drive thread: whole packets of a write run, in order */
	bool pipelined;			/* the drive thread runs */
	pthread_t dthread;
	bool dthread_running;
	pthread_mutex_t dlock;
	pthread_cond_t dcond;
	struct drive_job djob[MAX_RUN];
	unsigned int dqueued;		/* jobs handed over */
	unsigned int ddone;		/* jobs the drive answered */
	bool dstop;
	unsigned long run_packets;	/* written by write_jobs() */
	unsigned long run_commands;

	struct io_uring ring;
	unsigned int live;		/* tags the driver still serves */
	unsigned int waiting;		/* tags held in pending packets */
	struct pending pend[MAX_PENDING];
	uint8_t *scratch;
	uint16_t *batch;		/* tags of the requests one wait brought */
};

static void why_set(char *why, size_t len, const char *fmt, ...)
	__printf(3, 4);

static void why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static int ctrl_cmd(struct io_uring *ring, int fd, uint32_t op,
		    uint32_t dev_id, void *addr, uint16_t len, uint64_t data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct ublksrv_ctrl_cmd *cmd;
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	memset(sqe, 0, 2 * sizeof(*sqe));	/* a 128-byte SQE */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	cmd = (struct ublksrv_ctrl_cmd *)sqe->cmd;
	cmd->dev_id = dev_id;
	cmd->queue_id = (uint16_t)-1;
	cmd->addr = (uintptr_t)addr;
	cmd->len = len;
	cmd->data[0] = data;
	ret = io_uring_submit(ring);
	if (ret < 0)
		return ret;
	do {
		ret = io_uring_wait_cqe(ring, &cqe);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

static int io_uring_setting(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* The control ring and /dev/ublk-control: io_uring and ublk are there. */
static int open_control(struct io_uring *ring, int *fd, char *why,
			size_t whylen)
{
	int ret;

	ret = io_uring_queue_init(4, ring, IORING_SETUP_SQE128);
	if (ret == -EPERM) {
		why_set(why, whylen, "io_uring is disabled (kernel.io_uring_disabled = %d)",
			io_uring_setting());
		return ret;
	}
	if (ret == -ENOSYS) {
		why_set(why, whylen, "the kernel has no io_uring (CONFIG_IO_URING)");
		return ret;
	}
	if (ret == -EINVAL) {
		why_set(why, whylen, "the kernel's io_uring lacks 128-byte SQEs (Linux 5.19 or later needed)");
		return ret;
	}
	if (ret < 0) {
		why_set(why, whylen, "io_uring: %s", strerror(-ret));
		return ret;
	}
	*fd = open(CONTROL_PATH, O_RDWR | O_CLOEXEC);
	if (*fd < 0) {
		ret = -errno;
		if (ret == -ENOENT || ret == -ENODEV || ret == -ENXIO)
			why_set(why, whylen, "no ublk driver: %s is missing (CONFIG_BLK_DEV_UBLK, modprobe ublk_drv)",
				CONTROL_PATH);
		else
			why_set(why, whylen, "%s: %s", CONTROL_PATH,
				strerror(-ret));
		io_uring_queue_exit(ring);
		return ret;
	}
	return 0;
}

static int ilog2_u32(uint32_t v)
{
	int n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

int server_create(struct server **sp, struct drive *d,
		  const struct server_opts *o, char *why, size_t whylen)
{
	struct server *s;
	unsigned int i;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s) {
		why_set(why, whylen, "out of memory");
		return -ENOMEM;
	}
	s->d = d;
	s->qd = o->queue_depth;
	s->gather_us = o->gather_us;
	/* one CPU cannot copy and write at the same time */
	s->pipelined = o->drive_thread < 0 ?
		       sysconf(_SC_NPROCESSORS_ONLN) > 1 : o->drive_thread;
	s->packet = d->packet;
	s->packet_bytes = (size_t)d->packet * FRAME_SIZE;
	s->ctrl_fd = -1;
	s->cdev_fd = -1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_mutex_init(&s->dlock, NULL);
	pthread_cond_init(&s->dcond, NULL);
	*sp = s;

	ret = open_control(&s->ctrl, &s->ctrl_fd, why, whylen);
	if (ret)
		return ret;
	s->ctrl_ring = true;

	s->bufs = calloc(s->qd, sizeof(*s->bufs));
	s->results = calloc(s->qd, sizeof(*s->results));
	s->batch = calloc(s->qd, sizeof(*s->batch));
	if (!s->bufs || !s->results || !s->batch)
		goto nomem;
	for (i = 0; i < s->qd; i++)
		if (posix_memalign((void **)&s->bufs[i], 4096, s->packet_bytes))
			goto nomem;
	for (i = 0; i < MAX_PENDING; i++) {
		s->pend[i].tags = calloc(s->qd, sizeof(uint16_t));
		if (!s->pend[i].tags ||
		    posix_memalign((void **)&s->pend[i].buf, 4096,
				   s->packet_bytes))
			goto nomem;
	}
	if (posix_memalign((void **)&s->scratch, 4096, s->packet_bytes))
		goto nomem;
	return 0;
nomem:
	why_set(why, whylen, "out of memory for %u buffers of %zu bytes",
		s->qd, s->packet_bytes);
	return -ENOMEM;
}

int server_dev_id(const struct server *s)
{
	return s->added ? (int)s->dev_id : -1;
}

/* ---- the I/O thread ---- */

static struct io_uring_sqe *get_sqe(struct server *s)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	if (!sqe) {
		io_uring_submit(&s->ring);
		sqe = io_uring_get_sqe(&s->ring);
	}
	return sqe;
}

static void queue_io_cmd(struct server *s, uint32_t op, uint16_t tag,
			 int result)
{
	struct io_uring_sqe *sqe = get_sqe(s);
	struct ublksrv_io_cmd *cmd;

	if (!sqe) {
		note("no submission queue entry for tag %u", tag);
		return;
	}
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = s->cdev_fd;
	sqe->cmd_op = op;
	sqe->user_data = tag;
	cmd = (struct ublksrv_io_cmd *)sqe->cmd;
	cmd->q_id = 0;
	cmd->tag = tag;
	cmd->result = result;
	cmd->addr = 0;		/* user copy: the driver maps no buffer */
}

static void complete(struct server *s, uint16_t tag, int result)
{
	queue_io_cmd(s, UBLK_U_IO_COMMIT_AND_FETCH_REQ, tag, result);
}

/* A command the drive refused, with its sense data, in the log. */
static void drive_failed(const struct server *s, const char *what,
			 uint32_t frames, uint32_t lba, int ret)
{
	note("%s of %u frames at %u failed (%d, sense %x/%02x/%02x)", what,
	     frames, lba, ret, s->d->last.key, s->d->last.asc,
	     s->d->last.ascq);
}

/* Where the data of request TAG is, for pread() and pwrite() (queue 0). */
_Static_assert(sizeof(off_t) == 8, "ublk data offsets need a 64-bit off_t");

static off_t data_pos(uint16_t tag)
{
	return UBLKSRV_IO_BUF_OFFSET + ((off_t)tag << UBLK_TAG_OFF);
}

/*
 * The data of request TAG between the request and its buffer: a write's
 * out of the request (pread), a read's into it (pwrite).
 */
static int copy_data(struct server *s, uint16_t tag, size_t len,
		     bool into_request)
{
	ssize_t n = into_request ?
		    pwrite(s->cdev_fd, s->bufs[tag], len, data_pos(tag)) :
		    pread(s->cdev_fd, s->bufs[tag], len, data_pos(tag));

	if (n == (ssize_t)len)
		return 0;
	note("tag %u: copying the %s's data failed: %s", tag,
	     into_request ? "read" : "write",
	     n < 0 ? strerror(errno) : "short copy");
	return -EIO;
}

static bool test_frame(const uint64_t *map, unsigned int i)
{
	return map[i / 64] & (1ULL << (i % 64));
}

static struct pending *find_pending(struct server *s, uint32_t packet)
{
	unsigned int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (s->pend[i].used && s->pend[i].packet == packet)
			return &s->pend[i];
	return NULL;
}

/*
 * Write a gathered packet: its uncovered frames from the disc, then the
 * whole packet; then every request that waited for it completes.
 */
static void write_pending(struct server *s, struct pending *p)
{
	uint32_t lba = p->packet * s->packet;
	unsigned int i;
	int ret = 0;

	if (p->covered_count < s->packet) {
		ret = mmc_read(s->d, lba, s->packet, s->scratch);
		if (ret)
			drive_failed(s, "read of a packet's unwritten frames",
				     s->packet, lba, ret);
		for (i = 0; !ret && i < s->packet; i++)
			if (!test_frame(p->covered, i))
				memcpy(p->buf + (size_t)i * FRAME_SIZE,
				       s->scratch + (size_t)i * FRAME_SIZE,
				       FRAME_SIZE);
	}
	if (!ret) {
		ret = mmc_write(s->d, lba, s->packet, p->buf);
		if (ret)
			drive_failed(s, "write", s->packet, lba, ret);
	}
	for (i = 0; i < p->nwait; i++)
		complete(s, p->tags[i], ret ? -EIO : s->results[p->tags[i]]);
	s->waiting -= p->nwait;
	p->nwait = 0;
	p->used = false;
}

static void write_all_pending(struct server *s)
{
	unsigned int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (s->pend[i].used)
			write_pending(s, &s->pend[i]);
}

static long us_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000000L +
		(now.tv_nsec - t->tv_nsec) / 1000;
}

static struct pending *new_pending(struct server *s, uint32_t packet)
{
	struct pending *p = NULL, *oldest = NULL;
	unsigned int i;

	for (i = 0; i < MAX_PENDING; i++) {
		if (!s->pend[i].used) {
			p = &s->pend[i];
			break;
		}
		if (!oldest || us_since(&s->pend[i].since) >
		    us_since(&oldest->since))
			oldest = &s->pend[i];
	}
	if (!p) {
		write_pending(s, oldest);
		p = oldest;
	}
	p->used = true;
	p->packet = packet;
	memset(p->covered, 0, sizeof(p->covered));
	p->covered_count = 0;
	p->nwait = 0;
	clock_gettime(CLOCK_MONOTONIC, &p->since);
	return p;
}

static void do_write(struct server *s, uint16_t tag, uint32_t lba,
		     uint32_t frames)
{
	uint32_t packet = lba / s->packet, off = lba % s->packet, i;
	struct pending *p = find_pending(s, packet);
	int ret;

	if (copy_data(s, tag, (size_t)frames * FRAME_SIZE, false)) {
		complete(s, tag, -EIO);
		return;
	}
	if (!p && !off && frames == s->packet) {
		ret = mmc_write(s->d, lba, frames, s->bufs[tag]);
		if (ret)
			drive_failed(s, "write", frames, lba, ret);
		complete(s, tag, ret ? -EIO : (int)(frames * FRAME_SIZE));
		return;
	}
	if (!p)
		p = new_pending(s, packet);
	memcpy(p->buf + (size_t)off * FRAME_SIZE, s->bufs[tag],
	       (size_t)frames * FRAME_SIZE);
	for (i = off; i < off + frames; i++) {
		if (!test_frame(p->covered, i)) {
			p->covered[i / 64] |= 1ULL << (i % 64);
			p->covered_count++;
		}
	}
	s->results[tag] = frames * FRAME_SIZE;
	p->tags[p->nwait++] = tag;
	s->waiting++;
	if (p->covered_count == s->packet)
		write_pending(s, p);
}

/* Frames still waiting to be written are newer than the disc's. */
static void overlay_pending(struct server *s, uint16_t tag, uint32_t lba,
			    uint32_t frames)
{
	struct pending *p = find_pending(s, lba / s->packet);
	uint32_t off = lba % s->packet, i;

	for (i = 0; p && i < frames; i++)
		if (test_frame(p->covered, off + i))
			memcpy(s->bufs[tag] + (size_t)i * FRAME_SIZE,
			       p->buf + (size_t)(off + i) * FRAME_SIZE,
			       FRAME_SIZE);
}

static void do_read(struct server *s, uint16_t tag, uint32_t lba,
		    uint32_t frames)
{
	int ret;

	ret = mmc_read(s->d, lba, frames, s->bufs[tag]);
	if (ret) {
		drive_failed(s, "read", frames, lba, ret);
		complete(s, tag, -EIO);
		return;
	}
	overlay_pending(s, tag, lba, frames);
	ret = copy_data(s, tag, (size_t)frames * FRAME_SIZE, true);
	complete(s, tag, ret ? -EIO : (int)(frames * FRAME_SIZE));
}

static uint8_t req_op(const struct server *s, uint16_t tag)
{
	return s->iod[tag].op_flags & 0xff;
}

static uint32_t req_lba(const struct server *s, uint16_t tag)
{
	return s->iod[tag].start_sector >> 2;
}

static uint32_t req_frames(const struct server *s, uint16_t tag)
{
	return s->iod[tag].nr_sectors >> 2;
}

/* A read or write must be whole frames inside one packet and the disc. */
static bool req_valid(const struct server *s, uint16_t tag)
{
	const struct ublksrv_io_desc *iod = &s->iod[tag];
	uint32_t lba = req_lba(s, tag), frames = req_frames(s, tag);
	uint8_t op = req_op(s, tag);

	if (op != UBLK_IO_OP_READ && op != UBLK_IO_OP_WRITE)
		return true;
	return !((iod->start_sector | iod->nr_sectors) & 3) && frames &&
		lba % s->packet + frames <= s->packet &&
		lba + frames <= s->d->frames;
}

static void handle(struct server *s, uint16_t tag)
{
	const struct ublksrv_io_desc *iod = &s->iod[tag];
	uint32_t lba = req_lba(s, tag), frames = req_frames(s, tag);

	if (!req_valid(s, tag)) {
		note("tag %u: bad request, %u sectors at %llu", tag,
		     iod->nr_sectors, (unsigned long long)iod->start_sector);
		complete(s, tag, -EIO);
		return;
	}
	switch (req_op(s, tag)) {
	case UBLK_IO_OP_READ:
		do_read(s, tag, lba, frames);
		break;
	case UBLK_IO_OP_WRITE:
		do_write(s, tag, lba, frames);
		break;
	case UBLK_IO_OP_FLUSH:
		write_all_pending(s);
		complete(s, tag, mmc_sync_cache(s->d) ? -EIO : 0);
		break;
	default:
		complete(s, tag, -EOPNOTSUPP);
		break;
	}
}

enum run_kind { RUN_NONE, RUN_READ, RUN_WRITE };

/*
 * Requests that may share one command with their neighbours: any read,
 * and a write of a whole packet that nothing is being gathered for.
 */
static enum run_kind run_kind(struct server *s, uint16_t tag)
{
	if (!req_valid(s, tag))
		return RUN_NONE;
	if (req_op(s, tag) == UBLK_IO_OP_READ)
		return RUN_READ;
	if (req_op(s, tag) == UBLK_IO_OP_WRITE &&
	    req_frames(s, tag) == s->packet &&
	    !find_pending(s, req_lba(s, tag) / s->packet))
		return RUN_WRITE;
	return RUN_NONE;
}

/* Contiguous reads: one READ (10) for them all. */
static void do_read_run(struct server *s, const uint16_t *tags,
			unsigned int n)
{
	struct sg_iovec iov[MAX_RUN];
	uint32_t lba = req_lba(s, tags[0]), frames = 0;
	unsigned int i;
	size_t len;
	int ret;

	for (i = 0; i < n; i++) {
		iov[i].iov_base = s->bufs[tags[i]];
		iov[i].iov_len = (size_t)req_frames(s, tags[i]) * FRAME_SIZE;
		frames += req_frames(s, tags[i]);
	}
	ret = mmc_readv(s->d, lba, frames, iov, n);
	if (ret)
		drive_failed(s, "read", frames, lba, ret);
	for (i = 0; i < n; i++) {
		len = (size_t)req_frames(s, tags[i]) * FRAME_SIZE;
		if (!ret) {
			overlay_pending(s, tags[i], req_lba(s, tags[i]),
					req_frames(s, tags[i]));
			if (copy_data(s, tags[i], len, true)) {
				complete(s, tags[i], -EIO);
				continue;
			}
		}
		complete(s, tags[i], ret ? -EIO : (int)len);
	}
}

/*
 * Write the jobs [first, end) that are contiguous from the first on as
 * one WRITE (10) with an iovec; returns how many that was.
 */
static unsigned int write_jobs(struct server *s, unsigned int first,
			       unsigned int end)
{
	struct sg_iovec iov[MAX_RUN];
	uint32_t lba = s->djob[first].lba, frames = 0;
	unsigned int n, i;
	int ret;

	for (n = 0; first + n < end; n++) {
		const struct drive_job *j = &s->djob[first + n];

		if (j->lba != lba + frames)
			break;
		iov[n].iov_base = j->buf;
		iov[n].iov_len = (size_t)j->frames * FRAME_SIZE;
		frames += j->frames;
	}
	ret = mmc_writev(s->d, lba, frames, iov, n);
	if (ret)
		drive_failed(s, "write", frames, lba, ret);
	for (i = 0; i < n; i++)
		s->djob[first + i].ret = ret;
	s->run_packets += n;
	s->run_commands++;
	return n;
}

/*
 * The drive thread: it writes the packets the I/O thread hands over, in
 * order, each time as many contiguous ones as are waiting (one WRITE (10)
 * with an iovec), until it is told to stop.
 */
static void *drive_thread(void *arg)
{
	struct server *s = arg;
	unsigned int first, end, n;

	/* Memory this thread needs must not wait for our own device. */
	if (prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0))
		note("PR_SET_IO_FLUSHER: %s", strerror(errno));
	pthread_mutex_lock(&s->dlock);
	for (;;) {
		while (!s->dstop && s->ddone == s->dqueued)
			pthread_cond_wait(&s->dcond, &s->dlock);
		if (s->ddone == s->dqueued)
			break;
		first = s->ddone;
		end = s->dqueued;
		pthread_mutex_unlock(&s->dlock);
		n = write_jobs(s, first, end);
		pthread_mutex_lock(&s->dlock);
		s->ddone += n;
		pthread_cond_broadcast(&s->dcond);
	}
	pthread_mutex_unlock(&s->dlock);
	return NULL;
}

/*
 * Contiguous whole-packet writes: each packet is copied out of its
 * request and handed to the drive thread at once, so that the drive takes
 * one packet while the next is being copied (without the drive thread,
 * all are copied, then written). A request completes after the drive
 * answered for its packet, with -EIO when it refused it.
 */
static void do_write_run(struct server *s, const uint16_t *tags,
			 unsigned int n)
{
	int job[MAX_RUN];
	unsigned int i;
	size_t len;

	for (i = 0; i < n; i++) {
		len = (size_t)req_frames(s, tags[i]) * FRAME_SIZE;
		job[i] = -1;
		if (copy_data(s, tags[i], len, false))
			continue;
		pthread_mutex_lock(&s->dlock);
		job[i] = s->dqueued;
		s->djob[s->dqueued++] = (struct drive_job){
			.lba = req_lba(s, tags[i]),
			.frames = req_frames(s, tags[i]),
			.buf = s->bufs[tags[i]],
		};
		pthread_cond_broadcast(&s->dcond);
		pthread_mutex_unlock(&s->dlock);
	}
	/* without the drive thread, all of them now */
	while (!s->pipelined && s->ddone < s->dqueued)
		s->ddone += write_jobs(s, s->ddone, s->dqueued);
	pthread_mutex_lock(&s->dlock);
	while (s->ddone < s->dqueued)
		pthread_cond_wait(&s->dcond, &s->dlock);
	s->ddone = 0;
	s->dqueued = 0;
	pthread_mutex_unlock(&s->dlock);
	for (i = 0; i < n; i++)
		complete(s, tags[i], job[i] < 0 || s->djob[job[i]].ret ? -EIO :
			 (int)(req_frames(s, tags[i]) * FRAME_SIZE));
}

/*
 * The requests one wait brought, in their order; a run of contiguous
 * reads goes to the drive as one command, a run of contiguous whole-packet
 * writes through do_write_run() (a 1 MiB write arrives as one request a
 * packet).
 */
static void handle_batch(struct server *s, const uint16_t *tags,
			 unsigned int n)
{
	unsigned int i = 0, j;
	enum run_kind kind;
	uint32_t end, total;

	while (i < n) {
		kind = run_kind(s, tags[i]);
		if (kind == RUN_NONE) {
			handle(s, tags[i++]);
			continue;
		}
		end = req_lba(s, tags[i]) + req_frames(s, tags[i]);
		total = req_frames(s, tags[i]);
		for (j = i + 1; j < n && j - i < MAX_RUN; j++) {
			if (run_kind(s, tags[j]) != kind ||
			    req_lba(s, tags[j]) != end ||
			    total + req_frames(s, tags[j]) > s->d->max_frames)
				break;
			end += req_frames(s, tags[j]);
			total += req_frames(s, tags[j]);
		}
		if (j - i == 1)
			handle(s, tags[i]);
		else if (kind == RUN_READ)
			do_read_run(s, tags + i, j - i);
		else
			do_write_run(s, tags + i, j - i);
		i = j;
	}
}

/* Packets whose window has passed, or all of them when all requests wait. */
static long write_expired(struct server *s)
{
	long left, wait = -1;
	unsigned int i;

	for (i = 0; i < MAX_PENDING; i++) {
		struct pending *p = &s->pend[i];

		if (!p->used)
			continue;
		left = (long)s->gather_us - us_since(&p->since);
		if (left <= 0 || s->waiting >= s->live) {
			write_pending(s, p);
			continue;
		}
		if (wait < 0 || left < wait)
			wait = left;
	}
	return wait;
}

static void set_thread_state(struct server *s, int state)
{
	pthread_mutex_lock(&s->lock);
	s->thread_state = state;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static void *io_thread(void *arg)
{
	struct server *s = arg;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	unsigned int head, n, nreq, i;
	long wait;
	int ret;

	/* Memory this thread needs must not wait for our own device. */
	if (prctl(PR_SET_IO_FLUSHER, 1, 0, 0, 0))
		note("PR_SET_IO_FLUSHER: %s", strerror(errno));
	ret = io_uring_queue_init(s->qd + 8, &s->ring, 0);
	if (ret) {
		set_thread_state(s, ret);
		return NULL;
	}
	for (i = 0; i < s->qd; i++)
		queue_io_cmd(s, UBLK_U_IO_FETCH_REQ, i, 0);
	ret = io_uring_submit(&s->ring);
	if (ret < 0) {
		io_uring_queue_exit(&s->ring);
		set_thread_state(s, ret);
		return NULL;
	}
	s->live = s->qd;
	set_thread_state(s, 1);

	while (s->live) {
		wait = write_expired(s);
		if (wait >= 0) {
			ts.tv_sec = wait / 1000000;
			ts.tv_nsec = (wait % 1000000) * 1000;
			ret = io_uring_submit_and_wait_timeout(&s->ring, &cqe,
							       1, &ts, NULL);
		} else {
			ret = io_uring_submit_and_wait_timeout(&s->ring, &cqe,
							       1, NULL, NULL);
		}
		if (ret < 0 && ret != -ETIME && ret != -EINTR) {
			note("io_uring: %s", strerror(-ret));
			break;
		}
		n = 0;
		nreq = 0;
		io_uring_for_each_cqe(&s->ring, head, cqe) {
			n++;
			if (cqe->res == UBLK_IO_RES_OK) {
				s->batch[nreq++] = cqe->user_data;
				continue;
			}
			if (cqe->res != UBLK_IO_RES_ABORT)
				note("tag %llu: the driver answered %d",
				     (unsigned long long)cqe->user_data,
				     cqe->res);
			s->live--;
		}
		io_uring_cq_advance(&s->ring, n);
		handle_batch(s, s->batch, nreq);
	}
	/* Nothing can wait here: the driver stops only once all I/O ended. */
	write_all_pending(s);
	io_uring_submit(&s->ring);
	io_uring_queue_exit(&s->ring);
	return NULL;
}

/* ---- the device's life ---- */

/*
 * Wait for devtmpfs (or udev) to make a device node, and check that it is
 * one: a stale regular file of that name (a program that wrote to the
 * path of a vanished device created it) must not stand in for it.
 */
static int wait_for_node(const char *path, bool block)
{
	struct stat st;
	int i;

	for (i = 0; i < 200; i++) {
		if (!stat(path, &st))
			return (block ? S_ISBLK(st.st_mode) :
				S_ISCHR(st.st_mode)) ? 0 : -EEXIST;
		usleep(10000);
	}
	return -ENOENT;
}

int server_start(struct server *s, char *why, size_t whylen)
{
	struct ublk_params params;
	pthread_attr_t attr;
	sigset_t all, old;
	char path[64];
	int ret, shift;

	memset(&s->info, 0, sizeof(s->info));
	s->info.nr_hw_queues = 1;
	s->info.queue_depth = s->qd;
	s->info.max_io_buf_bytes = s->packet_bytes;
	s->info.dev_id = (uint32_t)-1;
	s->info.ublksrv_pid = getpid();
	s->info.flags = UBLK_F_CMD_IOCTL_ENCODE | UBLK_F_USER_COPY;
	ret = ctrl_cmd(&s->ctrl, s->ctrl_fd, UBLK_U_CMD_ADD_DEV, (uint32_t)-1,
		       &s->info, sizeof(s->info), 0);
	if (ret) {
		why_set(why, whylen, "ublk: adding a device failed: %s",
			strerror(-ret));
		return ret;
	}
	s->added = true;
	s->dev_id = s->info.dev_id;
	/* a driver before 6.5 drops the flag it does not know */
	if (!(s->info.flags & UBLK_F_USER_COPY)) {
		why_set(why, whylen, "ublk: the driver has no user copy (Linux 6.5 or later needed)");
		return -EOPNOTSUPP;
	}

	shift = ilog2_u32(s->packet_bytes);
	memset(&params, 0, sizeof(params));
	params.len = sizeof(params);
	params.types = UBLK_PARAM_TYPE_BASIC;
	params.basic.attrs = UBLK_ATTR_VOLATILE_CACHE | UBLK_ATTR_ROTATIONAL;
	params.basic.logical_bs_shift = 11;
	params.basic.physical_bs_shift = shift;
	params.basic.io_min_shift = shift;
	params.basic.io_opt_shift = shift;
	params.basic.max_sectors = s->packet_bytes >> 9;
	params.basic.chunk_sectors = s->packet_bytes >> 9;
	params.basic.dev_sectors = (uint64_t)s->d->frames * (FRAME_SIZE >> 9);
	ret = ctrl_cmd(&s->ctrl, s->ctrl_fd, UBLK_U_CMD_SET_PARAMS, s->dev_id,
		       &params, sizeof(params), 0);
	if (ret) {
		why_set(why, whylen, "ublk: the device's parameters were refused: %s",
			strerror(-ret));
		return ret;
	}

	snprintf(path, sizeof(path), "/dev/ublkc%u", s->dev_id);
	ret = wait_for_node(path, false);
	if (ret) {
		why_set(why, whylen, ret == -EEXIST ?
			"ublk: %s is not a character device (a stale file?)" :
			"ublk: %s did not appear", path);
		return ret;
	}
	s->cdev_fd = open(path, O_RDWR | O_CLOEXEC);
	if (s->cdev_fd < 0) {
		ret = -errno;
		why_set(why, whylen, "%s: %s", path, strerror(errno));
		return ret;
	}
	s->iod_len = (s->qd * sizeof(struct ublksrv_io_desc) + 4095) & ~4095UL;
	s->iod = mmap(NULL, s->iod_len, PROT_READ, MAP_SHARED | MAP_POPULATE,
		      s->cdev_fd, UBLKSRV_CMD_BUF_OFFSET);
	if (s->iod == MAP_FAILED) {
		ret = -errno;
		s->iod = NULL;
		why_set(why, whylen, "mmap of %s: %s", path, strerror(errno));
		return ret;
	}

	/* Signals are for the main thread only. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	ret = s->pipelined ?
	      -pthread_create(&s->dthread, &attr, drive_thread, s) : 0;
	if (!ret) {
		s->dthread_running = s->pipelined;
		ret = -pthread_create(&s->thread, &attr, io_thread, s);
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		why_set(why, whylen, "cannot start the I/O threads: %s",
			strerror(-ret));
		return ret;
	}
	s->thread_running = true;
	pthread_mutex_lock(&s->lock);
	while (!s->thread_state)
		pthread_cond_wait(&s->cond, &s->lock);
	ret = s->thread_state;
	pthread_mutex_unlock(&s->lock);
	if (ret < 0) {
		why_set(why, whylen, "ublk: queueing the fetch commands failed: %s",
			strerror(-ret));
		return ret;
	}

	ret = ctrl_cmd(&s->ctrl, s->ctrl_fd, UBLK_U_CMD_START_DEV, s->dev_id,
		       NULL, 0, getpid());
	if (ret) {
		why_set(why, whylen, "ublk: starting the device failed: %s",
			strerror(-ret));
		return ret;
	}
	s->started = true;
	snprintf(path, sizeof(path), "/dev/ublkb%u", s->dev_id);
	ret = wait_for_node(path, true);
	if (ret) {
		why_set(why, whylen, ret == -EEXIST ?
			"ublk: %s is not a block device (a stale file?)" :
			"ublk: %s did not appear", path);
		return ret;
	}
	return 0;
}

/*
 * Stop the device: the block layer drains it first (every gathered packet
 * is written then), then the driver aborts the idle fetch commands and the
 * I/O thread ends.
 */
void server_stop(struct server *s)
{
	bool served;
	int ret;

	if (!s)
		return;
	if (s->added) {
		ret = ctrl_cmd(&s->ctrl, s->ctrl_fd, UBLK_U_CMD_STOP_DEV,
			       s->dev_id, NULL, 0, 0);
		if (ret)
			note("ublk: stopping device %u: %s", s->dev_id,
			     strerror(-ret));
	}
	served = s->thread_running && s->thread_state > 0;
	if (s->thread_running) {
		pthread_join(s->thread, NULL);
		s->thread_running = false;
	}
	if (s->dthread_running) {
		pthread_mutex_lock(&s->dlock);
		s->dstop = true;
		pthread_cond_broadcast(&s->dcond);
		pthread_mutex_unlock(&s->dlock);
		pthread_join(s->dthread, NULL);
		s->dthread_running = false;
	}
	if (served)
		note("runs of whole packets: %lu packets in %lu commands, drive thread %s",
		     s->run_packets, s->run_commands,
		     s->pipelined ? "on" : "off");
	s->started = false;
}

void server_destroy(struct server *s)
{
	unsigned int i;
	int ret;

	if (!s)
		return;
	server_stop(s);
	if (s->iod)
		munmap((void *)s->iod, s->iod_len);
	if (s->cdev_fd >= 0)
		close(s->cdev_fd);
	if (s->added) {
		ret = ctrl_cmd(&s->ctrl, s->ctrl_fd, UBLK_U_CMD_DEL_DEV,
			       s->dev_id, NULL, 0, 0);
		if (ret)
			note("ublk: deleting device %u: %s", s->dev_id,
			     strerror(-ret));
	}
	if (s->ctrl_ring)
		io_uring_queue_exit(&s->ctrl);
	if (s->ctrl_fd >= 0)
		close(s->ctrl_fd);
	for (i = 0; s->bufs && i < s->qd; i++)
		free(s->bufs[i]);
	for (i = 0; i < MAX_PENDING; i++) {
		free(s->pend[i].tags);
		free(s->pend[i].buf);
	}
	free(s->bufs);
	free(s->results);
	free(s->batch);
	free(s->scratch);
	free(s);
}

/*
 * A device a killed daemon left: the driver stopped it when the daemon's
 * io_uring went away, but its number stays taken until it is deleted.
 */
int ublk_delete_stale(int dev_id)
{
	struct ublksrv_ctrl_dev_info info;
	struct io_uring ring;
	char why[160];
	int fd, ret;

	ret = open_control(&ring, &fd, why, sizeof(why));
	if (ret)
		return ret;
	ret = ctrl_cmd(&ring, fd, UBLK_U_CMD_GET_DEV_INFO, dev_id, &info,
		       sizeof(info), 0);
	if (!ret && info.ublksrv_pid > 0 && !kill(info.ublksrv_pid, 0)) {
		ret = -EBUSY;		/* its server lives */
		goto out;
	}
	if (!ret) {
		ctrl_cmd(&ring, fd, UBLK_U_CMD_STOP_DEV, dev_id, NULL, 0, 0);
		ret = ctrl_cmd(&ring, fd, UBLK_U_CMD_DEL_DEV, dev_id, NULL, 0,
			       0);
	}
out:
	io_uring_queue_exit(&ring);
	close(fd);
	return ret;
}
