// SPDX-License-Identifier: GPL-2.0
#include <linux/shared.h>

void other_hook(void)
{
}

int wide_hook(int a,
	      int b)
{
	return a * b;
}

int proto_hook(int a,
	       int b);
