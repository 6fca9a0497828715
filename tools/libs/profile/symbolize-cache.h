/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbolize-cache.h: the frame names of Xen addresses, cached while one
 * stack set is built (stackset-build.c).  The same return addresses recur
 * in millions of samples: each distinct address is looked up (symbol
 * table, addr2line's inlined functions) once, and its names, interned in
 * the set, are found again by a hash of the address.  Not installed.
 */
#ifndef XENPROFILE_SYMBOLIZE_CACHE_H
#define XENPROFILE_SYMBOLIZE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "private.h"

struct fc_ent {
    uint64_t addr;                  /* the address looked up */
    size_t off, n;                  /* its names: names[off..off + n) */
};

/* Zero-initialised: empty. */
struct xenprof_fcache {
    struct fc_ent *tab;             /* open addressing, pow2 size; n 0: free */
    size_t size, used;
    const char **names;             /* every entry's names, one run each */
    size_t nr_names;
};

/* The names of addr: 1 and *names, *n when cached, else 0. */
int xenprof_priv_fc_get(const struct xenprof_fcache *c, uint64_t addr,
                        const char *const **names, size_t *n)
    xenprof_hidden;

/*
 * Cache the n >= 1 names of addr (not cached yet; the pointers are kept,
 * not the strings), and give the cached copy in *cached; 0 or -ENOMEM
 * (c unchanged).
 */
int xenprof_priv_fc_put(struct xenprof_fcache *c, uint64_t addr,
                        const char *const *names, size_t n,
                        const char *const **cached) xenprof_hidden;

/* Room for about n addresses without growing; 0 or -ENOMEM. */
int xenprof_priv_fc_reserve(struct xenprof_fcache *c, size_t n)
    xenprof_hidden;

void xenprof_priv_fc_free(struct xenprof_fcache *c) xenprof_hidden;

#endif /* XENPROFILE_SYMBOLIZE_CACHE_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
