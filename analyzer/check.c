// SPDX-License-Identifier: GPL-2.0
#include "chopblock.h"

int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	die("check: not implemented yet");
}
