/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbolize.c: address to function name, against the hypervisor's embedded
 * symbol table (or any nm(1)-like list).
 *
 * Only text symbols ('T', 't', 'W', 'w') are kept, sorted by address.  Of
 * several symbols at one address (aliases) only one is kept: 'T' first,
 * then 'W', 't', 'w', then the one given first.  A function extends to the
 * next higher address; the last one is given LAST_EXTENT bytes, since the
 * table does not say where text ends.  A table built with sizes (from an
 * ELF symbol table, symbolize-elf.c) ends a function at addr + size
 * instead, unless its size is 0 (assembly labels); aliases get the
 * largest size of theirs.
 *
 * The embedded table names static symbols "path/file.c#name".  The
 * display name drops the "path/file.c#" prefix, unless another kept
 * symbol has the same short name: then the symbols with a prefix keep
 * their full names, so that the two stay apart.  gcc suffixes
 * (".constprop.0", ".isra.0", ".cold") are part of the name and stay.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define LAST_EXTENT 0x10000             /* 64 KiB */

struct entry {
    uint64_t addr;
    uint64_t size;                      /* 0: to the next symbol */
    const char *name;                   /* into pool */
};

struct xenprof_symtab {
    struct entry *e;
    size_t n;
    char *pool;
};

/* A text symbol while the table is built. */
struct cand {
    uint64_t addr;
    uint64_t size;
    unsigned int rank;                  /* preference among aliases */
    size_t idx;                         /* position in the input */
    const char *full, *shrt;            /* full and short names */
    const char *disp;                   /* the display name */
};

/* 0..3 for the text types, by preference among aliases; -1 otherwise. */
static int text_rank(char type)
{
    const char *p = type ? strchr("TWtw", type) : NULL;

    return p ? p - "TWtw" : -1;
}

static int cmp_addr(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;

    if ( x->addr != y->addr )
        return x->addr < y->addr ? -1 : 1;
    if ( x->rank != y->rank )
        return x->rank < y->rank ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_short(const void *a, const void *b)
{
    const struct cand *const *x = a, *const *y = b;

    return strcmp((*x)->shrt, (*y)->shrt);
}

/*
 * The text symbols of syms (with sizes[i], or 0 when sizes is NULL),
 * sorted, one per address; *m of them.
 */
static struct cand *collect(const struct xenprof_symbol *syms,
                            const uint64_t *sizes, size_t n, size_t *m)
{
    struct cand *c = malloc((n ? n : 1) * sizeof(*c));
    const char *hash;
    size_t i, k = 0;
    int rank;

    if ( !c )
        return NULL;
    for ( i = 0; i < n; i++ )
    {
        rank = text_rank(syms[i].type);
        if ( rank < 0 || !syms[i].name )
            continue;
        hash = strrchr(syms[i].name, '#');
        c[k].addr = syms[i].addr;
        c[k].size = sizes ? sizes[i] : 0;
        c[k].rank = rank;
        c[k].idx = i;
        c[k].full = syms[i].name;
        c[k].shrt = hash && hash[1] ? hash + 1 : syms[i].name;
        c[k++].disp = NULL;
    }
    qsort(c, k, sizeof(*c), cmp_addr);
    for ( i = 0, *m = 0; i < k; i++ )
        if ( !*m || c[*m - 1].addr != c[i].addr )
            c[(*m)++] = c[i];
        else if ( c[i].size > c[*m - 1].size )
            c[*m - 1].size = c[i].size;
    return c;
}

/* Choose the display names of c[0..m); 0 or -ENOMEM. */
static int choose_names(struct cand *c, size_t m)
{
    struct cand **by = malloc((m ? m : 1) * sizeof(*by));
    size_t i, j, k;

    if ( !by )
        return -ENOMEM;
    for ( i = 0; i < m; i++ )
        by[i] = &c[i];
    qsort(by, m, sizeof(*by), cmp_short);
    for ( i = 0; i < m; i = j )
    {
        for ( j = i + 1; j < m && !strcmp(by[i]->shrt, by[j]->shrt); j++ )
            continue;
        for ( k = i; k < j; k++ )
            by[k]->disp = j - i > 1 ? by[k]->full : by[k]->shrt;
    }
    free(by);
    return 0;
}

/* Copy the display names of c[0..m) into t; 0 or -ENOMEM. */
static int fill(struct xenprof_symtab *t, const struct cand *c, size_t m)
{
    size_t i, len, size = 1;
    char *p;

    for ( i = 0; i < m; i++ )
        size += strlen(c[i].disp) + 1;
    t->e = malloc((m ? m : 1) * sizeof(*t->e));
    t->pool = malloc(size);
    if ( !t->e || !t->pool )
        return -ENOMEM;
    for ( i = 0, p = t->pool; i < m; i++ )
    {
        len = strlen(c[i].disp) + 1;
        memcpy(p, c[i].disp, len);
        t->e[i].addr = c[i].addr;
        t->e[i].size = c[i].size;
        t->e[i].name = p;
        p += len;
    }
    t->n = m;
    return 0;
}

/* NULL when out of memory.  syms may be NULL when n is 0. */
struct xenprof_symtab *xenprof_priv_symtab_new(
    const struct xenprof_symbol *syms, const uint64_t *sizes, size_t n)
{
    struct xenprof_symtab *t = calloc(1, sizeof(*t));
    struct cand *c = NULL;
    size_t m = 0;

    if ( !t || (n && !syms) )
        goto fail;
    c = collect(syms, sizes, n, &m);
    if ( !c || choose_names(c, m) || fill(t, c, m) )
        goto fail;
    free(c);
    return t;

 fail:
    free(c);
    xenprof_symtab_free(t);
    return NULL;
}

/* NULL when out of memory.  syms may be NULL when n is 0. */
struct xenprof_symtab *xenprof_symtab_new(const struct xenprof_symbol *syms,
                                          size_t n)
{
    return xenprof_priv_symtab_new(syms, NULL, n);
}

void xenprof_symtab_free(struct xenprof_symtab *t)
{
    if ( !t )
        return;
    free(t->e);
    free(t->pool);
    free(t);
}

/* NULL also when t is NULL or empty. */
const char *xenprof_priv_symtab_find(const struct xenprof_symtab *t,
                                     uint64_t addr, uint64_t *start)
{
    size_t lo = 0, hi, mid;

    if ( !t || !t->n || addr < t->e[0].addr )
        return NULL;
    hi = t->n;                          /* e[lo].addr <= addr < e[hi] */
    while ( hi - lo > 1 )
    {
        mid = lo + (hi - lo) / 2;
        if ( t->e[mid].addr <= addr )
            lo = mid;
        else
            hi = mid;
    }
    if ( t->e[lo].size && addr - t->e[lo].addr >= t->e[lo].size )
        return NULL;
    if ( !t->e[lo].size && lo == t->n - 1 &&
         addr - t->e[lo].addr >= LAST_EXTENT )
        return NULL;
    if ( start )
        *start = t->e[lo].addr;
    return t->e[lo].name;
}

/* NULL also when t is NULL or empty. */
const char *xenprof_symtab_lookup(const struct xenprof_symtab *t,
                                  uint64_t addr)
{
    return xenprof_priv_symtab_find(t, addr, NULL);
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
