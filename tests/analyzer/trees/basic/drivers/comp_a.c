// SPDX-License-Identifier: GPL-2.0
int comp_a_fn(void)
{
	return 0;
}
