/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-pprof.c: the pprof writer, read back by the reader of
 * test-pprof-read.c (independent of the library's encoder).  The decoded
 * profile is turned back into folded text and compared with the input,
 * or with xenprof_write_folded() for a data file; the tables, sample
 * types, values, period, times, gzip framing and failures are checked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-pprof.h"

/* The string of a sample type, period type (or comment) index. */
static const char *s_or(const struct dprof *d, uint64_t i)
{
    const char *s = pprof_str(d, i);

    return s ? s : "(none)";
}

/*
 * Checks every output passes: string_table[0] is "", one Function per
 * distinct name, distinct Location ids, every location with one line
 * naming an existing function, every sample with a value per sample type
 * and only known locations.  Returns the decoded profile's folded text
 * (NULL on a failed check).
 */
static char *check_tables(const struct dprof *d, const char *what)
{
    bool names_ok = d->nfn <= d->nloc, vals_ok = true;
    char **names = calloc(d->nfn + 1, sizeof(*names)), *folded;
    size_t i;

    for ( i = 0; names && i < d->nfn; i++ )
    {
        names[i] = (char *)pprof_str(d, d->fn_name[i]);
        names_ok = names_ok && names[i];
    }
    if ( names && names_ok )
    {
        qsort(names, d->nfn, sizeof(*names), pprof_cmp_str);
        for ( i = 1; i < d->nfn; i++ )
            names_ok = names_ok && strcmp(names[i - 1], names[i]);
    }
    free(names);
    for ( i = 0; i < d->nsmp; i++ )
        vals_ok = vals_ok && d->smp[i].nval == d->nst;
    tap_ok(d->nstr && !strcmp(d->str[0], ""),
           "pprof %s: string_table[0] is \"\"", what);
    tap_ok(names && names_ok && pprof_distinct_ids(d->fn_id, d->nfn) &&
           pprof_distinct_ids(d->loc_id, d->nloc),
           "pprof %s: one function per distinct name, distinct locations "
           "(%zu, %zu)", what, d->nfn, d->nloc);
    folded = pprof_folded(d);
    tap_ok(folded && vals_ok, "pprof %s: every sample has known locations "
           "and %zu values", what, d->nst);
    return folded;
}

static void folded_input(void)
{
    static const char text[] =
        "[truncated];helper;leaf 1\n"
        "d1v0 web;[guest kernel] 2\n"
        "main_loop;do_work 1\n"
        "main_loop;do_work;helper;leaf 3\n"
        "main_loop;helper 4\n";
    struct xenprof_stackset *s = stackset_of_text(text);
    struct dprof d = { 0 };
    uint8_t *raw = NULL, *raw2 = NULL;
    size_t len = 0, len2 = 0;
    unsigned int blocks = 0;
    char *folded = NULL;
    int rc = s ? pprof_run(s, NULL, &d, &blocks, &raw, &len) : -ENOMEM;

    if ( !tap_ok(!rc, "pprof folded: written and decoded (%d)", rc) )
        goto out;
    tap_ok(blocks == 1 && len < 1024, "pprof folded: one stored block of "
           "%zu bytes, CRC-32 and size checked", len);
    folded = check_tables(&d, "folded");
    tap_ok(same_text(folded, text) && d.nfn == 7,
           "pprof folded: samples give back the input (leaf first), "
           "7 functions");
    tap_ok(d.nst == 1 && !strcmp(s_or(&d, d.st_type[0]), "samples") &&
           !strcmp(s_or(&d, d.st_unit[0]), "count") && !d.pt_type &&
           !d.period && !d.time && !d.dur,
           "pprof folded: sample type samples/count only, no period, "
           "no time");
    pprof_dprof_free(&d);
    rc = pprof_run(s, NULL, &d, &blocks, &raw2, &len2);
    tap_ok(!rc && len == len2 && !memcmp(raw, raw2, len),
           "pprof folded: the same input gives the same bytes");
 out:
    pprof_dprof_free(&d);
    free(raw);
    free(raw2);
    free(folded);
    xenprof_stackset_free(s);
}

/* Add a sample (times records) to d: Xen when ip is given, else guest. */
static int add(struct xenprof_data *d, unsigned int times, uint8_t mode,
               uint8_t flags, const uint64_t *ip, unsigned int nr)
{
    uint8_t rec[24 + 8 * 8];
    struct trec r = { .mode = mode, .flags = flags, .domid = 1,
                      .nr = nr, .ip = ip };
    unsigned int i;
    int rc = 0;

    for ( i = 0; i < times && !rc; i++ )
    {
        r.timestamp = i;
        rc = xenprof_data_add_records(d, rec, rec_put(rec, &r));
    }
    return rc;
}

/*
 * main_loop 0x1000, do_work 0x1100, helper (static) 0x1200, leaf 0x1300;
 * a guest domain "web"; the metadata of a 10 s timer profile at 97 Hz.
 */
static struct xenprof_data *profile(void)
{
    static const uint64_t s1[] = { 0x1310, 0x1210, 0x1120, 0x1010 };
    static const uint64_t s2[] = { 0x1110, 0x1010 };
    static const uint64_t s3[] = { 0x1310, 0x1210 };
    static const uint64_t s4[] = { 0x9000000 };
    /* s1 at another offset of its leaf: the same frames, another stack. */
    static const uint64_t s5[] = { 0x1320, 0x1210, 0x1120, 0x1010 };
    struct xenprof_data *d = xenprof_data_new();
    int rc = !d;

    rc = rc ?: add_nm(d, "0x1000 T main_loop\n"
                        "0x1100 T do_work\n"
                        "0x1200 t x.c#helper\n"
                        "0x1300 T leaf\n");
    rc = rc ?: xenprof_data_add_domain(d, 1, "web", NULL);
    rc = rc ?: add(d, 5, XENPROF_MODE_XEN, 0, s1, 4);
    rc = rc ?: add(d, 2, XENPROF_MODE_XEN, 0, s5, 4);
    rc = rc ?: add(d, 2, XENPROF_MODE_XEN, 0, s2, 2);
    rc = rc ?: add(d, 1, XENPROF_MODE_XEN, XENPROF_F_TRUNCATED, s3, 2);
    rc = rc ?: add(d, 1, XENPROF_MODE_XEN, XENPROF_F_BAD_FRAME, s4, 1);
    rc = rc ?: add(d, 3, XENPROF_MODE_GUEST_KERNEL, 0, s4, 1);
    rc = rc ?: add(d, 1, XENPROF_MODE_GUEST_USER, 0, s4, 1);
    if ( rc )
    {
        xenprof_data_free(d);
        return NULL;
    }
    strcpy(d->meta.xen_version, "4.22.0");
    strcpy(d->meta.hostname, "host1");
    strcpy(d->meta.build_id, "00112233445566778899aabbccddeeff00112233");
    strcpy(d->meta.source_reason, "asked for");
    d->meta.source = XENPROF_SOURCE_TIMER;
    d->meta.frequency = 97;
    d->meta.period = 10309278;
    d->meta.start_time_ns = 1700000000123456789ULL;
    d->meta.stop_time_ns = d->meta.start_time_ns + 10000000000ULL;
    return d;
}

/* The folded text of d, by the folded writer; NULL on failure. */
static char *folded_of(const struct xenprof_data *d)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);

    if ( f && data_folded(d, f, 1, NULL, 0) )
        len = 0;
    if ( f )
        fclose(f);
    if ( !len )
    {
        free(text);
        text = NULL;
    }
    return text;
}

