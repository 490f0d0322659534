// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>

#ifdef CONFIG_FOO_DEP
int dep_stub(void)
{
	return 1;
}
#endif

#ifndef CONFIG_AA
static inline int aa_stub(void)
{
	return 0;
}
#endif

#if IS_ENABLED(CONFIG_FOO_LIVE)
int live_block(void)
{
	return 2;
}
#endif

#if defined(CONFIG_FOO_DEP) && defined(CONFIG_FOO_LIVE)
int mixed_block(void)
{
	return 3;
}
#endif

int common_fn(void)
{
	if (IS_ENABLED(CONFIG_FOO_CT))
		return 1;
	return 0;
}

void __weak plat_hook(void)
{
}

void __weak other_hook(void)
{
}

int __weak wide_hook(int a,
		     int b)
{
	return 0;
}

int __weak proto_hook(int a,
		      int b)
{
	return 0;
}
