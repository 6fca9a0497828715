# SPDX-License-Identifier: GPL-2.0-only
#
# Builds Xen with this repository's overlay and the patch series of its
# version, and runs tests and the demo on a virtual Xen host (QEMU, TCG).
# See README.md.  Variables:
#   XEN_BASE=<base>     4.17 (default: Debian's 4.17.5, fetched with apt),
#                       4.22 or staging (from ../shared/xen/, checksummed)
#   XEN_TARBALL=<file>  4.17: use this orig tarball instead of downloading it
#   XEN_SRC=<dir>       use this Xen checkout instead (any supported version)
#   BUILD=<dir>         build folder (default: ./build); each base builds in
#                       BUILD/xen-<version>-<arch>/
#   ARCH=arm64          Xen on Arm (base 4.22 by default), cross-built, on
#                       the Arm virtual host; make demo ARCH=arm64
#   CHECK_BASES=...     the bases `make check` runs the suite on (default
#                       4.17 4.22; XEN_BASE=<base> on the command line: it)
#   JOB=<script>        job for `make vhost` (default: test/jobs/xl-info.sh)

BUILD ?= $(CURDIR)/build
# ARCH=arm64 on the command line (or XEN_ARCH=arm64): Xen on Arm, cross-
# built, on the Arm virtual host (qemu-system-aarch64).  An ARCH in the
# environment is not taken: Linux's and Xen's builds use that name too.
ifeq ($(origin ARCH),command line)
XEN_ARCH := $(ARCH)
endif
XEN_ARCH ?= x86_64
ifeq ($(filter x86_64 arm64,$(XEN_ARCH)),)
$(error ARCH=$(XEN_ARCH): expected x86_64 (the default) or arm64)
endif
# Xen on Arm is built from 4.22 (and staging): 4.17 has no Arm series.
XEN_BASE ?= $(if $(filter arm64,$(XEN_ARCH)),4.22,4.17)
ifeq ($(XEN_ARCH)-$(XEN_BASE),arm64-4.17)
$(error ARCH=arm64: Xen on Arm needs XEN_BASE=4.22 or staging (docs/misc/xl-profile-arm.md))
endif
SHARED_XEN ?= $(CURDIR)/../shared/xen
XEN_DEB_VERSION := 4.17.5+72-g01140da4e8-1
DEB_TARBALL := $(BUILD)/dl/xen_4.17.5+72-g01140da4e8.orig.tar.xz
DEBIAN_TARBALL := $(BUILD)/dl/xen_$(XEN_DEB_VERSION).debian.tar.xz
DEBIAN_TREE := $(BUILD)/debian/xen-4.17.5+72-g01140da4e8
CHECK_BASES ?= 4.17 4.22
# `make check XEN_BASE=staging`: the suite on that base alone.
ifeq ($(origin XEN_BASE),command line)
CHECK_BASES := $(XEN_BASE)
endif

# The base: its source, and the folder it builds in (named for its version).
ifneq ($(XEN_SRC),)
BASE_VERSION := $(shell scripts/xen-version.sh $(XEN_SRC) 2>/dev/null)
BASE := src-$(or $(BASE_VERSION),unknown)
TARBALL :=
else ifeq ($(XEN_BASE),4.17)
BASE := 4.17
TARBALL := $(DEB_TARBALL)
else ifeq ($(XEN_BASE),4.22)
BASE := 4.22
TARBALL := $(SHARED_XEN)/xen-4.22.0.tar.xz
else ifeq ($(XEN_BASE),staging)
BASE := staging
TARBALL := $(or $(firstword $(wildcard $(SHARED_XEN)/xen-staging-*.tar.xz)),$(SHARED_XEN)/xen-staging-<missing>.tar.xz)
else
$(error XEN_BASE=$(XEN_BASE): expected 4.17 (the default), 4.22 or staging, or XEN_SRC=<dir>)
endif
BASE_BUILD := $(BUILD)/xen-$(BASE)-$(XEN_ARCH)
SRC := $(BASE_BUILD)/xen
DIST := $(BASE_BUILD)/dist
KERNEL := $(BUILD)/kernel$(if $(filter arm64,$(XEN_ARCH)),-arm64)
SYSROOT := $(BUILD)/arm64-sysroot
# The name of this base and arch in the timing table.
LABEL := $(BASE)$(if $(filter arm64,$(XEN_ARCH)),-arm64)
TIMING := $(BUILD)/timing.log
STAGE := scripts/stage.sh $(TIMING)
JOB ?= test/jobs/xl-info.sh
RUN_TESTS := $(BUILD)/run-tests