/* Does every sample have value[1] == value[0] * period? */
static bool scaled_ok(const struct dprof *d, uint64_t period)
{
    size_t i;

    for ( i = 0; i < d->nsmp; i++ )
        if ( d->smp[i].nval != 2 ||
             d->smp[i].val[1] != d->smp[i].val[0] * period )
            return false;
    return d->nsmp > 0;
}

/* The data file case: timer source, CPU time, times and comment. */
static void data_timer(void)
{
    struct xenprof_data *p = profile();
    struct xenprof_stackset *s = NULL;
    char *want = p ? folded_of(p) : NULL, *folded = NULL;
    struct dprof d = { 0 };
    unsigned int blocks;
    int rc = want ? xenprof_stackset_from_data(p, NULL, NULL, &s, NULL, 0)
                  : -ENOMEM;

    rc = rc ?: pprof_run(s, p, &d, &blocks, NULL, NULL);
    if ( !tap_ok(!rc, "pprof data: written and decoded (%d)", rc) )
        goto out;
    folded = check_tables(&d, "data");
    tap_ok(folded && same_text(folded, want),
           "pprof data: samples give back xenprof_write_folded()'s text");
    tap_ok(d.nst == 2 && !strcmp(s_or(&d, d.st_type[0]), "samples") &&
           !strcmp(s_or(&d, d.st_unit[0]), "count") &&
           !strcmp(s_or(&d, d.st_type[1]), "cpu") &&
           !strcmp(s_or(&d, d.st_unit[1]), "nanoseconds"),
           "pprof data: sample types samples/count and cpu/nanoseconds");
    tap_ok(scaled_ok(&d, 10309278), "pprof data: cpu = count * period");
    tap_ok(!strcmp(s_or(&d, d.pt_type), "cpu") &&
           !strcmp(s_or(&d, d.pt_unit), "nanoseconds") &&
           d.period == 10309278, "pprof data: period_type and period");
    tap_ok(d.time == 1700000000123456789ULL && d.dur == 10000000000ULL,
           "pprof data: time_nanos and duration_nanos");
    tap_ok(d.ncomment == 1 &&
           strstr(s_or(&d, d.comment[0]), "Xen 4.22.0 on host1, timer"),
           "pprof data: a comment names Xen, host and source (\"%s\")",
           d.ncomment ? s_or(&d, d.comment[0]) : "");
 out:
    pprof_dprof_free(&d);
    free(want);
    free(folded);
    xenprof_stackset_free(s);
    xenprof_data_free(p);
}

