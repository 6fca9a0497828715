/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind.c: a bounded walk of Xen's AArch64 frame records on the stack
 * the interrupted context runs on, for the sampler.
 *
 * An AArch64 frame record is { saved x29, return address (x30) }, the
 * shape of x86's { rbp, rip }, and Xen's entry code (arm64/entry.S)
 * saves x29 in the exception frame but never changes it: the first C
 * frame of an exception links to the interrupted x29, so the chain runs
 * on through a nested exception, and at the outermost frame of a guest
 * exception it holds the guest's x29, an arbitrary value.  That is why
 * the guest vectors are roots (xen/profile-unwind.h): a walk ends at the
 * return address into them, before the guest's value is followed.
 *
 * Runs in IRQ context, where nothing about the interrupted context is
 * trusted: the walk's bounds are those of the sampling code's own stack
 * (profile_stack_bounds()), and it reads only words inside
 * [sp, bottom of that stack).  show_trace() in arch/arm/traps.c uses the
 * same bounds, without the alignment, depth and direction checks.
 *
 * This file includes only what a userspace test harness can provide, so
 * the same source is tested there on synthetic and mapped stacks.
 */
#include <xen/lib.h>
#include <xen/profile-unwind.h>
#include <xen/types.h>
#include <asm/config.h>
#include <asm/current.h>
#include <public/sysctl.h>

#include "unwind.h"

/*
 * A walk that ends within this many bytes of the stack's bottom reached
 * the outermost frame (entry code saves registers before its first
 * call, below the guest's frame).
 */
#define UNWIND_BOTTOM_SLACK 64

bool profile_stack_bounds(unsigned long sp, unsigned long base,
                          unsigned long *end)
{
    /* Wraps for sp below base: then too far above it as well. */
    unsigned long off = sp - base;
    unsigned long bottom = base + STACK_SIZE - sizeof(struct cpu_info);

    if ( off >= STACK_SIZE || sp > bottom )
        return false;
    *end = bottom;
    return true;
}

/* Do words [p, p + n) lie inside [low, end), p aligned? */
static always_inline bool inside(unsigned long p, unsigned int n,
                                 unsigned long low, unsigned long end)
{
    return !(p & (sizeof(long) - 1)) && p >= low && p < end &&
           n <= (end - p) / sizeof(long);
}

/* profile_unwind() with the roots' view of the caller. */
static always_inline unsigned int unwind(unsigned long fp, unsigned long low,
                                         unsigned long end,
                                         const struct profile_roots_view *v,
                                         uint64_t *ips, unsigned int max,
                                         unsigned int *flags)
{
    unsigned long next = fp, addr;
    const unsigned long *frame;
    unsigned int n = 0;

    while ( inside(next, 2, low, end) )
    {
        frame = (const unsigned long *)next;
        addr = frame[1];
        next = frame[0];
        if ( n == max )
        {
            *flags |= XEN_SYSCTL_PROFILE_F_TRUNCATED;
            return n;
        }
        ips[n++] = addr;
        /*
         * Above a root is a guest's x29 or what the stack held before it
         * was reset.  addr is a return address: the call is the word
         * before it.
         */
        if ( profile_in_root(addr - 4, v) )
            return n;
        /* Strictly upwards: the walk terminates, loops are cut. */
        low = (unsigned long)&frame[2];
    }

    /*
     * The chain ends normally with a null frame pointer (a new vCPU's
     * first frame), or with a frame pointer past the last frame slot
     * after a walk that reached the bottom.
     */
    if ( next && low + UNWIND_BOTTOM_SLACK < end )
        *flags |= XEN_SYSCTL_PROFILE_F_BAD_FRAME;

    return n;
}

unsigned int profile_unwind(unsigned long fp, unsigned long low,
                            unsigned long end,
                            const struct profile_unwind_roots *roots,
                            uint64_t *ips, unsigned int max,
                            unsigned int *flags)
{
    struct profile_roots_view v;

    profile_view_roots(&v, roots);
    return unwind(fp, low, end, &v, ips, max, flags);
}

unsigned int profile_walk(unsigned long pc, unsigned long lr,
                          unsigned long sp, unsigned long fp,
                          unsigned long base,
                          const struct profile_unwind_roots *roots,
                          uint64_t *ips, unsigned int max,
                          unsigned int *flags)
{
    unsigned long end;
    struct profile_roots_view v;

    profile_view_roots(&v, roots);
    if ( !profile_stack_bounds(sp, base, &end) )
    {
        *flags |= XEN_SYSCTL_PROFILE_F_NO_STACK;
        return 0;
    }
    /* Interrupted in a root itself: nothing above it but stale frames. */
    if ( profile_in_root(pc, &v) )
        return 0;
    /*
     * Interrupted in a function a root called, before its frame record
     * exists or after its epilogue restored x29 and x30: x29 is still the
     * root's (a guest vector's: the guest's x29), and the return address
     * into the root is in lr alone.  lr points into a root only then: any
     * call since would have changed it.
     */
    if ( profile_in_root(lr - 4, &v) )
    {
        if ( !max )
        {
            *flags |= XEN_SYSCTL_PROFILE_F_TRUNCATED;
            return 0;
        }
        ips[0] = lr;
        return 1;
    }
    return unwind(fp, sp, end, &v, ips, max, flags);
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
