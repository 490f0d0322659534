// SPDX-License-Identifier: GPL-2.0
#include <linux/shared.h>
#include <asm/thing.h>

void plat_hook(void)
{
}
