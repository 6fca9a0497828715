/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-stackset.c: the stack set (filter, built from a data file, parsed
 * from folded text), its folded writer, and the differential folded
 * reader and writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

void test_stackset(void);

/* Parse text[0..len) as folded (diff: two counts); the reader's rc. */
static int parse(const char *text, size_t len, bool diff,
                 struct xenprof_stackset **a, struct xenprof_stackset **b,
                 size_t *bad, char *err, size_t errlen)
{
    FILE *f = len ? fmemopen((void *)text, len, "r") : fopen("/dev/null",
                                                              "r");
    int rc;

    *a = NULL;
    if ( b )
        *b = NULL;
    if ( !f )
        return -errno;
    if ( diff )
        rc = xenprof_stackset_read_diff_folded(f, a, b, bad, err, errlen);
    else
        rc = xenprof_stackset_read_folded(f, a, bad, err, errlen);
    fclose(f);
    return rc;
}

/* What a writer of a and b (b may be NULL) writes, malloc()ed, or NULL. */
static char *text_of(int (*w)(const struct xenprof_stackset *,
                              const struct xenprof_stackset *, FILE *),
                     const struct xenprof_stackset *a,
                     const struct xenprof_stackset *b)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    int rc;

    if ( !f )
        return NULL;
    rc = w(a, b, f);
    fclose(f);
    if ( rc )
    {
        free(text);
        return NULL;
    }
    return text;
}

static int write_one(const struct xenprof_stackset *a,
                     const struct xenprof_stackset *b xenprof_unused,
                     FILE *f)
{
    return xenprof_write_folded(a, f);
}

/* The folded text of s (malloc()ed), or NULL. */
static char *folded_of(const struct xenprof_stackset *s)
{
    return text_of(write_one, s, NULL);
}

/* Parse in, write it back: does it give want (and bad malformed lines)? */
static bool round_trip(const char *in, const char *want, size_t want_bad)
{
    struct xenprof_stackset *s;
    size_t bad = 99;
    char err[128] = "", *out;
    bool ok;

    if ( parse(in, strlen(in), false, &s, NULL, &bad, err, sizeof(err)) )
        return false;
    out = folded_of(s);
    ok = out && !strcmp(out, want) && bad == want_bad;
    if ( !ok )
        tap_diag("got (bad %zu, \"%s\"):\n%s", bad, err, out ? out : "");
    free(out);
    xenprof_stackset_free(s);
    return ok;
}

/* One line of the parser table: valid lines give want (folded). */
struct pcase {
    const char *line;
    size_t len;                     /* 0: strlen(line) */
    int rc;                         /* 0 valid, -ENODATA otherwise */
    size_t bad;                     /* malformed lines counted */
    const char *want;               /* valid: the folded output */
};

static const struct pcase pcases[] = {
    { "a;b 5\n", 0, 0, 0, "a;b 5\n" },
    { "a;b 5\r\n", 0, 0, 0, "a;b 5\n" },
    { "a;b 5   \r\n", 0, 0, 0, "a;b 5\n" },
    { "  a;b\t7", 0, 0, 0, "a;b 7\n" },
    { "d1v0 web;[guest kernel]   3\n", 0, 0, 0,
      "d1v0 web;[guest kernel] 3\n" },
    { "a;b 31.23\n", 0, 0, 0, "a;b 31\n" },
    { "a;b 0.5\n", 0, 0, 0, "a;b 1\n" },
    { "a;b 2.\n", 0, 0, 0, "a;b 2\n" },
    { "a;b 0\n", 0, 0, 0, "a;b 0\n" },
    { "a;b 18446744073709551615\n", 0, 0, 0,
      "a;b 18446744073709551615\n" },
    { "a;b\n", 0, -ENODATA, 1, NULL },
    { "a;b -5\n", 0, -ENODATA, 1, NULL },
    { "a;b +5\n", 0, -ENODATA, 1, NULL },
    { "a;b 5x\n", 0, -ENODATA, 1, NULL },
    { "a;b x\n", 0, -ENODATA, 1, NULL },
    { "a;b 12V.43\n", 0, -ENODATA, 1, NULL },
    { "a;b 1.5.3\n", 0, -ENODATA, 1, NULL },
    { "a;b .5\n", 0, -ENODATA, 1, NULL },
    { "a;b 18446744073709551616\n", 0, -ENODATA, 1, NULL },
    { "a;b 18446744073709551615.7\n", 0, -ENODATA, 1, NULL },
    { "5\n", 0, -ENODATA, 1, NULL },
    { "   7\r\n", 0, -ENODATA, 1, NULL },
    { "a\0b 5\n", 6, -ENODATA, 1, NULL },
    { "\n", 0, -ENODATA, 0, NULL },
    { "   \r\n", 0, -ENODATA, 0, NULL },
    { "# a comment 5\n", 0, -ENODATA, 0, NULL },
    { "", 0, -ENODATA, 0, NULL },
};

