/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind.c: which stack of this pCPU the interrupted context runs on, and
 * a bounded frame-pointer walk of it, for the sampler.
 *
 * The walk follows _show_trace() in arch/x86/traps.c: an ordinary frame
 * is { saved rbp, return address }; a frame pointer outside the stack,
 * once inverted, may point at an exception frame (SAVE_ALL leaves
 * rbp = ~&regs->rbp), from which the interrupted rbp and rip are
 * recovered.  Unlike _show_trace() it runs in IRQ and NMI context, where
 * nothing about the interrupted context can be trusted: Xen runs at CPL0
 * on a guest's %rsp in the SYSCALL/SYSENTER stubs and just before SYSRET.
 * So the bounds of the walk never come from the interrupted %rsp alone:
 * profile_stack_bounds() accepts it only inside one of this pCPU's own
 * stacks, found from the stack block base of the sampling code itself,
 * and the walk then reads only words inside [rsp, bottom of that stack).
 *
 * This file includes only what a userspace test harness can provide, so
 * the same source is tested there on synthetic and mapped stacks.
 */
#include <xen/lib.h>
#include <xen/profile-unwind.h>
#include <xen/string.h>
#include <xen/types.h>
#include <asm/atomic.h>
#include <asm/config.h>
#include <asm/current.h>
#include <asm/system.h>
#include <asm/traps.h>
#include <public/sysctl.h>
#include <public/xen.h>

#include "unwind.h"

/* The pages of a pCPU's stack block (see asm/current.h). */
#define STACK_PAGE_IST_FIRST    1   /* #MC; then NMI, #DB */
#define STACK_PAGE_IST_DF       4   /* #DF, the last */
#define STACK_PAGE_PRIMARY      6   /* 6 and 7, cpu_info at the top */

/* Words from an exception frame's rbp to its rip, and past its end (ss). */
#define EFRAME_RIP ((offsetof(struct cpu_user_regs, rip) - \
                     offsetof(struct cpu_user_regs, rbp)) / sizeof(long))
#define EFRAME_END ((offsetof(struct cpu_user_regs, ss) + sizeof(long) - \
                     offsetof(struct cpu_user_regs, rbp)) / sizeof(long))

/*
 * The exception frame at the top of an IST stack page: struct
 * cpu_user_regs, which ends at ss.  With FRED, #MC's and #DF's stacks
 * (stack levels 2 and 3) start at their page's top too, and the frame
 * delivered there has struct fred_info (event data) above struct
 * cpu_user_regs.
 */
#define IST_FRAME (sizeof(struct cpu_user_regs) + \
                   (opt_fred == 1 ? sizeof(struct fred_info) : 0))

/*
 * A walk that ends within this many bytes of the stack's bottom reached
 * the outermost frame (entry code pushes a few words before its first
 * call).
 */
#define UNWIND_BOTTOM_SLACK 64

bool profile_stack_bounds(unsigned long sp, unsigned long base,
                          unsigned long *end)
{
    /* Wraps for sp below base: then too far above it as well. */
    unsigned long off = sp - base, bottom;
    unsigned int page = off / PAGE_SIZE;

    if ( off >= STACK_SIZE )
        return false;
    if ( page >= STACK_PAGE_PRIMARY )
        bottom = base + STACK_SIZE - sizeof(struct cpu_info);
    else if ( page >= STACK_PAGE_IST_FIRST && page <= STACK_PAGE_IST_DF )
        bottom = base + (page + 1) * PAGE_SIZE - IST_FRAME;
    else
        return false;               /* A shadow stack. */

    /* Above the bottom is the frame of the entry itself: no stack yet. */
    if ( sp > bottom )
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

/*
 * The frame *next points at, if it lies in [low, end): an ordinary frame
 * { saved rbp, return address }, or an exception frame, which ~next
 * points at the rbp of.  Returns its size in words (0: none), its return
 * address in *addr, its start in *frame; *next becomes the saved rbp.
 */
static always_inline unsigned int read_frame(unsigned long *next,
                                             unsigned long low,
                                             unsigned long end,
                                             unsigned long *addr,
                                             const unsigned long **frame)
{
    if ( inside(*next, 2, low, end) )
    {
        *frame = (const unsigned long *)*next;
        *addr = (*frame)[1];
        *next = (*frame)[0];
        return 2;
    }
    if ( inside(~*next, EFRAME_RIP + 1, low, end) )
    {
        *frame = (const unsigned long *)~*next;
        *addr = (*frame)[EFRAME_RIP];
        *next = (*frame)[0];
        return EFRAME_END;
    }
    return 0;
}

/* profile_unwind() with the roots' view of the caller. */
static always_inline unsigned int unwind(unsigned long bp, unsigned long low,
                                         unsigned long end,
                                         const struct profile_roots_view *v,
                                         uint64_t *ips, unsigned int max,
                                         unsigned int *flags)
{
    /* The frame pointer SAVE_ALL leaves for the frame starting at end. */
    unsigned long bottom_rbp = ~(end + offsetof(struct cpu_user_regs, rbp));
    unsigned long next = bp, addr;
    const unsigned long *frame;
    unsigned int n = 0, words;

    while ( (words = read_frame(&next, low, end, &addr, &frame)) )
    {
        if ( n == max )
        {
            *flags |= XEN_SYSCTL_PROFILE_F_TRUNCATED;
            return n;
        }
        ips[n++] = addr;
        /*
         * Above a root is only what the stack held before it was reset.
         * addr is a return address: the call is the byte before it.
         */
        if ( profile_in_root(addr - 1, v) )
            return n;
        /*
         * Strictly upwards, past the frame just read (all of it, for an
         * exception frame): the walk terminates, loops are cut.
         */
        low = (unsigned long)&frame[words];
    }

    /*
     * The chain ends normally with a null frame pointer, with the frame
     * pointer of the exception frame at the bottom (the guest's registers
     * in cpu_info, or an IST stack's frame), or with a frame pointer past
     * the last frame slot after a walk that reached the bottom.
     */
    if ( next && next != bottom_rbp && low + UNWIND_BOTTOM_SLACK < end )
        *flags |= XEN_SYSCTL_PROFILE_F_BAD_FRAME;

    return n;
}

unsigned int profile_unwind(unsigned long bp, unsigned long low,
                            unsigned long end,
                            const struct profile_unwind_roots *roots,
                            uint64_t *ips, unsigned int max,
                            unsigned int *flags)
{
    struct profile_roots_view v;

    profile_view_roots(&v, roots);
    return unwind(bp, low, end, &v, ips, max, flags);
}

unsigned int profile_walk(unsigned long ip, unsigned long sp,
                          unsigned long bp, unsigned long base,
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
    if ( profile_in_root(ip, &v) )
        return 0;
    return unwind(bp, sp, end, &v, ips, max, flags);
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
