/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-report-cli.c: xenprof_report_main() as a command: the options
 * (good and bad, with their exit status), folded input, the output files
 * and the runtime errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test-report.h"

/* argv after "xenprofile"; rc the exit status; err part of the message. */
struct argcase {
    const char *args[12];
    int rc;
    const char *err;
};

static const struct argcase argcases[] = {
    { { "-i", "@A" }, 0, NULL },
    { { "-i@A" }, 0, NULL },
    { { "--input=@A" }, 0, NULL },
    { { "-i", "@A", "--sort", "self" }, 0, NULL },
    { { "-i", "@A", "--sort=total", "--top", "3" }, 0, NULL },
    { { "-i", "@A", "--sort", "children", "--top", "0" }, 0, NULL },
    { { "-i", "@A", "--by", "cpu" }, 0, NULL },
    { { "-i", "@A", "--by", "domain", "--callgraph" }, 0, NULL },
    { { "-i", "@A", "--cpu", "0-3,6", "--domain", "Domain-0" }, 0, NULL },
    { { "-i", "@A", "--time", "..", "--json" }, 0, NULL },
    { { "-i", "@A", "--time", "1e0..2.5" }, 0, NULL },
    { { "-i", "@A", "--folded", "-" }, 0, NULL },
    { { "-i", "@A", "--svg", "@O", "--title", "T", "--width", "800",
        "--minwidth", "0.5", "--inverted" }, 0, NULL },
    { { "-i", "@A", "--pprof", "@O", "--svg", "-" }, 0, NULL },
    { { "-i", "@A", "--diff", "@B", "--folded", "@O" }, 0, NULL },
    { { "-i", "@B", "--diff", "@A", "--svg", "@O" }, 0, NULL },
    { { "-i", "@B", "--top", "2", "--json", "--callgraph" }, 0, NULL },
    { { "-h" }, 0, NULL },
    { { "-i", "@A", "--help" }, 0, NULL },
    { { "--bogus" }, 2, "unknown option '--bogus'" },
    { { "-x" }, 2, "unknown option '-x'" },
    { { "-hx" }, 2, "unknown option" },
    { { "@A" }, 2, "unexpected argument" },
    { { "-i", "@A", "--", "x" }, 2, "unexpected argument '--'" },
    { { "-i" }, 2, "--input needs a value" },
    { { "-i", "@A", "--top" }, 2, "--top needs a value" },
    { { "-i", "@A", "--top", "-1" }, 2, "bad value for --top: '-1'" },
    { { "-i", "@A", "--top", "1x" }, 2, "bad value for --top" },
    { { "-i", "@A", "--top", "99999999999999999999999" }, 2, "--top" },
    { { "-i", "@A", "--sort", "name" }, 2, "bad value for --sort" },
    { { "-i", "@A", "--by", "both" }, 2, "bad value for --by" },
    { { "-i", "@A", "--cpu", "3-1" }, 2, "bad value for --cpu" },
    { { "-i", "@A", "--cpu", "1,,2" }, 2, "bad value for --cpu" },
    { { "-i", "@A", "--cpu", "1-" }, 2, "bad value for --cpu" },
    { { "-i", "@A", "--cpu", "65536" }, 2, "bad value for --cpu" },
    { { "-i", "@A", "--cpu", " 1" }, 2, "bad value for --cpu" },
    { { "-i", "@A", "--time", "1" }, 2, "bad value for --time" },
    { { "-i", "@A", "--time", "2..1" }, 2, "bad value for --time" },
    { { "-i", "@A", "--time", "1..1" }, 2, "bad value for --time" },
    { { "-i", "@A", "--time", "a..b" }, 2, "bad value for --time" },
    { { "-i", "@A", "--time", "-1..2" }, 2, "bad value for --time" },
    { { "-i", "@A", "--time", "nan.." }, 2, "bad value for --time" },
    { { "-i", "@A", "--time", "1e99.." }, 2, "bad value for --time" },
    { { "-i", "@A", "--domain", "" }, 2, "bad value for --domain" },
    { { "-i", "@A", "--domain", "nosuch" }, 2, "no such domain" },
    { { "-i", "@A", "--width", "0", "--svg", "@O" }, 2, "--width" },
    { { "-i", "@A", "--minwidth", "-1", "--svg", "@O" }, 2, "--minwidth" },
    { { "-i", "@A", "--minwidth", "inf", "--svg", "@O" }, 2, "--minwidth" },
    { { "-i", "@A", "--title", "T" }, 2, "--title needs --svg" },
    { { "-i", "@A", "--inverted" }, 2, "--inverted needs --svg" },
    { { "-i", "@A", "--json", "--svg", "@O" }, 2, "--json is for the" },
    { { "-i", "@A", "--top", "3", "--script" }, 2, "--top is for the" },
    { { "-i", "@A", "--json=yes" }, 2, "--json takes no value" },
    { { "-i", "@A", "--folded", "-", "--svg", "-" }, 2, "only one output" },
    { { "-i", "@A", "--script", "--pprof", "-" }, 2, "only one output" },
    { { "-i", "@A", "--diff", "@B" }, 2, "--diff needs --folded" },
    { { "-i", "@A", "--diff", "@B", "--pprof", "@O", "--svg", "@O" }, 2,
      "--diff needs" },
    { { "-i", "-", "--diff", "-", "--folded", "@O" }, 2, "only one input" },
    { { "-i", "@B", "--cpu", "0" }, 2, "--cpu needs a data file" },
    { { "-i", "@B", "--domain", "0" }, 2, "--domain needs a data file" },
    { { "-i", "@B", "--time", "1..2" }, 2, "--time needs a data file" },
    { { "-i", "@B", "--by", "cpu" }, 2, "--by needs a data file" },
    { { "-i", "@B", "--script" }, 2, "--script needs a data file" },
    { { "-i", "@A", "--diff", "@B", "--folded", "@O", "--cpu", "1" }, 2,
      "holds folded stacks" },
    { { "-i", "/nonexistent/x.data" }, 1, "cannot open /nonexistent/x" },
    { { "-i", "@A", "--svg", "/nonexistent/x.svg" }, 1,
      "cannot write /nonexistent/x.svg" },
};

