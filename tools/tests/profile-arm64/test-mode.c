/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-mode.c: the guest mode of a sample from the saved PSTATE
 * (xen/arch/arm/profile/mode.h), for AArch64 and AArch32 guests.
 */
#include "test.h"

void test_mode(void)
{
    static const struct {
        uint64_t cpsr;
        unsigned int mode;
        const char *desc;
    } t[] = {
        { PSR_MODE_EL0t, XEN_SYSCTL_PROFILE_MODE_GUEST_USER, "AArch64 EL0t" },
        { PSR_MODE_EL1t, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch64 EL1t" },
        { PSR_MODE_EL1h, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch64 EL1h" },
        { PSR_MODE_USR, XEN_SYSCTL_PROFILE_MODE_GUEST_USER, "AArch32 USR" },
        { PSR_MODE_SVC, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch32 SVC" },
        { PSR_MODE_IRQ, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch32 IRQ" },
        { PSR_MODE_FIQ, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch32 FIQ" },
        { PSR_MODE_ABT, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch32 ABT" },
        { PSR_MODE_UND, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch32 UND" },
        { PSR_MODE_SYS, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL, "AArch32 SYS" },
        /* The mode bits alone decide: flags and masks above them do not. */
        { 0x3c0 | PSR_MODE_EL0t, XEN_SYSCTL_PROFILE_MODE_GUEST_USER,
          "EL0t with DAIF set" },
        { 0xf0000000 | PSR_MODE_EL1h, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL,
          "EL1h with NZCV set" },
    };
    unsigned int i, bad = 0;

    for ( i = 0; i < ARRAY_SIZE(t); i++ )
        if ( arm_profile_guest_mode(t[i].cpsr) != t[i].mode )
        {
            bad++;
            tap_diag("%s: mode %u, expected %u", t[i].desc,
                     arm_profile_guest_mode(t[i].cpsr), t[i].mode);
        }
    tap_ok(!bad, "mode: EL0t and USR are guest user, EL1 and the other "
           "AArch32 modes guest kernel (%u PSTATEs)", i);
}
