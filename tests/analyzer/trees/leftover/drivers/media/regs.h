/* SPDX-License-Identifier: GPL-2.0 */
/* a media driver's register, named like a pin of aa */
#define AA_PIN 3
