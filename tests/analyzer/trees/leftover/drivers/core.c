// SPDX-License-Identifier: GPL-2.0
#include <linux/hooks.h>
#include "widget_regs.h"

/* a macro of a .c file: no other file can have used it */
#define AA_LOCAL 1

int live_counter;

void shared_hook(int x)
{
	struct live_regs r = { LIVE_MAGIC };

	live_counter += x + r.r + HOOK_LIVE + LIVE_WIDGET_REG;
}

int do_thing(int a, bool verbose)
{
	return verbose ? a : 0;
}

int do_other(int a, bool quiet)
{
	return quiet ? 0 : a;
}

static void edit_me(bool loud)
{
	live_counter += loud;
}

/* AA needs the delay here, its bus is slow */
static void settle(int quiet)
{
	/* the aa variable below is just a name, for the record */
	int aa = quiet;

	/* Copied from AA code */
	edit_me(false);
#ifdef CONFIG_AA_WIDGET
	edit_me(true);
#endif
	do_thing(aa, false);
	do_thing(2, false);
	do_other(aa, false);
	do_other(3, quiet);
}

/* a function returning an enum: its body is no enum body */
enum hook_kind pick_hook(void)
{
	aa_board_kick();
	return HOOK_LIVE;
}

void core_init(void)
{
	settle(1);
}
