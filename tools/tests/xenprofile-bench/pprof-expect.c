/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * pprof-expect.c: the writer side of an independent pprof check (by a
 * decoder that shares no code with the writer).  It writes a synthetic
 * profile as pprof and prints what a decoder must find in it, computed
 * here from the library's stack set without the pprof writer:
 *
 *   sample_types samples/count cpu/nanoseconds
 *   period_type cpu/nanoseconds
 *   period P
 *   total_samples N           sum of value[0]
 *   total_value N             sum of the last value
 *   functions N               distinct frame names
 *   samples N                 distinct stacks: of addresses (raw stacks)
 *                             from the data, of names from folded text
 *   top COUNT NAME            10 lines: functions by self (leaf) count,
 *                             then by name
 *
 * usage: pprof-expect [-f] OUT.pb.gz
 *   -f  go through folded text first: the pprof of a folded input (no
 *       data file, so no CPU time, period or times)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synth.h"
#include "../../libs/profile/stackset.h"

#define TOP 10

struct self {
    const char *name;
    uint64_t count;
};

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const struct self *)a)->name,
                  ((const struct self *)b)->name);
}

static int cmp_count(const void *a, const void *b)
{
    const struct self *x = a, *y = b;

    if ( x->count != y->count )
        return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

/*
 * Every frame of s once (with its self count): sorted by name, merged.
 * Returns the number of distinct names, or 0 when out of memory.
 */
static size_t self_counts(const struct xenprof_stackset *s,
                          struct self **out)
{
    const char *const *frames;
    struct self *v = NULL, *p;
    size_t n = 0, i, j, k, nr;
    uint64_t count;

    for ( i = 0; i < xenprof_stackset_size(s); i++ )
    {
        xenprof_stackset_get(s, i, &frames, &nr, &count);
        if ( !(p = realloc(v, (n + nr) * sizeof(*v))) )
            return free(v), 0;
        v = p;
        for ( j = 0; j < nr; j++ )
        {
            v[n].name = frames[j];
            v[n++].count = j + 1 == nr ? count : 0;
        }
    }
    qsort(v, n, sizeof(*v), cmp_name);
    for ( i = 0, k = 0; i < n; i++ )
        if ( k && !strcmp(v[k - 1].name, v[i].name) )
            v[k - 1].count += v[i].count;
        else
            v[k++] = v[i];
    *out = v;
    return k;
}

static void print_expect(const struct xenprof_stackset *s,
                         const struct xenprof_data *d)
{
    uint64_t total = xenprof_stackset_total(s);
    uint64_t period = d ? d->meta.period : 0;
    struct self *v = NULL;
    size_t n = self_counts(s, &v), i;

    qsort(v, n, sizeof(*v), cmp_count);
    printf("sample_types samples/count%s\n", d ? " cpu/nanoseconds" : "");
    if ( d )
        printf("period_type cpu/nanoseconds\nperiod %" PRIu64 "\n", period);
    printf("total_samples %" PRIu64 "\n", total);
    printf("total_value %" PRIu64 "\n", d ? total * period : total);
    printf("functions %zu\n", n);
    printf("samples %zu\n", d ? xenprof_priv_ss_nr_raw(s)
                                : xenprof_stackset_size(s));
    for ( i = 0; i < n && i < TOP; i++ )
        printf("top %" PRIu64 " %s\n", v[i].count, v[i].name);
    free(v);
}

/* s through folded text and back; NULL on failure. */
static struct xenprof_stackset *via_folded(const struct xenprof_stackset *s)
{
    struct xenprof_stackset *t = NULL;
    char *text = NULL, err[256] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if ( !f || xenprof_write_folded(s, f) )
        fprintf(stderr, "pprof-expect: cannot write folded text\n");
    else
    {
        fclose(f);
        f = fmemopen(text, len, "r");
        if ( !f || xenprof_stackset_read_folded(f, &t, NULL, err,
                                                sizeof(err)) )
            fprintf(stderr, "pprof-expect: folded input: %s\n", err);
    }
    if ( f )
        fclose(f);
    free(text);
    return t;
}

int main(int argc, char **argv)
{
    struct synth_opts o = SYNTH_DEFAULTS;
    struct xenprof_data *d;
    struct xenprof_stackset *s = NULL, *t;
    bool folded = argc == 3 && !strcmp(argv[1], "-f");
    char err[256] = "";
    FILE *out;
    int rc;

    if ( argc != 2 + folded )
    {
        fprintf(stderr, "usage: pprof-expect [-f] OUT.pb.gz\n");
        return 2;
    }
    o.seed = 7;
    o.nr_samples = 200000;
    o.nr_stacks = 20000;
    d = synth_profile(&o);
    rc = d ? xenprof_stackset_from_data(d, NULL, NULL, &s, err, sizeof(err)) : 1;
    if ( !rc && folded )
    {
        t = via_folded(s);
        xenprof_stackset_free(s);
        s = t;
        xenprof_data_free(d);
        d = NULL;
        rc = !s;
    }
    out = rc ? NULL : fopen(argv[argc - 1], "wb");
    rc = out ? xenprof_write_pprof(s, d, out, err, sizeof(err)) : 1;
    if ( out && fclose(out) && !rc )
        rc = 1;
    if ( rc )
        fprintf(stderr, "pprof-expect: %s: failed: %s\n", argv[argc - 1],
                err);
    else
        print_expect(s, d);
    xenprof_stackset_free(s);
    xenprof_data_free(d);
    return rc ? 1 : 0;
}
