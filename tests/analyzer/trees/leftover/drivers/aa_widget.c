// SPDX-License-Identifier: GPL-2.0
#include <linux/hooks.h>
#include "widget_regs.h"

int aa_widget_probe(void)
{
	aa_inline_stub();
	return do_thing(AA_WIDGET_REG, false);
}
