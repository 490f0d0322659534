// SPDX-License-Identifier: GPL-2.0
#include <linux/shared.h>

void other_hook(void)
{
}
