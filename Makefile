# SPDX-License-Identifier: GPL-2.0-only
#
# Builds the pinned Xen 4.17.5 with this repository's overlay and patch
# series, and runs tests and the demo on a virtual Xen host (QEMU, TCG).
# See README.md.  Variables:
#   XEN_TARBALL=<file>  use this orig tarball instead of downloading it
#   XEN_SRC=<dir>       use this Xen checkout instead of the tarball
#   BUILD=<dir>         build folder (default: ./build)
#   JOB=<script>        job for `make vhost` (default: test/jobs/xl-info.sh)

BUILD ?= $(CURDIR)/build
XEN_DEB_VERSION := 4.17.5+72-g01140da4e8-1
TARBALL := $(BUILD)/dl/xen_4.17.5+72-g01140da4e8.orig.tar.xz
SRC := $(BUILD)/xen
DIST := $(BUILD)/dist
KERNEL := $(BUILD)/kernel
TIMING := $(BUILD)/timing.log
STAGE := scripts/stage.sh $(TIMING)
JOB ?= test/jobs/xl-info.sh
RUN_TESTS := $(BUILD)/run-tests

UNIT_TESTS := $(sort $(wildcard test/unit/*.t))
BROWSER_TESTS := $(sort $(wildcard test/browser/*.t))
VHOST_TESTS := $(sort $(wildcard test/vhost/t/*.t))

export BUILD XEN_DEB_VERSION XEN_SRC XEN_TARBALL
export TIMING_LOG := $(TIMING)

# One heavy build at a time: each stage runs make -j2 itself.
.NOTPARALLEL:
.PHONY: all deps fetch prepare xen tools kernel build check check-unit \
	demo vhost bench fuzz clean distclean

all: build

deps:
	@scripts/deps.sh

fetch:
ifeq ($(XEN_SRC),)
	@$(STAGE) download scripts/fetch-xen.sh $(TARBALL)
endif

prepare: fetch
	@$(STAGE) prepare scripts/prepare.sh $(TARBALL) $(SRC)

xen: prepare
	@$(STAGE) hypervisor scripts/build-xen.sh $(SRC)

tools: prepare
	@$(STAGE) tools scripts/build-tools.sh $(SRC) $(DIST)

kernel:
	@$(STAGE) kernel test/vhost/fetch-kernel.sh $(KERNEL)

build: xen tools kernel

$(RUN_TESTS): test/run-tests.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

# Unit tests only: seconds, no QEMU (the patch test needs the tarball).
check-unit: deps fetch $(RUN_TESTS)
	@$(RUN_TESTS) $(UNIT_TESTS)

# Everything: unit tests, the builds, the flame graph in a browser, and
# the virtual-host tests.
check: deps
	@rm -f $(TIMING)
	@$(MAKE) --no-print-directory build $(RUN_TESTS)
	@$(STAGE) tests $(RUN_TESTS) --summary $(BUILD)/summary \
		$(UNIT_TESTS) $(BROWSER_TESTS) $(VHOST_TESTS); rc=$$?; \
	scripts/timing-report.sh $(TIMING); cat $(BUILD)/summary; exit $$rc

# The main job on the virtual host: profile Xen with `xl profile` while
# dom0 makes hypercalls and a PV domU is created and destroyed, then print
# the hottest stacks.  The results (data
# file, folded stacks, status, xl dmesg) are copied to $(BUILD)/demo/results.
demo: deps
	@rm -f $(TIMING)
	@$(MAKE) --no-print-directory build
	@WITH_DOMU=1 test/vhost/vhost.sh $(BUILD)/demo test/jobs/profile-timer.sh \
		test/lib/tap.sh; rc=$$?; \
	scripts/demo-report.sh $(BUILD)/demo/results $(DIST) || rc=1; \
	scripts/timing-report.sh $(TIMING); exit $$rc

# Speed and memory of libxenprofile on a synthetic 1M-sample profile:
# printed, never asserted.
bench: deps
	@scripts/bench.sh

# Fuzz the data file decoder and the folded parser (libFuzzer, bounded).
fuzz: deps
	@scripts/fuzz.sh

# Any job on the virtual host: make vhost JOB=test/jobs/foo.sh
vhost: build
	test/vhost/vhost.sh $(BUILD)/vhost/job $(JOB)

clean:
	rm -rf $(SRC) $(SRC).state $(DIST) $(BUILD)/vhost $(BUILD)/demo $(RUN_TESTS)

distclean:
	rm -rf $(BUILD)
