/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-folded.c: the folded-stack writer on a hand-built profile whose
 * output is written down here in full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* One sample of the hand-built profile, repeated `times`. */

#define XEN(n, f, ...) { n, XENPROF_MODE_XEN, f, 0, 0, 1, { __VA_ARGS__ }, 0 }
#define GUEST(n, m, dom, v) \
    { n, m, 0, dom, v, 2, { 0xffffffff81000000ULL }, 0 }

/*
 * main_loop 0x1000, do_work 0x1100, helper (static) 0x1200, leaf 0x1300,
 * next_fn 0x1400.
 */
static const struct tsample samples[] = {
    XEN(2, 0, 0x1310, 0x1210, 0x1120, 0x1010),
    /* Another return address in helper: the same line. */
    XEN(1, 0, 0x1310, 0x1220, 0x1120, 0x1010),
    /* The return address is the start of do_work: still main_loop. */
    XEN(1, 0, 0x1110, 0x1100),
    XEN(1, XENPROF_F_TRUNCATED, 0x1310, 0x1210),
    XEN(1, XENPROF_F_BAD_FRAME, 0x1010),
    XEN(1, 0, 0x5000000),
    XEN(1, 0, 0x1310, 0x10),
    /* An idle pCPU in Xen: a plain Xen stack. */
    { 1, XENPROF_MODE_XEN, XENPROF_F_IDLE, XENPROF_DOMID_IDLE, 3, 3,
      { 0x1020 }, 0 },
    GUEST(2, XENPROF_MODE_GUEST_KERNEL, 1, 0),
    /* Off Xen's stacks: PV entry/exit, under the vCPU. */
    { 2, XENPROF_MODE_XEN, XENPROF_F_NO_STACK, 1, 0, 1, { 0x1010 }, 0 },
    { 1, XENPROF_MODE_XEN, XENPROF_F_NO_STACK | XENPROF_F_HVM, 5, 1, 1,
      { 0x1310 }, 0 },
    { 1, XENPROF_MODE_XEN, XENPROF_F_NO_STACK | XENPROF_F_IDLE,
      XENPROF_DOMID_IDLE, 2, 2, { 0x1400 }, 0 },
    GUEST(1, XENPROF_MODE_GUEST_USER, 1, 1),
    GUEST(1, XENPROF_MODE_GUEST_USER, 3, 0),     /* empty name */
    GUEST(1, XENPROF_MODE_GUEST_KERNEL, 5, 2),   /* unknown domain */
    GUEST(1, XENPROF_MODE_GUEST_KERNEL, 7, 0),   /* ';' in its name */
};

/* The hand-built profile, samples added in the order given by step. */
static struct xenprof_data *profile(size_t step)
{
    static const struct xenprof_symbol syms[] = {
        { 0x1400, 'T', (char *)"next_fn" },
        { 0x1000, 'T', (char *)"main_loop" },
        { 0x1100, 'T', (char *)"do_work" },
        { 0x1200, 't', (char *)"common/x.c#helper" },
        { 0x1300, 'T', (char *)"leaf" },
    };
    const size_t n = sizeof(samples) / sizeof(samples[0]);
    struct xenprof_data *d = xenprof_data_new();
    size_t i;
    int rc = !d;

    for ( i = 0; !rc && i < sizeof(syms) / sizeof(syms[0]); i++ )
        rc = xenprof_data_add_symbol(d, syms[i].addr, syms[i].type,
                                     syms[i].name);
    rc = rc ?: xenprof_data_add_domain(d, 1, "web", NULL);
    rc = rc ?: xenprof_data_add_domain(d, 3, "", NULL);
    rc = rc ?: xenprof_data_add_domain(d, 7, "a;b c", NULL);
    for ( i = 0; !rc && i < n; i++ )
        rc = add_tsample(d, &samples[(i * step) % n], 0);
    if ( rc )
    {
        xenprof_data_free(d);
        return NULL;
    }
    return d;
}

/* Run the writer into a string (*out, malloc()ed); its return value. */
static int folded(const struct xenprof_data *d, int guest, char **out,
                  char *err, size_t errlen)
{
    size_t len;
    FILE *f = open_memstream(out, &len);
    int rc;

    if ( !f )
        return -errno;
    rc = data_folded(d, f, guest != 0, err, errlen);
    fclose(f);
    return rc;
}

