// SPDX-License-Identifier: GPL-2.0
/*
 * The drive, over SG_IO on its sr block device: what pktcdvd asked of it
 * when a packet device was opened for writing (the profile, a rewritable
 * disc with a fixed-packet track, the capacity, the write parameters, the
 * write cache, the speed, power calibration, the door lock), and the
 * READ, WRITE and SYNCHRONIZE CACHE commands the server sends.
 *
 * The sr device is opened read-only, exclusively: a mount of it, pktcdvd
 * or a second daemon cannot hold it at the same time. SG_IO writes to it
 * anyway (the caller has CAP_SYS_RAWIO), as pktcdvd did.
 */
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "pktublk.h"

#define CMD_TIMEOUT_MS		10000
#define OPC_TIMEOUT_MS		60000

/* SCSI and MMC operation codes. */
#define OP_TEST_UNIT_READY	0x00
#define OP_INQUIRY		0x12
#define OP_PREVENT_ALLOW	0x1e
#define OP_READ_10		0x28
#define OP_WRITE_10		0x2a
#define OP_SYNC_CACHE		0x35
#define OP_READ_TOC		0x43
#define OP_GET_CONFIGURATION	0x46
#define OP_READ_DISC_INFO	0x51
#define OP_READ_TRACK_INFO	0x52
#define OP_SEND_OPC		0x54
#define OP_MODE_SELECT_10	0x55
#define OP_MODE_SENSE_10	0x5a
#define OP_SET_SPEED		0xbb

#define PAGE_WRITE_PARAMS	0x05
#define PAGE_CACHING		0x08
#define PAGE_CAPABILITIES	0x2a

#define TYPE_MMC		0x05

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint16_t get_be16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void set_why(struct drive *d, const char *fmt, ...)
	__printf(2, 3);

static void set_why(struct drive *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->why, sizeof(d->why), fmt, ap);
	va_end(ap);
}

enum dir { DIR_NONE, DIR_IN, DIR_OUT };

/*
 * One command. Returns 0, -EIO when the drive failed it (d->last has its
 * sense), or the negative errno of the transport (SG_IO itself failed,
 * or the host adapter or the driver reported an error, e.g. a timeout).
 */
static int mmc_cmd_iov(struct drive *d, const uint8_t *cdb,
		       unsigned int cdb_len, enum dir dir, void *buf,
		       unsigned int iovs, uint32_t len, unsigned int timeout);

static int mmc_cmd(struct drive *d, const uint8_t *cdb, unsigned int cdb_len,
		   enum dir dir, void *buf, uint32_t len, unsigned int timeout)
{
	return mmc_cmd_iov(d, cdb, cdb_len, dir, buf, 0, len, timeout);
}

/* With iovs > 0, buf is an array of iovs struct sg_iovec. */
static int mmc_cmd_iov(struct drive *d, const uint8_t *cdb,
		       unsigned int cdb_len, enum dir dir, void *buf,
		       unsigned int iovs, uint32_t len, unsigned int timeout)
{
	uint8_t sb[32];
	struct sg_io_hdr io;

	memset(&io, 0, sizeof(io));
	memset(sb, 0, sizeof(sb));
	io.interface_id = 'S';
	io.cmdp = (uint8_t *)cdb;
	io.cmd_len = cdb_len;
	io.dxferp = buf;
	io.iovec_count = iovs;
	io.dxfer_len = len;
	io.dxfer_direction = dir == DIR_IN ? SG_DXFER_FROM_DEV :
		dir == DIR_OUT ? SG_DXFER_TO_DEV : SG_DXFER_NONE;
	io.sbp = sb;
	io.mx_sb_len = sizeof(sb);
	io.timeout = timeout;
	memset(&d->last, 0, sizeof(d->last));
	if (ioctl(d->fd, SG_IO, &io) < 0)
		return -errno;
	if (io.sb_len_wr >= 3) {
		if ((sb[0] & 0x7e) == 0x72) {	/* descriptor format */
			d->last.key = sb[1] & 0x0f;
			d->last.asc = sb[2];
			d->last.ascq = sb[3];
		} else if (io.sb_len_wr >= 14) {
			d->last.key = sb[2] & 0x0f;
			d->last.asc = sb[12];
			d->last.ascq = sb[13];
		}
	}
	if (io.host_status == 0x03)		/* DID_TIME_OUT */
		return -ETIMEDOUT;
	if (io.host_status || io.status)
		return -EIO;
	if (io.driver_status & 0x0f && d->last.key > 0x01)
		return -EIO;
	return 0;
}

