// SPDX-License-Identifier: GPL-2.0
/*
 * mmc_rw_emu: an emulated MMC drive holding a rewritable disc in RAM.
 *
 * pktcdvd only works on media that are written in whole, fixed packets:
 * CD-RW formatted for fixed packets, DVD+RW. No emulator offers such a
 * drive (QEMU's ATAPI drive knows CD-ROM and DVD-ROM, tgt and CDEmu only
 * write-once profiles), so the driver cannot be tested without hardware.
 * This module registers a SCSI host with one MMC logical unit (peripheral
 * device type 5) that answers the commands the sr driver, the cdrom layer
 * and pktcdvd send, the way a drive with a formatted rewritable disc does:
 *
 *  - profile CD-RW (0x000a): one fixed-packet track, reserved (RT=1),
 *    packet size "packet_blocks" (32 by default, what drives format with);
 *  - profile DVD+RW (0x001a): one track, written in ECC blocks of 16
 *    blocks (32 KiB), which is what pktcdvd uses as its packet size.
 *
 * The track is recorded up to its end, or with "free_blocks" only up to
 * a next writable address. The caching page (08h) turns the write cache
 * on and off (WCE); debugfs shows what was written into the cache and not
 * synced since.
 *
 * Writes must cover whole packets starting on a packet boundary, see
 * mre_rw(). The disc lives in vmalloc()ed memory and is lost on unload.
 * Commands complete in the submitter's context (the host may block in
 * queuecommand), serialized by one mutex. Counters are in debugfs under
 * mmc_rw_emu/.
 *
 * Every command not listed in mre_execute() ends with CHECK CONDITION,
 * ILLEGAL REQUEST, INVALID COMMAND OPERATION CODE; a known command with a
 * malformed CDB ends with the sense code a drive gives for it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cdrom.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_proto.h>

#define MRE_BLOCK		2048
#define MRE_PROFILE_CD_ROM	0x0008
#define MRE_PROFILE_CD_R	0x0009
#define MRE_PROFILE_CD_RW	0x000a
#define MRE_PROFILE_DVD_ROM	0x0010
#define MRE_PROFILE_DVD_PLUS_RW	0x001a
#define MRE_DVD_ECC_BLOCKS	16
#define MRE_WP_PAGE_LEN		0x32	/* write parameters page, after byte 1 */
#define MRE_CAP_PAGE_LEN	0x22	/* capabilities page with one speed */
#define MRE_CACHING_PAGE	0x08
#define MRE_CACHING_PAGE_LEN	0x0a	/* MMC's caching page, after byte 1 */
#define MRE_WCE			0x04	/* caching page byte 2: write cache on */
#define MRE_RESP_MAX		512

/* Additional sense codes used below (SPC-4 and MMC-6 names). */
#define ASC_PARAM_LIST_LENGTH	0x1a
#define ASC_INVALID_OPCODE	0x20
#define ASC_LBA_OUT_OF_RANGE	0x21	/* ASCQ 0 */
#define ASCQ_INVALID_WRITE_ADDR	0x02	/* with ASC 0x21 */
#define ASC_INVALID_FIELD_CDB	0x24
#define ASC_LUN_NOT_SUPPORTED	0x25
#define ASC_INVALID_FIELD_PARAM	0x26
#define ASC_SAVING_NOT_SUPP	0x39

static unsigned int size_mb = 64;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "Disc size in MiB (1-2048, default 64)");

static unsigned int profile = MRE_PROFILE_CD_RW;
module_param(profile, uint, 0444);
MODULE_PARM_DESC(profile, "Current profile: 0xa (CD-RW, default) or 0x1a (DVD+RW); 0x8 (CD-ROM) and 0x9 (CD-R) for tests of a writer's refusal");

static bool fixed_packets = true;
module_param(fixed_packets, bool, 0444);
MODULE_PARM_DESC(fixed_packets, "CD-RW: the track is formatted for fixed packets (default), else for variable packets");

static unsigned int packet_blocks;
module_param(packet_blocks, uint, 0444);
MODULE_PARM_DESC(packet_blocks,
		 "Fixed packet size in 2 KiB blocks, a power of two up to 256 (default 32 for CD-RW, 16 for DVD+RW)");

static unsigned int free_blocks;
module_param(free_blocks, uint, 0444);
MODULE_PARM_DESC(free_blocks,
		 "Blocks at the end of the track not recorded yet (default 0): the next writable address is the first of them");

static bool caching_page = true;
module_param(caching_page, bool, 0444);
MODULE_PARM_DESC(caching_page,
		 "The drive has a caching mode page (08h) whose WCE bit turns its write cache on (default); else MODE SENSE of it fails");

struct mre_stats {
	u64 commands;
	u64 check_conditions;
	u64 unknown_opcodes;
	u64 reads;
	u64 blocks_read;
	u64 writes;
	u64 packets_written;
	u64 blocks_written;
	u64 writes_rejected;
	u64 writes_unaligned_lba;
	u64 writes_partial_packet;
	u64 syncs;
	u64 mode_selects;
	u64 writes_failed;	/* injected medium errors */
	u64 faults_injected;
};

/*
 * Faults to inject, set through debugfs mmc_rw_emu/faults: the next
 * write_errors WRITEs end with MEDIUM ERROR, WRITE ERROR (3/0C/00) and
 * write nothing; the next command after unit_attention is set ends with
 * UNIT ATTENTION, POWER ON OR RESET (6/29/00); the next delay_count
 * WRITEs are executed only after delay_ms, which may be longer than the
 * initiator's timeout. A delayed command waits in a delayed work, not in
 * queuecommand: the block layer cannot time out a command still inside a
 * blocking queuecommand. Aborting it cancels the work, and the drive
 * never executes it.
 */
struct mre_faults {
	u32 write_errors;
	bool unit_attention;
	u32 delay_ms;
	u32 delay_count;
};

struct mre {
	struct Scsi_Host *shost;
	struct device *root;
	struct dentry *dbg;
	u8 *disc;
	bool erasable;		/* CD-RW, DVD+RW */
	u32 blocks;		/* capacity in 2 KiB blocks */
	u32 recorded;		/* blocks recorded: the next writable address */
	u32 packet;		/* fixed packet size in blocks */
	u16 profile;
	bool cd;		/* CD-RW, not DVD+RW */

	struct mutex lock;	/* serializes commands; protects all below */
	bool prevent;
	u16 read_speed;
	u16 write_speed;
	bool wce;		/* write cache enabled */
	u64 unsynced;		/* blocks written with WCE since the last sync */
	u8 wparams[2 + MRE_WP_PAGE_LEN];
	struct mre_stats st;
	struct mre_faults faults;
	struct delayed_work delay_work;
	struct scsi_cmnd *delayed;	/* the command the work will execute */
	u64 opcodes[256];
	u8 resp[MRE_RESP_MAX];
};

