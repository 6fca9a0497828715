/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols.c: XEN_SYSCTL_PROFILE_symbols, the embedded symbol table in bulk.
 *
 * The toolstack symbolizes samples offline with the running hypervisor's
 * own table, so no xen-syms file is needed on the host.  XENPF_get_symbol
 * returns one symbol per hypercall (a build has thousands); this copies
 * hundreds per call.
 */
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/symbols.h>
#include <asm/event.h>

#include "private.h"

/*
 * The most bytes of entries one call copies, whatever the buffer: each
 * name is expanded from the compressed table, and every other sysctl waits
 * for sysctl_lock meanwhile.
 */
#define PROFILE_SYMBOLS_MAX (16u << 10)

int profile_symbols(struct xen_sysctl_profile_symbols *op)
{
    struct xen_sysctl_profile_symbol e;
    /* An entry's name with its NUL and padding, copied out whole. */
    char name[ROUNDUP(KSYM_NAME_LEN + 1, 8)];
    uint32_t index = op->index, next;
    unsigned int off = 0, count = 0;
    unsigned int size = min(op->size, PROFILE_SYMBOLS_MAX);
    unsigned long addr;
    char type;
    int rc = 0;

    /* The length of a name fits the entry's len and size. */
    BUILD_BUG_ON(KSYM_NAME_LEN > UINT8_MAX);
    BUILD_BUG_ON(sizeof(e) + sizeof(name) > UINT16_MAX);

    if ( op->flags || op->pad )
        return -EINVAL;

    for ( ; ; )
    {
        /*
         * xensyms_read() sets neither type nor address at the end of the
         * table, which an END marker in its last entry reaches with next
         * past index: an empty name is the end too, and nothing is copied
         * out that the call did not set.
         */
        type = '\0';
        addr = 0;
        name[0] = '\0';
        next = index;
        rc = xensyms_read(&next, &type, &addr, name);
        if ( rc == -ERANGE )            /* index is past the end */
            rc = -EINVAL;
        if ( rc || next == index )      /* Error, or the end. */
            break;
        if ( name[0] == '\0' )
        {
            index = next;
            break;
        }

        memset(&e, 0, sizeof(e));
        e.address = addr;
        e.type = type;
        e.len = strnlen(name, KSYM_NAME_LEN);
        e.size = ROUNDUP(sizeof(e) + e.len + 1, 8);
        if ( off + e.size > size )
        {
            if ( !count )
                rc = -ENOBUFS;
            break;
        }
        /* Zero the padding too: nothing of Xen's memory leaks out. */
        memset(name + e.len, 0, sizeof(name) - e.len);
        if ( copy_to_guest_offset(op->buffer, off, (uint8_t *)&e,
                                  sizeof(e)) ||
             copy_to_guest_offset(op->buffer, off + sizeof(e),
                                  (uint8_t *)name, e.size - sizeof(e)) )
        {
            rc = -EFAULT;
            break;
        }
        off += e.size;
        count++;
        index = next;
        if ( !(count & 63) && hypercall_preempt_check() )
            break;
    }

    op->index = index;
    op->bytes = off;
    op->count = count;

    return rc;
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
