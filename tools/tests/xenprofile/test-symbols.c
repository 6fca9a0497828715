/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-symbols.c: the symbol table: text symbols only, sorted, aliases,
 * display names ("file#" prefix rule), lookups at the edges.
 */
#include <stdio.h>
#include <string.h>

#include "test.h"

#define S(a, t, n) { (a), (t), (char *)(n) }

/* Given out of order, with data symbols and aliases mixed in. */
static const struct xenprof_symbol syms[] = {
    S(0x2000, 'T', "last_fn"),
    S(0x1300, 't', "arch/x86/a.c#helper"),
    S(0x1100, 'D', "some_data"),
    S(0x0800, 'd', "data_before_text"),
    S(0x1000, 'T', "_stext"),
    S(0x1500, 't', "common/softirq.c#alias_static"),
    S(0x1200, 't', "common/sched/core.c#schedule"),
    S(0x1400, 't', "arch/x86/b.c#helper"),
    S(0x1500, 'T', "do_softirq"),
    S(0x1500, 'W', "alias_weak"),
    S(0x1600, 'W', "weak_fn"),
    S(0x1700, 't', "x.c#foo.constprop.0"),
    S(0x1800, 'T', "foo"),
    S(0x1900, 't', "y.c#foo"),
    S(0x1a00, 'w', "z.c#weak_static"),
    S(0x1b00, 't', "m.c#twin"),
    S(0x1b00, 't', "n.c#twin_alias"),
    S(0x1c00, 'r', "rodata"),
    S(0x1d00, 't', "p.c#only.cold"),
    S(0x3000, 'b', "bss_after_text"),
};

static const struct {
    uint64_t addr;
    const char *name;               /* NULL: none */
} lookups[] = {
    { 0, NULL },
    { 0x0fff, NULL },                       /* before the first */
    { 0x1000, "_stext" },                   /* start */
    { 0x1080, "_stext" },                   /* middle */
    { 0x1100, "_stext" },                   /* a data symbol: no end */
    { 0x11ff, "_stext" },                   /* end */
    { 0x1200, "schedule" },                 /* prefix dropped */
    { 0x1300, "arch/x86/a.c#helper" },      /* clash: full names */
    { 0x13ff, "arch/x86/a.c#helper" },
    { 0x1400, "arch/x86/b.c#helper" },
    { 0x1500, "do_softirq" },               /* 'T' among aliases */
    { 0x1600, "weak_fn" },
    { 0x1700, "foo.constprop.0" },          /* suffix kept */
    { 0x1800, "foo" },                      /* global keeps its name */
    { 0x1900, "y.c#foo" },                  /* clashes with the global */
    { 0x1a00, "weak_static" },
    { 0x1b00, "twin" },                     /* first of equal statics */
    { 0x1c80, "twin" },                     /* 'r' ignored */
    { 0x1d00, "only.cold" },
    { 0x1fff, "only.cold" },
    { 0x2000, "last_fn" },
    { 0x2000 + 0xffff, "last_fn" },         /* last: 64 KiB */
    { 0x2000 + 0x10000, NULL },             /* after the last */
    { 0x3000, "last_fn" },                  /* 'b' ignored */
    { UINT64_MAX, NULL },
};

static void lookup_table(void)
{
    struct xenprof_symtab *t =
        xenprof_symtab_new(syms, sizeof(syms) / sizeof(syms[0]));
    const char *got;
    size_t i;

    tap_ok(t != NULL, "symbols: a table of %zu symbols",
           sizeof(syms) / sizeof(syms[0]));
    for ( i = 0; t && i < sizeof(lookups) / sizeof(lookups[0]); i++ )
    {
        got = xenprof_symtab_lookup(t, lookups[i].addr);
        tap_ok(got == lookups[i].name ||
               (got && lookups[i].name && !strcmp(got, lookups[i].name)),
               "symbols: 0x%llx is %s (got %s)",
               (unsigned long long)lookups[i].addr,
               lookups[i].name ? lookups[i].name : "none",
               got ? got : "none");
    }
    xenprof_symtab_free(t);
}

static void edge_tables(void)
{
    static const struct xenprof_symbol data_only[] = {
        S(0x1000, 'D', "d"), S(0x2000, 'b', "b"), S(0x3000, 'A', "a"),
    };
    static const struct xenprof_symbol prefixed[] = {
        S(0x1000, 't', "a.c#"), S(0x2000, 't', "x#y#z"),
    };
    struct xenprof_symtab *t = xenprof_symtab_new(NULL, 0);
    const char *a, *b;

    tap_ok(t && !xenprof_symtab_lookup(t, 0x1000) &&
           !xenprof_symtab_lookup(NULL, 0x1000),
           "symbols: an empty table (and NULL) finds nothing");
    xenprof_symtab_free(t);
    t = xenprof_symtab_new(data_only, 3);
    tap_ok(t && !xenprof_symtab_lookup(t, 0x1000) &&
           !xenprof_symtab_lookup(t, 0x2800),
           "symbols: data symbols are ignored");
    xenprof_symtab_free(t);
    t = xenprof_symtab_new(prefixed, 2);
    a = t ? xenprof_symtab_lookup(t, 0x1000) : NULL;
    b = t ? xenprof_symtab_lookup(t, 0x2000) : NULL;
    tap_ok(a && b && !strcmp(a, "a.c#") && !strcmp(b, "z"),
           "symbols: \"a.c#\" stays whole, \"x#y#z\" is \"z\"");
    xenprof_symtab_free(t);
    xenprof_symtab_free(NULL);
}

void test_symbols(void)
{
    lookup_table();
    edge_tables();
}
