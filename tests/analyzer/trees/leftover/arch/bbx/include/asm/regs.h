/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_REGS_H
#define _ASM_REGS_H
/* the same name as a macro of arch/aa, but bbx's own */
#define AA_MAGIC 7
#endif
