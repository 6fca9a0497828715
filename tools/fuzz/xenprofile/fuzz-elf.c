/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * fuzz-elf.c: the xen-syms ELF reader of --xen-syms,
 * xenprof_priv_elf_parse(), on any bytes; a table it returns is then
 * used: lookups at addresses taken from the input and around the usual
 * Xen text, and a small profile of those addresses symbolized with it
 * (stack set and script, as --xen-syms does).  addr2line is not run.
 */
#include <stdlib.h>

#include "symbolize-elf.h"
#include "fuzz.h"

#define XEN_TEXT 0xffff82d040200000ULL
#define NR_ADDR  64

/* The addresses to look up: from the input, then around XEN_TEXT. */
static void addresses(const uint8_t *data, size_t size, uint64_t *a)
{
    size_t i, j;

    for ( i = 0, j = 0; i < NR_ADDR / 2; i++, j += 8 )
        a[i] = j + 8 <= size ? xenprof_get64(data + j) : XEN_TEXT + i;
    for ( ; i < NR_ADDR; i++ )
        a[i] = XEN_TEXT + (i - NR_ADDR / 2) * 0x40 + (data[0] & 7);
}

/* A profile of one sample per 4 addresses; aborts when out of memory. */
static struct xenprof_data *profile(const uint64_t *a)
{
    struct xenprof_data *d = xenprof_data_new();
    uint8_t rec[24 + 4 * 8] = { 0 };
    unsigned int i, j;

    if ( !d )
        abort();
    xenprof_put16(rec, sizeof(rec));
    rec[2] = XENPROF_REC_SAMPLE;
    rec[11] = 4;
    for ( i = 0; i < NR_ADDR; i += 4 )
    {
        for ( j = 0; j < 4; j++ )
            xenprof_put64(rec + 24 + 8 * j, a[i + j]);
        if ( xenprof_data_add_records(d, rec, sizeof(rec)) )
            abort();
    }
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xenprof_symsrc src = { 0 };
    struct xenprof_stackset *s = NULL;
    struct xenprof_data *d;
    struct xenprof_elf *e;
    uint64_t a[NR_ADDR], start;
    unsigned int i;
    char err[256];

    if ( xenprof_priv_elf_parse(data, size, "fuzz.elf", &e, err,
                                sizeof(err)) )
        return 0;
    addresses(data, size, a);
    for ( i = 0; i < NR_ADDR; i++ )
        if ( xenprof_priv_symtab_find(e->t, a[i], &start) && start > a[i] )
            abort();
    src.t = e->t;
    d = profile(a);
    if ( !xenprof_stackset_from_data(d, NULL, &src, &s, err, sizeof(err)) )
        fuzz_stackset(s);
    xenprof_write_script(d, NULL, &src, fuzz_null(), err, sizeof(err));
    xenprof_stackset_free(s);
    xenprof_data_free(d);
    xenprof_priv_elf_free(e);
    return 0;
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
