/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * cli-args.c: the options of the report command (cli.c): a table of long
 * options (and -i, -h), "--name value" or "--name=value", every value
 * checked here (numbers, pCPU lists, time ranges), then the combinations
 * that make no sense.  Only the domain is resolved later, against the
 * profile's domain table.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const struct xenprof_cli_opt xenprof_priv_cli_opts[NR_OPTS] = {
    [O_INPUT] = { "input", 'i', true },
    [O_SORT] = { "sort", 0, true },
    [O_TOP] = { "top", 0, true },
    [O_BY] = { "by", 0, true },
    [O_CPU] = { "cpu", 0, true },
    [O_DOMAIN] = { "domain", 0, true },
    [O_TIME] = { "time", 0, true },
    [O_CALLGRAPH] = { "callgraph", 0, false },
    [O_JSON] = { "json", 0, false },
    [O_FOLDED] = { "folded", 0, true },
    [O_SVG] = { "svg", 0, true },
    [O_TITLE] = { "title", 0, true },
    [O_WIDTH] = { "width", 0, true },
    [O_MINWIDTH] = { "minwidth", 0, true },
    [O_INVERTED] = { "inverted", 0, false },
    [O_PPROF] = { "pprof", 0, true },
    [O_SCRIPT] = { "script", 0, false },
    [O_DIFF] = { "diff", 0, true },
    [O_XEN_SYMS] = { "xen-syms", 0, true },
    [O_FORCE] = { "force", 0, false },
    [O_INLINE] = { "inline", 0, false },
    [O_HELP] = { "help", 'h', false },
};

static const struct xenprof_cli_opt *const opts = xenprof_priv_cli_opts;

static const char usage[] =
    "Usage: %s [-i FILE] [--sort self|total] [--top N] [--by domain|cpu]\n"
    "       [--cpu LIST] [--domain D] [--time A..B] [--callgraph] [--json]\n"
    "       [--folded FILE] [--svg FILE [--title T] [--width N]\n"
    "       [--minwidth PX] [--inverted]] [--pprof FILE] [--script]\n"
    "       [--diff OTHER] [--xen-syms ELF [--force] [--inline]]\n"
    "Report on a hypervisor profile: a data file (default xenprofile.data)\n"
    "or folded stacks.  FILE \"-\" is standard input or output.\n"
    "  -i FILE          the profile to read\n"
    "  --sort self|total  order of the functions (default total)\n"
    "  --top N          functions shown (default 50, 0: all)\n"
    "  --by domain|cpu  show only this split (default both)\n"
    "  --cpu LIST       only samples of these pCPUs (e.g. 0-3,6)\n"
    "  --domain D       only samples for domain D (domid, name or idle)\n"
    "  --time A..B      only samples taken A to B s after the start\n"
    "  --callgraph      the callees of each function\n"
    "  --json           the report as one JSON object\n"
    "  --folded FILE    write folded stacks instead of the report\n"
    "  --svg FILE       write a flame graph instead of the report, with\n"
    "    --title T, --width N (px), --minwidth PX, --inverted (icicles)\n"
    "  --pprof FILE     write a gzipped pprof profile\n"
    "  --script         every sample as perf script text\n"
    "  --diff OTHER     compare with OTHER (before): with --folded or --svg\n"
    "  --xen-syms ELF   names from the xen-syms ELF of the profiled Xen\n"
    "                   (checked by build-id), file:line in --script\n"
    "  --force          use it even when the build-ids differ\n"
    "  --inline         inlined functions as frames (needs debug info)\n"
    "Exit status: 0 ok, 1 error, 2 bad usage.\n";

/* The message into c->err; returns status. */
static int fail(struct cli *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct cli *c, int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->err, sizeof(c->err), fmt, ap);
    va_end(ap);
    return status;
}

/* A whole decimal number <= max; 0 or -EINVAL. */
static int parse_uint(const char *s, unsigned long long max,
                      unsigned long long *v)
{
    char *end;

    if ( *s < '0' || *s > '9' )
        return -EINVAL;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return errno || *end || *v > max ? -EINVAL : 0;
}

