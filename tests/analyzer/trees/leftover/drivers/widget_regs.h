/* SPDX-License-Identifier: GPL-2.0 */
/* the registers of the widgets of drivers/ */
#define AA_WIDGET_REG 4
#define LIVE_WIDGET_REG 5
