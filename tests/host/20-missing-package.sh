#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A package that apt cannot provide stops the run with its name.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
expect_error "package chopblock-no-such-package is not available" \
	"$root/harness/deps.sh" coreutils chopblock-no-such-package
