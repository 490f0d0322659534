// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest known victim of Debian 12's sh4 gcc (see
 * sh_treg_combine_off.cc): correct code loads probe_flag and tests it
 * ("tst") before the branch; the miscompiled code branches on a stale
 * T bit. harness/sh4-gcc.sh compiles this with -O2 -S and looks for the
 * test.
 */
int probe_flag;
int probe_other(int x);
int probe(int x);

int probe(int x)
{
	if (probe_flag)
		return 0;
	return probe_other(x);
}