static void parser_table(void)
{
    const size_t n = sizeof(pcases) / sizeof(pcases[0]);
    struct xenprof_stackset *s;
    size_t i, bad, failed = 0;
    char err[160], *out;
    int rc;

    for ( i = 0; i < n; i++ )
    {
        const struct pcase *c = &pcases[i];

        bad = 99;
        rc = parse(c->line, c->len ? c->len : strlen(c->line), false, &s,
                   NULL, &bad, err, sizeof(err));
        out = rc ? NULL : folded_of(s);
        if ( rc != c->rc || bad != c->bad || (!rc && !s) || (rc && s) ||
             (c->want && (!out || strcmp(out, c->want))) )
        {
            tap_diag("case %zu \"%.*s\": rc %d bad %zu out \"%s\" (%s)", i,
                     (int)strcspn(c->line, "\r\n"), c->line, rc, bad,
                     out ? out : "", err);
            failed++;
        }
        free(out);
        xenprof_stackset_free(s);
    }
    tap_ok(!failed, "stackset parser: %zu lines of the table (%zu wrong)",
           n, failed);
}

static void parser_file(void)
{
    static const char in[] =
        "b;c 2\n"
        "THIS IS A BAD LINE\r\n"
        "\n"
        "a;b;c 1\r\n"
        "a;b-c 4\n"
        "a;b 3\n"
        "b;c 5   \n"
        "a;b;c 18446744073709551615\n"
        "x;y;;z 1\n";
    static const char want[] =
        "a;b 3\n"
        "a;b-c 4\n"
        "a;b;c 1\n"
        "b;c 7\n"
        "x;y;;z 1\n";
    struct xenprof_stackset *s;
    const char *const *f, *const *g;
    size_t bad, n, m;
    uint64_t count;
    char err[160] = "";
    int rc = parse(in, strlen(in), false, &s, NULL, &bad, err, sizeof(err));

    tap_ok(!rc && bad == 2 && strstr(err, "line 2"),
           "stackset parser: a file, 2 malformed lines counted, the first "
           "named (\"%s\")", err);
    tap_ok(round_trip(in, want, 2),
           "stackset parser: merged, sorted as folded lines (\"a;b\" < "
           "\"a;b-c\" < \"a;b;c\"), count overflow is malformed");
    tap_ok(!rc && xenprof_stackset_size(s) == 5 &&
           xenprof_stackset_total(s) == 16, "stackset: size 5, total 16");
    xenprof_stackset_get(s, 2, &f, &n, &count);
    xenprof_stackset_get(s, 0, &g, &m, &count);
    tap_ok(!rc && n == 3 && !strcmp(f[2], "c") && f[0] == g[0] &&
           f[1] == g[1], "stackset: frames of a stack, names stored once");
    xenprof_stackset_get(s, 5, &f, &n, &count);
    tap_ok(!f && !n && !count, "stackset: get past the end gives nothing");
    xenprof_stackset_free(s);
}

/* 200000 lines of 10 stacks: 10 stacks, whatever the samples. */
static void parser_many(void)
{
    struct xenprof_stackset *s = NULL;
    size_t len = 0, bad, i;
    char *text = NULL;
    FILE *f = open_memstream(&text, &len);
    int rc = f ? 0 : -errno;

    for ( i = 0; f && i < 200000; i++ )
        fprintf(f, "main;work;leaf%zu %zu\n", i % 10, i % 3);
    if ( f )
        fclose(f);
    rc = rc ?: parse(text, len, false, &s, NULL, &bad, NULL, 0);
    tap_ok(!rc && xenprof_stackset_size(s) == 10 &&
           xenprof_stackset_total(s) == 199999 && !bad,
           "stackset parser: 200000 lines of 10 stacks merge into 10");
    free(text);
    xenprof_stackset_free(s);
}

static void sample_at(struct xenprof_sample *s, uint32_t cpu, uint32_t dom,
                      uint8_t mode, uint64_t timestamp)
{
    memset(s, 0, sizeof(*s));
    s->cpu = cpu;
    s->domid = dom;
    s->mode = mode;
    s->timestamp = timestamp;
}

/*
 * An empty profile that started at TSC 1000, 2 ticks per us, and a Xen
 * sample s of pCPU 1, domain 3 at TSC 5000; NULL (a failed check) when
 * out of memory.
 */