static struct Scsi_Host *mre_host;

static void mre_sense(struct mre *d, struct scsi_cmnd *cmd, u8 key, u8 asc,
		      u8 ascq)
{
	scsi_build_sense(cmd, 0, key, asc, ascq);
	scsi_set_resid(cmd, scsi_bufflen(cmd));
	d->st.check_conditions++;
}

static void mre_illegal(struct mre *d, struct scsi_cmnd *cmd, u8 asc, u8 ascq)
{
	mre_sense(d, cmd, ILLEGAL_REQUEST, asc, ascq);
}

static void mre_bad_cdb(struct mre *d, struct scsi_cmnd *cmd)
{
	mre_illegal(d, cmd, ASC_INVALID_FIELD_CDB, 0);
}

/* Return up to @alloc bytes of the @len prepared in d->resp. */
static void mre_reply(struct mre *d, struct scsi_cmnd *cmd, unsigned int len,
		      unsigned int alloc)
{
	unsigned int n = min3(len, alloc, scsi_bufflen(cmd));

	if (n)
		scsi_sg_copy_from_buffer(cmd, d->resp, n);
	scsi_set_resid(cmd, scsi_bufflen(cmd) - n);
}

static void mre_lba_to_msf(u32 lba, u8 *msf)
{
	lba += 150;
	msf[0] = 0;
	msf[1] = lba / (60 * 75);
	msf[2] = (lba / 75) % 60;
	msf[3] = lba % 75;
}

static void mre_put_addr(u8 *p, u32 lba, bool msf)
{
	if (msf)
		mre_lba_to_msf(lba, p);
	else
		put_unaligned_be32(lba, p);
}

static void mre_inquiry(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	unsigned int alloc = get_unaligned_be16(&cdb[3]);
	u8 *r = d->resp;
	unsigned int len;

	if (cdb[1] & ~0x01) {		/* CmdDt (obsolete) and reserved */
		mre_bad_cdb(d, cmd);
		return;
	}
	memset(r, 0, 64);
	r[0] = TYPE_ROM;
	if (cdb[1] & 0x01) {		/* EVPD */
		r[1] = cdb[2];
		switch (cdb[2]) {
		case 0x00:		/* supported pages */
			r[3] = 2;
			r[4] = 0x00;
			r[5] = 0x80;
			len = 6;
			break;
		case 0x80:		/* unit serial number */
			r[3] = 8;
			memcpy(&r[4], "MRE00001", 8);
			len = 12;
			break;
		default:
			mre_bad_cdb(d, cmd);
			return;
		}
		mre_reply(d, cmd, len, alloc);
		return;
	}
	if (cdb[2]) {			/* a page code needs EVPD */
		mre_bad_cdb(d, cmd);
		return;
	}
	r[1] = 0x80;			/* RMB: removable medium */
	r[2] = 0x05;			/* SPC-3 */
	r[3] = 0x02;			/* response data format */
	r[4] = 36 - 5;
	memcpy(&r[8], "CHOPBLK ", 8);
	memcpy(&r[16], "MMC-RW EMULATOR ", 16);
	memcpy(&r[32], "0001", 4);
	mre_reply(d, cmd, 36, alloc);
}

static void mre_request_sense(struct mre *d, struct scsi_cmnd *cmd)
{
	u8 *r = d->resp;

	if (cmd->cmnd[1] & ~0x01) {	/* only DESC; fixed format anyway */
		mre_bad_cdb(d, cmd);
		return;
	}
	/* Sense is reported with the failing command: nothing is pending. */
	memset(r, 0, 18);
	r[0] = 0x70;
	r[2] = NO_SENSE;
	r[7] = 10;
	mre_reply(d, cmd, 18, cmd->cmnd[4]);
}

static void mre_read_capacity(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;

	if (cdb[1] || (!(cdb[8] & 0x01) && get_unaligned_be32(&cdb[2]))) {
		mre_bad_cdb(d, cmd);
		return;
	}
	put_unaligned_be32(d->recorded - 1, &d->resp[0]);
	put_unaligned_be32(MRE_BLOCK, &d->resp[4]);
	mre_reply(d, cmd, 8, 8);
}

/*
 * READ and WRITE (10) and (12). Writes must start on a packet boundary
 * and cover whole packets.
 *
 * What a drive does with anything else, and why we do the same: on a CD-RW
 * track written with fixed packets, the drive can only record whole
 * packets (each is framed by run-in and run-out blocks on the disc), and
 * MMC makes the host responsible for it: a WRITE whose LBA is not the
 * first user block of a packet ends with ILLEGAL REQUEST, INVALID ADDRESS
 * FOR WRITE (21h/02h), and a transfer length that is not a multiple of the
 * fixed packet size with ILLEGAL REQUEST, INVALID FIELD IN CDB (24h/00h).
 * Nothing is written in either case. DVD+RW drives record whole 32 KiB
 * ECC blocks; real ones hide that with a slow read-modify-write, this one
 * does not, like a fixed-packet CD-RW, so that a test sees any write that
 * pktcdvd should have gathered into a whole packet and did not.
 */
static void mre_rw(struct mre *d, struct scsi_cmnd *cmd, bool write, u32 lba,
		   u32 nblocks, u8 reserved)
{
	bool fua = write && (cmd->cmnd[1] & 0x08);
	unsigned int bytes;
	u8 *p;

	if (reserved) {
		mre_bad_cdb(d, cmd);
		goto rejected;
	}
	if (lba > d->blocks || nblocks > d->blocks - lba) {
		mre_illegal(d, cmd, ASC_LBA_OUT_OF_RANGE, 0);
		goto rejected;
	}
	/* A transfer length of 0 is no error: nothing is transferred. */
	if (!nblocks) {
		scsi_set_resid(cmd, scsi_bufflen(cmd));
		return;
	}
	if (write && lba % d->packet) {
		d->st.writes_unaligned_lba++;
		mre_illegal(d, cmd, ASC_LBA_OUT_OF_RANGE, ASCQ_INVALID_WRITE_ADDR);
		goto rejected;
	}
	if (write && nblocks % d->packet) {
		d->st.writes_partial_packet++;
		mre_bad_cdb(d, cmd);
		goto rejected;
	}
	bytes = nblocks * MRE_BLOCK;
	if (scsi_bufflen(cmd) < bytes) {
		/* The initiator offers less data than the CDB announces. */
		set_host_byte(cmd, DID_ERROR);
		goto rejected;
	}
	p = d->disc + (size_t)lba * MRE_BLOCK;
	/*
	 * Appending at the next writable address is not emulated: a write
	 * past it is refused, so a writer must keep to the recorded part.
	 */
	if (write && lba + nblocks > d->recorded) {
		mre_illegal(d, cmd, ASC_LBA_OUT_OF_RANGE, ASCQ_INVALID_WRITE_ADDR);
		goto rejected;
	}
	if (write && d->faults.write_errors) {
		d->faults.write_errors--;
		d->st.faults_injected++;
		d->st.writes_failed++;
		mre_sense(d, cmd, MEDIUM_ERROR, 0x0c, 0);
		return;
	}
	if (write) {
		scsi_sg_copy_to_buffer(cmd, p, bytes);
		d->st.writes++;
		d->st.blocks_written += nblocks;
		d->st.packets_written += nblocks / d->packet;
		if (d->wce && !fua)
			d->unsynced += nblocks;
	} else {
		scsi_sg_copy_from_buffer(cmd, p, bytes);
		d->st.reads++;
		d->st.blocks_read += nblocks;
	}
	scsi_set_resid(cmd, scsi_bufflen(cmd) - bytes);
	return;

rejected:
	if (write)
		d->st.writes_rejected++;
}

