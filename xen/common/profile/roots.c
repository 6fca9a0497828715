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

/* Is fn a root of r now (added, or there already)? */
static bool add_root(struct profile_unwind_roots *r, unsigned long fn)
{
    char name[KSYM_NAME_LEN + 1];
    unsigned long size, offset;
    unsigned int i, nr = r->nr;

    if ( !fn )
        return false;
    for ( i = 0; i < nr; i++ )
        if ( r->root[i].start == fn )
            return true;
    if ( nr == PROFILE_UNWIND_MAX_ROOTS ||
         !symbols_lookup(fn, &size, &offset, name) || offset || !size )
        return false;
    profile_unwind_add_root(r, fn, fn + size);

    return true;
}

void profile_add_root(struct profile_unwind_roots *r, unsigned long fn)
{
    /* Not in the symbol table, or the table of roots full: left out. */
    (void)add_root(r, fn);
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

    /* found has a bit per name; no more names than roots can be held. */
    BUILD_BUG_ON(PROFILE_UNWIND_MAX_ROOTS > 32);
    if ( nr > PROFILE_UNWIND_MAX_ROOTS )
        nr = PROFILE_UNWIND_MAX_ROOTS;
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
            if ( !strcmp(base, names[i]) && add_root(r, addr) )
                found |= 1U << i;
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
