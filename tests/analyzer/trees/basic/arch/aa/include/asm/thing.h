/* SPDX-License-Identifier: GPL-2.0 */
#define AA_THING 1
