/* SPDX-License-Identifier: GPL-2.0 */
#define ORPHAN 1
