/* SPDX-License-Identifier: GPL-2.0 */
#define IS_ENABLED(x) 0
