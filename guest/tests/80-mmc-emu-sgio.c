// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock-arch: x86_64 (the module is built for the x86_64 kernel)
 *
 * Bad input for the emulated rewritable drive (modules/mmc_rw_emu), from
 * userspace through SG_IO on its sr device: CDBs shorter than their
 * operation code needs, LBAs out of range, reserved bits and unsupported
 * fields set, zero transfer lengths, unknown operation codes. Each must
 * end with the status and sense data the MMC and SPC standards ask for
 * (GOOD where a zero length is no error), the drive's check condition
 * counter must count exactly the failed ones, and the kernel log must stay
 * free of warnings.
 *
 * Also a helper for 75-pktcdvd-udf.sh:
 *   80-mmc-emu-sgio write DEV LBA NBLOCKS
 * sends one WRITE(10) of NBLOCKS zeroed blocks and prints
 * "status=0xSS sense=K/AA/QQ".
 *
 * Exit 0 = pass, 4 = skip, anything else = fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../ktap.h"

#define KO "/lib/modules/mmc_rw_emu.ko"
#define STATS "/sys/kernel/debug/mmc_rw_emu/stats"
#define BLOCK 2048
#define SIZE_MB 8
#define BLOCKS (SIZE_MB * 1024 * 1024 / BLOCK)

struct result {
	unsigned char status;
	unsigned char key, asc, ascq;
	unsigned short host;
	int resid;
};

static unsigned char buf[64 * BLOCK];

static int sg_cmd(int fd, const unsigned char *cdb, int cdb_len, int dir,
		  unsigned int len, struct result *r)
{
	unsigned char sense[32];
	struct sg_io_hdr io;

	memset(&io, 0, sizeof(io));
	memset(sense, 0, sizeof(sense));
	io.interface_id = 'S';
	io.cmdp = (unsigned char *)cdb;
	io.cmd_len = cdb_len;
	io.dxfer_direction = len ? dir : SG_DXFER_NONE;
	io.dxferp = buf;
	io.dxfer_len = len;
	io.sbp = sense;
	io.mx_sb_len = sizeof(sense);
	io.timeout = 10000;
	if (ioctl(fd, SG_IO, &io) < 0)
		return -errno;
	r->status = io.status;
	r->host = io.host_status;
	r->resid = io.resid;
	r->key = sense[2] & 0x0f;
	r->asc = sense[12];
	r->ascq = sense[13];
	return 0;
}