static struct xenprof_data *filter_profile(struct xenprof_sample *s)
{
    struct xenprof_data *d = xenprof_data_new();

    if ( !d )
    {
        tap_ok(false, "filter: out of memory");
        return NULL;
    }
    d->meta.start_timestamp = 1000;
    d->meta.timestamp_khz = 2000;
    sample_at(s, 1, 3, XENPROF_MODE_XEN, 5000);
    return d;
}

static void filter(void)
{
    static const uint8_t cpus[] = { 0x05, 0x80 };     /* 0, 2, 15 */
    struct xenprof_filter f = { 0 };
    struct xenprof_sample s;
    struct xenprof_data *d = filter_profile(&s);
    bool ok;

    if ( !d )
        return;
    ok = xenprof_filter_match(d, &f, &s) && xenprof_filter_match(d, NULL,
                                                                 &s);
    tap_ok(ok, "filter: a zeroed or NULL filter keeps everything");
    f.cpus = cpus;
    f.nr_cpu_bits = 16;
    ok = !xenprof_filter_match(d, &f, &s);
    s.cpu = 2;
    ok = ok && xenprof_filter_match(d, &f, &s);
    s.cpu = 15;
    ok = ok && xenprof_filter_match(d, &f, &s);
    s.cpu = 16;
    ok = ok && !xenprof_filter_match(d, &f, &s);
    tap_ok(ok, "filter: pCPU bitmap (bits 0, 2, 15 of 16)");
    memset(&f, 0, sizeof(f));
    f.has_domid = 1;
    f.domid = 3;
    ok = xenprof_filter_match(d, &f, &s);
    s.domid = 0;
    ok = ok && !xenprof_filter_match(d, &f, &s);
    f.domid = 0;
    ok = ok && xenprof_filter_match(d, &f, &s);
    tap_ok(ok, "filter: domain, domain 0 too");
    memset(&f, 0, sizeof(f));
    f.no_guest = 1;
    s.mode = XENPROF_MODE_GUEST_USER;
    ok = !xenprof_filter_match(d, &f, &s);
    s.mode = XENPROF_MODE_XEN;
    ok = ok && xenprof_filter_match(d, &f, &s);
    tap_ok(ok, "filter: no_guest drops guest samples only");
    xenprof_data_free(d);
}

static void filter_time(void)
{
    struct xenprof_filter f = { .has_time = 1 };
    struct xenprof_sample s;
    struct xenprof_data *d = filter_profile(&s);
    bool ok;

    if ( !d )
        return;
    f.time_from_ns = 1000;
    f.time_to_ns = 3000;
    s.timestamp = 1000 + 2;                           /* 1000 ns */
    ok = xenprof_filter_match(d, &f, &s);
    s.timestamp = 1000 + 1;                           /* 500 ns */
    ok = ok && !xenprof_filter_match(d, &f, &s);
    s.timestamp = 1000 + 5;                           /* 2500 ns */
    ok = ok && xenprof_filter_match(d, &f, &s);
    s.timestamp = 1000 + 6;                           /* 3000 ns: excluded */
    ok = ok && !xenprof_filter_match(d, &f, &s);
    s.timestamp = 10;                                 /* before start: 0 ns */
    f.time_from_ns = 0;
    ok = ok && xenprof_filter_match(d, &f, &s);
    d->meta.timestamp_khz = 0;
    ok = ok && !xenprof_filter_match(d, &f, &s);
    tap_ok(ok, "filter: time window [from, to) from the timestamps; "
           "none without a timestamp frequency");
    xenprof_data_free(d);
}

/* A profile: Xen, idle and guest samples on pCPUs 0-3. */
static struct xenprof_data *profile(void)
{
    static const uint64_t st1[] = { 0x1310, 0x1110, 0x1010 };
    static const uint64_t st2[] = { 0x1120, 0x1010 };
    static const uint64_t st3[] = { 0x1010 };
    static const uint64_t gip[] = { 0xffffffff81000000ULL };
    static const struct trec recs[] = {
        { .cpu = 0, .domid = 0, .timestamp = 100, .nr = 3, .ip = st1 },
        { .cpu = 0, .domid = 0, .timestamp = 110, .nr = 3, .ip = st1 },
        { .cpu = 1, .domid = 1, .timestamp = 120, .nr = 2, .ip = st2 },
        { .cpu = 1, .domid = 1, .timestamp = 130, .nr = 3, .ip = st1,
          .flags = XENPROF_F_TRUNCATED },
        { .cpu = 2, .domid = 1, .timestamp = 140, .nr = 1, .ip = gip,
          .mode = XENPROF_MODE_GUEST_KERNEL },
        { .cpu = 3, .domid = 2, .vcpu = 1, .timestamp = 150, .nr = 1, .ip = gip,
          .mode = XENPROF_MODE_GUEST_USER },
        { .cpu = 3, .domid = XENPROF_DOMID_IDLE, .timestamp = 160, .nr = 1,
          .ip = st3, .flags = XENPROF_F_IDLE },
    };
    struct xenprof_data *d = xenprof_data_new();
    uint8_t buf[64];
    size_t i;
    int rc = !d;

