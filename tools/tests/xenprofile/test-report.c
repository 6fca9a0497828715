/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-report.c: the call tree and the report: perf's Children/Self
 * semantics (hists_cumulate), call graphs, a hand-built profile's report
 * and script dump written down in full, splits that add up, filters, and
 * JSON that parses.  The hand-built profile's files are made here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-report.h"
#include "../../libs/profile/calltree.h"

#define START_TSC 1000000ULL        /* timestamp_khz 1000: 1 tick = 1 us */

/* main_loop 0x1000, do_work 0x1100, helper (static) 0x1200, leaf 0x1300 */
static const struct tsample rsamples[] = {
    { 3, 0, 0, 0, 0, 0, { 0x1310, 0x1210, 0x1120, 0x1010 }, 100 },
    { 2, 0, 0, 1, 1, 1, { 0x1120, 0x1010 }, 1500 },
    { 2, 0, XENPROF_F_IDLE, XENPROF_DOMID_IDLE, 1, 1, { 0x1000 }, 2500 },
    { 1, XENPROF_MODE_GUEST_KERNEL, 0, 1, 0, 2, { 0xffff8100 }, 3500 },
    { 1, XENPROF_MODE_GUEST_USER, XENPROF_F_HVM, 2, 0, 3, { 0x4000 }, 500 },
    { 1, 0, XENPROF_F_TRUNCATED, 0, 0, 0, { 0x1300, 0x1210 }, 1000 },
};


static void report_meta(struct xenprof_meta *m)
{
    strcpy(m->xen_version, "4.22.0");
    strcpy(m->build_id, "0123abcd");
    strcpy(m->hostname, "xenhost");
    m->timestamp_khz = 1000;
    m->nr_host_cpus = 8;
    m->source = XENPROF_SOURCE_TIMER;
    strcpy(m->source_reason, "no PMU source in this build");
    m->frequency = 97;
    m->max_depth = 64;
    m->period = 10309278;
    m->start_time_ns = 1700000000000000000ULL;
    m->stop_time_ns = 1700000004000000000ULL;
    m->start_timestamp = START_TSC;
    m->stop_timestamp = START_TSC + 4000000;
}

/* The hand-built profile; NULL when out of memory. */
static struct xenprof_data *report_profile(void)
{
    static const char *const names[] = {
        "main_loop", "do_work", "common/x.c#helper", "leaf" };
    struct xenprof_data *d = xenprof_data_new();
    struct xenprof_cpu c = { .flags = XENPROF_CPU_SAMPLED };
    size_t i;
    int rc = !d;

    for ( i = 0; !rc && i < 4; i++ )
        rc = xenprof_data_add_symbol(d, 0x1000 + 0x100 * i,
                                     i == 2 ? 't' : 'T', names[i]);
    for ( i = 0; !rc && i < 4; i++ )
    {
        c.cpu = i;
        c.taken = c.read = 10 + i;
        c.lost = i == 3;
        rc = xenprof_data_add_cpu(d, &c);
    }
    rc = rc ?: xenprof_data_add_domain(d, 0, "Domain-0", NULL);
    rc = rc ?: xenprof_data_add_domain(d, 1, "web", NULL);
    rc = rc ?: xenprof_data_add_domain(d, 2, "db", NULL);
    for ( i = 0; !rc && i < sizeof(rsamples) / sizeof(*rsamples); i++ )
        rc = add_tsample(d, &rsamples[i], START_TSC);
    if ( rc )
    {
        xenprof_data_free(d);
        return NULL;
    }
    report_meta(&d->meta);
    return d;
}

const char *report_data_path(void)
{
    static char path[TPATH];
    struct xenprof_data *d;

    if ( path[0] )
        return path;
    tmp_path(path, "report.data");
    d = report_profile();
    if ( !d || xenprof_data_write(d, path, NULL, 0) )
        tap_diag("cannot write %s", path);
    xenprof_data_free(d);
    return path;
}

const char *report_folded_path(void)
{
    static char path[TPATH];
    struct xenprof_data *d;
    FILE *f;

    if ( path[0] )
        return path;
    tmp_path(path, "report.folded");
    d = report_profile();
    f = fopen(path, "w");
    if ( !d || !f || data_folded(d, f, 1, NULL, 0) )
        tap_diag("cannot write %s", path);
    if ( f )
        fclose(f);
    xenprof_data_free(d);
    return path;
}

