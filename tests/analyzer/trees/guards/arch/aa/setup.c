// SPDX-License-Identifier: GPL-2.0
int aa_setup = 1;
