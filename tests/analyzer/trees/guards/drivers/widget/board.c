// SPDX-License-Identifier: GPL-2.0
int board = 1;