/*
 * GET CONFIGURATION: the features a combination drive has for CD-RW and
 * DVD+RW media, the ones of the loaded disc marked current. Restricted
 * Overwrite (0x26) is the DVD-RW feature and MRW (0x28) the Mount Rainier
 * one: neither profile has them, so they are not listed.
 */
struct mre_feat_ctx {
	u8 *p;
	unsigned int len;
	u8 rt;
	u16 start;
};

static void mre_feature(struct mre_feat_ctx *c, u16 code, u8 flags,
			const u8 *data, u8 dlen)
{
	bool cur = flags & 0x01;

	if ((c->rt == 2 && code != c->start) || code < c->start ||
	    (c->rt == 1 && !cur))
		return;
	if (c->len + 4 + dlen > MRE_RESP_MAX)
		return;
	put_unaligned_be16(code, &c->p[c->len]);
	c->p[c->len + 2] = flags;
	c->p[c->len + 3] = dlen;
	memcpy(&c->p[c->len + 4], data, dlen);
	c->len += 4 + dlen;
}

#define F_CUR	0x01
#define F_PERS	0x02

static void mre_get_configuration(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	struct mre_feat_ctx c = {
		.p = d->resp, .len = 8, .rt = cdb[1] & 0x03,
		.start = get_unaligned_be16(&cdb[2]),
	};
	u8 cd = d->cd ? F_CUR : 0, dvd = d->cd ? 0 : F_CUR;
	u8 f[20];

	if ((cdb[1] & ~0x03) || c.rt == 3) {
		mre_bad_cdb(d, cmd);
		return;
	}
	memset(d->resp, 0, MRE_RESP_MAX);

	/* Profile List, highest first. */
	put_unaligned_be16(MRE_PROFILE_DVD_PLUS_RW, &f[0]);
	f[2] = dvd; f[3] = 0;
	put_unaligned_be16(MRE_PROFILE_DVD_ROM, &f[4]);
	f[6] = 0; f[7] = 0;
	put_unaligned_be16(MRE_PROFILE_CD_RW, &f[8]);
	f[10] = d->profile == MRE_PROFILE_CD_RW; f[11] = 0;
	put_unaligned_be16(MRE_PROFILE_CD_R, &f[12]);
	f[14] = d->profile == MRE_PROFILE_CD_R; f[15] = 0;
	put_unaligned_be16(MRE_PROFILE_CD_ROM, &f[16]);
	f[18] = d->profile == MRE_PROFILE_CD_ROM; f[19] = 0;
	mre_feature(&c, 0x0000, F_PERS | F_CUR, f, 20);

	/* Core: SCSI physical interface. */
	memset(f, 0, 8);
	put_unaligned_be32(1, &f[0]);
	mre_feature(&c, 0x0001, 0x04 | F_PERS | F_CUR, f, 8);

	/* Morphing: polled events only. */
	memset(f, 0, 4);
	mre_feature(&c, 0x0002, 0x04 | F_PERS | F_CUR, f, 4);

	/* Removable Medium: caddy, no eject, lock supported. */
	f[0] = 0x01;
	mre_feature(&c, 0x0003, F_PERS | F_CUR, f, 4);

	/* Random Readable: 2 KiB blocks, blocking 1 (CD) or 16 (DVD). */
	memset(f, 0, 8);
	put_unaligned_be32(MRE_BLOCK, &f[0]);
	put_unaligned_be16(d->cd ? 1 : MRE_DVD_ECC_BLOCKS, &f[4]);
	mre_feature(&c, 0x0010, F_CUR, f, 8);

	/* CD Read, DVD Read. */
	memset(f, 0, 4);
	mre_feature(&c, 0x001e, 0x08 | cd, f, 4);
	mre_feature(&c, 0x001f, dvd, f, 4);

	/* Random Writable: DVD+RW media. */
	memset(f, 0, 12);
	put_unaligned_be32(d->blocks - 1, &f[0]);
	put_unaligned_be32(MRE_BLOCK, &f[4]);
	put_unaligned_be16(MRE_DVD_ECC_BLOCKS, &f[8]);
	mre_feature(&c, 0x0020, 0x04 | dvd, f, 12);

	/*
	 * Incremental Streaming Writable: CD-RW in packets, data block
	 * types 8 (Mode 1) and 10 (Mode 2 Form 1), one link size of 7.
	 */
	memset(f, 0, 8);
	put_unaligned_be16(BIT(8) | BIT(10), &f[0]);
	f[2] = 0x01;			/* BUF */
	f[3] = 1;
	f[4] = 7;
	mre_feature(&c, 0x0021, 0x04 | cd, f, 8);

	/* Formattable. */
	memset(f, 0, 8);
	mre_feature(&c, 0x0023, 0x04 | F_PERS | F_CUR, f, 8);

	/* DVD+RW: write supported, no background format. */
	memset(f, 0, 4);
	f[0] = 0x01;
	mre_feature(&c, 0x002a, dvd, f, 4);

	/* CD-RW Media Write Support: sub-types 0 to 2. */
	memset(f, 0, 4);
	f[1] = 0x07;
	mre_feature(&c, 0x0037, cd, f, 4);

	/* Power Management. */
	mre_feature(&c, 0x0100, F_PERS | F_CUR, f, 0);

	put_unaligned_be32(c.len - 4, &d->resp[0]);
	put_unaligned_be16(d->profile, &d->resp[6]);
	mre_reply(d, cmd, c.len, get_unaligned_be16(&cdb[7]));
}

