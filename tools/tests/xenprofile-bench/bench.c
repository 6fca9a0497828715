/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * bench.c: libxenprofile benchmark.  A synthetic profile (synth.h:
 * 1,000,000 samples, ~50k distinct stacks of 5-40 frames, 7k symbols) is
 * written to a data file, then every stage runs in its own child process,
 * so that each peak RSS (getrusage of the child) is its own:
 *
 *   read      xenprof_data_read(): load, check the CRC, decode every record
 *   stackset  xenprof_stackset_from_data(): symbolize and merge
 *   folded    xenprof_write_folded() to a file
 *   parse     xenprof_stackset_read_folded() of that file (alone)
 *   pprof     xenprof_write_pprof() to a file
 *   svg       xenprof_write_flamegraph() to /dev/null (default options:
 *             frames under 0.1 px left out), and with every frame drawn
 *   report    xenprof_report_main("-i FILE") to /dev/null
 *   pipeline  read + stackset + svg: the whole path to a flame graph
 *
 * The output stages run after read + stackset in their child: their peak
 * is the peak of a tool that does that much.  The goals of this machine
 * are printed as ratios; a benchmark never fails on speed.
 *
 * usage: xenprofile-bench [-n SAMPLES] [-k STACKS] [-s SYMBOLS] [DIR]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "synth.h"

/* Writers that may not be in the library yet: skipped when missing. */
int xenprof_write_flamegraph(const struct xenprof_stackset *s, FILE *out,
                             const struct xenprof_svg_opts *o,
                             char *err, size_t errlen)
    __attribute__((weak));
int xenprof_report_main(int argc, char **argv, FILE *out, FILE *errout)
    __attribute__((weak));

#define GOAL_PIPELINE_S     0.5
#define GOAL_REPORT_S       0.5
#define GOAL_SYMBOLIZE_MSPS 5.0     /* M samples/s */
#define GOAL_PARSE_MBS      500.0   /* MB/s of folded text */
#define GOAL_SVG_MIBS       38.0
#define GOAL_PEAK_MB        150.0

enum stage { S_READ, S_STACKSET, S_FOLDED, S_PARSE, S_PPROF, S_SVG,
             S_SVG_ALL, S_REPORT, S_PIPELINE, NR_STAGES };

static const char *const stage_name[NR_STAGES] = {
    "read (load+decode)", "stackset (symbolize)", "folded",
    "parse folded", "pprof", "svg", "svg, every frame", "report",
    "pipeline data->svg",
};

/* What a child sends back through its pipe. */
struct result {
    int rc;                         /* 0, or skipped (1), or failed (-1) */
    double t_read, t_stackset, t_op;
    size_t stacks;
    uint64_t total;
    char msg[200];
};

struct bench {
    const struct synth_opts *opts;
    char data[512], folded[512], pprof[512];
    double data_mb, folded_mb;
    uint64_t samples;
};

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double file_mb(const char *path)
{
    struct stat st;

    return stat(path, &st) ? 0 : st.st_size / 1e6;
}

/* Stage `op` on a loaded stack set; 0, 1 (skipped, msg set), -1. */
static int run_op(const struct bench *b, enum stage op,
                  const struct xenprof_data *d,
                  const struct xenprof_stackset *s, struct result *r)
{
    char *argv[] = { (char *)"xenprofile", (char *)"-i",
                     (char *)b->data, NULL };
    struct xenprof_svg_opts all = { .minwidth = 1e-9 };
    bool svg = op == S_SVG || op == S_SVG_ALL || op == S_PIPELINE;
    FILE *out = fopen(op == S_FOLDED ? b->folded :
                      op == S_PPROF ? b->pprof : "/dev/null", "w");
    int rc = 0;

    if ( !out )
        return snprintf(r->msg, sizeof(r->msg), "cannot open output"), -1;
    if ( op == S_FOLDED )
        rc = xenprof_write_folded(s, out);
    else if ( op == S_PPROF )
        rc = xenprof_write_pprof(s, d, out, r->msg, sizeof(r->msg));
    else if ( svg && !xenprof_write_flamegraph )
        rc = 1;
    else if ( svg )
        rc = xenprof_write_flamegraph(s, out, op == S_SVG_ALL ? &all : NULL,
                                      r->msg, sizeof(r->msg));
    else if ( op == S_REPORT && !xenprof_report_main )
        rc = 1;
    else if ( op == S_REPORT )
        rc = xenprof_report_main(3, argv, out, stderr) ? -1 : 0;
    if ( rc == 1 )
        snprintf(r->msg, sizeof(r->msg), "not in the library yet");
    if ( fclose(out) && !rc )
        rc = -1;
    return rc > 0 ? 1 : rc < 0 ? -1 : 0;
}

