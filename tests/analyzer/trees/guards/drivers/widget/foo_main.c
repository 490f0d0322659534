// SPDX-License-Identifier: GPL-2.0
#include "widget.h"
int foo_main;
