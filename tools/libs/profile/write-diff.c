/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-diff.c: differential profiles, a ("before") against b ("after").
 *
 * Both sets are sorted in folded line order, so their union is a merge:
 * an array of (index in a, index in b) pairs, NONE where a stack is
 * missing from one side.  The diff folded text has one line per stack of
 * the union, "stack count_a count_b" (difffolded.pl's format).  The
 * differential flame graph is drawn from the same union: frames sized by
 * b, each stack's delta b - a on its leaf frame, red where b grew and
 * blue where it shrank (flamegraph.pl on difffolded.pl's output).  A
 * stack found only in a has width 0: it shows no frame of its own, but
 * its delta counts on the frame it ends in when that frame is drawn.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "stackset.h"

#define NONE SIZE_MAX

struct pair {
    size_t a, b;                    /* stack index, or NONE */
};

struct diff {
    const struct xenprof_stackset *a, *b;
    struct pair *pairs;
    size_t n;
};

static int cmp_at(const struct diff *d, size_t i, size_t j)
{
    const char *const *fa, *const *fb;
    size_t na, nb;
    uint64_t c;

    xenprof_stackset_get(d->a, i, &fa, &na, &c);
    xenprof_stackset_get(d->b, j, &fb, &nb, &c);
    return xenprof_priv_ss_cmp(fa, na, fb, nb);
}

/* Merge the two sorted sets into d->pairs; 0 or -ENOMEM. */
static int merge(struct diff *d)
{
    size_t na = xenprof_stackset_size(d->a), nb = xenprof_stackset_size(d->b);
    size_t i = 0, j = 0;
    int c;

    if ( na > SIZE_MAX / sizeof(*d->pairs) - nb - 1 )
        return -ENOMEM;
    d->pairs = malloc((na + nb + 1) * sizeof(*d->pairs));
    if ( !d->pairs )
        return -ENOMEM;
    for ( d->n = 0; i < na || j < nb; d->n++ )
    {
        c = i == na ? 1 : j == nb ? -1 : cmp_at(d, i, j);
        d->pairs[d->n].a = c <= 0 ? i++ : NONE;
        d->pairs[d->n].b = c >= 0 ? j++ : NONE;
    }
    return 0;
}

/* The frames and both counts of pair i of the union. */
static void pair_get(const struct diff *d, size_t i,
                     const char *const **frames, size_t *n,
                     uint64_t *ca, uint64_t *cb)
{
    const struct pair *p = &d->pairs[i];

    *ca = *cb = 0;
    if ( p->a != NONE )
        xenprof_stackset_get(d->a, p->a, frames, n, ca);
    if ( p->b != NONE )
        xenprof_stackset_get(d->b, p->b, frames, n, cb);
}

/* 0 or -EIO. */
static int write_pair(const struct diff *d, size_t i, FILE *out)
{
    const char *const *f;
    uint64_t ca, cb;
    size_t n;

    pair_get(d, i, &f, &n, &ca, &cb);
    if ( xenprof_priv_put_stack(out, f, n) ||
         fprintf(out, " %" PRIu64 " %" PRIu64 "\n", ca, cb) < 0 )
        return -EIO;
    return 0;
}

/*
 * Sorted union of a's and b's stacks, "stack count_a count_b" per line.
 * Returns 0, -EINVAL (a NULL argument), -ENOMEM or -EIO.
 */
int xenprof_write_diff_folded(const struct xenprof_stackset *a,
                              const struct xenprof_stackset *b, FILE *out)
{
    struct diff d = { .a = a, .b = b };
    size_t i;
    int rc;

    if ( !a || !b || !out )
        return -EINVAL;
    rc = merge(&d);
    for ( i = 0; !rc && i < d.n; i++ )
        rc = write_pair(&d, i, out);
    free(d.pairs);
    if ( !rc && (fflush(out) || ferror(out)) )
        rc = -EIO;
    return rc;
}

static int get_pair(void *ctx, size_t i, struct xenprof_fg_item *it)
{
    uint64_t ca, cb;

    pair_get(ctx, i, &it->frames, &it->nr_frames, &ca, &cb);
    it->width = cb;
    if ( cb >= ca )
        it->delta = cb - ca > INT64_MAX ? INT64_MAX : (int64_t)(cb - ca);
    else
        it->delta = ca - cb > INT64_MAX ? -INT64_MAX : -(int64_t)(ca - cb);
    return 0;
}

/*
 * Returns 0, -EINVAL (a NULL argument or a bad option), -ENODATA when b
 * has no samples, -ENOMEM or -EIO, with a message in err.
 */
int xenprof_write_flamegraph_diff(const struct xenprof_stackset *a,
                                  const struct xenprof_stackset *b,
                                  FILE *out,
                                  const struct xenprof_svg_opts *o,
                                  char *err, size_t errlen)
{
    struct diff d = { .a = a, .b = b };
    int rc;

    if ( !a || !b || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "diff flame graph: no stacks or no output");
    if ( merge(&d) )
        return xenprof_priv_err(err, errlen, -ENOMEM,
                                "diff flame graph: out of memory");
    rc = xenprof_priv_flamegraph(get_pair, &d, d.n, true, out, o, err,
                                 errlen);
    free(d.pairs);
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
