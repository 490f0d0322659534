/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wrapper around the tree's scripts/include/hashtable.h for the Kconfig
 * parser compiled into chopblock: the same hash tables, 64 times larger.
 * The parser sizes its expression table for one interactive parse; chopblock
 * parses every architecture and the chains made expr_lookup() two thirds
 * of the run time.  Table size does not change what the parser computes.
 */
#include_next <hashtable.h>

#ifndef CHOPBLOCK_HASHTABLE_H
#define CHOPBLOCK_HASHTABLE_H

#undef HASHTABLE_DECLARE
#undef HASHTABLE_DEFINE
#define HASHTABLE_DECLARE(name, size)	struct hlist_head name[(size) * 64]
#define HASHTABLE_DEFINE(name, size)					\
	HASHTABLE_DECLARE(name, size) =					\
		{ [0 ... ((size) * 64 - 1)] = HLIST_HEAD_INIT }

#endif
