# SPDX-License-Identifier: GPL-2.0
#
# chopblock: `make` applies the series to Debian's linux-source-6.12, builds
# it, boots it in QEMU and runs the guest tests; `make check` runs every
# test. See README.md.

H := harness
# The kernel tree (git-ignored); the analyzer compiles its Kconfig parser.
TREE := $(CURDIR)/build/tree

.PHONY: all deps tree trees apply build boot report check check-host check-boot cover \
	allmod analyzer bench bisect debug matrix rebase clean distclean

all: deps tree analyzer
	$(H)/run.sh

deps:
	$(H)/deps.sh

tree: deps
	$(H)/tree.sh

apply: tree
	$(H)/apply.sh

build: apply
	$(H)/build.sh main

analyzer: tree
	$(MAKE) -C analyzer KSRC=$(TREE)

# Host-side tests first (fast, no kernel build needed), then the full run
# (apply, build, boot, guest tests), then the tests that need its tree and
# kernel.
check: deps trees analyzer
	tests/run.sh

# make check's trees: 6.1's (for the analyzer's tests against 6.1's
# Kconfig parser, 51 and 53) is extracted beside 6.12's, since xz
# decompresses on one core and the other would be idle. A failure there
# is left to those tests, which extract it again and say why.
trees: deps
	@mkdir -p build/logs
	$(H)/tree.sh --tarball /usr/src/linux-source-6.1.tar.xz --tree $(CURDIR)/build/tree-6.1 \
		>build/logs/tree-6.1.log 2>&1 & pid=$$!; \
	$(H)/tree.sh; rc=$$?; wait $$pid || true; exit $$rc

bench: deps tree analyzer
	$(H)/pristine-tree.sh
	$(MAKE) -C analyzer KSRC=$(TREE) TREE=$(CURDIR)/build/pristine PATCHED=$(TREE) bench
	$(H)/bench-pktcdvd.sh

# After every patch of the series: chopblock check against the baseline
# (static, every commit even after a failure; make check runs it too),
# then the builds of the x86_64, arm64 and arm coverage configurations
# (main, cover-arm64, cover-arm) and of the matrix's patched ones, which
# turn off what the coverage ones turn on. Hours: too slow for CI.
BISECT_KERNELS = main cover-arm64 cover-arm x86_64-patched arm64-patched arm-patched
bisect: deps tree analyzer
	rc=0; \
	$(H)/static-bisect.sh --keep-going || rc=1; \
	for k in $(BISECT_KERNELS); do $(H)/bisect.sh $$k || rc=1; done; \
	exit $$rc

# The coverage kernels of group "cover" (the full arm64 one and the 32-bit
# arm one) and the coverage report over every coverage kernel:
# harness/cover.sh.
cover: deps tree apply analyzer
	$(H)/cover.sh

# 0-day's view: allmodconfig for x86_64 and arm64, pristine and patched,
# and the errors and warnings the series brings (harness/allmod.sh; the
# objects the series reaches; harness/allmod.sh --full builds everything).
allmod: deps tree apply
	$(H)/allmod.sh

# The debug kernels (group "debug" of configs/kernels.list): the x86_64
# and arm64 coverage kernels with KASAN, lockdep, DEBUG_OBJECTS and
# kmemleak, booted with the guest suite, which must pass with no splat.
# Two more kernel builds, slower to boot: opt-in.
debug: deps tree apply analyzer
	rc=0; \
	for k in $$($(H)/kernels.sh --group debug); do $(H)/kernel.sh $$k || rc=1; done; \
	exit $$rc

# The cross-architecture build matrix (the kernels of group "matrix" in
# configs/kernels.list, pristine and patched), the arm64 boot, and the sh4
# "before" picture held against the analyzer. Reports in build/matrix/.
# Too slow for every CI run; make check builds and boots the patched arm64
# and arm kernels only.
matrix: deps tree apply analyzer
	rc=0; \
	$(H)/matrix.sh || rc=1; \
	$(H)/kernel.sh arm64-patched || rc=1; \
	$(H)/sh4-before.sh || rc=1; \
	exit $$rc

# After apt-get upgrade brings another linux-source-6.12: move the series
# to Debian version TO (apt-cache madison linux-source-6.12 lists them)
# with a three-way merge, re-export patches/ and say which patch changed.
rebase: deps tree
	$(H)/rebase.sh "$(TO)"

clean:
	rm -rf build/kernels build/logs build/report.txt
	$(MAKE) -C analyzer KSRC=$(TREE) clean
	$(MAKE) -C pktublk clean

distclean:
	rm -rf build
	$(MAKE) -C pktublk clean