/* Seconds in s[0..len) (digits, '.', exponent) as ns; 0 or -EINVAL. */
static int parse_secs(const char *s, size_t len, uint64_t *ns)
{
    char buf[64], *end;
    double v;

    if ( len >= sizeof(buf) || strspn(s, "0123456789.eE+-") < len ||
         !(s[0] == '.' || (s[0] >= '0' && s[0] <= '9')) )
        return -EINVAL;
    memcpy(buf, s, len);
    buf[len] = '\0';
    v = strtod(buf, &end);
    if ( *end || !isfinite(v) || v < 0 || v > MAX_SECONDS )
        return -EINVAL;
    *ns = (uint64_t)(v * 1e9 + 0.5);
    return 0;
}

/* "A..B", either side may be empty; 0 or -EINVAL. */
static int parse_time(const char *s, struct xenprof_filter *f)
{
    const char *dots = strstr(s, "..");

    if ( !dots )
        return -EINVAL;
    f->time_from_ns = 0;
    f->time_to_ns = UINT64_MAX;
    if ( (dots > s && parse_secs(s, dots - s, &f->time_from_ns)) ||
         (dots[2] && parse_secs(dots + 2, strlen(dots + 2),
                                &f->time_to_ns)) ||
         f->time_from_ns >= f->time_to_ns )
        return -EINVAL;
    f->has_time = dots > s || dots[2];
    return 0;
}

/* "0-3,6": set the bits of the pCPUs in map; 0 or -EINVAL. */
static int parse_cpus(const char *s, uint8_t *map)
{
    unsigned long long a, b;
    char *end;

    for ( ; ; s = end + 1 )
    {
        if ( *s < '0' || *s > '9' )
            return -EINVAL;
        a = b = strtoull(s, &end, 10);
        if ( *end == '-' )
        {
            if ( end[1] < '0' || end[1] > '9' )
                return -EINVAL;
            b = strtoull(end + 1, &end, 10);
        }
        if ( a > b || b > MAX_CPU || (*end && *end != ',') )
            return -EINVAL;
        for ( ; a <= b; a++ )
            map[a / 8] |= 1u << (a % 8);
        if ( !*end )
            return 0;
    }
}

/* Append " --name value" to the filter description. */
static void describe(struct cli *c, enum opt_id id)
{
    size_t n = strlen(c->desc);

    snprintf(c->desc + n, sizeof(c->desc) - n, "%s--%s %s", n ? " " : "",
             opts[id].name, c->val[id]);
}

/* Check and keep the value of option id; 0 or EXIT_USAGE. */
static int set_opt(struct cli *c, enum opt_id id, const char *v)
{
    unsigned long long n;
    char *end;
    int rc = 0;

    c->val[id] = v;
    switch ( id )
    {
    case O_SORT:
        rc = strcmp(v, "self") && strcmp(v, "total") &&
             strcmp(v, "children");
        c->by_self = !strcmp(v, "self");
        break;
    case O_TOP:
        rc = parse_uint(v, SIZE_MAX, &n);
        c->top = n;
        break;
    case O_BY:
        rc = strcmp(v, "domain") && strcmp(v, "cpu");
        c->by = !strcmp(v, "cpu") ? XENPROF_BY_CPU : XENPROF_BY_DOMAIN;
        break;
    case O_CPU:
        memset(c->cpus, 0, sizeof(c->cpus));
        rc = parse_cpus(v, c->cpus);
        c->filter.cpus = c->cpus;
        c->filter.nr_cpu_bits = MAX_CPU + 1;
        break;
    case O_TIME:
        rc = parse_time(v, &c->filter);
        break;
    case O_DOMAIN:
    case O_XEN_SYMS:
        rc = !*v;
        break;
    case O_WIDTH:
        rc = parse_uint(v, MAX_WIDTH, &n) || !n;
        c->svg.width = n;
        break;
    case O_MINWIDTH:
        c->svg.minwidth = strtod(v, &end);
        rc = *end || end == v || !isfinite(c->svg.minwidth) ||
             c->svg.minwidth < 0 || (*v < '0' && *v != '.') || *v > '9';
        break;
    case O_TITLE:
        c->svg.title = v;
        break;
    default:
        break;
    }
    if ( rc )
        return fail(c, EXIT_USAGE, "bad value for --%s: '%s'",
                    opts[id].name, v);
    if ( id == O_CPU || id == O_TIME || id == O_DOMAIN )
        describe(c, id);
    return 0;
}

/* The option named by arg ("--name[=v]" or "-x[v]"), or NR_OPTS. */
static enum opt_id find_opt(const char *arg, const char **inline_val)
{
    size_t len;
    int i;

