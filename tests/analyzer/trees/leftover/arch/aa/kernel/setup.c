// SPDX-License-Identifier: GPL-2.0
#include <linux/hooks.h>
#include <uapi/linux/hooks_abi.h>
#include <asm/aaregs.h>

int aa_counter;

void aa_only_hook(int x)
{
	struct aa_regs r = { AA_MAGIC };

	aa_counter += x + r.r + HOOK_AA + AA_LOCAL + AA_ABI_MAGIC + AA_OWN + AA_PIN;
	shared_hook(x);
	do_thing(x, true);
	do_other(x, true);
}

void aa_board_kick(void)
{
}