/* The Location of the function named name at addr, or NULL. */
static const struct dmap *loc_at(const struct dprof *d, const char *name,
                                 uint64_t addr, bool *found)
{
    const char *fn;
    size_t i, j;

    *found = false;
    for ( i = 0; i < d->nloc; i++ )
    {
        for ( j = 0, fn = NULL; j < d->nfn; j++ )
            if ( d->fn_id[j] == d->loc_fn[i] )
                fn = pprof_str(d, d->fn_name[j]);
        if ( fn && !strcmp(fn, name) && d->loc_addr[i] == addr )
        {
            *found = true;
            return pprof_map(d, d->loc_map[i]);
        }
    }
    return NULL;
}

/*
 * A profile from a data file: a Sample per raw stack, Xen frames at
 * their addresses in the xen-syms Mapping (the build-id, from the lowest
 * text symbol to past the highest address), guest frames in theirs, the
 * markers in none.
 */
static void data_mappings(void)
{
    struct xenprof_data *p = profile();
    struct xenprof_stackset *s = NULL;
    const struct dmap *x, *m;
    struct dprof d = { 0 };
    unsigned int blocks;
    bool in_range = true, f1, f2, f3, f4;
    size_t i;
    int rc = p ? xenprof_stackset_from_data(p, NULL, NULL, &s, NULL, 0)
               : -ENOMEM;

    rc = rc ?: pprof_run(s, p, &d, &blocks, NULL, NULL);
    x = pprof_map(&d, 1);
    tap_ok(!rc && d.nmap == 3 && x && x->has_functions &&
           !strcmp(s_or(&d, x->file), "xen-syms") &&
           !strcmp(s_or(&d, x->build_id), p->meta.build_id) &&
           x->start == 0x1000 && x->limit == 0x9000001,
           "pprof mappings: xen-syms, the build-id, 0x1000 (the lowest text "
           "symbol) to past 0x9000000 (%d, %zu)", rc, d.nmap);
    for ( i = 0; x && i < d.nloc; i++ )
        if ( d.loc_addr[i] )
            in_range = in_range && d.loc_map[i] == 1 &&
                       d.loc_addr[i] >= x->start && d.loc_addr[i] < x->limit;
    tap_ok(x && in_range && d.nsmp == 7,
           "pprof mappings: a sample per raw stack (%zu of 7), every address "
           "in the Xen mapping", d.nsmp);
    f1 = loc_at(&d, "leaf", 0x1310, &f1) == x && f1;
    f2 = loc_at(&d, "leaf", 0x1320, &f2) == x && f2;
    m = loc_at(&d, "[guest kernel]", 0, &f3);
    f3 = f3 && m && m->has_functions &&
         !strcmp(s_or(&d, m->file), "[guest.kernel]");
    f4 = !loc_at(&d, "[truncated]", 0, &f4) && f4;
    tap_ok(f1 && f2 && f3 && f4,
           "pprof mappings: leaf at 0x1310 and 0x1320 (two locations), the "
           "guest kernel in [guest.kernel], [truncated] in none");
    pprof_dprof_free(&d);
    xenprof_stackset_free(s);
    xenprof_data_free(p);
}