static int cmd_in(struct drive *d, const uint8_t *cdb, unsigned int cdb_len,
		  void *buf, uint32_t len)
{
	memset(buf, 0, len);
	return mmc_cmd(d, cdb, cdb_len, DIR_IN, buf, len, CMD_TIMEOUT_MS);
}

const char *mmc_profile_name(uint16_t profile)
{
	switch (profile) {
	case 0x0000: return "no disc";
	case 0x0008: return "CD-ROM";
	case 0x0009: return "CD-R";
	case 0x000a: return "CD-RW";
	case 0x0010: return "DVD-ROM";
	case 0x0011: return "DVD-R";
	case 0x0012: return "DVD-RAM";
	case 0x0013: return "DVD-RW (restricted overwrite)";
	case 0x0014: return "DVD-RW (sequential)";
	case 0x0015: return "DVD-R DL";
	case 0x0016: return "DVD-R DL (jump)";
	case 0x001a: return "DVD+RW";
	case 0x001b: return "DVD+R";
	case 0x002b: return "DVD+R DL";
	case 0x0040: return "BD-ROM";
	case 0x0041: return "BD-R";
	case 0x0042: return "BD-R (random)";
	case 0x0043: return "BD-RE";
	case 0xffff: return "unknown";
	}
	return "other";
}

static bool profile_read_only(uint16_t p)
{
	return p == 0x0008 || p == 0x0010 || p == 0x0040 || p == 0x0050;
}

static bool profile_write_once(uint16_t p)
{
	return p == 0x0009 || p == 0x0011 || p == 0x0014 || p == 0x0015 ||
		p == 0x0016 || p == 0x001b || p == 0x002b || p == 0x0041 ||
		p == 0x0042;
}

/* DVD+RW and DVD-RAM are overwritable anywhere: no write parameters. */
static bool profile_random(uint16_t p)
{
	return p == 0x001a || p == 0x0012;
}

