/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where chopblock meets the differences between the Kconfig
 * parsers it compiles in: scripts/kconfig of Linux 6.1 up to 6.12.
 * kconf.c and kenable.c include the parser's lkc.h through this header,
 * and nothing else of chopblock includes the parser.
 *
 * The Makefile probes the parser's sources of the tree KSRC and passes:
 *
 *   KC_STRUCT_FILE   menu entries name their Kconfig file through a
 *                    struct file (menu->file->name); newer parsers keep
 *                    the name itself (menu->filename).  That struct file
 *                    is called struct kc_file here, as chopblock has a
 *                    struct file of its own (the layout is unchanged).
 *   KC_VERSION       "VERSION.PATCHLEVEL" of KSRC, the parser's version.
 *
 * It also renames the parser's xmalloc() family (-Dxmalloc=kc_xmalloc, ...)
 * when the parser defines those out of line in scripts/kconfig/util.c
 * (older parsers) instead of as static inlines of scripts/include/xalloc.h,
 * so that they do not collide with chopblock's own.
 *
 * Everything else chopblock uses (rootmenu, menu->list/next/parent/sym,
 * symbol->prop/dir_dep/rev_dep/implied, the property and expression types,
 * conf_parse(), sym_find(), expr_fprint()) is the same in all of them.
 */
#ifndef CHOPBLOCK_KCOMPAT_H
#define CHOPBLOCK_KCOMPAT_H

#ifndef KC_VERSION
#error "KC_VERSION is not set: build chopblock with its Makefile"
#endif

#ifdef KC_STRUCT_FILE
#define file kc_file
#include "lkc.h"
#undef file
#else
#include "lkc.h"
#endif

/*
 * The menu entry after @menu in a depth-first walk of the tree under
 * @root, or NULL at the end: the parser's own order, in which the first
 * entry of a symbol is its first definition.  Newer parsers have
 * menu_next(); older ones do not, so chopblock walks the tree itself.
 */
static inline struct menu *kc_menu_next(struct menu *menu, struct menu *root)
{
	if (menu->list)
		return menu->list;
	for (; menu != root; menu = menu->parent)
		if (menu->next)
			return menu->next;
	return NULL;
}

/* The Kconfig file (relative to the tree) that defines a menu entry. */
static inline const char *kc_menu_file(const struct menu *menu)
{
#ifdef KC_STRUCT_FILE
	return menu->kc_file ? menu->kc_file->name : "?";
#else
	return menu->filename ? menu->filename : "?";
#endif
}

#endif /* CHOPBLOCK_KCOMPAT_H */
