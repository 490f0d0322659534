# SPDX-License-Identifier: GPL-2.0
#
# chopblock: `make` applies the series to Debian's linux-source-6.12, builds
# it, boots it in QEMU and runs the guest tests; `make check` runs every
# test. See README.md.

H := harness

.PHONY: all deps tree apply build boot report check check-host check-boot \
	analyzer bench bisect clean distclean

all: deps analyzer
	$(H)/run.sh

deps:
	$(H)/deps.sh

tree: deps
	$(H)/tree.sh

apply: tree
	$(H)/apply.sh

build: apply
	$(H)/build.sh

analyzer:
	@if [ -f analyzer/Makefile ]; then $(MAKE) -C analyzer; fi

# Host-side tests first (fast, no kernel build needed), then the full run
# (apply, build, boot, guest tests), then the tests that need its tree and
# kernel.
check: deps analyzer
	tests/run.sh

bench: deps analyzer tree
	@if [ -x analyzer/bench.sh ]; then analyzer/bench.sh; else echo "no benchmark yet"; exit 1; fi

# Build the x86_64 harness configuration after every patch of the series:
# proves bisectability. Too slow for every CI run.
bisect: deps tree
	$(H)/bisect.sh

clean:
	rm -rf build/kbuild build/guest build/logs build/report.txt
	@if [ -f analyzer/Makefile ]; then $(MAKE) -C analyzer clean; fi

distclean:
	rm -rf build
