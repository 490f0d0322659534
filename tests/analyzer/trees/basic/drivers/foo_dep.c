// SPDX-License-Identifier: GPL-2.0
#include <linux/onlydead.h>
#include <linux/shared.h>

int foo_dep_fn(void)
{
	return ONLY_DEAD;
}
