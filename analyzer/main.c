// SPDX-License-Identifier: GPL-2.0
/*
 * chopblock: what dies with an architecture or a symbol, and proof that a
 * tree has no dangling references.  See README.md.
 */
#include <malloc.h>
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
	/*
	 * Keep freed memory instead of giving it back: every mmap/munmap or
	 * trim of a big buffer costs page faults and, with threads, TLB
	 * shootdowns, which are expensive in virtual machines.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
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