    rc = rc ?: add_nm(d, "0x1000 T main_loop\n"
                        "0x1100 T do_work\n"
                        "0x1300 t x.c#leaf\n"
                        "0x1400 T end\n");
    rc = rc ?: xenprof_data_add_domain(d, 1, "web", NULL);
    for ( i = 0; !rc && i < sizeof(recs) / sizeof(recs[0]); i++ )
        rc = xenprof_data_add_records(d, buf, rec_put(buf, &recs[i]));
    if ( rc && d )
    {
        xenprof_data_free(d);
        return NULL;
    }
    if ( d )
    {
        d->meta.start_timestamp = 100;
        d->meta.timestamp_khz = 1000000;              /* 1 tick per ns */
    }
    return d;
}

/* The folded text of d's samples that pass f, or NULL. */
static char *from_data(const struct xenprof_data *d,
                       const struct xenprof_filter *f)
{
    struct xenprof_stackset *s;
    char *text;

    if ( !d || xenprof_stackset_from_data(d, f, NULL, &s, NULL, 0) )
        return NULL;
    text = folded_of(s);
    xenprof_stackset_free(s);
    return text;
}

static void data(void)
{
    static const char all[] =
        "[truncated];main_loop;do_work;leaf 1\n"
        "d1v0 web;[guest kernel] 1\n"
        "d2v1;[guest user] 1\n"
        "main_loop 1\n"
        "main_loop;do_work 1\n"
        "main_loop;do_work;leaf 2\n";
    static const uint8_t cpu1[] = { 0x02 };
    struct xenprof_data *d = profile();
    struct xenprof_filter f = { .cpus = cpu1, .nr_cpu_bits = 8 };
    struct xenprof_filter t = { .has_time = 1, .time_from_ns = 10,
                                .time_to_ns = 40 };
    struct xenprof_filter dom = { .has_domid = 1, .domid = 1,
                                  .no_guest = 1 };
    char *text = from_data(d, NULL), *folded = NULL, err[128] = "";
    size_t len;
    FILE *m = open_memstream(&folded, &len);
    int rc = m && d ? data_folded(d, m, 1, err, sizeof(err))
                    : -ENOMEM;

    if ( m )
        fclose(m);
    tap_ok(text && !strcmp(text, all), "stackset from data: symbolized as "
           "the folded writer (markers, guest frames, addr - 1)");
    tap_ok(!rc && text && folded && !strcmp(text, folded),
           "stackset from data: its folded text is xenprof_write_folded()'s");
    free(text);
    text = from_data(d, &f);
    tap_ok(text && !strcmp(text, "[truncated];main_loop;do_work;leaf 1\n"
                           "main_loop;do_work 1\n"),
           "stackset from data: pCPU filter");
    free(text);
    text = from_data(d, &t);
    tap_ok(text && !strcmp(text, "[truncated];main_loop;do_work;leaf 1\n"
                           "main_loop;do_work 1\n"
                           "main_loop;do_work;leaf 1\n"),
           "stackset from data: time filter [10, 40) ns");
    free(text);
    text = from_data(d, &dom);
    tap_ok(text && !strcmp(text, "[truncated];main_loop;do_work;leaf 1\n"
                           "main_loop;do_work 1\n"),
           "stackset from data: domain filter without guest samples");
    free(text);
    free(folded);
    xenprof_data_free(d);
}

