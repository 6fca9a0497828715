# SPDX-License-Identifier: LGPL-2.1
#
# rules.mk: what the C unit test suites under tools/tests share.  A
# suite's Makefile includes ../common/tree.mk first (tools/Rules.mk, in a
# Xen tree), sets COMMON (this folder), TARGET and how to build it, then
# includes this file for:
#   make [O=<dir>] run            build and run (TAP on stdout); not
#                                 run when cross-compiling (CC is not
#                                 HOSTCC), as tools/tests/vpci
#   make [O=<dir>] run-valgrind   the same under valgrind
#   clean and distclean, and install and uninstall of TARGET in
#   $(LIBEXEC)/tests, where Xen's run-tools-tests finds the tests (in a
#   Xen tree: tools/Rules.mk gives LIBEXEC and INSTALL_*).
# tools/tests/Makefile runs all, clean, distclean, install and uninstall
# in every suite.  RUN_ENV and VALGRIND_ENV are put before the command
# (e.g. a smaller workload under valgrind); CLEAN lists more files to
# remove.
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
ifeq ($(CC),$(HOSTCC))
	$(RUN_ENV) $(TARGET)
else
	$(warning HOSTCC != CC, will not run test)
endif

.PHONY: run-valgrind
run-valgrind: $(TARGET)
	$(VALGRIND_ENV) $(VALGRIND) $(TARGET)

.PHONY: clean
clean:
	rm -f $(TARGET) $(CLEAN)

.PHONY: distclean
distclean: clean

.PHONY: install
install: all
ifeq ($(XEN_TREE),y)
	$(INSTALL_DIR) $(DESTDIR)$(LIBEXEC)/tests
	$(INSTALL_PROG) $(TARGET) $(DESTDIR)$(LIBEXEC)/tests
else
	$(error install: not in a Xen tree (no tools/Rules.mk, which gives LIBEXEC))
endif

.PHONY: uninstall
uninstall:
ifeq ($(XEN_TREE),y)
	$(RM) -- $(DESTDIR)$(LIBEXEC)/tests/$(notdir $(TARGET))
endif
