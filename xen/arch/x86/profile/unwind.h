/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef X86_PROFILE_UNWIND_H
#define X86_PROFILE_UNWIND_H

#include <xen/profile-unwind.h>
#include <xen/types.h>

/*
 * Is sp inside one of the stacks of the pCPU whose STACK_SIZE-aligned
 * stack block starts at base: the primary stack (pages 6-7, below the
 * struct cpu_info at the top) or an IST stack (pages 1-4: #MC, NMI, #DB,
 * #DF, below the exception frame at the top of each)?  If so, store in
 * *end the bottom of that stack (the address of the exception frame, or
 * of cpu_info's guest_cpu_user_regs, that closes it) and return true.
 * Never true for a shadow-stack page (0 and 5), for another pCPU's
 * stacks, or for an address outside the block, such as a guest's %rsp
 * in the SYSCALL entry stub or before SYSRET.  base must come from this
 * pCPU's own stack, never from the interrupted context.
 */
bool profile_stack_bounds(unsigned long sp, unsigned long base,
                          unsigned long *end);

/*
 * Walk Xen's frame-pointer chain from frame pointer bp, reading only words
 * inside [low, end) of one stack, and store up to max return addresses in
 * ips[].  Returns how many were stored; sets XEN_SYSCTL_PROFILE_F_TRUNCATED in
 * *flags when max cut the walk, XEN_SYSCTL_PROFILE_F_BAD_FRAME when a frame
 * pointer led neither to a frame nor to the bottom of the stack.
 *
 * The walk ends properly at the bottom of the stack: at a null frame
 * pointer, at the (inverted) frame pointer of the exception frame that
 * starts at end (the guest's registers in cpu_info, an IST stack's
 * frame), or after a return address into one of roots (may be NULL).
 *
 * Never faults (no read outside [low, end)), takes no lock, never prints,
 * and always terminates: each frame lies above the previous one.
 */
unsigned int profile_unwind(unsigned long bp, unsigned long low,
                            unsigned long end,
                            const struct profile_unwind_roots *roots,
                            uint64_t *ips, unsigned int max,
                            unsigned int *flags);

/*
 * The walk of an interrupted Xen context at ip with stack pointer sp and
 * frame pointer bp, on the pCPU whose stack block starts at base: the
 * walk of its stack if profile_stack_bounds() accepts sp (none when ip is
 * in a root), else nothing, with XEN_SYSCTL_PROFILE_F_NO_STACK set in *flags.
 */
unsigned int profile_walk(unsigned long ip, unsigned long sp,
                          unsigned long bp, unsigned long base,
                          const struct profile_unwind_roots *roots,
                          uint64_t *ips, unsigned int max,
                          unsigned int *flags);

#endif /* X86_PROFILE_UNWIND_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
