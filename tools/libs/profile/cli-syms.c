/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * cli-syms.c: --xen-syms of the report command (cli.c): the xen-syms ELF
 * of the profiled hypervisor as the source of names, instead of the
 * table embedded in the data file; with its real function sizes, and
 * addr2line's file:line and inlined frames when it has DWARF.
 *
 * The ELF must be the hypervisor that was profiled: its build-id must be
 * the data file's (meta.build_id), else the command fails with both ids,
 * unless --force (then a warning).  A data file without build-id cannot
 * be checked, and folded stacks have none and are already symbolized:
 * a warning for each.  addr2line runs once, only when its answers are
 * used: for --inline, and for the file:line of --script, and only when
 * the ELF has DWARF (.debug_info and .debug_line); --inline on an ELF
 * without DWARF is an error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "symbolize-elf.h"

/* A line "prog: warning: ..." on errout. */
static void warn(const struct cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void warn(const struct cli *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    xenprof_priv_cli_vsay(c, "warning: ", fmt, ap);
    va_end(ap);
}

/* The message into c->err; returns 1. */
static int say(struct cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int say(struct cli *c, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->err, sizeof(c->err), fmt, ap);
    va_end(ap);
    return 1;
}

/* Is the ELF the Xen that in profiled?  0 (maybe with a warning) or 1. */
static int check_id(struct cli *c, const struct input *in)
{
    const char *path = c->val[O_XEN_SYMS];
    const char *have = c->elf->build_id[0] ? c->elf->build_id : "(none)";
    const char *want = in->d ? in->d->meta.build_id : "";

    if ( !in->d )
        warn(c, "%s holds folded stacks: no build-id to check against %s, "
             "and its frames stay as they are", in->path, path);
    else if ( !want[0] )
        warn(c, "%s has no build-id: cannot check that %s is the Xen it "
             "profiled", in->path, path);
    else if ( strcasecmp(want, c->elf->build_id) && c->val[O_FORCE] )
        warn(c, "%s: build-id %s, but %s has build-id %s: used anyway "
             "(--force)", path, have, in->path, want);
    else if ( strcasecmp(want, c->elf->build_id) )
        return say(c, "%s: build-id %s, but %s has build-id %s: not the "
                   "Xen that was profiled (--force uses it anyway)", path,
                   have, in->path, want);
    return 0;
}

/*
 * Append to a[0..*n) the addresses of d's Xen frames that t names, as
 * they are looked up (return addresses - 1); 0, -ENOMEM or -EBADMSG.
 */
static int collect(const struct xenprof_data *d,
                   const struct xenprof_symtab *t, uint64_t **a, size_t *n)
{
    struct xenprof_stacks st = { 0 };
    struct xenprof_sample s;
    const struct xenprof_stack *e;
    size_t off = 0, i, j;
    uint64_t addr;
    void *p;
    int rc;

    while ( (rc = xenprof_decode_next(d->records, d->records_len, &off,
                                      &s, NULL, 0)) > 0 )
        if ( s.mode == XENPROF_MODE_XEN && xenprof_priv_stacks_add(&st, &s) )
            break;
    if ( rc > 0 )
        rc = -ENOMEM;
    for ( i = 0; !rc && i < st.size; i++ )
        for ( e = &st.tab[i], j = 1; e->key && !rc && j < e->nkey; j++ )
        {
            addr = e->key[j] - (j > 1);
            if ( !xenprof_symtab_lookup(t, addr) )
                continue;
            p = *a;
            rc = xenprof_priv_reserve(&p, *n, 1, sizeof(**a));
            *a = p;
            if ( !rc )
                (*a)[(*n)++] = addr;
        }
    xenprof_priv_stacks_free(&st);
    return rc;
}

/* Run addr2line on the frames of a and b (may be NULL); 0 or 1. */
static int run_a2l(struct cli *c, const struct input *a,
                   const struct input *b)
{
    const char *why = c->val[O_INLINE] ? "--inline" : "file:line (--script)";
    uint64_t *addr = NULL;
    size_t n = 0;
    char msg[384];
    int rc = 0;

    if ( a->d )
        rc = collect(a->d, c->elf->t, &addr, &n);
    if ( !rc && b && b->d )
        rc = collect(b->d, c->elf->t, &addr, &n);
    if ( !rc )
        rc = xenprof_priv_a2l_run(c->val[O_XEN_SYMS], addr, n, &c->a2l,
                                  msg, sizeof(msg));
    else
        snprintf(msg, sizeof(msg), "%s", strerror(-rc));
    free(addr);
    return rc ? say(c, "%s (binutils' addr2line, for %s)", msg, why) : 0;
}

int xenprof_priv_cli_syms(struct cli *c, const struct input *a,
                          const struct input *b)
{
    const char *path = c->val[O_XEN_SYMS];
    bool lines;

    c->err[0] = '\0';
    if ( xenprof_priv_elf_read(path, &c->elf, c->err, sizeof(c->err)) )
        return 1;
    if ( check_id(c, a) || (b && check_id(c, b)) )
        return 1;
    if ( c->val[O_INLINE] && !c->elf->has_dwarf )
        return say(c, "%s has no debug information (.debug_info, "
                   ".debug_line): --inline needs a Xen built with "
                   "CONFIG_DEBUG_INFO=y", path);
    lines = c->val[O_SCRIPT] && a->d;
    if ( c->elf->has_dwarf && (c->val[O_INLINE] || lines) &&
         run_a2l(c, a, b) )
        return 1;
    c->src.t = c->elf->t;
    c->src.a2l = c->a2l;
    c->src.inline_frames = !!c->val[O_INLINE];
    c->src.path = path;
    c->syms = &c->src;
    return 0;
}

void xenprof_priv_cli_syms_free(struct cli *c)
{
    xenprof_priv_a2l_free(c->a2l);
    xenprof_priv_elf_free(c->elf);
    c->a2l = NULL;
    c->elf = NULL;
    c->syms = NULL;
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
