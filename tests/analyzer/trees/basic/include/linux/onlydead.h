/* SPDX-License-Identifier: GPL-2.0 */
#define ONLY_DEAD 1
