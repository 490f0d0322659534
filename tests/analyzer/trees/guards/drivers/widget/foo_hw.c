// SPDX-License-Identifier: GPL-2.0
int foo_hw = 1;
