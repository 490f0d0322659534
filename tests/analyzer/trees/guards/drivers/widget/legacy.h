/* SPDX-License-Identifier: GPL-2.0 */
#define WIDGET_LEGACY_MODE 1
