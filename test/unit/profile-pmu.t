#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The profiler's PMU driver (xen/arch/x86/profile/pmu.c, pmu-source.c,
# xen/common/pmu-owner.c) against a simulated PMU in userspace
# (tools/tests/profile-pmu), TAP passed through.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/c-suite.sh"
c_suite profile-pmu "the PMU driver tests"