static void data_errors(void)
{
    struct xenprof_data *d = profile();
    struct xenprof_stackset *s = (void *)1;
    struct xenprof_filter none = { .has_domid = 1, .domid = 42 };
    uint8_t rec[32];
    char err[128] = "";
    int rc;

    rc = d ? xenprof_stackset_from_data(d, &none, NULL, &s, NULL, 0) : -ENOMEM;
    tap_ok(!rc && s && xenprof_stackset_size(s) == 0 &&
           xenprof_stackset_total(s) == 0,
           "stackset from data: a filter that keeps nothing, an empty set");
    xenprof_stackset_free(s);
    rec_put(rec, &(struct trec){ .nr = 1 });
    rec[11] = 0;
    rc = d ? xenprof_data_add_records(d, rec, sizeof(rec)) : -ENOMEM;
    rc = rc ?: xenprof_stackset_from_data(d, NULL, NULL, &s, err, sizeof(err));
    tap_ok(rc == -EBADMSG && !s && strstr(err, "offset"),
           "stackset from data: corrupt records give -EBADMSG (\"%s\")",
           err);
    tap_ok(xenprof_stackset_from_data(NULL, NULL, NULL, &s, NULL, 0) == -EINVAL &&
           xenprof_stackset_from_data(d, NULL, NULL, NULL, NULL, 0) == -EINVAL &&
           xenprof_stackset_read_folded(NULL, &s, NULL, NULL, 0) == -EINVAL &&
           xenprof_write_folded(NULL, stdout) == -EINVAL,
           "stackset: NULL arguments give -EINVAL");
    xenprof_data_free(d);
}

static void write_error(void)
{
    struct xenprof_stackset *s;
    FILE *full = fopen("/dev/full", "w");
    char err[128] = "";
    int rc = parse("a;b 1\n", 6, false, &s, NULL, NULL, NULL, 0);

    if ( !full )
        tap_skip("no /dev/full", "stackset: a write error gives -EIO");
    else
        tap_ok(!rc && xenprof_write_folded(s, full) == -EIO,
               "stackset: a write error gives -EIO");
    if ( full )
        fclose(full);
    xenprof_stackset_free(s);
    full = fopen("/dev/null", "w");
    s = (void *)1;
    rc = full ? xenprof_stackset_read_folded(full, &s, NULL, err,
                                             sizeof(err)) : -EIO;
    tap_ok(rc == -EIO && !s && strstr(err, "read error"),
           "stackset: a read error gives -EIO (\"%s\")", err);
    if ( full )
        fclose(full);
}

/* The diff folded text of a and b, or NULL. */
static char *diff_of(const struct xenprof_stackset *a,
                     const struct xenprof_stackset *b)
{
    return text_of(xenprof_write_diff_folded, a, b);
}

static void diff(void)
{
    static const char in[] =
        "x;y 0 3\n"
        "a;b 5 7\r\n"
        "a;b 1\n"
        "a 2 0\n"
        "a;b 1 1\n"
        "c 0 0\n";
    static const char want[] =
        "a 2 0\n"
        "a;b 6 8\n"
        "x;y 0 3\n";
    struct xenprof_stackset *a, *b, *p, *q;
    char err[128] = "", *text;
    size_t bad;
    int rc = parse(in, strlen(in), true, &a, &b, &bad, err, sizeof(err));

    tap_ok(!rc && bad == 1 && xenprof_stackset_size(a) == 2 &&
           xenprof_stackset_total(a) == 8 && xenprof_stackset_size(b) == 2 &&
           xenprof_stackset_total(b) == 11,
           "diff folded: read into two sets, a line with one count is "
           "malformed (bad %zu, \"%s\")", bad, err);
    text = rc ? NULL : diff_of(a, b);
    tap_ok(text && !strcmp(text, want),
           "diff folded: the union, sorted, 0 where a stack is missing");
    free(text);
    rc = parse("m;n 4\nk 1\n", 11, false, &p, NULL, NULL, NULL, 0);
    rc = rc ?: parse("k 2\nz 5\n", 8, false, &q, NULL, NULL, NULL, 0);
    text = rc ? NULL : diff_of(p, q);
    tap_ok(text && !strcmp(text, "k 1 2\nm;n 4 0\nz 0 5\n"),
           "diff folded: two folded files");
    free(text);
    tap_ok(xenprof_write_diff_folded(NULL, q, stdout) == -EINVAL &&
           xenprof_stackset_read_diff_folded(stdin, &p, NULL, NULL, NULL,
                                             0) == -EINVAL,
           "diff folded: NULL arguments give -EINVAL");
    xenprof_stackset_free(p);
    xenprof_stackset_free(q);
    rc = parse("a 1\nb 2\n", 8, true, &p, &q, &bad, NULL, 0);
    tap_ok(rc == -ENODATA && !p && !q && bad == 2,
           "diff folded: no line with two counts gives -ENODATA");
    xenprof_stackset_free(a);
    xenprof_stackset_free(b);
    xenprof_stackset_free(p);
    xenprof_stackset_free(q);
}

void test_stackset(void)
{
    parser_table();
    parser_file();
    parser_many();
    filter();
    filter_time();
    data();
    data_errors();
    write_error();
    diff();
}
