/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __X86_PROFILE_UNWIND_H__
#define __X86_PROFILE_UNWIND_H__

#include <xen/types.h>

/*
 * Walk Xen's frame-pointer chain from frame pointer bp, reading only words
 * inside [low, end) of one stack, and store up to max return addresses in
 * ips[].  Returns how many were stored; sets XEN_PROFILE_F_TRUNCATED in
 * *flags when max cut the walk, XEN_PROFILE_F_BAD_FRAME when a frame
 * pointer led neither to a frame nor to the bottom of the stack.
 * Never faults (no read outside [low, end)), takes no lock, never prints,
 * and always terminates: each frame lies above the previous one.
 */
unsigned int profile_unwind(unsigned long bp, unsigned long low,
                            unsigned long end, uint64_t *ips,
                            unsigned int max, unsigned int *flags);

#endif /* __X86_PROFILE_UNWIND_H__ */