/*
 * perf's tools/perf/tests/hists_cumulate.c (torvalds/linux, the version
 * of commit 06cd3d8c14bdd06f49f1c6a06acf219749c5598e): the fake samples'
 * callchains, root first, one sample of period 1000 each.  perf keys its
 * entries by command, object and symbol, so every frame is prefixed here
 * by its command ("perf`main" and "bash`main" are different entries).
 */
static const char hists_folded[] =
    "perf`main;perf`run_command;perf`schedule 1000\n"
    "perf`main 1000\n"
    "perf`main;perf`run_command;perf`cmd_record 1000\n"
    "perf`main;perf`run_command;perf`cmd_record;perf`malloc 1000\n"
    "perf`main;perf`run_command;perf`cmd_record;perf`free 1000\n"
    "perf`main 1000\n"
    "perf`main;perf`run_command;perf`sys_perf_event_open;perf`page_fault"
    " 1000\n"
    "bash`main 1000\n"
    "bash`main;bash`xmalloc;bash`malloc;bash`xmalloc;bash`malloc;"
    "bash`xmalloc 1000\n"
    "bash`main;bash`malloc;bash`page_fault 1000\n";

/* Its expected Children/Self table (test3 and test4, "children"). */
static const struct {
    uint64_t children, self;
    const char *sym;
} hists_expected[] = {
    { 7000, 2000, "perf`main" },
    { 5000,    0, "perf`run_command" },
    { 3000, 1000, "bash`main" },
    { 3000, 1000, "perf`cmd_record" },
    { 2000,    0, "bash`malloc" },
    { 1000, 1000, "bash`page_fault" },
    { 1000, 1000, "bash`xmalloc" },
    { 1000, 1000, "perf`page_fault" },
    { 1000, 1000, "perf`schedule" },
    { 1000, 1000, "perf`free" },
    { 1000, 1000, "perf`malloc" },
    { 1000,    0, "perf`sys_perf_event_open" },
};

#define NR_HISTS (sizeof(hists_expected) / sizeof(*hists_expected))

static void hists_cumulate(void)
{
    struct xenprof_stackset *s = stackset_of_text(hists_folded);
    struct xenprof_tree *t = NULL;
    struct xenprof_func *fn = NULL;
    size_t n = 0, i, k, bad = 0;
    bool sorted = true;

    if ( s && !xenprof_priv_tree_build(s, &t) )
        xenprof_priv_tree_funcs(t, false, &fn, &n);
    tap_ok(fn && n == NR_HISTS && xenprof_priv_tree_total(t) == 10000,
           "tree: hists_cumulate, %zu functions, 10000 samples", n);
    for ( i = 0; fn && i < NR_HISTS; i++ )
    {
        for ( k = 0; k < n && strcmp(fn[k].name, hists_expected[i].sym);
              k++ )
            ;
        if ( k == n || fn[k].total != hists_expected[i].children ||
             fn[k].self != hists_expected[i].self )
        {
            tap_diag("%s: expected %" PRIu64 "/%" PRIu64,
                     hists_expected[i].sym, hists_expected[i].children,
                     hists_expected[i].self);
            bad++;
        }
    }
    for ( i = 1; i < n; i++ )
        sorted &= fn[i - 1].total >= fn[i].total;
    tap_ok(fn && !bad, "tree: perf's Children/Self of all %zu entries "
           "(recursion counted once)", NR_HISTS);
    tap_ok(fn && sorted, "tree: sorted by Children");
    free(fn);
    fn = NULL;
    if ( t && !xenprof_priv_tree_funcs(t, true, &fn, &n) )
        for ( i = 1, sorted = true; i < n; i++ )
            sorted &= fn[i - 1].self >= fn[i].self;
    tap_ok(fn && sorted && !strcmp(fn[0].name, "perf`main"),
           "tree: sorted by Self");
    free(fn);
    xenprof_priv_tree_free(t);
    xenprof_stackset_free(s);
}

/* Call graph lines: "depth name total" per node, enter events only. */
static int cg_line(const struct xenprof_tree_node *n, bool leave, void *arg)
{
    char *buf = arg;
    size_t len = strlen(buf);

    if ( !leave )
        snprintf(buf + len, 4096 - len, "%u %s %" PRIu64 "\n", n->depth,
                 n->name, n->total);
    return 0;
}