/* The generator: the data file.  0 or -1. */
static int generate(const struct bench *b, struct result *r)
{
    struct xenprof_data *d;
    double t0 = now(), t1;
    int rc;

    d = synth_profile(b->opts);
    if ( !d )
        return snprintf(r->msg, sizeof(r->msg), "out of memory"), -1;
    t1 = now();
    rc = xenprof_data_write(d, b->data, r->msg, sizeof(r->msg));
    r->t_read = t1 - t0;
    r->t_op = now() - t1;
    xenprof_data_free(d);
    return rc ? -1 : 0;
}

/* The parse stage: the folded file, read back.  0 or -1. */
static int parse_folded(const struct bench *b, struct result *r)
{
    struct xenprof_stackset *s = NULL;
    FILE *in = fopen(b->folded, "r");
    double t0 = now();
    int rc;

    if ( !in )
        return snprintf(r->msg, sizeof(r->msg), "cannot open the folded "
                        "file"), -1;
    rc = xenprof_stackset_read_folded(in, &s, NULL, r->msg, sizeof(r->msg));
    r->t_op = now() - t0;
    fclose(in);
    r->stacks = xenprof_stackset_size(s);
    r->total = xenprof_stackset_total(s);
    xenprof_stackset_free(s);
    return rc ? -1 : 0;
}

/* The body of a stage's child (NR_STAGES: the generator): fill r. */
static void child(const struct bench *b, enum stage op, struct result *r)
{
    struct xenprof_data *d = NULL;
    struct xenprof_stackset *s = NULL;
    double t0 = now();

    if ( op == NR_STAGES )
    {
        r->rc = generate(b, r);
        return;
    }
    if ( op == S_REPORT )
    {
        r->rc = run_op(b, op, NULL, NULL, r);
        r->t_op = now() - t0;
        return;
    }
    if ( op == S_PARSE )
    {
        r->rc = parse_folded(b, r);
        return;
    }
    r->rc = xenprof_data_read(b->data, &d, r->msg, sizeof(r->msg)) ? -1 : 0;
    r->t_read = now() - t0;
    if ( r->rc || op == S_READ )
        goto out;
    t0 = now();
    r->rc = xenprof_stackset_from_data(d, NULL, NULL, &s, r->msg,
                                       sizeof(r->msg)) ? -1 : 0;
    r->t_stackset = now() - t0;
    if ( r->rc )
        goto out;
    r->stacks = xenprof_stackset_size(s);
    r->total = xenprof_stackset_total(s);
    if ( op != S_STACKSET )
    {
        t0 = now();
        r->rc = run_op(b, op, d, s, r);
        r->t_op = now() - t0;
    }
 out:
    xenprof_stackset_free(s);
    xenprof_data_free(d);
}

