/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Debian 12's <linux/ublk_cmd.h> is the one of Linux 6.1: it has the
 * structures but not the ioctl-encoded command numbers, which every
 * kernel since 6.2 takes (and those without the legacy opcodes require).
 * They are the command numbers wrapped in _IOR/_IOWR of the command's
 * structure; define them when the header lacks them.
 */
#ifndef PKTUBLK_UBLK_COMPAT_H
#define PKTUBLK_UBLK_COMPAT_H

#include <linux/ioctl.h>
#include <linux/ublk_cmd.h>

#ifndef UBLK_U_CMD_ADD_DEV
#define UBLK_U_CMD_GET_DEV_INFO \
	_IOR('u', UBLK_CMD_GET_DEV_INFO, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_ADD_DEV \
	_IOWR('u', UBLK_CMD_ADD_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_DEL_DEV \
	_IOWR('u', UBLK_CMD_DEL_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_START_DEV \
	_IOWR('u', UBLK_CMD_START_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_STOP_DEV \
	_IOWR('u', UBLK_CMD_STOP_DEV, struct ublksrv_ctrl_cmd)
#define UBLK_U_CMD_SET_PARAMS \
	_IOWR('u', UBLK_CMD_SET_PARAMS, struct ublksrv_ctrl_cmd)
#define UBLK_U_IO_FETCH_REQ \
	_IOWR('u', UBLK_IO_FETCH_REQ, struct ublksrv_io_cmd)
#define UBLK_U_IO_COMMIT_AND_FETCH_REQ \
	_IOWR('u', UBLK_IO_COMMIT_AND_FETCH_REQ, struct ublksrv_io_cmd)
#endif

/* User copy (Linux 6.5): a request's data is at a file offset of ublkcN. */
#ifndef UBLK_F_USER_COPY
#define UBLK_F_USER_COPY	(1ULL << 7)
#endif
#ifndef UBLK_TAG_OFF
#define UBLK_TAG_OFF		25
#endif

#ifndef UBLK_F_CMD_IOCTL_ENCODE
#define UBLK_F_CMD_IOCTL_ENCODE	(1ULL << 6)
#endif

#endif
