/* SPDX-License-Identifier: GPL-2.0 */
#define BB_THING 1