static void mre_read_disc_info(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	u8 *r = d->resp;

	if (cdb[1]) {			/* only data type 0: disc information */
		mre_bad_cdb(d, cmd);
		return;
	}
	memset(r, 0, 34);
	put_unaligned_be16(32, &r[0]);
	/*
	 * Erasable; a formatted CD-RW is an incomplete disc whose last session
	 * is incomplete, a formatted DVD+RW a complete disc. A CD-R is not
	 * erasable, a CD-ROM not erasable and complete.
	 */
	r[2] = (d->erasable ? 0x10 : 0) |
		(d->cd && d->profile != MRE_PROFILE_CD_ROM ? 0x05 : 0x0e);
	r[3] = 1;			/* first track on disc */
	r[4] = 1;			/* sessions */
	r[5] = 1;			/* first track in last session */
	r[6] = 1;			/* last track in last session */
	r[7] = d->cd ? 0x20 : 0x23;	/* URU; DVD+RW: format complete */
	r[8] = 0x00;			/* disc type CD-DA or CD-ROM */
	put_unaligned_be32(0xffffffff, &r[16]);	/* no lead-in: not appendable */
	put_unaligned_be32(0xffffffff, &r[20]);
	mre_reply(d, cmd, 34, get_unaligned_be16(&cdb[7]));
}

static void mre_read_track_info(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	u32 num = get_unaligned_be32(&cdb[2]);
	u8 *r = d->resp;

	if (cdb[1] & ~0x07) {
		mre_bad_cdb(d, cmd);
		return;
	}
	switch (cdb[1] & 0x03) {
	case 0:				/* an LBA in the track */
		if (num >= d->blocks) {
			mre_illegal(d, cmd, ASC_LBA_OUT_OF_RANGE, 0);
			return;
		}
		break;
	case 1:				/* track number */
	case 2:				/* session number */
		if (num != 1) {
			mre_bad_cdb(d, cmd);
			return;
		}
		break;
	default:
		mre_bad_cdb(d, cmd);
		return;
	}
	memset(r, 0, 36);
	put_unaligned_be16(34, &r[0]);
	r[2] = 1;			/* track */
	r[3] = 1;			/* session */
	if (d->cd && d->profile != MRE_PROFILE_CD_ROM) {
		r[5] = 0x05;		/* data track, recorded incrementally */
		/* RT, Packet, FP, data mode 1: a formatted fixed-packet track */
		r[6] = 0x80 | 0x20 | (fixed_packets ? 0x10 : 0) | 0x01;
	} else {
		r[5] = 0x04;		/* data track */
		r[6] = 0x01;		/* data mode 1 */
	}
	/*
	 * Every packet of an overwritable track can be written: the next
	 * writable address is the track start. The whole disc is recorded:
	 * no free blocks, and the last written block follows from the track
	 * size, as pktcdvd and the cdrom layer compute it when LRA_V is 0.
	 * With free_blocks, the track is recorded up to its next writable
	 * address, and the blocks from there on are free.
	 */
	r[7] = 0x01;			/* NWA_V */
	put_unaligned_be32(0, &r[8]);	/* track start */
	put_unaligned_be32(d->recorded < d->blocks ? d->recorded : 0, &r[12]);
	put_unaligned_be32(d->blocks - d->recorded, &r[16]);	/* free blocks */
	put_unaligned_be32(d->packet, &r[20]);
	put_unaligned_be32(d->blocks, &r[24]);	/* track size */
	mre_reply(d, cmd, 36, get_unaligned_be16(&cdb[7]));
}

/*
 * READ TOC/PMA/ATIP: formats 0 (TOC), 1 (session information) and, for
 * CD-RW, 4 (ATIP). The old SFF-8020 format field in the control byte is
 * honoured, as the sr driver still uses it.
 */
static void mre_read_toc(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	bool msf = cdb[1] & 0x02;
	u8 format = cdb[2] & 0x0f;
	u8 track = cdb[6];
	u8 *r = d->resp;
	unsigned int len;
	u8 ctrl = d->cd ? 0x15 : 0x14;	/* ADR 1, data track */

	if ((cdb[1] & ~0x02) || (cdb[2] & 0xf0) || (cdb[9] & 0x3f)) {
		mre_bad_cdb(d, cmd);
		return;
	}
	if (!format)
		format = cdb[9] >> 6;
	memset(r, 0, 40);
	switch (format) {
	case 0:
		if (track > 1 && track != 0xaa) {
			mre_bad_cdb(d, cmd);
			return;
		}
		r[2] = 1;
		r[3] = 1;
		len = 4;
		if (track <= 1) {
			r[len + 1] = ctrl;
			r[len + 2] = 1;
			mre_put_addr(&r[len + 4], 0, msf);
			len += 8;
		}
		r[len + 1] = ctrl;
		r[len + 2] = 0xaa;
		mre_put_addr(&r[len + 4], d->recorded, msf);
		len += 8;
		break;
	case 1:
		r[2] = 1;
		r[3] = 1;
		r[5] = ctrl;
		r[6] = 1;
		mre_put_addr(&r[8], 0, msf);
		len = 12;
		break;
	case 4:
		if (!d->cd) {		/* no ATIP on a DVD */
			mre_bad_cdb(d, cmd);
			return;
		}
		/*
		 * CD-RW, high speed sub-type, A1 valid; A1's lowest nibble is
		 * the highest recording speed: 4 means 10x for high speed.
		 */
		r[4] = 0x50;
		r[6] = 0x80 | 0x40 | (1 << 3) | 0x04;
		r[8] = 97;			/* lead-in start 97:24:00 */
		r[9] = 24;
		mre_lba_to_msf(d->blocks, &r[11]);
		r[11] = 0;			/* last lead-out start */
		r[16] = 0x04;
		len = 28;
		break;
	default:				/* full TOC, PMA, CD-Text */
		mre_bad_cdb(d, cmd);
		return;
	}
	put_unaligned_be16(len - 2, &r[0]);
	mre_reply(d, cmd, len, get_unaligned_be16(&cdb[7]));
}