/* Other sources and periods: PMU events, a frequency, no period. */
static void data_sources(void)
{
    struct xenprof_data *p = profile();
    struct xenprof_stackset *s = NULL;
    struct dprof d = { 0 };
    unsigned int blocks;
    int rc = p ? xenprof_stackset_from_data(p, NULL, NULL, &s, NULL, 0)
               : -ENOMEM;

    if ( !tap_ok(!rc, "pprof sources: a stack set (%d)", rc) )
        goto out;
    p->meta.source = XENPROF_SOURCE_PMU;
    p->meta.period = 100003;
    rc = pprof_run(s, p, &d, &blocks, NULL, NULL);
    tap_ok(!rc && d.nst == 2 && !strcmp(s_or(&d, d.st_type[1]), "events") &&
           !strcmp(s_or(&d, d.st_unit[1]), "count") &&
           !strcmp(s_or(&d, d.pt_type), "events") && d.period == 100003 &&
           scaled_ok(&d, 100003),
           "pprof sources: PMU source gives events/count = count * period");
    pprof_dprof_free(&d);
    p->meta.source = XENPROF_SOURCE_TIMER;
    p->meta.period = 0;
    p->meta.frequency = 100;
    rc = pprof_run(s, p, &d, &blocks, NULL, NULL);
    tap_ok(!rc && d.nst == 2 && d.period == 10000000 &&
           scaled_ok(&d, 10000000),
           "pprof sources: timer with no period: 1 s / frequency");
    pprof_dprof_free(&d);
    p->meta.frequency = 0;
    p->meta.stop_time_ns = 0;
    rc = pprof_run(s, p, &d, &blocks, NULL, NULL);
    tap_ok(!rc && d.nst == 1 && !d.pt_type && !d.period && !d.dur &&
           d.smp[0].nval == 1,
           "pprof sources: no period known: samples/count only, "
           "no duration before the stop time");
 out:
    pprof_dprof_free(&d);
    xenprof_stackset_free(s);
    xenprof_data_free(p);
}

/* text with its lines sorted (malloc()ed), as pprof_folded() sorts. */
static char *sort_lines(const char *text)
{
    char *copy = strdup(text), **lines = NULL, **l, *p, *all = NULL;
    size_t n = 0, i, len;
    FILE *f;

    for ( p = copy; p && *p; p = strchr(p, '\n') + 1 )
    {
        if ( !(l = realloc(lines, (n + 1) * sizeof(*l))) )
            break;
        lines = l;
        lines[n++] = p;
        if ( !strchr(p, '\n') )
            break;
    }
    for ( i = 0; i < n; i++ )
        *strchr(lines[i], '\n') = '\0';
    qsort(lines, n, sizeof(*lines), pprof_cmp_str);
    f = open_memstream(&all, &len);
    for ( i = 0; f && i < n; i++ )
        fprintf(f, "%s\n", lines[i]);
    if ( f )
        fclose(f);
    free(lines);
    free(copy);
    return all;
}

/*
 * Over 64 KiB of output (several stored blocks) and a stack of 1000
 * frames, from 3001 distinct stacks not in order: the round trip holds.
 */
