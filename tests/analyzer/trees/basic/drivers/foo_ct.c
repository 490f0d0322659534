// SPDX-License-Identifier: GPL-2.0
int foo_ct_fn(void)
{
	return 0;
}
