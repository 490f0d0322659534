/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pktublk: packet writing on rewritable optical discs from user space, a
 * ublk server in place of the kernel's pktcdvd driver.
 *
 * mmc.c talks to the drive over SG_IO, server.c serves the ublk device,
 * main.c is the command line (set up, delete, show) and the daemon's life.
 */
#ifndef PKTUBLK_H
#define PKTUBLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define __printf(a, b)	__attribute__((format(printf, a, b)))

#define FRAME_SIZE		2048
#define MAX_PACKET_FRAMES	128	/* what pktcdvd accepted, 256 KiB */

/* SCSI status of the last command that failed with CHECK CONDITION. */
struct sense {
	uint8_t key;
	uint8_t asc;
	uint8_t ascq;
};

struct drive {
	int fd;
	const char *path;
	unsigned int major, minor;
	uint16_t profile;
	bool cd;			/* CD-RW: write parameters page applies */
	uint32_t packet;		/* frames per fixed packet */
	uint32_t frames;		/* capacity in frames, whole packets */
	uint32_t track_start;
	uint32_t mode_offset;		/* block descriptor length */
	uint8_t track_mode;		/* of track 1 */
	uint8_t mode_block_type;	/* data mode of track 1: 1 or 2 */
	uint32_t nwa;			/* next writable address, if recorded so far */
	bool locked;
	bool write_cache_set;		/* WCE turned on by us: off on teardown */
	bool speed_saved;
	uint16_t old_read_speed;	/* kB/s, restored on teardown */
	uint16_t old_write_speed;
	uint16_t write_speed;
	int timeout_ms;			/* for READ and WRITE */
	uint32_t max_frames;		/* of one READ or WRITE command */
	struct sense last;
	char why[160];			/* the reason of the last failure */
};

/* main.c: a line to the log (stderr, the daemon's log file) */
void note(const char *fmt, ...) __printf(1, 2);

/* mmc.c */
int mmc_open(struct drive *d, const char *path);
int mmc_probe(struct drive *d);
int mmc_prepare(struct drive *d);
void mmc_release(struct drive *d);
int mmc_read(struct drive *d, uint32_t lba, uint32_t frames, void *buf);
int mmc_write(struct drive *d, uint32_t lba, uint32_t frames,
	      const void *buf);
struct sg_iovec;
int mmc_readv(struct drive *d, uint32_t lba, uint32_t frames,
	      struct sg_iovec *iov, unsigned int iovs);
int mmc_writev(struct drive *d, uint32_t lba, uint32_t frames,
	       struct sg_iovec *iov, unsigned int iovs);
int mmc_sync_cache(struct drive *d);
int mmc_lock_door(struct drive *d, bool lock);
int mmc_set_speed(struct drive *d, uint16_t read, uint16_t write);
const char *mmc_profile_name(uint16_t profile);

/* server.c */
struct server_opts {
	unsigned int queue_depth;
	unsigned int gather_us;		/* the gather window */
	int drive_thread;		/* -1: with more than one CPU; 0, 1 */
};

struct server;
int server_create(struct server **sp, struct drive *d,
		  const struct server_opts *o, char *why, size_t whylen);
int server_start(struct server *s, char *why, size_t whylen);
int server_dev_id(const struct server *s);
void server_stop(struct server *s);
void server_destroy(struct server *s);
int ublk_delete_stale(int dev_id);

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
