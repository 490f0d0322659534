// SPDX-License-Identifier: GPL-2.0
int comp_b_fn(void)
{
	return 0;
}