/* Run stage op in a child: its result and peak RSS (MB).  0 or -1. */
static int in_child(const struct bench *b, enum stage op, struct result *r,
                    double *peak_mb)
{
    struct rusage ru;
    int fds[2], status;
    pid_t pid;

    memset(r, 0, sizeof(*r));
    if ( pipe(fds) || (pid = fork()) < 0 )
        return perror("xenprofile-bench: fork"), -1;
    if ( pid == 0 )
    {
        close(fds[0]);
        child(b, op, r);
        _exit(write(fds[1], r, sizeof(*r)) == sizeof(*r) ? 0 : 1);
    }
    close(fds[1]);
    if ( read(fds[0], r, sizeof(*r)) != sizeof(*r) )
    {
        r->rc = -1;
        snprintf(r->msg, sizeof(r->msg), "the child died");
    }
    close(fds[0]);
    if ( wait4(pid, &status, 0, &ru) != pid )
        return perror("xenprofile-bench: wait4"), -1;
    *peak_mb = ru.ru_maxrss / 1024.0;
    return 0;
}

/* Seconds a stage's row shows. */
static double stage_time(enum stage op, const struct result *r)
{
    switch ( op )
    {
    case S_READ: return r->t_read;
    case S_STACKSET: return r->t_stackset;
    case S_PIPELINE: return r->t_read + r->t_stackset + r->t_op;
    default: return r->t_op;
    }
}

static void print_row(const struct bench *b, enum stage op,
                      const struct result *r, double peak)
{
    double t = stage_time(op, r);

    if ( r->rc )
    {
        printf("%-22s %s: %s\n", stage_name[op],
               r->rc > 0 ? "skipped" : "FAILED", r->msg);
        return;
    }
    printf("%-22s %8.3f %10.1f %11.2f %10.1f", stage_name[op], t,
           t > 0 ? b->data_mb / t : 0, t > 0 ? b->samples / t / 1e6 : 0,
           peak);
    if ( op == S_PARSE && t > 0 )
        printf("   %.1f MB/s of folded input", b->folded_mb / t);
    if ( (op == S_SVG || op == S_SVG_ALL) && t > 0 )
        printf("   %.1f MiB/s of folded input", b->folded_mb * 1e6 /
               (1 << 20) / t);
    if ( op == S_FOLDED || op == S_PPROF )
        printf("   %.1f MB written", file_mb(op == S_FOLDED ? b->folded
                                                         : b->pprof));
    putchar('\n');
}

/* A goal on the time of stage op, as a ratio. */
static void goal_time(const char *what, double goal, const struct result *r,
                      enum stage op)
{
    double t = stage_time(op, r);

    if ( r->rc )
        printf("  %s <= %.1f s: not measured (%s)\n", what, goal, r->msg);
    else
        printf("  %s <= %.1f s: %.3f s, ratio %.2f\n", what, goal, t,
               t / goal);
}

/* The goals of this machine, as ratios (< 1 is within the goal). */
static void print_goals(const struct bench *b, const struct result *r,
                        const double *peak)
{
    double max_peak = 0, svg;
    unsigned int i, at = 0, k;

    for ( i = 0; i < NR_STAGES; i++ )
        if ( !r[i].rc && peak[i] > max_peak )
        {
            max_peak = peak[i];
            at = i;
        }
    printf("\ngoals (ratio <= 1.00 meets the goal):\n");
    goal_time("pipeline data->svg", GOAL_PIPELINE_S, &r[S_PIPELINE],
              S_PIPELINE);
    goal_time("report", GOAL_REPORT_S, &r[S_REPORT], S_REPORT);
    if ( !r[S_STACKSET].rc && r[S_STACKSET].t_stackset > 0 )
    {
        double msps = b->samples / r[S_STACKSET].t_stackset / 1e6;

        printf("  symbolize >= %.0f M samples/s: %.2f M samples/s, "
               "ratio %.2f\n", GOAL_SYMBOLIZE_MSPS, msps,
               GOAL_SYMBOLIZE_MSPS / msps);
    }
    if ( !r[S_PARSE].rc && r[S_PARSE].t_op > 0 )
    {
        double mbs = b->folded_mb / r[S_PARSE].t_op;

        printf("  parse folded >= %.0f MB/s: %.1f MB/s, ratio %.2f\n",
               GOAL_PARSE_MBS, mbs, GOAL_PARSE_MBS / mbs);
    }
    for ( k = S_SVG; k <= S_SVG_ALL; k++ )
    {
        if ( r[k].rc || r[k].t_op <= 0 )
        {
            printf("  %s >= %.0f MiB/s: not measured\n", stage_name[k],
                   GOAL_SVG_MIBS);
            continue;
        }
        svg = b->folded_mb * 1e6 / (1 << 20) / r[k].t_op;
        printf("  %s >= %.0f MiB/s (of folded input): %.1f MiB/s, "
               "ratio %.2f\n", stage_name[k], GOAL_SVG_MIBS, svg,
               GOAL_SVG_MIBS / svg);
    }
    printf("  peak memory <= %.0f MB: %.1f MB (%s), ratio %.2f\n",
           GOAL_PEAK_MB, max_peak, stage_name[at], max_peak / GOAL_PEAK_MB);
}

