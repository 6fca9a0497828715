/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind-roots.c: the table of roots where stack walks end, and its
 * index (xen/profile-unwind.h), filled in sysctl context while samples
 * may read it.
 *
 * This file includes only what a userspace test harness can provide, so
 * the same source is tested there with the unwinders.
 */
#include <xen/profile-unwind.h>
#include <xen/string.h>
#include <xen/types.h>
#include <asm/atomic.h>
#include <asm/system.h>

void profile_unwind_roots_init(struct profile_unwind_roots *r,
                               unsigned long base, unsigned long size)
{
    unsigned int shift = 0;

    while ( size && ((size - 1) >> shift) >= 64 )
        shift++;
    memset(r, 0, sizeof(*r));
    r->base = base;
    r->shift = shift;
    r->span = size;
}

bool profile_unwind_add_root(struct profile_unwind_roots *r,
                             unsigned long start, unsigned long end)
{
    unsigned int nr = r->nr;
    unsigned long first = start - r->base, last = end - 1 - r->base, c;
    uint64_t map = r->map;

    if ( nr == PROFILE_UNWIND_MAX_ROOTS )
        return false;
    r->root[nr].start = start;
    r->root[nr].end = end;
    if ( first >= r->span || last >= r->span )
        write_atomic(&r->span, 0UL);    /* outside the index: compare all */
    else
    {
        for ( c = first >> r->shift; c <= last >> r->shift; c++ )
            map |= 1ULL << c;
        write_atomic(&r->map, map);
    }
    /* A sample may read the table: the entry and its bits before the count. */
    smp_wmb();
    write_atomic(&r->nr, nr + 1);
    return true;
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