    *inline_val = NULL;
    for ( i = 0; arg[1] != '-' && i < NR_OPTS; i++ )
        if ( opts[i].shrt && arg[1] == opts[i].shrt )
        {
            if ( arg[2] )
                *inline_val = arg + 2;
            return i;
        }
    if ( arg[1] != '-' )
        return NR_OPTS;
    len = strcspn(arg + 2, "=");
    for ( i = 0; i < NR_OPTS; i++ )
        if ( strlen(opts[i].name) == len &&
             !strncmp(arg + 2, opts[i].name, len) )
        {
            if ( arg[2 + len] )
                *inline_val = arg + 3 + len;
            return i;
        }
    return NR_OPTS;
}

/* Parse argv; 0, EXIT_USAGE, or -1 when the help was printed. */
static int parse_args(struct cli *c, int argc, char **argv)
{
    const char *v;
    enum opt_id id;
    int i, rc;

    for ( i = 1; i < argc; i++ )
    {
        if ( argv[i][0] != '-' || !argv[i][1] || !strcmp(argv[i], "--") )
            return fail(c, EXIT_USAGE, "unexpected argument '%s'", argv[i]);
        id = find_opt(argv[i], &v);
        if ( id == NR_OPTS || (v && !opts[id].arg && argv[i][1] != '-') )
            return fail(c, EXIT_USAGE, "unknown option '%s'", argv[i]);
        if ( v && !opts[id].arg )
            return fail(c, EXIT_USAGE, "option --%s takes no value",
                        opts[id].name);
        if ( opts[id].arg && !v )
        {
            if ( i + 1 >= argc )
                return fail(c, EXIT_USAGE, "option --%s needs a value",
                            opts[id].name);
            v = argv[++i];
        }
        if ( id == O_HELP )
        {
            fprintf(c->out, usage, c->prog);
            return -1;
        }
        rc = set_opt(c, id, v ? v : "");
        if ( rc )
            return rc;
    }
    return 0;
}

/* Options that do not go together; 0 or EXIT_USAGE. */
static int check_args(struct cli *c)
{
    static const enum opt_id report_only[] = {
        O_SORT, O_TOP, O_BY, O_CALLGRAPH, O_JSON };
    static const enum opt_id svg_only[] = {
        O_TITLE, O_WIDTH, O_MINWIDTH, O_INVERTED };
    const char **v = c->val;
    bool output = v[O_FOLDED] || v[O_SVG] || v[O_PPROF] || v[O_SCRIPT];
    unsigned int i, to_stdout = !!v[O_SCRIPT];

    for ( i = 0; i < sizeof(report_only) / sizeof(*report_only); i++ )
        if ( output && v[report_only[i]] )
            return fail(c, EXIT_USAGE, "--%s is for the report: not with "
                        "--folded, --svg, --pprof or --script",
                        opts[report_only[i]].name);
    for ( i = 0; i < sizeof(svg_only) / sizeof(*svg_only); i++ )
        if ( !v[O_SVG] && v[svg_only[i]] )
            return fail(c, EXIT_USAGE, "--%s needs --svg",
                        opts[svg_only[i]].name);
    to_stdout += v[O_FOLDED] && !strcmp(v[O_FOLDED], "-");
    to_stdout += v[O_SVG] && !strcmp(v[O_SVG], "-");
    to_stdout += v[O_PPROF] && !strcmp(v[O_PPROF], "-");
    if ( to_stdout > 1 )
        return fail(c, EXIT_USAGE, "only one output can be standard output");
    if ( v[O_DIFF] && (v[O_PPROF] || v[O_SCRIPT] ||
                       (!v[O_FOLDED] && !v[O_SVG])) )
        return fail(c, EXIT_USAGE, "--diff needs --folded FILE or --svg "
                    "FILE (and no --pprof or --script)");
    if ( v[O_DIFF] && !strcmp(v[O_DIFF], "-") && !strcmp(v[O_INPUT], "-") )
        return fail(c, EXIT_USAGE, "only one input can be standard input");
    if ( !v[O_XEN_SYMS] && (v[O_FORCE] || v[O_INLINE]) )
        return fail(c, EXIT_USAGE, "--%s needs --xen-syms",
                    opts[v[O_FORCE] ? O_FORCE : O_INLINE].name);
    c->svg.inverted = !!v[O_INVERTED];
    return 0;
}

int xenprof_priv_cli_parse(struct cli *c, int argc, char **argv)
{
    int rc = parse_args(c, argc, argv);

    return rc ?: check_args(c);
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
