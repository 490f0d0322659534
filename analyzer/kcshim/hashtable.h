/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wrapper around the tree's scripts/include/hashtable.h for the Kconfig
 * parser compiled into chopblock: the same hash tables, eight times as
 * large.  With the stock hash (see hash.h) the chains made expr_lookup()
 * two thirds of the run time.  A parser child makes some 133,000
 * expressions and looks one up about a million times (menu_finalize()
 * rebuilds them): at twice the stock size that is four per bucket, and
 * expr_lookup() was still a third of a child's time.  Eight times (1 MB
 * each for the expression and symbol tables, about 400 more page faults
 * per child) measured 10% less CPU for the 21 parses than twice; four
 * times was in between, and 16 or 32 times no better.  64 times (8 MB
 * each) cost every child about 4,000 page faults, a quarter of the CPU
 * time of a cold "dead".  Table size does not change what the parser
 * computes.
 */
#include_next <hashtable.h>

#ifndef CHOPBLOCK_HASHTABLE_H
#define CHOPBLOCK_HASHTABLE_H

#undef HASHTABLE_DECLARE
#undef HASHTABLE_DEFINE
#define HASHTABLE_DECLARE(name, size)	struct hlist_head name[(size) * 8]
#define HASHTABLE_DEFINE(name, size)					\
	HASHTABLE_DECLARE(name, size) =					\
		{ [0 ... ((size) * 8 - 1)] = HLIST_HEAD_INIT }

#endif
