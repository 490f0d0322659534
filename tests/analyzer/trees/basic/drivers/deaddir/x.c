// SPDX-License-Identifier: GPL-2.0
int x_fn(void)
{
	return 0;
}