static void callees(void)
{
    static const char text[] =
        "a;b;c 3\na;b;d 2\na;e 1\nb;c 4\nx;y;x;z 2\nx;y 1\n";
    static const char want_b[] = "0 b 9\n1 c 7\n1 d 2\n";
    static const char want_x[] = "0 x 3\n1 y 3\n2 x 2\n3 z 2\n";
    struct xenprof_stackset *s = stackset_of_text(text);
    struct xenprof_tree *t = NULL, *c = NULL;
    char buf[4096] = "";

    if ( s && !xenprof_priv_tree_build(s, &t) &&
         !xenprof_priv_tree_callees(t, "b", &c) )
        xenprof_priv_tree_walk(c, 0, cg_line, buf);
    tap_ok(c && same_text(buf, want_b),
           "tree: callees of b merged from two call sites");
    xenprof_priv_tree_free(c);
    c = NULL;
    buf[0] = '\0';
    if ( t && !xenprof_priv_tree_callees(t, "x", &c) )
        xenprof_priv_tree_walk(c, 0, cg_line, buf);
    tap_ok(c && same_text(buf, want_x),
           "tree: callees of a recursive function, from its outermost call");
    xenprof_priv_tree_free(c);
    c = NULL;
    buf[0] = '\0';
    if ( t && !xenprof_priv_tree_callees(t, "b", &c) )
        xenprof_priv_tree_walk(c, 3, cg_line, buf);
    tap_ok(c && same_text(buf, "0 b 9\n1 c 7\n"),
           "tree: the walk leaves out nodes below the minimum");
    xenprof_priv_tree_free(c);
    c = NULL;
    buf[0] = '\0';
    if ( t && !xenprof_priv_tree_callees(t, "nosuch", &c) )
        xenprof_priv_tree_walk(c, 0, cg_line, buf);
    tap_ok(c && !buf[0], "tree: an unknown function has no callees");
    xenprof_priv_tree_free(c);
    tap_ok(t && xenprof_priv_tree_nodes(t) == 12,
           "tree: one node per distinct prefix (%zu)",
           t ? xenprof_priv_tree_nodes(t) : 0);
    xenprof_priv_tree_free(t);
    xenprof_stackset_free(s);
}

/* The report of folded text (in a file) with args; *r filled. */
static int report_of(struct run *r, const char *text, const char *name,
                     const char *const *args)
{
    char path[TPATH];
    const char *a[16] = { "xenprofile", "-i", path };
    size_t i;

    tmp_path(path, name);
    if ( file_save(path, text, strlen(text)) )
        return -1;
    for ( i = 0; args[i] && i < 12; i++ )
        a[3 + i] = args[i];
    return run_report(r, a);
}


static void callgraph_text(void)
{
    static const char *const args[] = { "--callgraph", NULL };
    static const char *const jargs[] = { "--callgraph", "--json", NULL };
    static const char *const sargs[] = {
        "--callgraph", "--top", "2", NULL };
    const char *p;
    struct run r;
    char *big = malloc(10000), *q;
    size_t i;

    report_of(&r, "a;b;c 3\na;b;d 2\na;e 1\nb;c 4\n", "cg.folded", args);
    p = r.out ? strstr(r.out, "\n# Functions") : NULL;
    tap_ok(!r.rc && p && same_expected(p, "callgraph.txt"),
           "report: --callgraph of a small tree, exact text");
    run_free(&r);
    report_of(&r, "a;b;c 3\na;b;d 2\na;e 1\nb;c 4\n", "cg.folded", jargs);
    tap_ok(!r.rc && json_valid(r.out) &&
           strstr(r.out, "{\"name\": \"a\", \"children\": 6, \"self\": 0, "
                  "\"children_pct\": 60.00, \"self_pct\": 0.00, \"callees\":"
                  " [{\"name\": \"b\", \"count\": 5, \"pct\": 50.00, "
                  "\"callees\": [{\"name\": \"c\", \"count\": 3, \"pct\": "
                  "30.00, \"callees\": []}, {\"name\": \"d\", \"count\": 2,"
                  " \"pct\": 20.00, \"callees\": []}]}, {\"name\": \"e\", "
                  "\"count\": 1, \"pct\": 10.00, \"callees\": []}]}"),
           "report: --callgraph --json nests the callees");
    run_free(&r);
    report_of(&r, "a;b 999\na;f 1\n", "cg2.folded", sargs);
    tap_ok(!r.rc && strstr(r.out, "  b\n") && !strstr(r.out, "  f\n"),
           "report: callees below 0.5%% of the samples are left out");
    run_free(&r);
    /* A stack 1500 frames deep: no recursion in the walk. */
    for ( i = 0, q = big; big && i < 1500; i++ )
        q += sprintf(q, "%sf%04zu", i ? ";" : "", i);
    if ( big )
        strcpy(q, " 1\n");
    report_of(&r, big ? big : "", "deep.folded", sargs);
    tap_ok(!r.rc && strstr(r.out, "100.00%       1  f1499\n"),
           "report: --callgraph of a 1500-frame stack");
    run_free(&r);
    free(big);
}


