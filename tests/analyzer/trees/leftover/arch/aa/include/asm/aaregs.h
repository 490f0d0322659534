/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_AAREGS_H
#define _ASM_AAREGS_H
/* aa's own definition of a name include/linux/hooks.h defines too */
#define AA_OWN 2
#endif