static void usage(void)
{
    fprintf(stderr, "usage: xenprofile-bench [-n SAMPLES] [-k STACKS] "
            "[-s SYMBOLS] [DIR]\n");
    exit(2);
}

/* Parse the options into o; returns the folder. */
static const char *options(int argc, char **argv, struct synth_opts *o)
{
    int c;

    while ( (c = getopt(argc, argv, "n:k:s:")) != -1 )
    {
        if ( c == '?' )
            usage();
        if ( c == 'n' )
            o->nr_samples = strtoul(optarg, NULL, 0);
        else if ( c == 'k' )
            o->nr_stacks = strtoul(optarg, NULL, 0);
        else
            o->nr_syms = strtoul(optarg, NULL, 0);
    }
    if ( optind + 1 < argc )
        usage();
    return optind < argc ? argv[optind] : ".";
}

int main(int argc, char **argv)
{
    struct synth_opts o = SYNTH_DEFAULTS;
    const char *dir = options(argc, argv, &o);
    struct result r[NR_STAGES];
    double peak[NR_STAGES] = { 0 }, gen_peak;
    struct bench b = { .opts = &o, .samples = o.nr_samples };
    unsigned int i;

    snprintf(b.data, sizeof(b.data), "%s/bench.data", dir);
    snprintf(b.folded, sizeof(b.folded), "%s/bench.folded", dir);
    snprintf(b.pprof, sizeof(b.pprof), "%s/bench.pb.gz", dir);
    fflush(stdout);
    if ( in_child(&b, NR_STAGES, &r[0], &gen_peak) )
        return 1;
    if ( r[0].rc )
    {
        fprintf(stderr, "xenprofile-bench: %s\n", r[0].msg);
        return 1;
    }
    b.data_mb = file_mb(b.data);
    printf("xenprofile-bench: %zu samples, %zu symbols, data file %.1f MB "
           "(%s)\n", o.nr_samples, o.nr_syms, b.data_mb, b.data);
    printf("generated in %.2f s, written in %.2f s, peak %.1f MB\n\n",
           r[0].t_read, r[0].t_op, gen_peak);
    printf("%-22s %8s %10s %11s %10s\n", "stage", "time(s)", "MB/s data",
           "Msamples/s", "peak(MB)");
    for ( i = 0; i < NR_STAGES; i++ )
    {
        if ( in_child(&b, i, &r[i], &peak[i]) )
            return 1;
        if ( i == S_STACKSET && !r[i].rc )
            printf("  (%zu distinct stacks, %" PRIu64 " samples)\n",
                   r[i].stacks, r[i].total);
        if ( i == S_FOLDED )
            b.folded_mb = file_mb(b.folded);
        print_row(&b, i, &r[i], peak[i]);
        fflush(stdout);
    }
    print_goals(&b, r, peak);
    return 0;
}