static void golden(void)
{
    struct xenprof_data *d = profile(1), *d2 = profile(5);
    char *out = NULL, *out2 = NULL, *out3 = NULL, err[256] = "";
    int rc = d ? folded(d, -1, &out, err, sizeof(err)) : -ENOMEM;

    tap_ok(!rc && same_expected(out, "folded.txt"),
           "folded: the hand-built profile, exact text (rc %d, \"%s\")",
           rc, err);
    rc = d2 ? folded(d2, 1, &out2, err, sizeof(err)) : -ENOMEM;
    tap_ok(!rc && same_expected(out2, "folded.txt"),
           "folded: samples in another order, same text");
    rc = d ? folded(d, 0, &out3, err, sizeof(err)) : -ENOMEM;
    tap_ok(!rc && same_expected(out3, "folded-xen.txt"),
           "folded: include_guest 0 leaves out the guest samples");
    free(out);
    free(out2);
    free(out3);
    xenprof_data_free(d);
    xenprof_data_free(d2);
}

/* Many samples of one stack: one line, the count of all of them. */
static void many(void)
{
    static const struct tsample one = XEN(100000, 0, 0x1310, 0x1210);
    struct xenprof_data *d = profile(1);
    char *out = NULL;
    int rc = d ? add_tsample(d, &one, 0) : -ENOMEM;

    rc = rc ?: folded(d, 0, &out, NULL, 0);
    tap_ok(!rc && out && strstr(out, "\nhelper;leaf 100000\n"),
           "folded: 100000 samples of one stack make one line");
    free(out);
    xenprof_data_free(d);
}

static void deep(void)
{
    struct xenprof_data *d = xenprof_data_new();
    uint64_t ip[XENPROF_MAX_FRAMES];
    char *out = NULL, *want = malloc(XENPROF_MAX_FRAMES * 2 + 8), *p;
    uint8_t rec[24 + 8 * XENPROF_MAX_FRAMES];
    unsigned int i;
    int rc;

    for ( i = 0; i < XENPROF_MAX_FRAMES; i++ )
        ip[i] = 0x1000 + i;
    rc = !d || !want || xenprof_data_add_symbol(d, 0x1000, 'T', "f");
    rc = rc ?: xenprof_data_add_records(d, rec, rec_put(rec,
                 &(struct trec){ .nr = XENPROF_MAX_FRAMES, .ip = ip }));
    rc = rc ?: folded(d, 1, &out, NULL, 0);
    for ( i = 0, p = want; want && i < XENPROF_MAX_FRAMES; i++ )
        p += sprintf(p, "%sf", i ? ";" : "");
    if ( want )
        strcpy(p, " 1\n");
    tap_ok(!rc && want && same_text(out, want),
           "folded: a 128-frame stack");
    free(out);
    free(want);
    xenprof_data_free(d);
}

static void failures(void)
{
    struct xenprof_data *d = profile(1);
    struct xenprof_stackset *set = NULL;
    char *out = NULL, err[256] = "";
    uint8_t rec[32];
    FILE *full = fopen("/dev/full", "w");
    int rc;

    if ( full )
    {
        rc = d ? data_folded(d, full, 1, err, sizeof(err)) : 1;
        tap_ok(rc == -EIO, "folded: a write error gives -EIO (\"%s\")",
               err);
        fclose(full);
    }
    else
        tap_skip("no /dev/full", "folded: a write error gives -EIO");
    rec_put(rec, &(struct trec){ .nr = 1 });
    rec[11] = 0;
    rc = d ? xenprof_data_add_records(d, rec, sizeof(rec)) : -ENOMEM;
    rc = rc ?: folded(d, 1, &out, err, sizeof(err));
    tap_ok(rc == -EBADMSG && out && !out[0] && strstr(err, "offset"),
           "folded: corrupt records give -EBADMSG, no output (\"%s\")",
           err);
    tap_ok(xenprof_stackset_from_data(NULL, NULL, NULL, &set, NULL, 0) ==
               -EINVAL && !set && xenprof_write_folded(NULL, stdout) == -EINVAL,
           "folded: no data or no output gives -EINVAL");
    free(out);
    xenprof_data_free(d);
}

void test_folded(void)
{
    golden();
    many();
    deep();
    failures();
}
