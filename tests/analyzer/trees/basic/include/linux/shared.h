/* SPDX-License-Identifier: GPL-2.0 */
#define SHARED 1