static void options(void)
{
    const char *a[16] = { "xenprofile" };
    const struct argcase *c;
    unsigned int bad = 0;
    struct run r;
    size_t i, k;

    for ( i = 0; i < sizeof(argcases) / sizeof(*argcases); i++ )
    {
        c = &argcases[i];
        for ( k = 0; c->args[k]; k++ )
            a[1 + k] = c->args[k];
        a[1 + k] = NULL;
        if ( run_report(&r, a) ||
             r.rc != c->rc || (c->err && !strstr(r.err, c->err)) ||
             (!c->rc && r.err[0]) ||
             (c->rc == 2 && !strstr(r.err, "Try 'xenprofile --help'.")) ||
             (c->rc && strncmp(r.err, "xenprofile: ", 12)) )
        {
            tap_diag("case %zu (%s %s ...): rc %d, expected %d; \"%s\"", i,
                     c->args[0], c->args[1] ?: "", r.rc, c->rc, r.err);
            bad++;
        }
        run_free(&r);
    }
    tap_ok(!bad, "cli: %zu option cases give the expected exit status and "
           "message", sizeof(argcases) / sizeof(*argcases));
}

static void help_and_name(void)
{
    static const char *const h[] = { "xl profile report", "-h", NULL };
    static const char *const b[] = { "xl profile report", "--x", NULL };
    struct run r;

    run_report(&r, h);
    tap_ok(!r.rc && !strncmp(r.out, "Usage: xl profile report [-i FILE]",
                             34) && strstr(r.out, "Exit status"),
           "cli: -h prints the usage to out, exit 0");
    run_free(&r);
    run_report(&r, b);
    tap_ok(r.rc == 2 && !r.out[0] && !strcmp(r.err,
           "xl profile report: unknown option '--x'\n"
           "Try 'xl profile report --help'.\n"),
           "cli: messages name argv[0]");
    run_free(&r);
}

/* Write text to a temporary file; its path in buf. */
static const char *save(char *buf, const char *name, const char *text,
                        size_t len)
{
    tmp_path(buf, name);
    if ( file_save(buf, text, len) )
        tap_diag("cannot write %s", buf);
    return buf;
}

static void folded_input(void)
{
    static const char text[] = "a;b 3\nbad line\nc x\na 2\r\n\n";
    char path[TPATH], epath[TPATH];
    const char *a[] = { "xenprofile", "-i", path, NULL, NULL };
    struct run r;
    const char *w;

    save(path, "in.folded", text, strlen(text));
    run_report(&r, a);
    w = strstr(r.err, "warning");
    tap_ok(!r.rc && w && !strstr(w + 1, "warning") &&
           strstr(r.err, ": 2 malformed lines skipped\n") &&
           strstr(r.out, "(folded stacks: no header, no splits)\n"
                  "# Skipped:  2 malformed lines\n# Shown:    5 samples\n") &&
           strstr(r.out, "    100.00%     40.00%          5          2  a\n")
           && !strstr(r.out, "by domain"),
           "cli: folded input, one warning for the malformed lines");
    run_free(&r);
    a[3] = "--json";
    run_report(&r, a);
    tap_ok(!r.rc && json_valid(r.out) &&
           strstr(r.out, "\"format\": \"folded\"") &&
           strstr(r.out, "\"malformed_lines\": 2") &&
           !strstr(r.out, "by_domain"),
           "cli: folded input as JSON");
    run_free(&r);
    a[2] = save(epath, "empty.folded", "", 0);
    a[3] = NULL;
    run_report(&r, a);
    tap_ok(r.rc == 1 && strstr(r.err, "empty.folded: no samples"),
           "cli: an empty input is an error (exit 1)");
    run_free(&r);
    a[2] = save(epath, "junk.folded", "junk\n\x01\x02\n", 8);
    run_report(&r, a);
    tap_ok(r.rc == 1 && strstr(r.err, "junk.folded: no samples"),
           "cli: a file of no valid line is an error (exit 1)");
    run_free(&r);
}

