/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_HOOKS_ABI_H
#define _UAPI_LINUX_HOOKS_ABI_H
/* the user ABI keeps its numbers even when no kernel code uses them */
#define AA_ABI_MAGIC 5
#endif
