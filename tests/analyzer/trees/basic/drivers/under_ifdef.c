// SPDX-License-Identifier: GPL-2.0
int under_ifdef_fn(void)
{
	return 0;
}