static void golden_report(void)
{
    static const char *const args[] = { "xenprofile", "-i", "@A", NULL };
    struct run r;
    const char *p;

    run_report(&r, args);
    p = r.out ? strchr(r.out, '\n') : NULL;
    tap_ok(!r.rc && p && !strncmp(r.out, "# Profile:  ", 12) &&
           same_expected(p + 1, "report.txt"),
           "report: the hand-built profile, exact text (rc %d, %s)", r.rc,
           r.err);
    run_free(&r);
}

static void script_errors(void)
{
    struct xenprof_data *d = report_profile();
    FILE *full = fopen("/dev/full", "w");
    uint8_t rec[32];
    char err[256] = "";
    int rc;

    tap_ok(xenprof_write_script(NULL, NULL, NULL, stdout, NULL, 0) == -EINVAL &&
           xenprof_write_script(d, NULL, NULL, NULL, NULL, 0) == -EINVAL,
           "script: no data or no output gives -EINVAL");
    if ( full )
    {
        rc = d ? xenprof_write_script(d, NULL, NULL, full, err, sizeof(err)) : 0;
        tap_ok(rc == -EIO, "script: a write error gives -EIO (\"%s\")",
               err);
        fclose(full);
    }
    else
        tap_skip("no /dev/full", "script: a write error gives -EIO");
    rec_put(rec, &(struct trec){ .nr = 1 });
    rec[11] = 0;
    rc = d ? xenprof_data_add_records(d, rec, sizeof(rec)) : -ENOMEM;
    full = fopen("/dev/null", "w");
    rc = rc ?: full ? xenprof_write_script(d, NULL, NULL, full, err, sizeof(err))
                    : -EIO;
    tap_ok(rc == -EBADMSG && strstr(err, "offset"),
           "script: corrupt records give -EBADMSG (\"%s\")", err);
    if ( full )
        fclose(full);
    xenprof_data_free(d);
}

static void script(void)
{
    static const char *const args[] = {
        "xenprofile", "-i", "@A", "--script", NULL };
    static const char *const fargs[] = {
        "xenprofile", "-i", "@A", "--script", "--cpu", "1", "--time",
        "2..", NULL };
    struct run r;
    const char *p;
    size_t blocks = 0;

    run_report(&r, args);
    for ( p = r.out; p && (p = strstr(p, "\n\n")); p += 2 )
        blocks++;
    tap_ok(!r.rc && r.out && strstr(r.out, "0.101000") == NULL &&
           strstr(r.out, "\nDomain-0 0/0 [000] 0.100001: ") && blocks == 10,
           "script: one block per sample, frames leaf first (%zu)", blocks);
    tap_ok(!r.rc && same_expected(r.out, "script.txt"),
           "script: the whole dump, guest samples, flags and return "
           "addresses included, exact text");
    tap_ok(r.out && strstr(r.out, "\nidle 32767/1 [001] 2.500000: "
                           "10309278 cpu-clock:\n"
                           "\t            1000 main_loop+0x0 ([xen])\n\n"),
           "script: an idle sample, as perf script prints it");
    run_free(&r);
    run_report(&r, fargs);
    tap_ok(!r.rc && r.out && !strcmp(r.out,
           "idle 32767/1 [001] 2.500000: 10309278 cpu-clock:\n"
           "\t            1000 main_loop+0x0 ([xen])\n\n"
           "idle 32767/1 [001] 2.500001: 10309278 cpu-clock:\n"
           "\t            1000 main_loop+0x0 ([xen])\n\n"),
           "script: filtered by pCPU and time");
    run_free(&r);
    script_errors();
}

