/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIDGET_H
#define WIDGET_H

int widget_core(void);
#if defined(__aa__)
#define WIDGET_WIDTH 4
#endif

#endif /* WIDGET_H */
