/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbolize-cache.c: the per-address cache of frame names
 * (symbolize-cache.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize-cache.h"

#define MIN_SIZE 1024

static size_t hash_addr(uint64_t a)
{
    a ^= a >> 31;
    a *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(a ^ (a >> 29));
}

/* The slot of addr: its entry or a free one. */
static struct fc_ent *slot(const struct xenprof_fcache *c, uint64_t addr)
{
    size_t i = hash_addr(addr) & (c->size - 1);

    while ( c->tab[i].n && c->tab[i].addr != addr )
        i = (i + 1) & (c->size - 1);
    return &c->tab[i];
}

/* Double the table (or create it); 0 or -ENOMEM (c unchanged). */
static int grow(struct xenprof_fcache *c)
{
    struct xenprof_fcache bigger = *c;
    size_t i;

    bigger.size = c->size ? 2 * c->size : MIN_SIZE;
    if ( bigger.size > SIZE_MAX / sizeof(*bigger.tab) )
        return -ENOMEM;
    bigger.tab = calloc(bigger.size, sizeof(*bigger.tab));
    if ( !bigger.tab )
        return -ENOMEM;
    for ( i = 0; i < c->size; i++ )
        if ( c->tab[i].n )
            *slot(&bigger, c->tab[i].addr) = c->tab[i];
    free(c->tab);
    *c = bigger;
    return 0;
}

int xenprof_priv_fc_get(const struct xenprof_fcache *c, uint64_t addr,
                        const char *const **names, size_t *n)
{
    const struct fc_ent *e;

    if ( !c->size )
        return 0;
    e = slot(c, addr);
    if ( !e->n )
        return 0;
    *names = c->names + e->off;
    *n = e->n;
    return 1;
}

int xenprof_priv_fc_reserve(struct xenprof_fcache *c, size_t n)
{
    while ( c->size < 2 * n )
        if ( grow(c) )
            return -ENOMEM;
    return 0;
}

int xenprof_priv_fc_put(struct xenprof_fcache *c, uint64_t addr,
                        const char *const *names, size_t n,
                        const char *const **cached)
{
    struct fc_ent *e;
    void *p = c->names;

    if ( !n || ((c->used + 1) * 2 > c->size && grow(c)) ||
         xenprof_priv_reserve(&p, c->nr_names, n, sizeof(*c->names)) )
        return -ENOMEM;
    c->names = p;
    memcpy(c->names + c->nr_names, names, n * sizeof(*names));
    e = slot(c, addr);
    e->addr = addr;
    e->off = c->nr_names;
    e->n = n;
    *cached = c->names + c->nr_names;
    c->nr_names += n;
    c->used++;
    return 0;
}

void xenprof_priv_fc_free(struct xenprof_fcache *c)
{
    free(c->tab);
    free(c->names);
    memset(c, 0, sizeof(*c));
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
