# SPDX-License-Identifier: LGPL-2.1
#
# rules.mk: what the C unit test suites under tools/tests share.  A
# suite's Makefile sets COMMON (this folder), TARGET and how to build it,
# then includes this file for:
#   make [O=<dir>] run            build and run (TAP on stdout)
#   make [O=<dir>] run-valgrind   the same under valgrind
#   clean, and Xen's distclean, install and uninstall (nothing is
#   installed), which tools/tests/Makefile runs in every suite.
# RUN_ENV and VALGRIND_ENV are put before the command (e.g. a smaller
# workload under valgrind); CLEAN lists more files to remove.
#
# XEN_PUBLIC_INC: a folder whose xen/ holds Xen's public headers with the
# profiler's ABI (XEN_SYSCTL_profile_op in sysctl.h): in a Xen tree,
# tools/include (the default of the suites that need it); outside one, a
# folder the caller names.

VALGRIND ?= valgrind -q --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=all

.PHONY: all
all: $(TARGET)

.PHONY: run
run: $(TARGET)
	$(RUN_ENV) $(TARGET)

.PHONY: run-valgrind
run-valgrind: $(TARGET)
	$(VALGRIND_ENV) $(VALGRIND) $(TARGET)

.PHONY: clean
clean:
	rm -f $(TARGET) $(CLEAN)

.PHONY: distclean
distclean: clean

.PHONY: install
install:

.PHONY: uninstall
uninstall:
