/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the tree's scripts/include/hash.h when chopblock compiles
 * the tree's Kconfig parser: same functions, but hash_32() also mixes the
 * low bits.  The parser's expression table indexes buckets with
 * "hash % size"; with a plain multiplicative hash of 16-byte aligned
 * pointers only one bucket in 16 is used and expr_lookup() dominates the
 * parse.  The hash function does not change what the parser computes.
 */
#ifndef HASH_H
#define HASH_H

static inline unsigned int hash_str(const char *s)
{
	unsigned int hash = 2166136261U;

	for (; *s; s++)
		hash = (hash ^ *s) * 0x01000193;
	return hash;
}

static inline unsigned int hash_32(unsigned int val)
{
	val ^= val >> 16;
	val *= 0x7feb352dU;
	val ^= val >> 15;
	val *= 0x846ca68bU;
	val ^= val >> 16;
	return val;
}

static inline unsigned int hash_ptr(const void *ptr)
{
	unsigned long v = (unsigned long)ptr;

	return hash_32((unsigned int)(v ^ (v >> 32)));
}

#endif /* HASH_H */
