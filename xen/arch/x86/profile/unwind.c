/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind.c: a bounded frame-pointer walk of Xen's stack, for the sampler.
 *
 * It follows _show_trace() in arch/x86/traps.c: an ordinary frame is
 * { saved rbp, return address }; a frame pointer outside the stack, once
 * inverted, may point at an exception frame (SAVE_ALL leaves
 * rbp = ~&regs->rbp), from which the interrupted rbp and rip are
 * recovered.  Unlike _show_trace() it runs in IRQ and NMI context, so it
 * checks that every word it reads lies inside [low, end), where end is
 * the caller's bottom of this stack; it says whether the walk reached the
 * bottom or stopped at a bad frame.
 *
 * This file includes only what tools/tests/profile can provide, so the
 * same source is tested in userspace on synthetic stacks.
 */
#include <xen/lib.h>
#include <xen/types.h>
#include <public/profilectl.h>
#include <public/xen.h>

#include "unwind.h"

/* Words from an exception frame's rbp to its rip. */
#define EFRAME_RIP ((offsetof(struct cpu_user_regs, rip) - \
                     offsetof(struct cpu_user_regs, rbp)) / sizeof(long))

/*
 * A walk that ends within this many bytes of the stack's bottom reached
 * the outermost frame (entry code pushes a few words before its first
 * call).
 */
#define UNWIND_BOTTOM_SLACK 64

/* Do words [p, p + n) lie inside [low, end), p aligned? */
static bool inside(unsigned long p, unsigned int n, unsigned long low,
                   unsigned long end)
{
    return !(p & (sizeof(long) - 1)) && p >= low && p < end &&
           n <= (end - p) / sizeof(long);
}

unsigned int profile_unwind(unsigned long bp, unsigned long low,
                            unsigned long end, uint64_t *ips,
                            unsigned int max, unsigned int *flags)
{
    unsigned long next = bp, addr;
    const unsigned long *frame;
    unsigned int n = 0;

    for ( ; ; )
    {
        if ( inside(next, 2, low, end) )
        {
            /* An ordinary frame: { saved rbp, return address }. */
            frame = (const unsigned long *)next;
            next = frame[0];
            addr = frame[1];
        }
        else if ( inside(~next, EFRAME_RIP + 1, low, end) )
        {
            /* An exception frame: ~next points at its rbp. */
            frame = (const unsigned long *)~next;
            next = frame[0];
            addr = frame[EFRAME_RIP];
        }
        else
            break;

        if ( n == max )
        {
            *flags |= XEN_PROFILE_F_TRUNCATED;
            return n;
        }
        ips[n++] = addr;
        /* Strictly upwards: the walk terminates, loops are cut. */
        low = (unsigned long)&frame[2];
    }

    /*
     * The chain ends normally with a null frame pointer, or with a frame
     * pointer (plain or inverted) past the last frame slot, e.g. at the
     * guest's registers in cpu_info, after a walk that reached the bottom.
     */
    if ( next && low + UNWIND_BOTTOM_SLACK < end )
        *flags |= XEN_PROFILE_F_BAD_FRAME;

    return n;
}

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
