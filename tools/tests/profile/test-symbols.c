/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-symbols.c: XEN_SYSCTL_PROFILE_symbols (xen/common/profile/symbols.c)
 * against a symbol table read as xen/common/symbols.c's xensyms_read()
 * reads it: an END marker in the last entry makes it skip to the end,
 * return 0 and set neither type nor address.  Every entry copied out
 * must be a real symbol, and every byte of it set.
 */
#include <stdio.h>

#include "emul-common.h"
#include "tap.h"

struct sym {
    const char *name;               /* "" is an END marker */
    char type;
    unsigned long address;
};

static const struct sym *table;
static uint32_t table_len;

/* As xen/common/symbols.c does, on the table above. */
int xensyms_read(uint32_t *symnum, char *type, unsigned long *address,
                 char *name)
{
    if ( *symnum > table_len )
        return -ERANGE;
    if ( *symnum == table_len )
        goto no_symbol;
    if ( !table[*symnum].name[0] && ++*symnum == table_len )
        goto no_symbol;
    *type = table[*symnum].type;
    *address = table[*symnum].address;
    strcpy(name, table[*symnum].name);
    ++*symnum;
    return 0;

 no_symbol:
    name[0] = '\0';
    return 0;
}

/* Read the whole table from index 0 into buf; the op's answer. */
static int read_all(uint8_t *buf, uint32_t size,
                    struct xen_sysctl_profile_symbols *op)
{
    memset(buf, 0xa5, size);
    memset(op, 0, sizeof(*op));
    op->size = size;
    set_xen_guest_handle(op->buffer, buf);
    return profile_symbols(op);
}

/* Are the entries of buf those of want, every byte set, nothing after? */
static bool entries_are(const uint8_t *buf, uint32_t size,
                        const struct xen_sysctl_profile_symbols *op,
                        const char *const *want, unsigned int n)
{
    uint32_t off = 0, i;

    if ( op->count != n )
        return false;
    for ( i = 0; i < n; i++ )
    {
        struct xen_sysctl_profile_symbol e;
        uint32_t j;

        memcpy(&e, buf + off, sizeof(e));
        if ( e.len != strlen(want[i]) || e.pad || !e.type || !e.address ||
             memcmp(buf + off + sizeof(e), want[i], e.len + 1) )
            return false;
        for ( j = sizeof(e) + e.len + 1; j < e.size; j++ )
            if ( buf[off + j] )
                return false;
        off += e.size;
    }
    if ( off != op->bytes )
        return false;
    for ( ; off < size; off++ )
        if ( buf[off] != 0xa5 )
            return false;
    return true;
}

/*
 * A table of 2000 symbols (64000 bytes of entries) asked for with a 1 MiB
 * buffer: each call copies at most 16 KiB, and calls from the index each
 * returns give the whole table, in order.
 */
static void test_symbols_bounded(void)
{
    enum { N = 2000 };
    static struct sym big[N];
    static char names[N][12];
    static uint8_t large[1 << 20];
    struct xen_sysctl_profile_symbols op;
    unsigned int i, calls = 0, most = 0, got = 0;
    bool in_order = true;
    int rc;

    for ( i = 0; i < N; i++ )
    {
        snprintf(names[i], sizeof(names[i]), "sym_%04u", i);
        big[i].name = names[i];
        big[i].type = 'T';
        big[i].address = 0xffff82d040200000UL + i * 16;
    }
    table = big;
    table_len = N;
    memset(&op, 0, sizeof(op));
    do {
        uint32_t off = 0, j;

        op.size = sizeof(large);
        set_xen_guest_handle(op.buffer, large);
        rc = profile_symbols(&op);
        calls++;
        if ( op.bytes > most )
            most = op.bytes;
        for ( j = 0; j < op.count && got < N; j++, got++ )
        {
            struct xen_sysctl_profile_symbol e;

            memcpy(&e, large + off, sizeof(e));
            in_order = in_order && e.address == big[got].address &&
                       !strcmp((char *)large + off + sizeof(e), names[got]);
            off += e.size;
        }
    } while ( !rc && op.count && calls < 100 );
    tap_ok(!rc && got == N && in_order,
           "symbols: calls from the index each returns give all %u "
           "symbols, in order (rc %d, %u)", N, rc, got);
    tap_ok(most <= 16384 && calls > 4,
           "symbols: a call copies at most 16 KiB, whatever the buffer "
           "(%u bytes at most, %u calls)", most, calls);
}

void test_symbols(void)
{
    static const struct sym end_last[] = {
        { "idle_loop", 'T', 0xffff82d040200000UL },
        { "do_nmi", 'T', 0xffff82d040201000UL },
        { "", 0, 0 },
    };
    static const struct sym end_mid[] = {
        { "a", 't', 0xffff82d040200000UL },
        { "", 0, 0 },
        { "bcd", 'T', 0xffff82d040202000UL },
    };
    static const char *const want_last[] = { "idle_loop", "do_nmi" };
    static const char *const want_mid[] = { "a", "bcd" };
    static uint8_t buf[4096];
    struct xen_sysctl_profile_symbols op;
    int rc;

    table = end_last;
    table_len = 3;
    rc = read_all(buf, sizeof(buf), &op);
    tap_ok(!rc && entries_are(buf, sizeof(buf), &op, want_last, 2),
           "symbols: an END marker last ends the table: 2 entries, "
           "no entry of unset bytes (rc %d, count %u)", rc, op.count);
    tap_ok(op.index == 3, "symbols: the index is then the end (%u)",
           op.index);
    rc = profile_symbols(&op);
    tap_ok(!rc && !op.count && !op.bytes && op.index == 3,
           "symbols: reading at the end gives nothing (rc %d, count %u)",
           rc, op.count);

    table = end_mid;
    rc = read_all(buf, sizeof(buf), &op);
    tap_ok(!rc && entries_are(buf, sizeof(buf), &op, want_mid, 2),
           "symbols: an END marker inside the table is skipped (count %u)",
           op.count);

    op.index = 4;
    rc = profile_symbols(&op);
    tap_ok(rc == -EINVAL, "symbols: an index past the end is EINVAL (%d)",
           rc);

    test_symbols_bounded();
}
