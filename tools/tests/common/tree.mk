# SPDX-License-Identifier: LGPL-2.1
#
# tree.mk: included first by the profiler's unit test suites.  In a Xen
# tree it includes tools/Rules.mk, as every suite of tools/tests does:
# the tools' compiler (CC, HOSTCC, CROSS_COMPILE), LIBEXEC and INSTALL_*
# for make install, and XEN_TREE=y.  The suites also build from a
# checkout of the profiler's files alone (no tools/Rules.mk beside
# them), with the caller's CC and XEN_PUBLIC_INC: then HOSTCC is CC and
# there is nothing to install.

XEN_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../../..)
ifneq ($(wildcard $(XEN_ROOT)/tools/Rules.mk),)
XEN_TREE := y
include $(XEN_ROOT)/tools/Rules.mk
else
XEN_TREE := n
HOSTCC ?= $(CC)
endif