static void big(void)
{
    struct xenprof_stackset *s = NULL;
    char *text = NULL, *want = NULL, *folded = NULL;
    size_t len = 0, i, j;
    FILE *f = open_memstream(&text, &len);
    struct dprof d = { 0 };
    unsigned int blocks = 0;
    int rc;

    for ( i = 0; f && i < 3000; i++ )
    {
        for ( j = 0; j < 20; j++ )
            fprintf(f, "function_with_a_rather_long_name_%zu;",
                    (i * 7 + j * 13) % 900);
        fprintf(f, "leaf%zu %zu\n", i, i + 1);
    }
    for ( j = 0; f && j < 1000; j++ )
        fprintf(f, "%sdeep%zu", j ? ";" : "", j);
    if ( f )
    {
        fputs(" 1\n", f);
        fclose(f);
    }
    s = text ? stackset_of_text(text) : NULL;
    want = text ? sort_lines(text) : NULL;
    rc = s && want ? pprof_run(s, NULL, &d, &blocks, NULL, NULL) : -ENOMEM;
    if ( tap_ok(!rc && blocks > 1, "pprof big: %u stored blocks, CRC-32 "
                "and size checked (%d)", blocks, rc) )
    {
        folded = check_tables(&d, "big");
        tap_ok(folded && same_text(folded, want) && d.nsmp == 3001,
               "pprof big: 3001 samples give back the input");
    }
    pprof_dprof_free(&d);
    free(text);
    free(want);
    free(folded);
    xenprof_stackset_free(s);
}

/* Names are written as valid UTF-8: '?' for each byte that breaks it. */
static void utf8(void)
{
    static const char text[] =
        "ok\xc3\xa9;bad\xff\xfe name;\xc0\xaf;\xed\xa0\x80;"
        "\xf4\x90\x80\x80;\xf0\x9f\x94\xa5;cut\xe2\x82 1\n";
    static const char want[] =
        "ok\xc3\xa9;bad?? name;??;???;????;\xf0\x9f\x94\xa5;cut?? 1\n";
    struct xenprof_stackset *s = stackset_of_text(text);
    struct dprof d = { 0 };
    unsigned int blocks;
    char *folded = NULL;
    int rc = s ? pprof_run(s, NULL, &d, &blocks, NULL, NULL) : -ENOMEM;

    folded = rc ? NULL : pprof_folded(&d);
    tap_ok(!rc && folded && same_text(folded, want),
           "pprof utf8: valid sequences kept, each bad byte is '?'");
    pprof_dprof_free(&d);
    free(folded);
    xenprof_stackset_free(s);
}

/* Values are int64: a count past INT64_MAX is written as INT64_MAX. */
static void clamp(void)
{
    struct xenprof_stackset *s = stackset_of_text("a;b 18446744073709551615\n");
    struct xenprof_data *p = profile();
    struct dprof d = { 0 };
    unsigned int blocks;
    int rc;

    if ( !s || !p )
    {
        tap_skip("the folded reader refused the count",
                 "pprof clamp: counts past INT64_MAX");
        goto out;
    }
    rc = pprof_run(s, p, &d, &blocks, NULL, NULL);
    tap_ok(!rc && d.nsmp == 1 && d.smp[0].nval == 2 &&
           d.smp[0].val[0] == INT64_MAX && d.smp[0].val[1] == INT64_MAX,
           "pprof clamp: counts past INT64_MAX give INT64_MAX");
 out:
    pprof_dprof_free(&d);
    xenprof_data_free(p);
    xenprof_stackset_free(s);
}

static void failures(void)
{
    struct xenprof_stackset *s = stackset_of_text("a;b 1\n");
    FILE *full = fopen("/dev/full", "w");
    char err[256] = "";
    int rc;

    tap_ok(xenprof_write_pprof(NULL, NULL, stdout, NULL, 0) == -EINVAL &&
           xenprof_write_pprof(s, NULL, NULL, err, sizeof(err)) == -EINVAL
           && err[0], "pprof: no stacks or no output gives -EINVAL (\"%s\")",
           err);
    if ( full && s )
    {
        err[0] = '\0';
        rc = xenprof_write_pprof(s, NULL, full, err, sizeof(err));
        tap_ok(rc == -EIO && strstr(err, "write error"),
               "pprof: a write error gives -EIO (\"%s\")", err);
    }
    else
        tap_skip("no /dev/full", "pprof: a write error gives -EIO");
    if ( full )
        fclose(full);
    xenprof_stackset_free(s);
}

/* The suite (called by main.c, where it is declared weak). */
void test_pprof(void);

void test_pprof(void)
{
    folded_input();
    data_timer();
    data_mappings();
    data_sources();
    big();
    utf8();
    clamp();
    failures();
}