static unsigned int mre_page_wp(struct mre *d, u8 *p, u8 pc)
{
	memset(p, 0, sizeof(d->wparams));
	switch (pc) {
	case 0:				/* current */
		memcpy(p, d->wparams, sizeof(d->wparams));
		break;
	case 1:				/* changeable */
		p[2] = 0x7f;		/* BUFE, LS_V, test write, write type */
		p[3] = 0xff;		/* multi-session, FP, copy, track mode */
		p[4] = 0x0f;		/* data block type */
		p[5] = 0xff;		/* link size */
		p[7] = 0x3f;		/* application code */
		p[8] = 0xff;		/* session format */
		put_unaligned_be32(0xffffffff, &p[10]);	/* packet size */
		break;
	case 2:				/* default */
		p[3] = 0x04;		/* track mode 4 */
		p[4] = 0x08;		/* Mode 1 */
		p[5] = 7;
		put_unaligned_be32(d->packet, &p[10]);
		break;
	}
	p[0] = GPMODE_WRITE_PARMS_PAGE;
	p[1] = MRE_WP_PAGE_LEN;
	return 2 + MRE_WP_PAGE_LEN;
}

static unsigned int mre_page_cap(struct mre *d, u8 *p, u8 pc)
{
	u16 max_read = d->cd ? 24 * 176 : 8 * 1385;
	u16 max_write = d->cd ? 10 * 176 : 4 * 1385;

	memset(p, 0, 2 + MRE_CAP_PAGE_LEN);
	p[0] = GPMODE_CAPABILITIES_PAGE;
	p[1] = MRE_CAP_PAGE_LEN;
	if (pc == 1)			/* nothing changeable */
		return 2 + MRE_CAP_PAGE_LEN;
	p[2] = 0x0b;			/* reads CD-R, CD-RW, DVD-ROM */
	p[3] = 0x03;			/* writes CD-R, CD-RW */
	p[4] = 0x70;			/* multi-session, Mode 2 Form 1/2 */
	p[6] = 0x01 | (pc == 0 && d->prevent ? 0x02 : 0);	/* lock */
	put_unaligned_be16(max_read, &p[8]);
	put_unaligned_be16(256, &p[12]);	/* buffer, KiB */
	put_unaligned_be16(pc ? max_read : min(d->read_speed, max_read), &p[14]);
	put_unaligned_be16(max_write, &p[18]);
	put_unaligned_be16(pc ? max_write : min(d->write_speed, max_write),
			   &p[20]);
	put_unaligned_be16(pc ? max_write : min(d->write_speed, max_write),
			   &p[28]);
	put_unaligned_be16(1, &p[30]);	/* one write speed descriptor */
	put_unaligned_be16(max_write, &p[34]);
	return 2 + MRE_CAP_PAGE_LEN;
}

/* The caching page: only WCE is changeable; read caching stays on. */
static unsigned int mre_page_caching(struct mre *d, u8 *p, u8 pc)
{
	memset(p, 0, 2 + MRE_CACHING_PAGE_LEN);
	p[0] = MRE_CACHING_PAGE;
	p[1] = MRE_CACHING_PAGE_LEN;
	if (pc == 0)
		p[2] = d->wce ? MRE_WCE : 0;
	else if (pc == 1)
		p[2] = MRE_WCE;
	return 2 + MRE_CACHING_PAGE_LEN;
}

static void mre_mode_sense(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	u8 pc = cdb[2] >> 6, page = cdb[2] & 0x3f, sub = cdb[3];
	u8 *r = d->resp;
	unsigned int len = 8;

	if (cdb[1] & ~0x18) {		/* LLBAA and DBD only */
		mre_bad_cdb(d, cmd);
		return;
	}
	if (pc == 3) {
		mre_illegal(d, cmd, ASC_SAVING_NOT_SUPP, 0);
		return;
	}
	if (sub && !(page == 0x3f && sub == 0xff)) {
		mre_bad_cdb(d, cmd);
		return;
	}
	memset(r, 0, 8);		/* no block descriptors on MMC */
	switch (page) {
	case GPMODE_WRITE_PARMS_PAGE:
		len += mre_page_wp(d, &r[len], pc);
		break;
	case GPMODE_CAPABILITIES_PAGE:
		len += mre_page_cap(d, &r[len], pc);
		break;
	case MRE_CACHING_PAGE:
		if (!caching_page) {
			mre_bad_cdb(d, cmd);
			return;
		}
		len += mre_page_caching(d, &r[len], pc);
		break;
	case GPMODE_ALL_PAGES:
		len += mre_page_wp(d, &r[len], pc);
		if (caching_page)
			len += mre_page_caching(d, &r[len], pc);
		len += mre_page_cap(d, &r[len], pc);
		break;
	default:
		mre_bad_cdb(d, cmd);
		return;
	}
	put_unaligned_be16(len - 2, &r[0]);
	mre_reply(d, cmd, len, get_unaligned_be16(&cdb[7]));
}

/*
 * MODE SELECT (10): the write parameters page and WCE of the caching page
 * can be set. The packet size there applies to tracks still to be
 * written; the formatted track keeps its own, so it is stored and reported
 * back but does not change what mre_rw() accepts.
 */
static void mre_mode_select(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	unsigned int len = get_unaligned_be16(&cdb[7]), off;
	u8 *r = d->resp;

	if ((cdb[1] & ~0x11) || !(cdb[1] & 0x10) || (cdb[1] & 0x01)) {
		mre_bad_cdb(d, cmd);	/* PF needed, SP unsupported */
		return;
	}
	if (!len)
		return;
	if (len < 8 || len > MRE_RESP_MAX) {
		mre_illegal(d, cmd, ASC_PARAM_LIST_LENGTH, 0);
		return;
	}
	if (scsi_bufflen(cmd) < len) {
		set_host_byte(cmd, DID_ERROR);
		return;
	}
	scsi_sg_copy_to_buffer(cmd, r, len);
	if (get_unaligned_be16(&r[6])) {	/* block descriptors */
		mre_illegal(d, cmd, ASC_INVALID_FIELD_PARAM, 0);
		return;
	}
	for (off = 8; off < len; off += 2 + r[off + 1]) {
		u8 *p = &r[off];

		if (off + 2 > len || off + 2 + p[1] > len) {
			mre_illegal(d, cmd, ASC_PARAM_LIST_LENGTH, 0);
			return;
		}
		if ((p[0] & 0x3f) == MRE_CACHING_PAGE && caching_page) {
			if (p[1] != MRE_CACHING_PAGE_LEN || (p[2] & ~MRE_WCE) ||
			    memchr_inv(&p[3], 0, MRE_CACHING_PAGE_LEN - 1)) {
				mre_illegal(d, cmd, ASC_INVALID_FIELD_PARAM, 0);
				return;
			}
			continue;
		}
		if ((p[0] & 0x3f) != GPMODE_WRITE_PARMS_PAGE ||
		    p[1] != MRE_WP_PAGE_LEN || (p[2] & 0x0f) > 3 ||
		    ((p[4] & 0x0f) != 8 && (p[4] & 0x0f) != 10)) {
			mre_illegal(d, cmd, ASC_INVALID_FIELD_PARAM, 0);
			return;
		}
	}
	for (off = 8; off < len; off += 2 + r[off + 1]) {
		if ((r[off] & 0x3f) == MRE_CACHING_PAGE) {
			d->wce = r[off + 2] & MRE_WCE;
			continue;
		}
		memcpy(d->wparams, &r[off], sizeof(d->wparams));
		d->wparams[0] &= 0x3f;
	}
	d->st.mode_selects++;
}

