/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wrapper around the tree's scripts/include/hashtable.h for the Kconfig
 * parser compiled into chopblock: the same hash tables, twice as large.
 * With the stock hash (see hash.h) the chains made expr_lookup() two
 * thirds of the run time; with a hash that mixes the low bits, twice the
 * stock size is best.  Larger is slower: 64 times (8 MB each for the
 * expression and symbol tables) cost every parser child about 4,000 page
 * faults, and a lookup a cache miss; that was a quarter of the CPU time
 * of a cold "dead".  Table size does not change what the parser computes.
 */
#include_next <hashtable.h>

#ifndef CHOPBLOCK_HASHTABLE_H
#define CHOPBLOCK_HASHTABLE_H

#undef HASHTABLE_DECLARE
#undef HASHTABLE_DEFINE
#define HASHTABLE_DECLARE(name, size)	struct hlist_head name[(size) * 2]
#define HASHTABLE_DEFINE(name, size)					\
	HASHTABLE_DECLARE(name, size) =					\
		{ [0 ... ((size) * 2 - 1)] = HLIST_HEAD_INIT }

#endif