int mmc_open(struct drive *d, const char *path)
{
	struct stat st;

	d->fd = -1;
	d->path = path;
	if (stat(path, &st) < 0) {
		set_why(d, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISBLK(st.st_mode)) {
		set_why(d, "%s is not a block device, not an MMC drive", path);
		return -ENOTBLK;
	}
	d->major = major(st.st_rdev);
	d->minor = minor(st.st_rdev);
	d->fd = open(path, O_RDONLY | O_NONBLOCK | O_EXCL | O_CLOEXEC);
	if (d->fd < 0) {
		int err = errno;

		if (err == EBUSY)
			set_why(d, "%s is busy: mounted, or held by pktcdvd or another program",
				path);
		else
			set_why(d, "%s: %s", path, strerror(err));
		return -err;
	}
	return 0;
}

static int read_disc_info(struct drive *d, uint8_t *di, unsigned int len)
{
	uint8_t cdb[10] = { OP_READ_DISC_INFO };

	put_be16(&cdb[7], len);
	return cmd_in(d, cdb, sizeof(cdb), di, len);
}

/* READ TRACK INFORMATION of a track number (type 1). */
static int read_track_info(struct drive *d, uint32_t track, uint8_t *ti,
			   unsigned int len)
{
	uint8_t cdb[10] = { OP_READ_TRACK_INFO, 0x01 };

	put_be32(&cdb[2], track);
	put_be16(&cdb[7], len);
	return cmd_in(d, cdb, sizeof(cdb), ti, len);
}

static int test_unit_ready(struct drive *d)
{
	uint8_t cdb[6] = { OP_TEST_UNIT_READY };
	int i, ret = 0;

	/* A unit attention (a disc change, a reset) is reported once. */
	for (i = 0; i < 3; i++) {
		ret = mmc_cmd(d, cdb, sizeof(cdb), DIR_NONE, NULL, 0,
			      CMD_TIMEOUT_MS);
		if (ret != -EIO || d->last.key != 0x06)
			break;
	}
	return ret;
}

/*
 * The capacity, as pktcdvd computed it: the last recorded address of the
 * last track (of the one before it when that is blank), or when the drive
 * does not report one, the track's start plus its size less its free
 * blocks and the link blocks.
 *
 * A track with free blocks is recorded only up to its next writable
 * address (NWA), and a fixed-packet track records whole packets, so the
 * NWA must lie on a packet boundary and ends the capacity there: its link
 * blocks are not addressable (MMC addressing method 2), so pktcdvd's
 * "less 7" would cost a packet, and the blocks after the NWA are blank.
 */
static int probe_capacity(struct drive *d, const uint8_t *di)
{
	uint8_t ti[36];
	uint32_t track = di[11] << 8 | di[6], last;

	if (read_track_info(d, track, ti, sizeof(ti)) < 0) {
		set_why(d, "cannot read track %u's information", track);
		return -EIO;
	}
	if (ti[6] & 0x40 && track > 1) {	/* blank: the one before */
		track--;
		if (read_track_info(d, track, ti, sizeof(ti)) < 0) {
			set_why(d, "cannot read track %u's information", track);
			return -EIO;
		}
	}
	if (ti[7] & 0x02) {			/* LRA_V */
		last = get_be32(&ti[28]);
	} else {
		last = get_be32(&ti[8]) + get_be32(&ti[24]);
		if (get_be32(&ti[16]))
			last -= get_be32(&ti[16]) + 7;
	}
	if (ti[7] & 0x01 && get_be32(&ti[16])) {	/* NWA_V, free blocks */
		uint32_t start = get_be32(&ti[8]);

		d->nwa = get_be32(&ti[12]);
		if (d->nwa < start || (d->nwa - start) % d->packet) {
			set_why(d, "the next writable address %u is not on a packet boundary (track at %u, packets of %u)",
				d->nwa, start, d->packet);
			return -EINVAL;
		}
		note("track %u recorded up to its next writable address %u",
		     track, d->nwa);
		last = d->nwa;
	}
	d->frames = last - last % d->packet;
	if (!d->frames) {
		set_why(d, "the disc has no whole packet to write (last address %u)",
			last);
		return -ENOSPC;
	}
	return 0;
}

static unsigned long queue_limit(const struct drive *d, const char *name)
{
	char path[96];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/%s",
		 d->major, d->minor, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/*
 * The most frames one command may move: what the sr queue takes in one
 * request (its size, and its segments if every page is one), in whole
 * packets, at least one packet, at most 1 MiB.
 */
static uint32_t max_transfer(const struct drive *d)
{
	unsigned long bytes = queue_limit(d, "max_sectors_kb") * 1024;
	unsigned long segs = queue_limit(d, "max_segments") * 4096;
	uint32_t frames;

	if (segs && segs < bytes)
		bytes = segs;
	frames = bytes / FRAME_SIZE;
	if (frames > 512)
		frames = 512;
	frames -= frames % d->packet;
	return frames < d->packet ? d->packet : frames;
}

int mmc_probe(struct drive *d)
{
	uint8_t buf[64], di[34], ti[36];
	uint8_t inq[6] = { OP_INQUIRY, 0, 0, 0, 36 };
	uint8_t gc[10] = { OP_GET_CONFIGURATION };
	const char *pname;
	int ret;

	ret = cmd_in(d, inq, sizeof(inq), buf, 36);
	if (ret == -ENOTTY || ret == -EINVAL ||
	    ret == -EOPNOTSUPP) {
		set_why(d, "%s is not an MMC device (it does not take SCSI commands)",
			d->path);
		return -ENODEV;
	}
	if (ret) {
		set_why(d, "%s: INQUIRY failed (%s)", d->path,
			ret == -EIO ? "drive error" : strerror(-ret));
		return -ENODEV;
	}
	if ((buf[0] & 0x1f) != TYPE_MMC) {
		set_why(d, "%s is not an MMC device (SCSI peripheral type %u)",
			d->path, buf[0] & 0x1f);
		return -ENODEV;
	}

	ret = test_unit_ready(d);
	if (ret == -EIO && d->last.key == 0x02 && d->last.asc == 0x3a) {
		set_why(d, "%s: no disc in the drive", d->path);
		return -ENOMEDIUM;
	}
	if (ret) {
		set_why(d, "%s: the drive is not ready (sense %x/%02x/%02x)",
			d->path, d->last.key, d->last.asc, d->last.ascq);
		return -EIO;
	}

	gc[8] = 8;
	if (cmd_in(d, gc, sizeof(gc), buf, 8)) {
		set_why(d, "%s: the drive does not report its profile (not MMC-3)",
			d->path);
		return -ENODEV;
	}
	d->profile = get_be16(&buf[6]);
	pname = mmc_profile_name(d->profile);
	if (d->profile == 0) {
		set_why(d, "%s: no disc in the drive", d->path);
		return -ENOMEDIUM;
	}
	if (profile_read_only(d->profile)) {
		set_why(d, "%s: read-only disc (%s)", d->path, pname);
		return -EROFS;
	}
	if (profile_write_once(d->profile)) {
		set_why(d, "%s: write-once disc (%s), not rewritable", d->path,
			pname);
		return -EROFS;
	}
	if (d->profile != 0x000a && d->profile != 0x0012 &&
	    d->profile != 0x0013 && d->profile != 0x001a) {
		set_why(d, "%s: unsupported disc (profile 0x%04x, %s)", d->path,
			d->profile, pname);
		return -EROFS;
	}
	d->cd = d->profile == 0x000a;

	if (read_disc_info(d, di, sizeof(di))) {
		set_why(d, "%s: cannot read the disc information", d->path);
		return -EIO;
	}
	if (!(di[2] & 0x10)) {
		set_why(d, "%s: write-once disc (%s, not erasable)", d->path,
			pname);
		return -EROFS;
	}
	if (d->cd && di[8] != 0x00 && di[8] != 0x20) {
		set_why(d, "%s: disc type 0x%02x is not a CD-ROM or CD-ROM XA disc",
			d->path, di[8]);
		return -EROFS;
	}
	if (d->cd && ((di[2] >> 2) & 0x03) == 2) {
		set_why(d, "%s: the last session is reserved", d->path);
		return -EROFS;
	}

	if (read_track_info(d, 1, ti, sizeof(ti))) {
		set_why(d, "%s: cannot read track 1's information", d->path);
		return -EIO;
	}
	d->packet = get_be32(&ti[20]);
	if (!profile_random(d->profile)) {
		bool rt = ti[6] & 0x80, blank = ti[6] & 0x40;

		if (!(ti[6] & 0x20) || !(ti[6] & 0x10)) {
			set_why(d, "%s: the disc is not formatted for fixed packets (track 1: %s)",
				d->path, ti[6] & 0x20 ? "variable packets" :
				"not written in packets");
			return -EROFS;
		}
		if (rt && blank) {
			set_why(d, "%s: track 1 is reserved and blank", d->path);
			return -EROFS;
		}
		if ((ti[6] & 0x0f) != 1 && (ti[6] & 0x0f) != 2) {
			set_why(d, "%s: unknown data mode %u of track 1", d->path,
				ti[6] & 0x0f);
			return -EROFS;
		}
	} else if (!d->packet) {
		d->packet = 16;		/* an ECC block */
	}
	if (!d->packet) {
		set_why(d, "%s: the drive reports a packet size of 0", d->path);
		return -EROFS;
	}
	if (d->packet > MAX_PACKET_FRAMES) {
		set_why(d, "%s: packets of %u frames, over the %u supported",
			d->path, d->packet, MAX_PACKET_FRAMES);
		return -EROFS;
	}
	if (d->packet & (d->packet - 1)) {
		set_why(d, "%s: packets of %u frames, not a power of two",
			d->path, d->packet);
		return -EROFS;
	}
	d->track_start = get_be32(&ti[8]);
	if (d->track_start % d->packet) {
		set_why(d, "%s: track 1 starts at %u, not on a packet boundary",
			d->path, d->track_start);
		return -EROFS;
	}
	d->mode_block_type = ti[6] & 0x0f;
	d->track_mode = ti[5] & 0x0f;
	d->max_frames = max_transfer(d);
	return probe_capacity(d, di);
}

static int mode_sense(struct drive *d, uint8_t page, uint8_t *buf,
		      unsigned int len)
{
	uint8_t cdb[10] = { OP_MODE_SENSE_10, 0x08, page };

	put_be16(&cdb[7], len);
	return cmd_in(d, cdb, sizeof(cdb), buf, len);
}

static int mode_select(struct drive *d, uint8_t *buf, unsigned int len)
{
	uint8_t cdb[10] = { OP_MODE_SELECT_10, 0x10 };

	buf[0] = 0;			/* mode data length: reserved here */
	buf[1] = 0;
	put_be16(&cdb[7], len);
	return mmc_cmd(d, cdb, sizeof(cdb), DIR_OUT, buf, len, CMD_TIMEOUT_MS);
}

/* A whole mode page: header, block descriptors, the page. */
static int mode_page(struct drive *d, uint8_t page, uint8_t *buf,
		     unsigned int max, unsigned int *len)
{
	int ret = mode_sense(d, page, buf, 8);

	if (ret)
		return ret;
	*len = 2 + get_be16(&buf[0]);
	if (*len > max)
		*len = max;
	ret = mode_sense(d, page, buf, *len);
	if (ret)
		return ret;
	d->mode_offset = get_be16(&buf[6]);
	if (8 + d->mode_offset + 2 > *len)
		return -EIO;
	return 0;
}

/* Mode page 05h: fixed packets of the track's size, no multi-session. */
static int set_write_params(struct drive *d)
{
	uint8_t buf[128];
	unsigned int len;
	uint8_t *wp;

	if (mode_page(d, PAGE_WRITE_PARAMS, buf, sizeof(buf), &len)) {
		set_why(d, "cannot read the write parameters page");
		return -EIO;
	}
	wp = &buf[8 + d->mode_offset];
	if (wp - buf + 14 > (long)len) {
		set_why(d, "the write parameters page is too short");
		return -EIO;
	}
	wp[0] &= 0x3f;			/* PS bit: not ours to set */
	wp[2] = (wp[2] & 0x40) | 0x20;	/* BUFE kept; LS_V; packet */
	wp[3] = 0x20 | d->track_mode;	/* FP, no multi-session, no copy */
	wp[4] = d->mode_block_type == 2 ? 10 : 8;
	wp[5] = 7;			/* link size */
	wp[8] = d->mode_block_type == 2 ? 0x20 : 0x00;
	put_be32(&wp[10], d->packet);
	if (mode_select(d, buf, len)) {
		set_why(d, "the drive refused the write parameters (sense %x/%02x/%02x)",
			d->last.key, d->last.asc, d->last.ascq);
		return -EIO;
	}
	return 0;
}

/*
 * The drive's write cache on (WCE of the caching page): the server sends
 * SYNCHRONIZE CACHE for every flush, so nothing acknowledged to a
 * flusher stays only in the cache. Drives without the page keep theirs.
 */
static void set_write_cache(struct drive *d)
{
	uint8_t buf[64];
	unsigned int len;
	uint8_t *p;

	if (mode_page(d, PAGE_CACHING, buf, sizeof(buf), &len)) {
		note("no caching mode page: the drive's write cache is left as it is");
		return;
	}
	p = &buf[8 + d->mode_offset];
	if (p[2] & 0x04) {
		note("write cache already enabled");
		return;
	}
	p[0] &= 0x3f;
	p[2] |= 0x04;
	if (mode_select(d, buf, len)) {
		note("the drive refused to enable its write cache");
		return;
	}
	d->write_cache_set = true;
	note("write cache enabled");
}

/* Teardown, after the cache is synced: WCE off again if we set it. */
static void restore_write_cache(struct drive *d)
{
	uint8_t buf[64];
	unsigned int len;

	if (!d->write_cache_set)
		return;
	d->write_cache_set = false;
	if (mode_page(d, PAGE_CACHING, buf, sizeof(buf), &len)) {
		note("cannot read the caching page to turn the write cache off");
		return;
	}
	buf[8 + d->mode_offset] &= 0x3f;
	buf[8 + d->mode_offset + 2] &= ~0x04;
	if (mode_select(d, buf, len))
		note("cannot turn the write cache off again");
}

int mmc_set_speed(struct drive *d, uint16_t read, uint16_t write)
{
	uint8_t cdb[12] = { OP_SET_SPEED };

	put_be16(&cdb[2], read);
	put_be16(&cdb[4], write);
	return mmc_cmd(d, cdb, sizeof(cdb), DIR_NONE, NULL, 0, CMD_TIMEOUT_MS);
}

/*
 * The speeds: the current ones are kept for the teardown; the fastest
 * write speed the drive reports (its first write speed descriptor, else
 * the maximum write speed field) becomes the read and write speed.
 */
static int setup_speed(struct drive *d)
{
	uint8_t buf[256];
	unsigned int len, plen;
	uint16_t max = 0;
	uint8_t *p;

	if (!mode_page(d, PAGE_CAPABILITIES, buf, sizeof(buf), &len)) {
		p = &buf[8 + d->mode_offset];
		plen = p[1];
		if (plen >= 20) {
			uint16_t max_read = get_be16(&p[8]);

			max = get_be16(&p[18]);
			d->old_read_speed = get_be16(&p[14]);
			d->old_write_speed = plen >= 30 ? get_be16(&p[28]) :
				get_be16(&p[20]);
			/* At its maximum: "as fast as it can", as it was. */
			if (d->old_read_speed >= max_read)
				d->old_read_speed = 0xffff;
			if (d->old_write_speed >= max)
				d->old_write_speed = 0xffff;
			d->speed_saved = true;
		}
		if (plen >= 36 && get_be16(&p[30]) && 8 + d->mode_offset + 36 <= len)
			max = get_be16(&p[34]);
	}
	if (!max)
		max = d->cd ? 16 * 177 : 4 * 1385;
	d->write_speed = max;
	if (mmc_set_speed(d, max, max)) {
		set_why(d, "the drive refused SET SPEED %u kB/s (sense %x/%02x/%02x)",
			max, d->last.key, d->last.asc, d->last.ascq);
		return -EIO;
	}
	note("speed set to %u kB/s (was read %u, write %u kB/s)", max,
	     d->old_read_speed, d->old_write_speed);
	return 0;
}

static void perform_opc(struct drive *d)
{
	uint8_t cdb[10] = { OP_SEND_OPC, 0x01 };

	if (mmc_cmd(d, cdb, sizeof(cdb), DIR_NONE, NULL, 0, OPC_TIMEOUT_MS))
		note("optimum power calibration failed (sense %x/%02x/%02x), going on",
		     d->last.key, d->last.asc, d->last.ascq);
}

int mmc_lock_door(struct drive *d, bool lock)
{
	uint8_t cdb[6] = { OP_PREVENT_ALLOW, 0, 0, 0, lock };
	int ret;

	ret = mmc_cmd(d, cdb, sizeof(cdb), DIR_NONE, NULL, 0, CMD_TIMEOUT_MS);
	if (!ret)
		d->locked = lock;
	return ret;
}

/*
 * What opening pktcdvd for writing did to the drive. On failure the
 * drive is left as it was found (mmc_release()).
 */
int mmc_prepare(struct drive *d)
{
	int ret;

	if (!profile_random(d->profile)) {
		ret = set_write_params(d);
		if (ret)
			return ret;
	}
	set_write_cache(d);
	ret = setup_speed(d);
	if (ret)
		goto undo;
	perform_opc(d);
	ret = mmc_lock_door(d, true);
	if (ret) {
		set_why(d, "the drive refused to lock its door (sense %x/%02x/%02x)",
			d->last.key, d->last.asc, d->last.ascq);
		goto undo;
	}
	return 0;
undo:
	mmc_release(d);
	return ret;
}

/*
 * Teardown: the cache to the disc, then the write cache, the door and the
 * speed as they were.
 */
void mmc_release(struct drive *d)
{
	if (d->fd < 0)
		return;
	if (mmc_sync_cache(d))
		note("SYNCHRONIZE CACHE failed on teardown");
	restore_write_cache(d);
	if (mmc_lock_door(d, false))
		note("cannot unlock the door");
	if (d->speed_saved && mmc_set_speed(d, d->old_read_speed,
					    d->old_write_speed))
		note("cannot restore the speed");
	d->speed_saved = false;
}

/*
 * A UNIT ATTENTION (a reset, a power event) means the command was not
 * executed: send it again, a few times. Any other failure is the caller's.
 */
static int mmc_rw(struct drive *d, uint8_t op, uint32_t lba, uint32_t frames,
		  void *buf, unsigned int iovs)
{
	uint8_t cdb[10] = { op };
	int i, ret;

	put_be32(&cdb[2], lba);
	put_be16(&cdb[7], frames);
	for (i = 0; i < 4; i++) {
		ret = mmc_cmd_iov(d, cdb, sizeof(cdb),
				  op == OP_READ_10 ? DIR_IN : DIR_OUT, buf, iovs,
				  frames * FRAME_SIZE, d->timeout_ms);
		if (ret != -EIO || d->last.key != 0x06)
			break;
		note("unit attention (%02x/%02x) on a %s at %u: again",
		     d->last.asc, d->last.ascq,
		     op == OP_READ_10 ? "read" : "write", lba);
	}
	return ret;
}

int mmc_read(struct drive *d, uint32_t lba, uint32_t frames, void *buf)
{
	return mmc_rw(d, OP_READ_10, lba, frames, buf, 0);
}

/* One READ or WRITE (10) of contiguous frames into or from several buffers. */
int mmc_readv(struct drive *d, uint32_t lba, uint32_t frames,
	      struct sg_iovec *iov, unsigned int iovs)
{
	return mmc_rw(d, OP_READ_10, lba, frames, iov, iovs);
}

int mmc_writev(struct drive *d, uint32_t lba, uint32_t frames,
	       struct sg_iovec *iov, unsigned int iovs)
{
	return mmc_rw(d, OP_WRITE_10, lba, frames, iov, iovs);
}

int mmc_write(struct drive *d, uint32_t lba, uint32_t frames,
	      const void *buf)
{
	return mmc_rw(d, OP_WRITE_10, lba, frames, (void *)buf, 0);
}

int mmc_sync_cache(struct drive *d)
{
	uint8_t cdb[10] = { OP_SYNC_CACHE };

	return mmc_cmd(d, cdb, sizeof(cdb), DIR_NONE, NULL, 0, OPC_TIMEOUT_MS);
}