/* Filters: the samples shown, and splits that add up to them. */
static void filters(void)
{
    static const struct {
        const char *opt[5];
        long long want;
    } cases[] = {
        { { NULL }, 10 },
        { { "--cpu", "1", NULL }, 4 },
        { { "--cpu", "0,2-3", NULL }, 6 },
        { { "--domain", "1", NULL }, 3 },
        { { "--domain", "web", NULL }, 3 },
        { { "--domain", "idle", NULL }, 2 },
        { { "--domain", "db", NULL }, 1 },
        { { "--time", "1..2", NULL }, 3 },
        { { "--time", "..1", NULL }, 4 },
        { { "--time", "3..", NULL }, 1 },
        { { "--time", "0.1..0.100001", NULL }, 1 },
        { { "--cpu", "1", "--time", "2..", NULL }, 2 },
        { { "--cpu", "4-7", NULL }, 0 },
    };
    const char *a[12] = { "xenprofile", "-i", "@A", "--json" };
    long long n, dom, cpu;
    char desc[64];
    struct run r;
    size_t i, k;

    for ( i = 0; i < sizeof(cases) / sizeof(*cases); i++ )
    {
        desc[0] = '\0';
        for ( k = 0; k < 5 && cases[i].opt[k]; k++ )
        {
            a[4 + k] = cases[i].opt[k];
            snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
                     " %s", a[4 + k]);
        }
        a[4 + k] = NULL;
        run_report(&r, a);
        n = r.out ? json_number(r.out, "\n  \"samples\"", ": ") : -1;
        dom = r.out ? json_sum_totals(r.out, "\"by_domain\"") : -1;
        cpu = r.out ? json_sum_totals(r.out, "\"by_cpu\"") : -1;
        tap_ok(!r.rc && n == cases[i].want && dom == n && cpu == n &&
               json_valid(r.out),
               "filter%s: %lld samples (domains %lld, pCPUs %lld)", desc,
               n, dom, cpu);
        run_free(&r);
    }
}

/* A random profile: every split adds up, with and without filters. */
static void splits_add_up(void)
{
    struct xenprof_data *d = report_profile();
    const char *a[] = { "xenprofile", "-i", NULL, "--json", NULL, NULL,
                        NULL };
    static const char *const opt[][2] = {
        { NULL, NULL }, { "--cpu", "0-2,5" }, { "--domain", "3" },
        { "--time", "0.5..2.5" }, { "--by", "cpu" } };
    char path[TPATH];
    struct run r;
    struct tsample s = { 1, 0, 0, 0, 0, 0, { 0x1310, 0x1210 }, 0 };
    unsigned int i, bad = 0;
    long long n, dom, cpu;

    srand(42);
    for ( i = 0; d && i < 2000; i++ )
    {
        s.cpu = rand() % 8;
        s.mode = rand() % 3;
        s.domid = rand() % 5;
        s.flags = 0;
        if ( s.domid == 4 && !s.mode )
            s.domid = XENPROF_DOMID_IDLE;
        s.ms = rand() % 4000;
        s.ip[1] = rand() % 2 && !s.mode ? 0x1210 : 0;
        add_tsample(d, &s, START_TSC);
    }
    a[2] = tmp_path(path, "random.data");
    if ( !d || xenprof_data_write(d, path, NULL, 0) )
        bad++;
    for ( i = 0; i < sizeof(opt) / sizeof(*opt); i++ )
    {
        a[4] = opt[i][0];
        a[5] = opt[i][1];
        run_report(&r, a);
        n = json_number(r.out, "\n  \"samples\"", ": ");
        dom = json_sum_totals(r.out, "\"by_domain\"");
        cpu = json_sum_totals(r.out, "\"by_cpu\"");
        if ( r.rc || !json_valid(r.out) || n <= 0 ||
             (i != 4 && dom != n) || cpu != n || (i == 0 && n != 2010) )
        {
            tap_diag("%s: n %lld domains %lld pCPUs %lld", a[4] ?: "all",
                     n, dom, cpu);
            bad++;
        }
        run_free(&r);
    }
    tap_ok(!bad, "report: splits add up to the samples shown (2010 "
           "samples, 4 filters)");
    xenprof_data_free(d);
}

void test_report(void)
{
    hists_cumulate();
    callees();
    callgraph_text();
    golden_report();
    script();
    filters();
    splits_add_up();
    test_report_cli();
}