static void mre_get_event_status(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	u8 *r = d->resp;
	unsigned int len;

	if (!(cdb[1] & 0x01) || (cdb[1] & ~0x01)) {	/* polled only */
		mre_bad_cdb(d, cmd);
		return;
	}
	memset(r, 0, 8);
	r[3] = BIT(4);			/* supported: media class */
	if (cdb[4] & BIT(4)) {
		put_unaligned_be16(6, &r[0]);
		r[2] = 4;		/* media class */
		r[4] = 0;		/* no change */
		r[5] = 0x02;		/* media present, door closed */
		len = 8;
	} else {
		put_unaligned_be16(2, &r[0]);
		r[2] = 0x80;		/* NEA */
		len = 4;
	}
	mre_reply(d, cmd, len, get_unaligned_be16(&cdb[7]));
}

static void mre_sync_cache(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	u32 lba = get_unaligned_be32(&cdb[2]);
	u32 n = get_unaligned_be16(&cdb[7]);

	if (cdb[1] & ~0x02) {		/* IMMED only */
		mre_bad_cdb(d, cmd);
		return;
	}
	if (lba > d->blocks || n > d->blocks - lba) {
		mre_illegal(d, cmd, ASC_LBA_OUT_OF_RANGE, 0);
		return;
	}
	/*
	 * The disc is RAM, so the data is already there; what is counted is
	 * that the writer asked for it after writing into the cache.
	 */
	d->st.syncs++;
	d->unsynced = 0;
}

static void mre_set_speed(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;

	if (cdb[1] & ~0x01) {		/* rotational control: CLV or CAV */
		mre_bad_cdb(d, cmd);
		return;
	}
	d->read_speed = get_unaligned_be16(&cdb[2]);
	d->write_speed = get_unaligned_be16(&cdb[4]);
}

static void mre_start_stop(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;

	/*
	 * IMMED, Start and power conditions up to standby. The disc sits in
	 * a caddy that cannot be ejected (the capabilities page and the
	 * Removable Medium feature say so): LoEj is an invalid field.
	 */
	if ((cdb[1] & ~0x01) || (cdb[4] & 0x0e) || (cdb[4] >> 4) > 3)
		mre_bad_cdb(d, cmd);
}

static void mre_prevent_allow(struct mre *d, struct scsi_cmnd *cmd)
{
	if (cmd->cmnd[4] & ~0x03) {
		mre_bad_cdb(d, cmd);
		return;
	}
	d->prevent = cmd->cmnd[4] & 0x01;
}

/* SEND OPC INFORMATION: pktcdvd asks for power calibration on open. */
static void mre_send_opc(struct mre *d, struct scsi_cmnd *cmd)
{
	if ((cmd->cmnd[1] & ~0x01) || get_unaligned_be16(&cmd->cmnd[7]))
		mre_bad_cdb(d, cmd);
}

static void mre_report_luns(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	unsigned int alloc = get_unaligned_be32(&cdb[6]);

	if (cdb[2] > 2 || alloc < 16) {
		mre_bad_cdb(d, cmd);
		return;
	}
	memset(d->resp, 0, 16);
	put_unaligned_be32(8, &d->resp[0]);	/* one LUN: 0 */
	mre_reply(d, cmd, 16, alloc);
}

static void mre_execute(struct mre *d, struct scsi_cmnd *cmd)
{
	const u8 *cdb = cmd->cmnd;
	u8 op = cdb[0];

	switch (op) {
	case INQUIRY:
	case TEST_UNIT_READY:
	case REQUEST_SENSE:
	case READ_CAPACITY:
	case READ_10:
	case READ_12:
	case WRITE_10:
	case WRITE_12:
	case GPCMD_GET_CONFIGURATION:
	case GPCMD_READ_DISC_INFO:
	case GPCMD_READ_TRACK_RZONE_INFO:
	case GPCMD_READ_TOC_PMA_ATIP:
	case MODE_SENSE_10:
	case MODE_SELECT_10:
	case GPCMD_GET_EVENT_STATUS_NOTIFICATION:
	case SYNCHRONIZE_CACHE:
	case GPCMD_SET_SPEED:
	case START_STOP:
	case ALLOW_MEDIUM_REMOVAL:
	case GPCMD_SEND_OPC:
	case REPORT_LUNS:
		break;
	default:
		d->st.unknown_opcodes++;
		mre_illegal(d, cmd, ASC_INVALID_OPCODE, 0);
		if (op == WRITE_6)
			d->st.writes_rejected++;
		return;
	}
	/*
	 * The group code of the operation code fixes the CDB length; a
	 * transport that delivers fewer bytes leaves fields undefined.
	 * ATAPI pads every CDB to 12 bytes, so longer is fine.
	 */
	if (cmd->cmd_len < COMMAND_SIZE(op)) {
		mre_bad_cdb(d, cmd);
		if (op == WRITE_10 || op == WRITE_12)
			d->st.writes_rejected++;
		return;
	}
	if (cmd->device->lun) {
		if (op == INQUIRY) {
			memset(d->resp, 0, 36);
			d->resp[0] = 0x7f;	/* no LUN here */
			d->resp[4] = 31;
			mre_reply(d, cmd, 36, get_unaligned_be16(&cdb[3]));
			return;
		}
		if (op != REPORT_LUNS && op != REQUEST_SENSE) {
			mre_illegal(d, cmd, ASC_LUN_NOT_SUPPORTED, 0);
			return;
		}
	}

	switch (op) {
	case INQUIRY:
		mre_inquiry(d, cmd);
		break;
	case TEST_UNIT_READY:
		break;
	case REQUEST_SENSE:
		mre_request_sense(d, cmd);
		break;
	case READ_CAPACITY:
		mre_read_capacity(d, cmd);
		break;
	case READ_10:
	case WRITE_10:
		mre_rw(d, cmd, op == WRITE_10, get_unaligned_be32(&cdb[2]),
		       get_unaligned_be16(&cdb[7]),
		       (cdb[1] & ~(op == WRITE_10 ? 0x1c : 0x18)) | cdb[6]);
		break;
	case READ_12:
	case WRITE_12:
		mre_rw(d, cmd, op == WRITE_12, get_unaligned_be32(&cdb[2]),
		       get_unaligned_be32(&cdb[6]),
		       (cdb[1] & ~0x18) | (cdb[10] & 0x7f));
		break;
	case GPCMD_GET_CONFIGURATION:
		mre_get_configuration(d, cmd);
		break;
	case GPCMD_READ_DISC_INFO:
		mre_read_disc_info(d, cmd);
		break;
	case GPCMD_READ_TRACK_RZONE_INFO:
		mre_read_track_info(d, cmd);
		break;
	case GPCMD_READ_TOC_PMA_ATIP:
		mre_read_toc(d, cmd);
		break;
	case MODE_SENSE_10:
		mre_mode_sense(d, cmd);
		break;
	case MODE_SELECT_10:
		mre_mode_select(d, cmd);
		break;
	case GPCMD_GET_EVENT_STATUS_NOTIFICATION:
		mre_get_event_status(d, cmd);
		break;
	case SYNCHRONIZE_CACHE:
		mre_sync_cache(d, cmd);
		break;
	case GPCMD_SET_SPEED:
		mre_set_speed(d, cmd);
		break;
	case START_STOP:
		mre_start_stop(d, cmd);
		break;
	case ALLOW_MEDIUM_REMOVAL:
		mre_prevent_allow(d, cmd);
		break;
	case GPCMD_SEND_OPC:
		mre_send_opc(d, cmd);
		break;
	case REPORT_LUNS:
		mre_report_luns(d, cmd);
		break;
	}
}

