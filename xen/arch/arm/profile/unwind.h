/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARM_PROFILE_UNWIND_H
#define ARM_PROFILE_UNWIND_H

#include <xen/profile-unwind.h>
#include <xen/types.h>

/*
 * Is sp inside the stack whose STACK_SIZE-aligned block starts at base,
 * below the struct cpu_info at its top?  If so, store in *end the bottom
 * of that stack (cpu_info's guest_cpu_user_regs, which closes it) and
 * return true.  Xen on Arm runs every exception on the stack it
 * interrupted (one block per vCPU, no IRQ or IST stacks), so base is
 * that of the sampling code's own stack, never taken from the
 * interrupted context.
 */
bool profile_stack_bounds(unsigned long sp, unsigned long base,
                          unsigned long *end);

/*
 * Walk Xen's chain of AArch64 frame records { x29, x30 } from frame
 * pointer fp, reading only words inside [low, end) of one stack, and
 * store up to max return addresses in ips[].  Returns how many were
 * stored; sets XEN_SYSCTL_PROFILE_F_TRUNCATED in *flags when max cut the walk,
 * XEN_SYSCTL_PROFILE_F_BAD_FRAME when a frame pointer led neither to a frame
 * nor to the bottom of the stack.
 *
 * The walk ends properly at a null frame pointer, near the bottom of the
 * stack, or after a return address into one of roots (may be NULL): the
 * guest vectors, whose caller's x29 is the guest's, and the functions a
 * fresh stack is entered with.
 *
 * Never faults (no read outside [low, end)), takes no lock, never prints,
 * and always terminates: each frame lies above the previous one.
 */
unsigned int profile_unwind(unsigned long fp, unsigned long low,
                            unsigned long end,
                            const struct profile_unwind_roots *roots,
                            uint64_t *ips, unsigned int max,
                            unsigned int *flags);

/*
 * The walk of an interrupted Xen context at pc with link register lr,
 * stack pointer sp and frame pointer fp, on the stack whose block starts
 * at base: the walk of that stack if profile_stack_bounds() accepts sp
 * (none when pc is in a root; lr alone when lr returns into a root), else
 * nothing, with XEN_SYSCTL_PROFILE_F_NO_STACK set in *flags.
 */
unsigned int profile_walk(unsigned long pc, unsigned long lr,
                          unsigned long sp, unsigned long fp,
                          unsigned long base,
                          const struct profile_unwind_roots *roots,
                          uint64_t *ips, unsigned int max,
                          unsigned int *flags);

#endif /* ARM_PROFILE_UNWIND_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
