/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SuperH (32-bit, SH-3/SH-4) support for the kernel's nolibc.
 *
 * The sh4 guest's PID 1 (guest/minimal-init.c) cannot use Debian's static
 * sh4 glibc, which does not even get a write() out, so it is built on the
 * nolibc of the tree under test (tools/include/nolibc). The 6.12 nolibc
 * knows no SuperH: its arch.h stops at "#error Unsupported Architecture".
 * This file supplies what an arch-*.h file would: the my_syscallN()
 * macros and the _start entry point.
 *
 * How it takes arch.h's place without touching the tree: nolibc.h,
 * string.h and sys.h all include "arch.h" with quotes, so the copy next
 * to them is always found first and cannot be shadowed through the
 * include path. Its whole body, though, is guarded by _NOLIBC_ARCH_H.
 * Defining that guard here makes every inclusion of arch.h empty, and
 * this file then includes nolibc.h itself, last, so that no part of
 * nolibc is ever read before the guard is set. A program includes this
 * file instead of nolibc.h, with the nolibc directory on the include path.
 * Should a later nolibc rename the guard, the build fails loudly (the
 * #error, or redefined macros if it grew its own SuperH support) instead
 * of silently picking up something else.
 */
#ifndef _CHOPBLOCK_NOLIBC_SH_H
#define _CHOPBLOCK_NOLIBC_SH_H

#ifndef __sh__
#error "nolibc-sh.h is for SuperH only"
#endif
#ifdef _NOLIBC_H
#error "nolibc.h was included before nolibc-sh.h; include only nolibc-sh.h"
#endif

#define _NOLIBC_ARCH_H

#include "compiler.h"
#include "crt.h"

/*
 * The system call ABI, from arch/sh/kernel/entry-common.S and
 * arch/sh/include/asm/syscall_32.h:
 *   - the syscall number goes in r3;
 *   - arguments 1 to 4 go in r4 to r7, arguments 5 and 6 in r0 and r1;
 *   - "trapa #0x1N" enters the kernel. The kernel accepts any trap number
 *     from 0x10 to 0x1f and ignores the low bits; by convention (glibc's)
 *     N is the number of arguments;
 *   - the result, or -errno, comes back in r0;
 *   - the kernel restores every other register from pt_regs on the way
 *     out, SR (and so the T bit) included. "t" is still listed as
 *     clobbered: it costs nothing and keeps the compiler from carrying a
 *     comparison result across the trap. "memory" because the kernel
 *     reads and writes user memory.
 *
 * Some SH-4 parts have a silicon bug that needs four instruction cycles
 * that touch neither cache nor TLB after trapa; glibc pads with five
 * "or r0,r0", and so does this file on SH-4.
 *
 * The arguments are evaluated into ordinary variables first and only then
 * copied into the register variables: GCC only guarantees a register
 * variable's register at the asm statement itself, so a function call in
 * a later argument could otherwise clobber an earlier one.
 */
#ifdef __SH4__
#define _NOLIBC_SH_TRAPA_PAD	"or r0,r0\n\tor r0,r0\n\tor r0,r0\n\t"	\
				"or r0,r0\n\tor r0,r0\n"
#else
#define _NOLIBC_SH_TRAPA_PAD	""
#endif

#define my_syscall0(num)						\
({									\
	long _sh_n = (long)(num);					\
	register long _sh_r3 __asm__("r3") = _sh_n;			\
	register long _sh_r0 __asm__("r0");				\
									\
	__asm__ volatile("trapa #0x10\n\t" _NOLIBC_SH_TRAPA_PAD		\
			 : "=r"(_sh_r0)					\
			 : "r"(_sh_r3)					\
			 : "memory", "t");				\
	_sh_r0;								\
})

#define my_syscall1(num, arg1)						\
({									\
	long _sh_n = (long)(num);					\
	long _sh_a1 = (long)(arg1);					\
	register long _sh_r3 __asm__("r3") = _sh_n;			\
	register long _sh_r4 __asm__("r4") = _sh_a1;			\
	register long _sh_r0 __asm__("r0");				\
									\
	__asm__ volatile("trapa #0x11\n\t" _NOLIBC_SH_TRAPA_PAD		\
			 : "=r"(_sh_r0)					\
			 : "r"(_sh_r3), "r"(_sh_r4)			\
			 : "memory", "t");				\
	_sh_r0;								\
})

#define my_syscall2(num, arg1, arg2)					\
({									\
	long _sh_n = (long)(num);					\
	long _sh_a1 = (long)(arg1);					\
	long _sh_a2 = (long)(arg2);					\
	register long _sh_r3 __asm__("r3") = _sh_n;			\
	register long _sh_r4 __asm__("r4") = _sh_a1;			\
	register long _sh_r5 __asm__("r5") = _sh_a2;			\
	register long _sh_r0 __asm__("r0");				\
									\
	__asm__ volatile("trapa #0x12\n\t" _NOLIBC_SH_TRAPA_PAD		\
			 : "=r"(_sh_r0)					\
			 : "r"(_sh_r3), "r"(_sh_r4), "r"(_sh_r5)	\
			 : "memory", "t");				\
	_sh_r0;								\
})

#define my_syscall3(num, arg1, arg2, arg3)				\
({									\
	long _sh_n = (long)(num);					\
	long _sh_a1 = (long)(arg1);					\
	long _sh_a2 = (long)(arg2);					\
	long _sh_a3 = (long)(arg3);					\
	register long _sh_r3 __asm__("r3") = _sh_n;			\
	register long _sh_r4 __asm__("r4") = _sh_a1;			\
	register long _sh_r5 __asm__("r5") = _sh_a2;			\
	register long _sh_r6 __asm__("r6") = _sh_a3;			\
	register long _sh_r0 __asm__("r0");				\
									\
	__asm__ volatile("trapa #0x13\n\t" _NOLIBC_SH_TRAPA_PAD		\
			 : "=r"(_sh_r0)					\
			 : "r"(_sh_r3), "r"(_sh_r4), "r"(_sh_r5),	\
			   "r"(_sh_r6)					\
			 : "memory", "t");				\
	_sh_r0;								\
})

#define my_syscall4(num, arg1, arg2, arg3, arg4)			\
({									\
	long _sh_n = (long)(num);					\
	long _sh_a1 = (long)(arg1);					\
	long _sh_a2 = (long)(arg2);					\
	long _sh_a3 = (long)(arg3);					\
	long _sh_a4 = (long)(arg4);					\
	register long _sh_r3 __asm__("r3") = _sh_n;			\
	register long _sh_r4 __asm__("r4") = _sh_a1;			\
	register long _sh_r5 __asm__("r5") = _sh_a2;			\
	register long _sh_r6 __asm__("r6") = _sh_a3;			\
	register long _sh_r7 __asm__("r7") = _sh_a4;			\
	register long _sh_r0 __asm__("r0");				\
									\
	__asm__ volatile("trapa #0x14\n\t" _NOLIBC_SH_TRAPA_PAD		\
			 : "=r"(_sh_r0)					\
			 : "r"(_sh_r3), "r"(_sh_r4), "r"(_sh_r5),	\
			   "r"(_sh_r6), "r"(_sh_r7)			\
			 : "memory", "t");				\
	_sh_r0;								\
})

/* From five arguments on, r0 carries argument 5 in and the result out. */
#define my_syscall5(num, arg1, arg2, arg3, arg4, arg5)			\
({									\
	long _sh_n = (long)(num);					\
	long _sh_a1 = (long)(arg1);					\
	long _sh_a2 = (long)(arg2);					\
	long _sh_a3 = (long)(arg3);					\
	long _sh_a4 = (long)(arg4);					\
	long _sh_a5 = (long)(arg5);					\
	register long _sh_r3 __asm__("r3") = _sh_n;			\
	register long _sh_r4 __asm__("r4") = _sh_a1;			\
	register long _sh_r5 __asm__("r5") = _sh_a2;			\
	register long _sh_r6 __asm__("r6") = _sh_a3;			\
	register long _sh_r7 __asm__("r7") = _sh_a4;			\
	register long _sh_r0 __asm__("r0") = _sh_a5;			\
									\
	__asm__ volatile("trapa #0x15\n\t" _NOLIBC_SH_TRAPA_PAD		\
			 : "+r"(_sh_r0)					\
			 : "r"(_sh_r3), "r"(_sh_r4), "r"(_sh_r5),	\
			   "r"(_sh_r6), "r"(_sh_r7)			\
			 : "memory", "t");				\
	_sh_r0;								\
})

#define my_syscall6(num, arg1, arg2, arg3, arg4, arg5, arg6)		\
({									\
	long _sh_n = (long)(num);					\
	long _sh_a1 = (long)(arg1);					\
	long _sh_a2 = (long)(arg2);					\
	long _sh_a3 = (long)(arg3);					\
	long _sh_a4 = (long)(arg4);					\
	long _sh_a5 = (long)(arg5);					\
	long _sh_a6 = (long)(arg6);					\
	register long _sh_r3 __asm__("r3") = _sh_n;			\
	register long _sh_r4 __asm__("r4") = _sh_a1;			\
	register long _sh_r5 __asm__("r5") = _sh_a2;			\
	register long _sh_r6 __asm__("r6") = _sh_a3;			\
	register long _sh_r7 __asm__("r7") = _sh_a4;			\
	register long _sh_r0 __asm__("r0") = _sh_a5;			\
	register long _sh_r1 __asm__("r1") = _sh_a6;			\
									\
	__asm__ volatile("trapa #0x16\n\t" _NOLIBC_SH_TRAPA_PAD		\
			 : "+r"(_sh_r0)					\
			 : "r"(_sh_r3), "r"(_sh_r4), "r"(_sh_r5),	\
			   "r"(_sh_r6), "r"(_sh_r7), "r"(_sh_r1)	\
			 : "memory", "t");				\
	_sh_r0;								\
})

/*
 * Nothing else to define: SuperH has the _newselect system call, so
 * nolibc's select() needs no __ARCH_WANT_SYS_OLD_SELECT, and nolibc's
 * portable memcpy(), memmove() and memset() serve, so no
 * NOLIBC_ARCH_HAS_* either.
 */

/*
 * The entry point. The kernel starts the program with r15 (the stack
 * pointer) at argc, followed by argv, envp and auxv, which is what
 * nolibc's _start_c() takes as its only argument, in r4. The kernel has
 * already aligned r15 well beyond the 4 bytes the SH ABI asks for.
 *
 * Written as file-scope assembly rather than as a function like the other
 * arch-*.h files: GCC has no "naked" attribute on SuperH, and nolibc's
 * fallback, a normal function, relies on the compiler emitting no
 * prologue that moves r15 before the asm runs. The call is PC-relative
 * (bsrf), so it needs no relocation in the text. _start_c() ends in
 * exit() and never returns; the loop after it is only a safety net. _start
 * is weak, as in the other arch-*.h files, so that a program may bring
 * its own.
 */
__asm__(".pushsection .text\n"
	".weak _start\n"
	".type _start, @function\n"
	".align 2\n"
	"_start:\n"
	"	mov r15, r4\n"
	"	mov.l 2f, r0\n"
	"	bsrf r0\n"
	"	nop\n"
	"1:	bra 1b\n"
	"	nop\n"
	"	.align 2\n"
	"2:	.long _start_c - 1b\n"
	".size _start, . - _start\n"
	".popsection\n");

#include "nolibc.h"

#endif /* _CHOPBLOCK_NOLIBC_SH_H */
