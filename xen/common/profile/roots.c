/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * roots.c: find the roots of stack walks (xen/profile-unwind.h) in Xen's
 * symbol table: by name once at boot (a scan of the whole table), by
 * address in the architectures' arch_profile_prepare() (sysctl context,
 * before a session samples).
 */
#include <xen/init.h>
#include <xen/kernel.h>
#include <xen/lib.h>
#include <xen/profile-unwind.h>
#include <xen/string.h>
#include <xen/symbols.h>

void profile_add_root(struct profile_unwind_roots *r, unsigned long fn)
{
    char name[KSYM_NAME_LEN + 1];
    unsigned long size, offset;
    unsigned int i, nr = r->nr;

    if ( !fn || nr == PROFILE_UNWIND_MAX_ROOTS )
        return;
    for ( i = 0; i < nr; i++ )
        if ( r->root[i].start == fn )
            return;
    if ( !symbols_lookup(fn, &size, &offset, name) || offset || !size )
        return;
    profile_unwind_add_root(r, fn, fn + size);
}

void __init profile_add_named_roots(struct profile_unwind_roots *r,
                                    const char *const names[],
                                    unsigned int nr)
{
    char name[KSYM_NAME_LEN + 1], type;
    uint32_t symnum = 0, next, found = 0;
    unsigned long addr;
    const char *base;
    unsigned int i;

    ASSERT(nr <= 32);
    for ( ; ; )
    {
        next = symnum;
        if ( xensyms_read(&next, &type, &addr, name) || next == symnum )
            break;
        symnum = next;
        /* Local symbols are "file#name". */
        base = strchr(name, '#');
        base = base ? base + 1 : name;
        for ( i = 0; i < nr; i++ )
            if ( !strcmp(base, names[i]) )
            {
                profile_add_root(r, addr);
                found |= 1U << i;
            }
    }

    /*
     * A function renamed, or not built in this configuration (no PV, no
     * SVM...): walks no longer end at it.  Information, not a warning,
     * as a configuration lacks some by design.
     */
    for ( i = 0; i < nr; i++ )
        if ( !(found & (1U << i)) )
            printk(XENLOG_INFO "profiler: no stack root %s\n", names[i]);
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
