/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * cli.c: xenprof_report_main(), a whole report command for a program's
 * main(): the options (parsed by cli-args.c), loading the
 * input (a data file or folded stacks), the filter, and the dispatch to
 * the report or to the writers (folded, flame graph, pprof, script,
 * differential), with the names of --xen-syms (cli-syms.c) if given.
 *
 * Exit status: 0, 1 on a runtime error (a file that cannot be read or
 * written, corrupt data), 2 on bad usage (unknown option, bad value, an
 * option the input or the other options do not allow).  Messages are one
 * line each on errout, prefixed by argv[0].
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stackset.h"

/* A one-line message "prog: ..." on errout; returns status. */
static int fail(const struct cli *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void xenprof_priv_cli_vsay(const struct cli *c, const char *what,
                           const char *fmt, va_list ap)
{
    fprintf(c->errout, "%s: %s", c->prog, what);
    vfprintf(c->errout, fmt, ap);
    fputc('\n', c->errout);
}

static int fail(const struct cli *c, int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    xenprof_priv_cli_vsay(c, "", fmt, ap);
    va_end(ap);
    if ( status == EXIT_USAGE )
        fprintf(c->errout, "Try '%s --help'.\n", c->prog);
    return status;
}

/* Read all of standard input into memory; 0 or -errno. */
static int slurp(FILE *in, char **buf, size_t *len)
{
    size_t cap = 0, n;
    char *p;

    *buf = NULL;
    *len = 0;
    do {
        if ( *len == cap )
        {
            cap = cap ? cap * 2 : 65536;
            p = cap > *len ? realloc(*buf, cap) : NULL;
            if ( !p )
                return -ENOMEM;
            *buf = p;
        }
        n = fread(*buf + *len, 1, cap - *len, in);
        *len += n;
    } while ( n );
    return ferror(in) ? -EIO : 0;
}

/* Read folded stacks from f; 0 or 1 (message printed). */
static int load_folded(struct cli *c, FILE *f, struct input *in)
{
    int rc;

    c->err[0] = '\0';
    rc = xenprof_stackset_read_folded(f, &in->s, &in->bad_lines, c->err,
                                      sizeof(c->err));
    if ( rc == -ENODATA )
        return fail(c, 1, "%s: no samples (empty, or not folded stacks)",
                    in->path);
    if ( rc )
        return fail(c, 1, "%s: %s", in->path,
                    c->err[0] ? c->err : strerror(-rc));
    if ( in->bad_lines )
        fprintf(c->errout, "%s: warning: %s: %zu malformed lines skipped\n",
                c->prog, in->path, in->bad_lines);
    return 0;
}

/* Folded stacks from standard input (a data file needs its name). */
static int load_stdin(struct cli *c, struct input *in)
{
    FILE *f;
    char *buf;
    size_t len;
    int rc = slurp(stdin, &buf, &len);

    if ( rc )
        rc = fail(c, 1, "standard input: %s", strerror(-rc));
    else if ( len >= 8 && !memcmp(buf, XENPROF_FILE_MAGIC, 8) )
        rc = fail(c, 1, "standard input: a data file must be given by name");
    else if ( !len )
        rc = fail(c, 1, "standard input: no samples (empty)");
    else if ( !(f = fmemopen(buf, len, "r")) )
        rc = fail(c, 1, "standard input: %s", strerror(errno));
    else
    {
        rc = load_folded(c, f, in);
        fclose(f);
    }
    free(buf);
    return rc;
}

/* Load path: a data file (by its magic) or folded stacks; 0 or 1. */
static int load(struct cli *c, const char *path, struct input *in)
{
    char magic[8];
    FILE *f;
    int rc;

    in->path = !strcmp(path, "-") ? "standard input" : path;
    if ( !strcmp(path, "-") )
        return load_stdin(c, in);
    f = fopen(path, "rb");
    if ( !f )
        return fail(c, 1, "cannot open %s: %s", path, strerror(errno));
    if ( fread(magic, 1, 8, f) == 8 && !memcmp(magic, XENPROF_FILE_MAGIC, 8) )
    {
        fclose(f);
        c->err[0] = '\0';
        rc = xenprof_data_read(path, &in->d, c->err, sizeof(c->err));
        return rc ? fail(c, 1, "%s", c->err) : 0;
    }
    if ( ferror(f) )
        rc = fail(c, 1, "cannot read %s: %s", path, strerror(errno));
    else if ( fseek(f, 0, SEEK_SET) )
        rc = fail(c, 1, "cannot read %s: %s", path, strerror(errno));
    else
        rc = load_folded(c, f, in);
    fclose(f);
    return rc;
}

/* The domid that --domain names in d; 0 or EXIT_USAGE. */
static int find_domain(struct cli *c, const struct input *in,
                       uint32_t *domid)
{
    const char *v = c->val[O_DOMAIN];
    size_t i, found = 0;

    if ( strspn(v, "0123456789") == strlen(v) && strlen(v) <= 5 &&
         strtoul(v, NULL, 10) <= 0xffff )
    {
        *domid = strtoul(v, NULL, 10);
        return 0;
    }
    *domid = XENPROF_DOMID_IDLE;
    found = !strcmp(v, "idle");
    for ( i = 0; i < in->d->nr_doms; i++ )
    {
        if ( strcmp(in->d->doms[i].name, v) ||
             (found && *domid == in->d->doms[i].domid) )
            continue;
        *domid = in->d->doms[i].domid;
        if ( found++ )
            return fail(c, EXIT_USAGE, "--domain %s: several domains of "
                        "that name in %s: give a domid", v, in->path);
    }
    if ( !found )
        return fail(c, EXIT_USAGE, "--domain %s: no such domain in %s", v,
                    in->path);
    return 0;
}

/*
 * Make in's stack set: from a data file through the filter (into f), or
 * check that no option needs sample attributes.  0, 1 or EXIT_USAGE.
 */
static int prepare(struct cli *c, struct input *in, struct xenprof_filter *f)
{
    static const enum opt_id need_data[] = {
        O_CPU, O_DOMAIN, O_TIME, O_BY, O_SCRIPT };
    unsigned int i;
    int rc;

    *f = c->filter;
    if ( !in->d )
    {
        for ( i = 0; i < sizeof(need_data) / sizeof(*need_data); i++ )
            if ( c->val[need_data[i]] )
                return fail(c, EXIT_USAGE, "--%s needs a data file: %s "
                            "holds folded stacks",
                            xenprof_priv_cli_opts[need_data[i]].name,
                            in->path);
        return 0;
    }
    if ( f->has_time && !in->d->meta.timestamp_khz )
        return fail(c, 1, "%s: no timestamp frequency: --time cannot be applied",
                    in->path);
    if ( c->val[O_DOMAIN] )
    {
        rc = find_domain(c, in, &f->domid);
        if ( rc )
            return rc;
        f->has_domid = 1;
    }
    c->err[0] = '\0';
    rc = xenprof_priv_stackset_build(in->d, f, c->syms, !!c->val[O_PPROF],
                                     &in->s, c->err, sizeof(c->err));
    return rc ? fail(c, 1, "%s: %s", in->path, c->err) : 0;
}

/* One output: what selects the writer, and its inputs. */
struct output {
    const struct cli *c;
    enum opt_id what;
    const struct input *a, *b;
    const struct xenprof_filter *f;
    bool said;                          /* the writer left a message */
};

/* The writer of an output (xenprof_fill_t). */
static int fill_output(FILE *out, void *arg, char *e, size_t el)
{
    struct output *o = arg;
    const struct cli *c = o->c;
    const struct input *a = o->a, *b = o->b;
    int rc;

    if ( o->what == O_SCRIPT )
        rc = xenprof_write_script(a->d, o->f, c->syms, out, e, el);
    else if ( o->what == O_PPROF )
        rc = xenprof_write_pprof(a->s, a->d, out, e, el);
    else if ( o->what == O_FOLDED && b )
        rc = xenprof_write_diff_folded(b->s, a->s, out);
    else if ( o->what == O_FOLDED )
        rc = xenprof_write_folded(a->s, out);
    else if ( b )
        rc = xenprof_write_flamegraph_diff(b->s, a->s, out, &c->svg, e, el);
    else
        rc = xenprof_write_flamegraph(a->s, out, &c->svg, e, el);
    o->said = rc && e[0];
    return rc;
}

/*
 * Write one output: to standard output for "-" (and --script), else to
 * its file atomically (xenprof_write_file()), so that a failure never
 * leaves a part of it nor removes an older one.  0 or 1.
 */
static int write_one(struct cli *c, enum opt_id what, const struct input *a,
                     const struct input *b, const struct xenprof_filter *f)
{
    const char *path = what == O_SCRIPT ? "-" : c->val[what];
    struct output o = { .c = c, .what = what, .a = a, .b = b, .f = f };
    size_t el = sizeof(c->err);
    int rc;

    c->err[0] = '\0';
    if ( strcmp(path, "-") )
        rc = xenprof_write_file(path, 0666, fill_output, &o, c->err, el);
    else
    {
        rc = fill_output(c->out, &o, c->err, el);
        if ( !rc && (fflush(c->out) || ferror(c->out)) )
            rc = -EIO;
        path = "standard output";
    }
    if ( !rc )
        return 0;
    if ( o.said )
        return fail(c, 1, "%s: %s", path, c->err);
    return fail(c, 1, "cannot write %s: %s", path, strerror(-rc));
}

/* The report, or every output asked for; 0, 1 or EXIT_USAGE. */
static int run(struct cli *c, struct input *a, struct input *b)
{
    static const enum opt_id outs[] = {
        O_SCRIPT, O_FOLDED, O_SVG, O_PPROF };
    struct xenprof_report_opts ro = {
        .input = a->path, .filter_desc = c->desc, .by_self = c->by_self,
        .top = c->top, .by = c->by, .callgraph = !!c->val[O_CALLGRAPH],
        .json = !!c->val[O_JSON], .bad_lines = a->bad_lines };
    struct xenprof_filter fa, fb;
    unsigned int i;
    int rc = prepare(c, a, &fa);

    if ( !rc && b )
        rc = prepare(c, b, &fb);
    if ( c->desc[0] )
        c->svg.subtitle = c->desc;
    for ( i = 0; !rc && i < sizeof(outs) / sizeof(*outs); i++ )
        if ( c->val[outs[i]] )
            rc = write_one(c, outs[i], a, b, &fa);
    if ( rc || c->val[O_SCRIPT] || c->val[O_FOLDED] || c->val[O_SVG] ||
         c->val[O_PPROF] )
        return rc;
    c->err[0] = '\0';
    rc = xenprof_priv_report(a->d, &fa, a->s, &ro, c->out, c->err,
                             sizeof(c->err));
    return rc ? fail(c, 1, "%s", c->err) : 0;
}

static void input_free(struct input *in)
{
    xenprof_stackset_free(in->s);
    xenprof_data_free(in->d);
}

/* Also 1 when out of memory.  Never exits the process. */
int xenprof_report_main(int argc, char **argv, FILE *out, FILE *errout)
{
    struct input a = { 0 }, b = { 0 };
    struct cli *c = calloc(1, sizeof(*c));
    int rc;

    if ( !c )
    {
        fprintf(errout, "%s: out of memory\n", argc ? argv[0] : "xenprofile");
        return 1;
    }
    c->prog = argc > 0 && argv[0] ? argv[0] : "xenprofile";
    c->out = out;
    c->errout = errout;
    c->top = DEFAULT_TOP;
    c->by = XENPROF_BY_DOMAIN | XENPROF_BY_CPU;
    c->val[O_INPUT] = "xenprofile.data";
    rc = xenprof_priv_cli_parse(c, argc, argv);
    if ( rc == EXIT_USAGE )
        fail(c, rc, "%s", c->err);
    rc = rc ?: load(c, c->val[O_INPUT], &a);
    if ( !rc && c->val[O_DIFF] )
        rc = load(c, c->val[O_DIFF], &b);
    if ( !rc && c->val[O_XEN_SYMS] &&
         xenprof_priv_cli_syms(c, &a, c->val[O_DIFF] ? &b : NULL) )
        rc = fail(c, 1, "%s", c->err);
    if ( !rc )
        rc = run(c, &a, c->val[O_DIFF] ? &b : NULL);
    input_free(&a);
    input_free(&b);
    xenprof_priv_cli_syms_free(c);
    free(c);
    return rc < 0 ? 0 : rc;
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