UNIT_TESTS := $(sort $(wildcard test/unit/*.t))
BROWSER_TESTS := $(sort $(wildcard test/browser/*.t))
# The harness's own checks (a panic, a hang, a job that never ends) do
# not depend on the base: they run once, on the first base, as osstest's.
HARNESS_TESTS := test/vhost/t/failures.t
VHOST_TESTS := $(filter-out $(HARNESS_TESTS),$(sort $(wildcard test/vhost/t/*.t)))
# Checks of a base's built tree, run with the virtual-host tests.
BUILD_TESTS := $(sort $(wildcard test/build/*.t))
# osstest's own run of its xl profile step, on the first base only.
OSSTEST_TESTS := $(sort $(wildcard test/osstest/*.t))

export BUILD XEN_DEB_VERSION XEN_SRC XEN_TARBALL XEN_DEBIAN_TARBALL XEN_BASE \
	SHARED_XEN XEN_ARCH SYSROOT
export TIMING_LOG := $(TIMING)
export KERNEL_DIR := $(KERNEL)
export TOP_BUILD := $(BUILD)

# One heavy build at a time: each stage runs make -j2 itself.
.NOTPARALLEL:
.PHONY: all deps fetch prepare xen tools sysroot kernel build check check-suite check-unit \
	check-configs check-misra \
	demo vhost bench bench-compare fuzz series check-series debball debian-source \
	debian-packages clean \
	distclean

all: build

deps:
	@scripts/deps.sh

fetch:
ifeq ($(XEN_SRC),)
ifeq ($(BASE),4.17)
	@$(STAGE) download scripts/fetch-xen.sh $(TARBALL) \
		$(if $(XEN_TARBALL),,$(DEBIAN_TARBALL))
else
	@scripts/shared-xen.sh $(TARBALL)
endif
endif

prepare: fetch
	@$(STAGE) $(LABEL)/prepare scripts/prepare.sh $(TARBALL) $(SRC)

xen: prepare
	@$(STAGE) $(LABEL)/hypervisor scripts/build-xen.sh $(SRC)

ifeq ($(XEN_ARCH),arm64)
tools: prepare sysroot
else
tools: prepare
endif
	@$(STAGE) $(LABEL)/tools scripts/build-tools.sh $(SRC) $(DIST)

# The arm64 libraries of the cross-built toolstack and of the Arm dom0.
sysroot:
	@BUILD=$(BUILD) $(STAGE) download scripts/arm64-sysroot.sh $(SYSROOT)

kernel:
	@BUILD=$(BUILD) KARCH=$(XEN_ARCH) $(STAGE) $(if $(filter arm64,$(XEN_ARCH)),kernel-arm64,kernel) \
		test/vhost/fetch-kernel.sh $(KERNEL)

build: xen tools kernel

$(RUN_TESTS): test/run-tests.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

# Unit tests only: seconds, no QEMU (the patch test needs the tarball).
check-unit: deps fetch $(RUN_TESTS)
	@BUILD=$(BUILD) $(RUN_TESTS) $(UNIT_TESTS)

# The bases of CHECK_BASES whose sources are here (4.22 and staging need
# ../shared/xen/: without it they are left out, and said so).
AVAIL_BASES = $(foreach b,$(CHECK_BASES),$(if $(filter 4.17,$(b)),$(b),$(if $(wildcard $(SHARED_XEN)/xen-$(if $(filter staging,$(b)),staging-*,$(b).0).tar.xz),$(b))))

# Xen on Arm in `make check`: the 4.22 base cross-built for arm64 and the
# Arm virtual host's tests (test/arm/), when 4.22 is checked and
# qemu-system-aarch64 is here.  make deps installs it, so it is looked
# for in check-suite, which `make check` runs in a new make after deps:
# a lookup when this Makefile is first parsed would come before it.
ARM_TESTS := $(sort $(wildcard test/arm/*.t))
ARM_QEMU = $(shell command -v qemu-system-aarch64 2>/dev/null)
ARM_CHECK = $(if $(ARM_QEMU),$(filter 4.22,$(AVAIL_BASES)))
ARM_ENV = --env BUILD=$(BUILD)/xen-4.22-arm64 --env XEN_ARCH=arm64 \
	--env SYSROOT=$(SYSROOT) --env KERNEL_DIR=$(BUILD)/kernel-arm64 \
	--env HOST_DIST=$(BUILD)/xen-4.22-x86_64/dist --env TIMING_PREFIX=4.22-arm64/

# Everything: unit tests once, then for each base its builds and every
# virtual-host test; Xen on Arm on its virtual host; the flame graph in a
# browser.  The suite runs in a new make, which sees what deps installed.
check: deps
	@$(MAKE) --no-print-directory check-suite

check-suite:
	@rm -f $(TIMING)
	@for b in $(filter-out $(AVAIL_BASES),$(CHECK_BASES)); do \
	    echo "skip: XEN_BASE=$$b: its source is not in $(SHARED_XEN)/"; done
	@$(if $(ARM_CHECK),,echo "skip: Xen on Arm: $(if $(ARM_QEMU),XEN_BASE 4.22 is not checked,qemu-system-aarch64 is not installed)")
	@for b in $(AVAIL_BASES); do \
	    $(MAKE) --no-print-directory build XEN_BASE=$$b XEN_SRC= || exit 1; done
	@$(if $(ARM_CHECK),$(MAKE) --no-print-directory build ARCH=arm64 XEN_BASE=4.22 XEN_SRC=)
	@$(MAKE) --no-print-directory $(RUN_TESTS)
	@BUILD=$(BUILD) $(STAGE) tests $(RUN_TESTS) --summary $(BUILD)/summary \
		$(UNIT_TESTS) $(BROWSER_TESTS) \
		$(foreach b,$(AVAIL_BASES),--env BUILD=$(BUILD)/xen-$(b)-x86_64 \
		    --env TIMING_PREFIX=$(b)/ $(BUILD_TESTS) $(VHOST_TESTS) \
		    $(if $(filter $(b),$(firstword $(AVAIL_BASES))),$(HARNESS_TESTS) $(OSSTEST_TESTS))) \
		$(if $(ARM_CHECK),$(ARM_ENV) $(ARM_TESTS)); rc=$$?; \
	scripts/timing-report.sh $(TIMING); cat $(BUILD)/summary; exit $$rc

# The main job on the virtual host: profile Xen with `xl profile` while
# dom0 makes hypercalls and a PV domU is created and destroyed, then print
# the hottest stacks.  The results (data file, folded stacks, status, xl
# dmesg) are copied to $(BASE_BUILD)/demo/results.
#
# ARCH=arm64: Xen on Arm on the Arm virtual host, sampled by its PMUv3
# source (profile-pmu.sh); the report and flame graph are made with the
# x86_64 build's xenprofile, on this machine.
ifeq ($(XEN_ARCH),arm64)
demo: deps
	@rm -f $(TIMING)
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory tools ARCH=x86_64
	@BUILD=$(BASE_BUILD) test/vhost/vhost.sh $(BASE_BUILD)/demo \
		$(DIST)/usr/lib/xen/profile/profile-pmu.sh \
		$(DIST)/usr/lib/xen/profile/tap.sh; rc=$$?; \
	r=$(BASE_BUILD)/demo/results; cp $$r/pmu.data $$r/xenprofile.data && \
	cp $$r/pmu.folded $$r/out.folded; \
	TITLE="Xen $(BASE) on Arm (QEMU virt, TCG): xl profile -s pmu -F 997" \
	scripts/demo-report.sh $$r $(BUILD)/xen-$(BASE)-x86_64/dist || rc=1; \
	scripts/timing-report.sh $(TIMING); exit $$rc
else
demo: deps
	@rm -f $(TIMING)
	@$(MAKE) --no-print-directory build
	@WITH_DOMU=1 BUILD=$(BASE_BUILD) test/vhost/vhost.sh $(BASE_BUILD)/demo \
		$(DIST)/usr/lib/xen/profile/profile-timer.sh \
		$(DIST)/usr/lib/xen/profile/tap.sh; rc=$$?; \
	scripts/demo-report.sh $(BASE_BUILD)/demo/results $(DIST) || rc=1; \
	scripts/timing-report.sh $(TIMING); exit $$rc
endif

# The hypervisor with the profiler in every configuration Xen's GitLab CI
# could draw (scripts/check-configs.sh), on the 4.22 tree (XEN_BASE=staging:
# staging's), with a table of what built; QUICK=1: the quick set, which
# make check runs (test/build/configs.t).  Installs the cross compilers.
CONFIGS_BASE = $(if $(filter staging,$(XEN_BASE)),staging,4.22)
check-configs:
	@scripts/deps.sh configs
	@$(MAKE) --no-print-directory prepare XEN_BASE=$(CONFIGS_BASE) XEN_SRC= ARCH=x86_64
	@$(STAGE) $(CONFIGS_BASE)/check-configs scripts/check-configs.sh \
		$(BUILD)/xen-$(CONFIGS_BASE)-x86_64/xen $(BUILD)/configs-$(CONFIGS_BASE)

# Xen's own MISRA C check (xen-analysis.py with cppcheck's MISRA addon)
# on the 4.22 tree (XEN_BASE=staging: staging's) with the profiler on,
# x86_64 and arm64 (Xen's CI runs cppcheck on arm64): the findings in the
# profiler's files by rule, and a failure for any in a rule Xen's ECLAIR
# tags clean that Xen's deviations do not cover, or for a file of ours
# cppcheck could not analyse (scripts/check-misra.sh,
# scripts/misra-deviations).
check-misra:
	@scripts/deps.sh misra
	@scripts/deps.sh configs
	@$(MAKE) --no-print-directory prepare XEN_BASE=$(CONFIGS_BASE) XEN_SRC= ARCH=x86_64
	@rc=0; for a in x86_64 arm64; do \
	    ARCH=$$a $(STAGE) $(CONFIGS_BASE)/check-misra-$$a scripts/check-misra.sh \
		$(BUILD)/xen-$(CONFIGS_BASE)-x86_64/xen $(BUILD)/misra-$(CONFIGS_BASE)-$$a || rc=1; \
	done; exit $$rc

# Speed and memory of libxenprofile on a synthetic 1M-sample profile:
# printed, never asserted.
bench: deps
	@$(MAKE) --no-print-directory build
	@BUILD=$(BUILD) scripts/bench.sh
	@BASE_BUILD=$(BASE_BUILD) KERNEL_DIR=$(BUILD)/kernel scripts/bench-vhost.sh

# The benchmark of REV (a commit) against the working tree's, in turns:
# make bench-compare REV=<commit>.  Printed, never asserted.
bench-compare: deps
	@BUILD=$(BUILD) scripts/bench-compare.sh $(or $(REV),HEAD) $(RUNS)

# Fuzz the data file decoder and the folded parser (libFuzzer, bounded).
fuzz: deps
	@BUILD=$(BUILD) scripts/fuzz.sh

# Xen's own package of this build (tools/misc/mkdeb, as xen.git's make
# debball): $(BASE_BUILD)/debball/xen-upstream-VERSION+profile1.deb.
debball: deps
	@$(MAKE) --no-print-directory build
	@scripts/make-debball.sh $(SRC) $(DIST) $(BASE_BUILD)/debball

# Debian's own packages of Xen 4.17 with the series, to install over
# Debian 12's (docs/misc/install.md): the source tree in
# $(BUILD)/debian/xen-4.17.5+72-g01140da4e8/, the packages beside it.
debian-source: deps
	@$(STAGE) download scripts/fetch-xen.sh $(DEB_TARBALL) $(DEBIAN_TARBALL)
	@scripts/make-debian-source.sh $(DEB_TARBALL) $(DEBIAN_TARBALL) $(BUILD)/debian

debian-packages: debian-source
	@$(STAGE) debian/packages scripts/build-debian.sh $(DEBIAN_TREE)

# The upstream series for this base (XEN_BASE=staging for xen-devel):
# git format-patch output with an RFC cover letter in $(BUILD)/series/,
# the fixes posted on their own in $(BUILD)/series/own/.  The sender is
# git config's user.name and user.email, or SERIES_AUTHOR="Name <addr>".
series: fetch
	@scripts/make-series.sh $(or $(XEN_SRC),$(TARBALL)) $(BUILD)/series

# Build the hypervisor and the toolstack after each patch of the series,
# for each of CHECK_SERIES_ARCHS: x86_64 and (cross-built) arm64, but
# x86_64 alone for 4.17 (which has no Arm series).  Installs what the
# builds need first, as make check does (a fresh machine has no flex).
CHECK_SERIES_ARCHS ?= x86_64$(if $(filter 4.17,$(BASE)),, arm64)
check-series: deps series $(if $(filter arm64,$(CHECK_SERIES_ARCHS)),sysroot)
	@SYSROOT=$(SYSROOT) CHECK_SERIES_ARCHS="$(CHECK_SERIES_ARCHS)" \
		$(STAGE) $(LABEL)/check-series scripts/check-series.sh $(BUILD)/series

# Any job on the virtual host: make vhost JOB=test/jobs/foo.sh
vhost: build
	BUILD=$(BASE_BUILD) test/vhost/vhost.sh $(BASE_BUILD)/vhost/job $(JOB)

clean:
	rm -rf $(BUILD)/xen-*-x86_64 $(BUILD)/xen-*-arm64 $(BUILD)/xen $(BUILD)/xen.state \
		$(BUILD)/dist $(BUILD)/vhost $(BUILD)/demo $(RUN_TESTS)

distclean:
	rm -rf $(BUILD)
