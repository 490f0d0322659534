/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_HOOKS_H
#define _LINUX_HOOKS_H

#define AA_MAGIC	0x42
#define LIVE_MAGIC	1
#define AA_OWN		1

enum hook_kind {
	HOOK_AA,
	HOOK_LIVE,
};

struct aa_regs {
	int r;
};

struct live_regs {
	int r;
};

extern int aa_counter;
extern int live_counter;

void aa_only_hook(int x);
void shared_hook(int x);
void never_used_proto(void);
void aa_board_kick(void);
int do_thing(int a, bool verbose);
int do_other(int a, bool quiet);

static inline void aa_inline_stub(void)
{
}

#endif