static void corrupt(void)
{
    const char *a[] = { "xenprofile", "-i", NULL, NULL };
    char path[TPATH];
    uint8_t *buf = NULL;
    size_t len = 0;
    struct run r;

    if ( file_load(report_data_path(), &buf, &len) || len < 64 )
        len = 64;
    a[2] = save(path, "cut.data", (const char *)buf, len - 40);
    run_report(&r, a);
    tap_ok(r.rc == 1 && strstr(r.err, "cut.data: offset"),
           "cli: a truncated data file: exit 1, the file and offset named "
           "(\"%s\")", strtok(r.err, "\n"));
    run_free(&r);
    free(buf);
}

/* Outputs instead of the report. */
static void outputs(void)
{
    static const char *const fa[] = {
        "xenprofile", "-i", "@A", "--folded", "-", NULL };
    static const char *const fb[] = {
        "xenprofile", "-i", "@B", "--folded", "-", NULL };
    static const char *const da[] = {
        "xenprofile", "-i", "@A", "--diff", "@B", "--folded", "-", NULL };
    static const char *const sv[] = {
        "xenprofile", "-i", "@A", "--svg", "-", "--domain", "web", NULL };
    char path[TPATH];
    const char *nos[] = {
        "xenprofile", "-i", "@A", "--svg", tmp_path(path, "none.svg"),
        "--cpu", "7", NULL };
    struct run r, r2;

    run_report(&r, fa);
    run_report(&r2, fb);
    tap_ok(!r.rc && !r2.rc && !strcmp(r.out, r2.out) &&
           strstr(r.out, "main_loop;do_work;helper;leaf 3\n"),
           "cli: --folded - of a data file and of its folded copy agree");
    run_free(&r);
    run_free(&r2);
    run_report(&r, da);
    tap_ok(!r.rc && strstr(r.out, "main_loop;do_work;helper;leaf 3 3\n"),
           "cli: --diff OTHER --folded - (\"%.40s\")", r.out);
    run_free(&r);
    run_report(&r, sv);
    tap_ok(!r.rc && strstr(r.out, "<svg") && strstr(r.out, "--domain web"),
           "cli: --svg - with the filter as the subtitle");
    run_free(&r);
    run_report(&r, nos);
    tap_ok(r.rc == 1 && r.err[0] && access(path, F_OK),
           "cli: a flame graph of no sample: exit 1, no file (\"%s\")",
           strtok(r.err, "\n"));
    run_free(&r);
}

/* Names that JSON must escape; a profile without a timestamp frequency. */
static void strings(void)
{
    static const char text[] =
        "caf\xc3\xa9;q\"uo\\te;bad\xff\xc3;ctl\x01x 3\n";
    char path[TPATH], dpath[TPATH];
    const char *a[] = { "xenprofile", "-i", path, "--json", NULL, NULL };
    struct xenprof_data *d = sample_profile();
    struct run r;

    save(path, "strings.folded", text, strlen(text));
    run_report(&r, a);
    tap_ok(!r.rc && json_valid(r.out) &&
           strstr(r.out, "\"caf\xc3\xa9\"") &&
           strstr(r.out, "\"q\\\"uo\\\\te\"") &&
           strstr(r.out, "\"bad\\ufffd\\ufffd\"") &&
           strstr(r.out, "\"ctl\\u0001x\""),
           "cli: JSON escapes quotes, backslashes, control bytes and "
           "invalid UTF-8");
    run_free(&r);
    a[2] = tmp_path(dpath, "sample.data");
    if ( d )
        d->meta.timestamp_khz = 0;
    if ( !d || xenprof_data_write(d, dpath, NULL, 0) )
        tap_diag("cannot write %s", dpath);
    run_report(&r, a);
    tap_ok(!r.rc && json_valid(r.out) &&
           strstr(r.out, "\"hostname\": \"host-\\u0001\\ufffd;x y\""),
           "cli: JSON of a data file with a binary host name");
    run_free(&r);
    a[3] = "--time";
    a[4] = "1..2";
    run_report(&r, a);
    tap_ok(r.rc == 1 && strstr(r.err, "no timestamp frequency"),
           "cli: --time on a profile without a timestamp frequency: exit 1");
    run_free(&r);
    xenprof_data_free(d);
}

/* The report to a full disk. */
static void full(void)
{
    char *argv[] = { (char *)"xenprofile", (char *)"-i",
                     (char *)report_data_path(), NULL };
    FILE *f = fopen("/dev/full", "w"), *e = fopen("/dev/null", "w");

    if ( f && e )
        tap_ok(xenprof_report_main(3, argv, f, e) == 1,
               "cli: a write error on the report: exit 1");
    else
        tap_skip("no /dev/full", "cli: a write error on the report");
    if ( f )
        fclose(f);
    if ( e )
        fclose(e);
}

void test_report_cli(void)
{
    full();
    strings();
    options();
    help_and_name();
    folded_input();
    corrupt();
    outputs();
}
