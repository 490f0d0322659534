// SPDX-License-Identifier: GPL-2.0
/*
 * A GCC plugin that keeps Debian 12's sh4 cross compiler from
 * miscompiling the kernel: it gates off the SH back end's own RTL passes
 * sh_treg_combine2 and sh_treg_combine3.
 *
 * Why: gcc-sh4-linux-gnu 12.2.0-13 takes the load of a variable that is
 * then tested against zero for an inverted store of the T bit, deletes
 * both the load and the test, and leaves the conditional branch on a T
 * bit that nothing set. The smallest case is
 *
 *	int g;
 *	int f(int x) { if (g) return 0; return other(x); }
 *
 * at -O1 or -O2. In a kernel the first victims are the zImage
 * decompressor and vprintk_emit() (if (unlikely(suppress_printk))), so
 * the pristine kernel never prints a byte in qemu-system-sh4.
 *
 * The passes only combine T bit stores and tests; without them the code
 * is what the generic RTL passes make of it, a few instructions longer.
 * They cannot be switched off with -fdisable-rtl-...: the SH back end
 * registers them after the command line has been parsed. A plugin's
 * PLUGIN_OVERRIDE_GATE callback sees every pass as it is about to run.
 *
 * harness/sh4-gcc.sh builds this against the cross compiler's plugin
 * headers (gcc-12-plugin-dev-sh4-linux-gnu) and checks that the
 * compiler needs it and that it works.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree-pass.h"
#include "diagnostic-core.h"

#include <string.h>

int plugin_is_GPL_compatible;

static const char treg_combine[] = "sh_treg_combine";

static void gate_treg_combine_off(void *gcc_data, void *user_data)
{
	bool *gate = (bool *)gcc_data;

	(void)user_data;
	if (current_pass && current_pass->name &&
	    !strncmp(current_pass->name, treg_combine, sizeof(treg_combine) - 1))
		*gate = false;
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	if (!plugin_default_version_check(version, &gcc_version)) {
		error("%s: built for GCC %s, loaded into GCC %s", info->base_name,
		      gcc_version.basever, version->basever);
		return 1;
	}
	register_callback(info->base_name, PLUGIN_OVERRIDE_GATE,
			  gate_treg_combine_off, NULL);
	return 0;
}