static void put_be32(unsigned char *p, unsigned int v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put_be16(unsigned char *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static int helper_write(const char *dev, unsigned int lba, unsigned int n)
{
	unsigned char cdb[10] = { 0x2a };
	struct result r;
	int fd, ret;

	if (n > sizeof(buf) / BLOCK) {
		ktap_dprintf(2, "at most %zu blocks\n", sizeof(buf) / BLOCK);
		return 2;
	}
	fd = open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		ktap_dprintf(2, "%s: %s\n", dev, strerror(errno));
		return 2;
	}
	put_be32(&cdb[2], lba);
	put_be16(&cdb[7], n);
	memset(buf, 0, sizeof(buf));
	ret = sg_cmd(fd, cdb, sizeof(cdb), SG_DXFER_TO_DEV, n * BLOCK, &r);
	close(fd);
	if (ret) {
		ktap_dprintf(2, "SG_IO: %s\n", strerror(-ret));
		return 2;
	}
	ktap_printf("status=0x%02x sense=%x/%02x/%02x host=0x%x\n", r.status,
		    r.key, r.asc, r.ascq, r.host);
	return 0;
}

static long stat_value(const char *name)
{
	char line[128], key[64];
	long v, found = -1;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", key, &v) == 2 && !strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

struct tcase {
	const char *what;
	unsigned char cdb[16];
	int cdb_len;
	int dir;
	unsigned int len;
	unsigned char status;	/* 0 GOOD, 2 CHECK CONDITION */
	unsigned char key, asc, ascq;
};

#define IN SG_DXFER_FROM_DEV
#define OUT SG_DXFER_TO_DEV
#define CHECK(k, a, q) 2, k, a, q
#define GOOD 0, 0, 0, 0
#define LBA(v) ((v) >> 24) & 0xff, ((v) >> 16) & 0xff, ((v) >> 8) & 0xff, (v) & 0xff

static const struct tcase cases[] = {
	/* Unknown operation codes. */
	{ "READ(6), not an MMC command", { 0x08, 0, 0, 0, 1, 0 }, 6, IN, BLOCK,
	  CHECK(5, 0x20, 0) },
	{ "MODE SENSE(6), not an MMC command", { 0x1a, 0, 0x2a, 0, 64, 0 }, 6,
	  IN, 64, CHECK(5, 0x20, 0) },
	{ "vendor-specific 0xff", { 0xff }, 10, IN, 64, CHECK(5, 0x20, 0) },
	{ "FORMAT UNIT, not emulated", { 0x04 }, 6, 0, 0, CHECK(5, 0x20, 0) },
	/* CDBs shorter than their operation code needs. */
	{ "READ(10) in a 6-byte CDB", { 0x28, 0, 0, 0, 0, 0 }, 6, IN, BLOCK,
	  CHECK(5, 0x24, 0) },
	{ "READ(12) in a 10-byte CDB", { 0xa8, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
	  10, IN, BLOCK, CHECK(5, 0x24, 0) },
	{ "GET CONFIGURATION in a 6-byte CDB", { 0x46, 0, 0, 0, 0, 8 }, 6, IN,
	  8, CHECK(5, 0x24, 0) },
	/* LBAs out of range. */
	{ "READ(10) at the capacity", { 0x28, 0, LBA(BLOCKS), 0, 0, 1, 0 }, 10,
	  IN, BLOCK, CHECK(5, 0x21, 0) },
	{ "READ(10) across the end", { 0x28, 0, LBA(BLOCKS - 1), 0, 0, 2, 0 },
	  10, IN, 2 * BLOCK, CHECK(5, 0x21, 0) },
	{ "READ(12) at LBA 0xffffffff",
	  { 0xa8, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, 0, 0 }, 12, IN, BLOCK,
	  CHECK(5, 0x21, 0) },
	{ "WRITE(10) at the capacity", { 0x2a, 0, LBA(BLOCKS), 0, 0, 32, 0 }, 10,
	  OUT, 32 * BLOCK, CHECK(5, 0x21, 0) },
	{ "READ TRACK INFORMATION of an LBA past the end",
	  { 0x52, 0, LBA(BLOCKS), 0, 0, 36, 0 }, 10, IN, 36, CHECK(5, 0x21, 0) },
	{ "SYNCHRONIZE CACHE past the end", { 0x35, 0, LBA(BLOCKS), 0, 0, 1, 0 },
	  10, 0, 0, CHECK(5, 0x21, 0) },
	/* Reserved bits and unsupported fields. */
	{ "READ(10) with reserved bits in byte 1", { 0x28, 0xe0, 0, 0, 0, 0, 0, 0, 1, 0 },
	  10, IN, BLOCK, CHECK(5, 0x24, 0) },
	{ "INQUIRY with CmdDt", { 0x12, 0x02, 0, 0, 36, 0 }, 6, IN, 36,
	  CHECK(5, 0x24, 0) },
	{ "INQUIRY of a page without EVPD", { 0x12, 0, 0x80, 0, 36, 0 }, 6, IN,
	  36, CHECK(5, 0x24, 0) },
	{ "INQUIRY of an unsupported VPD page", { 0x12, 1, 0x83, 0, 64, 0 }, 6,
	  IN, 64, CHECK(5, 0x24, 0) },
	{ "GET CONFIGURATION with RT 3", { 0x46, 3, 0, 0, 0, 0, 0, 0, 8, 0 }, 10,
	  IN, 8, CHECK(5, 0x24, 0) },
	{ "READ DISC INFORMATION of data type 2", { 0x51, 2, 0, 0, 0, 0, 0, 0, 34, 0 },
	  10, IN, 34, CHECK(5, 0x24, 0) },
	{ "READ TRACK INFORMATION of track 2", { 0x52, 1, 0, 0, 0, 2, 0, 0, 36, 0 },
	  10, IN, 36, CHECK(5, 0x24, 0) },
	{ "READ TOC format 2 (full TOC)", { 0x43, 2, 2, 0, 0, 0, 0, 0, 64, 0 },
	  10, IN, 64, CHECK(5, 0x24, 0) },
	{ "READ TOC of track 5", { 0x43, 0, 0, 0, 0, 0, 5, 0, 64, 0 }, 10, IN,
	  64, CHECK(5, 0x24, 0) },
	{ "MODE SENSE(10) of a page it lacks (1Ch)",
	  { 0x5a, 0, 0x1c, 0, 0, 0, 0, 0, 64, 0 }, 10, IN, 64, CHECK(5, 0x24, 0) },
	{ "MODE SENSE(10) of saved values", { 0x5a, 0, 0xea, 0, 0, 0, 0, 0, 64, 0 },
	  10, IN, 64, CHECK(5, 0x39, 0) },
	{ "MODE SELECT(10) without PF", { 0x55, 0, 0, 0, 0, 0, 0, 0, 8, 0 }, 10,
	  OUT, 8, CHECK(5, 0x24, 0) },
	{ "MODE SELECT(10) with a 4-byte list", { 0x55, 0x10, 0, 0, 0, 0, 0, 0, 4, 0 },
	  10, OUT, 4, CHECK(5, 0x1a, 0) },
	{ "GET EVENT STATUS NOTIFICATION, asynchronous",
	  { 0x4a, 0, 0, 0, 0x10, 0, 0, 0, 8, 0 }, 10, IN, 8, CHECK(5, 0x24, 0) },
	{ "START STOP UNIT with LoEj", { 0x1b, 0, 0, 0, 0x02, 0 }, 6, 0, 0,
	  CHECK(5, 0x24, 0) },
	{ "SET SPEED with rotational control 2", { 0xbb, 2, 0xff, 0xff, 0xff, 0xff },
	  12, 0, 0, CHECK(5, 0x24, 0) },
	{ "PREVENT ALLOW with reserved bits", { 0x1e, 0, 0, 0, 0x80, 0 }, 6, 0,
	  0, CHECK(5, 0x24, 0) },
	/* Writes that are not whole aligned packets (32 blocks). */
	{ "WRITE(10) of 1 block", { 0x2a, 0, 0, 0, 0, 0, 0, 0, 1, 0 }, 10, OUT,
	  BLOCK, CHECK(5, 0x24, 0) },
	{ "WRITE(10) of a packet at LBA 1", { 0x2a, 0, 0, 0, 0, 1, 0, 0, 32, 0 },
	  10, OUT, 32 * BLOCK, CHECK(5, 0x21, 2) },
	{ "WRITE(12) of 48 blocks", { 0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 48, 0, 0 },
	  12, OUT, 48 * BLOCK, CHECK(5, 0x24, 0) },
	/* Zero lengths: no error, nothing transferred. */
	{ "READ(10) of 0 blocks", { 0x28 }, 10, 0, 0, GOOD },
	{ "WRITE(10) of 0 blocks at LBA 1", { 0x2a, 0, 0, 0, 0, 1 }, 10, 0, 0,
	  GOOD },
	{ "INQUIRY with allocation length 0", { 0x12 }, 6, 0, 0, GOOD },
	{ "MODE SELECT(10) of an empty list", { 0x55, 0x10 }, 10, 0, 0, GOOD },
	/* And what must work. */
	{ "TEST UNIT READY", { 0x00 }, 6, 0, 0, GOOD },
	{ "MODE SENSE(10) of the caching page",
	  { 0x5a, 0, 0x08, 0, 0, 0, 0, 0, 64, 0 }, 10, IN, 64, GOOD },
	{ "REQUEST SENSE", { 0x03, 0, 0, 0, 18, 0 }, 6, IN, 18, GOOD },
	{ "WRITE(10) of a whole packet at LBA 32", { 0x2a, 0, 0, 0, 0, 32, 0, 0, 32, 0 },
	  10, OUT, 32 * BLOCK, GOOD },
	{ "READ(12) of 3 blocks at LBA 33", { 0xa8, 0, 0, 0, 0, 33, 0, 0, 0, 3, 0, 0 },
	  12, IN, 3 * BLOCK, GOOD },
	{ "READ(10) in a 16-byte CDB", { 0x28, 0, 0, 0, 0, 0, 0, 0, 1 }, 16, IN,
	  BLOCK, GOOD },
};

static char *find_drive(void)
{
	static char dev[64];
	glob_t g;
	int i;

	for (i = 0; i < 100; i++) {
		if (!glob("/sys/devices/mmc_rw_emu/host*/target*/*/block/*", 0,
			  NULL, &g)) {
			snprintf(dev, sizeof(dev), "/dev/%s",
				 strrchr(g.gl_pathv[0], '/') + 1);
			globfree(&g);
			if (!access(dev, F_OK))
				return dev;
		}
		usleep(100000);
	}
	return NULL;
}

static int run(const char *cmd)
{
	int ret = system(cmd);

	return ret ? -1 : 0;
}

int main(int argc, char **argv)
{
	long cc0, cc1, rej0, rej1, want_cc = 0, want_rej = 0;
	unsigned int i;
	char *dev;
	FILE *p;
	char line[512];
	int fd;

	if (argc == 5 && !strcmp(argv[1], "write"))
		return helper_write(argv[2], strtoul(argv[3], NULL, 0),
				    strtoul(argv[4], NULL, 0));

	soft_checks();
	if (access(KO, F_OK))
		skip("%s is not in the initramfs", KO);
	if (run("insmod " KO " size_mb=8 profile=0xa packet_blocks=32")) {
		fail("insmod mmc_rw_emu");
		return 1;
	}
	dev = find_drive();
	if (!dev) {
		fail("no sr device for the emulated drive");
		run("rmmod mmc_rw_emu");
		return 1;
	}
	ktap_printf("drive: %s\n", dev);
	fd = open(dev, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fail("open %s: %s", dev, strerror(errno));
		run("rmmod mmc_rw_emu");
		return 1;
	}
	cc0 = stat_value("check_conditions");
	rej0 = stat_value("writes_rejected");

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *t = &cases[i];
		struct result r;
		int ret;

		memset(buf, 0x5a, sizeof(buf));
		ret = sg_cmd(fd, t->cdb, t->cdb_len, t->dir, t->len, &r);
		if (ret) {
			fail("%s: SG_IO: %s", t->what, strerror(-ret));
			continue;
		}
		if (t->status)
			want_cc++;
		if (t->status && (t->cdb[0] == 0x2a || t->cdb[0] == 0xaa))
			want_rej++;
		if (r.host || r.status != t->status ||
		    (t->status && (r.key != t->key || r.asc != t->asc ||
				   r.ascq != t->ascq))) {
			fail("%s: status 0x%02x sense %x/%02x/%02x host 0x%x, expected status 0x%02x sense %x/%02x/%02x",
			     t->what, r.status, r.key, r.asc, r.ascq, r.host,
			     t->status, t->key, t->asc, t->ascq);
		} else if (t->status) {
			ok("%s: CHECK CONDITION %x/%02x/%02x", t->what, r.key,
			   r.asc, r.ascq);
		} else {
			ok("%s: GOOD", t->what);
		}
	}
	close(fd);

	cc1 = stat_value("check_conditions");
	rej1 = stat_value("writes_rejected");
	if (cc0 < 0 || cc1 < 0 || rej1 < 0) {
		fail("cannot read " STATS);
	} else {
		ktap_printf("drive counted %ld check conditions (expected %ld), %ld rejected writes (expected %ld)\n",
			    cc1 - cc0, want_cc, rej1 - rej0, want_rej);
		if (cc1 - cc0 != want_cc || rej1 - rej0 != want_rej)
			fail("the drive's counters disagree with the replies");
	}

	if (run("rmmod mmc_rw_emu"))
		fail("rmmod mmc_rw_emu");
	p = popen("dmesg", "r");
	if (!p) {
		fail("cannot run dmesg");
	} else {
		while (fgets(line, sizeof(line), p))
			if (strstr(line, "WARNING") || strstr(line, "BUG:") ||
			    strstr(line, "Oops") || strstr(line, "Call Trace")) {
				fail("kernel log: %.*s", (int)strcspn(line, "\n"),
				     line);
			}
		pclose(p);
	}
	if (!failed)
		ktap_printf("every malformed CDB answered with sense data, kernel log clean\n");
	return failed;
}
