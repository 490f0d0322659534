// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock: what dies with an architecture or a symbol, and proof that a
 * tree has no dangling references.  See README.md.
 */
#include <stdlib.h>
#include <string.h>

#include "chopblock.h"

static void usage(FILE *f)
{
	fputs("usage: chopblock dead --tree DIR --remove-arch ARCH [--remove-arch ARCH ...]\n"
	      "                      [--remove-symbol SYM ...] [--baseline DIR] [--json]\n"
	      "                      [--keep SYM ...] [--no-leftovers]\n"
	      "       chopblock check --tree DIR [--baseline DIR] [--json] [--no-leftovers]\n"
	      "       chopblock guards --tree DIR --diff FILE [--arch ARCH ...] [--json]\n"
	      "       chopblock enable --tree DIR --arch ARCH --config FILE --requests FILE\n"
	      "                        [--forbid SYM ...]\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "dead"))
		return cmd_dead(argc - 2, argv + 2);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 2, argv + 2);
	if (!strcmp(argv[1], "guards"))
		return cmd_guards(argc - 2, argv + 2);
	if (!strcmp(argv[1], "enable"))
		return cmd_enable(argc - 2, argv + 2);
	die("unknown command '%s' (use dead, check, guards or enable)", argv[1]);
}