static int mre_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *cmd)
{
	struct mre *d = shost_priv(shost);
	u8 op = cmd->cmnd[0];

	mutex_lock(&d->lock);
	d->st.commands++;
	d->opcodes[op]++;
	cmd->result = 0;
	if (d->faults.delay_count && !d->delayed &&
	    (op == WRITE_10 || op == WRITE_12)) {
		d->faults.delay_count--;
		d->st.faults_injected++;
		d->delayed = cmd;
		schedule_delayed_work(&d->delay_work,
				      msecs_to_jiffies(d->faults.delay_ms));
		mutex_unlock(&d->lock);
		return 0;
	}
	if (d->faults.unit_attention && op != INQUIRY &&
	    op != REQUEST_SENSE && op != REPORT_LUNS) {
		d->faults.unit_attention = false;
		d->st.faults_injected++;
		mre_sense(d, cmd, UNIT_ATTENTION, 0x29, 0);
	} else {
		mre_execute(d, cmd);
	}
	mutex_unlock(&d->lock);
	scsi_done(cmd);
	return 0;
}

/* The delay of an injected slow command has passed: execute it now. */
static void mre_delay_work(struct work_struct *work)
{
	struct mre *d = container_of(to_delayed_work(work), struct mre,
				     delay_work);
	struct scsi_cmnd *cmd;

	mutex_lock(&d->lock);
	cmd = d->delayed;
	d->delayed = NULL;
	if (cmd)
		mre_execute(d, cmd);
	mutex_unlock(&d->lock);
	if (cmd)
		scsi_done(cmd);
}

/*
 * A command timed out. A delayed one whose work has not run yet is never
 * executed; one already executed completed (its scsi_done() came after
 * the timeout and was ignored). Commands otherwise complete within
 * queuecommand, so nothing else can be outstanding.
 */
static int mre_eh_abort(struct scsi_cmnd *cmd)
{
	struct mre *d = shost_priv(cmd->device->host);

	mutex_lock(&d->lock);
	if (d->delayed != cmd) {
		mutex_unlock(&d->lock);
		return SUCCESS;
	}
	mutex_unlock(&d->lock);
	cancel_delayed_work_sync(&d->delay_work);
	mutex_lock(&d->lock);
	if (d->delayed == cmd) {
		d->delayed = NULL;
		pr_info("aborted a delayed command before executing it\n");
	}
	mutex_unlock(&d->lock);
	return SUCCESS;
}

static int mre_device_configure(struct scsi_device *sdev,
				struct queue_limits *lim)
{
	/* MMC has MODE SENSE and MODE SELECT in their 10-byte forms only. */
	sdev->use_10_for_ms = 1;
	return 0;
}

static const struct scsi_host_template mre_sht = {
	.module			= THIS_MODULE,
	.name			= "mmc_rw_emu",
	.proc_name		= "mmc_rw_emu",
	.queuecommand		= mre_queuecommand,
	.device_configure	= mre_device_configure,
	.queuecommand_may_block	= 1,
	.eh_abort_handler	= mre_eh_abort,
	.can_queue		= 16,
	.cmd_per_lun		= 16,
	.this_id		= -1,
	.sg_tablesize		= 256,
	.max_sectors		= 2048,
	.skip_settle_delay	= 1,
};

static int mre_stats_show(struct seq_file *m, void *unused)
{
	struct mre *d = m->private;
	struct mre_stats s;
	u16 read_speed, write_speed;
	bool prevent, wce;
	u64 unsynced;

	mutex_lock(&d->lock);
	s = d->st;
	prevent = d->prevent;
	wce = d->wce;
	unsynced = d->unsynced;
	read_speed = d->read_speed;
	write_speed = d->write_speed;
	mutex_unlock(&d->lock);
	seq_printf(m, "profile 0x%04x\n", d->profile);
	seq_printf(m, "blocks %u\n", d->blocks);
	seq_printf(m, "packet_blocks %u\n", d->packet);
	seq_printf(m, "recorded_blocks %u\n", d->recorded);
	seq_printf(m, "commands %llu\n", s.commands);
	seq_printf(m, "check_conditions %llu\n", s.check_conditions);
	seq_printf(m, "unknown_opcodes %llu\n", s.unknown_opcodes);
	seq_printf(m, "reads %llu\n", s.reads);
	seq_printf(m, "blocks_read %llu\n", s.blocks_read);
	seq_printf(m, "writes %llu\n", s.writes);
	seq_printf(m, "packets_written %llu\n", s.packets_written);
	seq_printf(m, "blocks_written %llu\n", s.blocks_written);
	seq_printf(m, "writes_rejected %llu\n", s.writes_rejected);
	seq_printf(m, "writes_unaligned_lba %llu\n", s.writes_unaligned_lba);
	seq_printf(m, "writes_partial_packet %llu\n", s.writes_partial_packet);
	seq_printf(m, "syncs %llu\n", s.syncs);
	seq_printf(m, "mode_selects %llu\n", s.mode_selects);
	seq_printf(m, "writes_failed %llu\n", s.writes_failed);
	seq_printf(m, "faults_injected %llu\n", s.faults_injected);
	seq_printf(m, "door_locked %u\n", prevent);
	seq_printf(m, "write_cache %u\n", wce);
	seq_printf(m, "unsynced_blocks %llu\n", unsynced);
	seq_printf(m, "read_speed %u\n", read_speed);
	seq_printf(m, "write_speed %u\n", write_speed);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mre_stats);

