/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * cli.h: what the report command (cli.c), its option parser (cli-args.c)
 * and its --xen-syms handling (cli-syms.c) share.  Not installed.
 */
#ifndef XENPROFILE_CLI_PRIV_H
#define XENPROFILE_CLI_PRIV_H

#include "report.h"

#define EXIT_USAGE   2
#define DEFAULT_TOP  50
#define MAX_CPU      65535
#define MAX_WIDTH    1000000
#define MAX_SECONDS  1e10

enum opt_id {
    O_INPUT, O_SORT, O_TOP, O_BY, O_CPU, O_DOMAIN, O_TIME, O_CALLGRAPH,
    O_JSON, O_FOLDED, O_SVG, O_TITLE, O_WIDTH, O_MINWIDTH, O_INVERTED,
    O_PPROF, O_SCRIPT, O_DIFF, O_XEN_SYMS, O_FORCE, O_INLINE, O_HELP,
    NR_OPTS
};

struct xenprof_elf;

/* The options, by id: long name, short letter, takes a value. */
struct xenprof_cli_opt {
    const char *name;
    char shrt;
    bool arg;
};

extern const struct xenprof_cli_opt xenprof_priv_cli_opts[NR_OPTS]
    xenprof_hidden;

struct cli {
    const char *prog;
    FILE *out, *errout;
    const char *val[NR_OPTS];           /* value, or "" for a flag */
    bool by_self;
    size_t top;
    unsigned int by;
    struct xenprof_svg_opts svg;
    struct xenprof_filter filter;       /* without the domain */
    uint8_t cpus[(MAX_CPU + 1) / 8];
    char desc[256];                     /* the filter, for people */
    char err[512];
    struct xenprof_elf *elf;            /* --xen-syms */
    struct xenprof_a2l *a2l;            /* its addr2line answers */
    struct xenprof_symsrc src;
    const struct xenprof_symsrc *syms;  /* &src with --xen-syms, or NULL */
};

/* A loaded profile: a data file (d set) or folded stacks (d NULL). */
struct input {
    const char *path;
    struct xenprof_data *d;
    struct xenprof_stackset *s;
    size_t bad_lines;
};

/* A line "prog: <what><message>" on the command's errout (cli.c). */
void xenprof_priv_cli_vsay(const struct cli *c, const char *what,
                           const char *fmt, va_list ap) xenprof_hidden;

/*
 * Parse and check argv into c.  Returns 0; -1 when the usage was printed
 * (-h); EXIT_USAGE with the message in c->err.
 */
int xenprof_priv_cli_parse(struct cli *c, int argc, char **argv)
    xenprof_hidden;

/*
 * --xen-syms: read the ELF, check its build-id against the data files
 * a and b (b may be NULL; warnings printed), run addr2line when needed,
 * and set c->syms.  Returns 0, or 1 with the message in c->err.
 */
int xenprof_priv_cli_syms(struct cli *c, const struct input *a,
                          const struct input *b) xenprof_hidden;

/* Free what xenprof_priv_cli_syms() made.  Never fails. */
void xenprof_priv_cli_syms_free(struct cli *c) xenprof_hidden;

#endif /* XENPROFILE_CLI_PRIV_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
