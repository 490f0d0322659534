// SPDX-License-Identifier: GPL-2.0
#include "widget.h"
#if defined(CONFIG_WIDGET_LEGACY)
#include "legacy.h"
#endif
int foo_main;