static int mre_opcodes_show(struct seq_file *m, void *unused)
{
	struct mre *d = m->private;
	int i;

	mutex_lock(&d->lock);
	for (i = 0; i < ARRAY_SIZE(d->opcodes); i++)
		if (d->opcodes[i])
			seq_printf(m, "0x%02x %llu\n", i, d->opcodes[i]);
	mutex_unlock(&d->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mre_opcodes);

static int mre_faults_show(struct seq_file *m, void *unused)
{
	struct mre *d = m->private;
	struct mre_faults f;

	mutex_lock(&d->lock);
	f = d->faults;
	mutex_unlock(&d->lock);
	seq_printf(m, "write_error %u\n", f.write_errors);
	seq_printf(m, "unit_attention %u\n", f.unit_attention);
	seq_printf(m, "delay %u %u\n", f.delay_ms, f.delay_count);
	return 0;
}

static int mre_faults_open(struct inode *inode, struct file *file)
{
	return single_open(file, mre_faults_show, inode->i_private);
}

/* "write_error N", "unit_attention", "delay MS N" or "clear". */
static ssize_t mre_faults_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *pos)
{
	struct mre *d = ((struct seq_file *)file->private_data)->private;
	unsigned int a, b;
	char buf[48];
	int ret = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	mutex_lock(&d->lock);
	if (sscanf(buf, "write_error %u", &a) == 1) {
		d->faults.write_errors = a;
	} else if (sysfs_streq(buf, "unit_attention")) {
		d->faults.unit_attention = true;
	} else if (sscanf(buf, "delay %u %u", &a, &b) == 2 && a <= 120000) {
		d->faults.delay_ms = a;
		d->faults.delay_count = b;
	} else if (sysfs_streq(buf, "clear")) {
		memset(&d->faults, 0, sizeof(d->faults));
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&d->lock);
	return ret ? ret : len;
}

static const struct file_operations mre_faults_fops = {
	.owner		= THIS_MODULE,
	.open		= mre_faults_open,
	.read		= seq_read,
	.write		= mre_faults_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init mre_init(void)
{
	struct Scsi_Host *shost;
	struct mre *d;
	int ret;

	if (profile != MRE_PROFILE_CD_RW && profile != MRE_PROFILE_DVD_PLUS_RW &&
	    profile != MRE_PROFILE_CD_ROM && profile != MRE_PROFILE_CD_R) {
		pr_err("profile 0x%x is not CD-RW (0xa), DVD+RW (0x1a), CD-ROM (0x8) or CD-R (0x9)\n",
		       profile);
		return -EINVAL;
	}
	if (!packet_blocks)
		packet_blocks = profile == MRE_PROFILE_DVD_PLUS_RW ?
			MRE_DVD_ECC_BLOCKS : 32;
	if (!is_power_of_2(packet_blocks) || packet_blocks > 256) {
		pr_err("packet_blocks %u is not a power of two up to 256\n",
		       packet_blocks);
		return -EINVAL;
	}
	if (!size_mb || size_mb > 2048 ||
	    size_mb * (SZ_1M / MRE_BLOCK) < packet_blocks) {
		pr_err("size_mb %u is not between one packet and 2048\n",
		       size_mb);
		return -EINVAL;
	}

	shost = scsi_host_alloc(&mre_sht, sizeof(*d));
	if (!shost)
		return -ENOMEM;
	shost->max_id = 1;
	shost->max_lun = 1;
	shost->max_channel = 0;
	shost->max_cmd_len = 16;

	d = shost_priv(shost);
	d->shost = shost;
	d->profile = profile;
	d->cd = profile != MRE_PROFILE_DVD_PLUS_RW;
	d->erasable = profile == MRE_PROFILE_CD_RW ||
		profile == MRE_PROFILE_DVD_PLUS_RW;
	d->packet = packet_blocks;
	d->blocks = rounddown(size_mb * (SZ_1M / MRE_BLOCK), d->packet);
	if (free_blocks >= d->blocks) {
		pr_err("free_blocks %u leaves nothing recorded on %u blocks\n",
		       free_blocks, d->blocks);
		ret = -EINVAL;
		goto err_put;
	}
	d->recorded = d->blocks - free_blocks;
	d->read_speed = 0xffff;
	d->write_speed = 0xffff;
	mutex_init(&d->lock);
	INIT_DELAYED_WORK(&d->delay_work, mre_delay_work);
	mre_page_wp(d, d->wparams, 2);

	ret = -ENOMEM;
	d->disc = vzalloc((size_t)d->blocks * MRE_BLOCK);
	if (!d->disc)
		goto err_put;

	d->root = root_device_register("mmc_rw_emu");
	if (IS_ERR(d->root)) {
		ret = PTR_ERR(d->root);
		goto err_free;
	}
	ret = scsi_add_host(shost, d->root);
	if (ret)
		goto err_root;

	d->dbg = debugfs_create_dir("mmc_rw_emu", NULL);
	debugfs_create_file("stats", 0444, d->dbg, d, &mre_stats_fops);
	debugfs_create_file("opcodes", 0444, d->dbg, d, &mre_opcodes_fops);
	debugfs_create_file("faults", 0644, d->dbg, d, &mre_faults_fops);

	mre_host = shost;
	scsi_scan_host(shost);
	pr_info("%s disc of %u blocks, packets of %u blocks, on host%u\n",
		d->profile == MRE_PROFILE_CD_RW ? "CD-RW" :
		d->profile == MRE_PROFILE_CD_R ? "CD-R" :
		d->profile == MRE_PROFILE_CD_ROM ? "CD-ROM" : "DVD+RW",
		d->blocks, d->packet,
		shost->host_no);
	return 0;

err_root:
	root_device_unregister(d->root);
err_free:
	vfree(d->disc);
err_put:
	scsi_host_put(shost);
	return ret;
}

static void __exit mre_exit(void)
{
	struct Scsi_Host *shost = mre_host;
	struct mre *d = shost_priv(shost);

	scsi_remove_host(shost);
	cancel_delayed_work_sync(&d->delay_work);
	debugfs_remove_recursive(d->dbg);
	root_device_unregister(d->root);
	vfree(d->disc);
	mutex_destroy(&d->lock);
	scsi_host_put(shost);
}

module_init(mre_init);
module_exit(mre_exit);

MODULE_DESCRIPTION("Emulated MMC drive with a rewritable disc in RAM, for testing pktcdvd");
MODULE_LICENSE("GPL");
