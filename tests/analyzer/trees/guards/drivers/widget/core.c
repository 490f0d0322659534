// SPDX-License-Identifier: GPL-2.0
#include "widget.h"

int widget_core(void)
{
	return 0;
}

#ifdef CONFIG_WIDGET_LEGACY
int widget_legacy;
#else
int widget_modern;
#endif

#ifdef DEBUG
int widget_debug_check;
#endif

/* #if inside a comment is no directive */
#if IS_ENABLED(CONFIG_WIDGET_BAR) && \
	!defined(CONFIG_WIDGET_FOO)
int widget_bar_only;
#elif defined(CONFIG_WIDGET_FOO)
int widget_foo;
#endif
