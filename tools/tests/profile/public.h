/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * public.h: Xen's public headers (XEN_SYSCTL_profile_op in sysctl.h), as
 * the tools see them (__XEN_TOOLS__).  Their guest view of the registers
 * is not the hypervisor's struct cpu_user_regs of the unwinder's shim
 * (emul.h): it is renamed out of the way.
 */
#ifndef TEST_PROFILE_PUBLIC_H
#define TEST_PROFILE_PUBLIC_H

#include <stdint.h>

#define cpu_user_regs public_cpu_user_regs
#include <xen/sysctl.h>
#undef cpu_user_regs

#endif /* TEST_PROFILE_PUBLIC_H */
