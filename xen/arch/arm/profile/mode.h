/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mode.h: the guest mode of an Arm sample, from the PSTATE (SPSR_EL2)
 * saved by Xen's entry code.  Included by sample.c, and by userspace
 * tests.
 */
#ifndef ARM_PROFILE_MODE_H
#define ARM_PROFILE_MODE_H

/*
 * A guest's mode at the exception: EL0 (AArch64 EL0t, or AArch32 USR) is
 * user; EL1 (EL1h, EL1t) and every other AArch32 mode (SVC, IRQ, FIQ,
 * ABT, UND, SYS) are its kernel.
 */
static inline unsigned int arm_profile_guest_mode(uint64_t cpsr)
{
    unsigned int m = cpsr & PSR_MODE_MASK;

    return m == PSR_MODE_EL0t || m == PSR_MODE_USR
           ? XEN_SYSCTL_PROFILE_MODE_GUEST_USER
           : XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL;
}

#endif /* ARM_PROFILE_MODE_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
