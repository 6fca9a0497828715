/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * folded.c: the folded-stack writer ("root;...;leaf COUNT" per line), the
 * input of flamegraph.pl and inferno.
 *
 * Samples are counted by stack (stacks.c), then every distinct stack is
 * turned into its line.  Different stacks can give the same line (two
 * return addresses in one function), so the lines are sorted bytewise and
 * equal lines merged.  Frames i > 0 are return addresses and are looked up
 * at addr - 1.  A name never contains ';' or a control character: such
 * bytes are written as '_' so that the line format holds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* A growing string; oom is set (and the string left as is) on failure. */
struct sbuf {
    char *p;
    size_t len, cap;
    bool oom;
};

struct line {
    char *s;
    uint64_t count;
};

/* Append str; with clean, ';' and control bytes become '_'. */
static void sb_put(struct sbuf *b, const char *str, bool clean)
{
    size_t n = strlen(str), i;
    unsigned char c;
    char *p;

    if ( b->oom )
        return;
    if ( b->len + n + 1 > b->cap )
    {
        p = realloc(b->p, (b->len + n + 1) * 2);
        if ( !p )
        {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = (b->len + n + 1) * 2;
    }
    for ( i = 0; i < n; i++ )
    {
        c = str[i];
        if ( clean && (c == ';' || c < 0x20 || c == 0x7f) )
            c = '_';
        b->p[b->len++] = c;
    }
    b->p[b->len] = '\0';
}

/* Append a frame: ';' (none before the first frame), then name. */
static void sb_frame(struct sbuf *b, const char *name)
{
    if ( b->len )
        sb_put(b, ";", false);
    sb_put(b, name, true);
}

/*
 * The line of a Xen stack (key: head, frames innermost first).  A walk
 * marked both truncated and bad (not expected) gets both markers,
 * "[truncated];[bad frame];...".
 */
static void xen_line(struct sbuf *b, const struct xenprof_stack *st,
                     const struct xenprof_symtab *t)
{
    unsigned int flags = XENPROF_KEY_FLAGS(st->key[0]);
    const char *name;
    size_t i;
    uint64_t addr;

    if ( flags & XENPROF_F_TRUNCATED )
        sb_frame(b, "[truncated]");
    if ( flags & XENPROF_F_BAD_FRAME )
        sb_frame(b, "[bad frame]");
    for ( i = st->nkey - 1; i >= 1; i-- )
    {
        addr = st->key[i];
        name = xenprof_symtab_lookup(t, i > 1 ? addr - 1 : addr);
        sb_frame(b, name ? name : "[unknown]");
    }
}

/*
 * The line of a guest sample: "d1v0 name;[guest kernel]", or "d1v0;..."
 * when the domain is not in the table or its name is empty.  An unknown
 * mode N gives "[guest mode N]".
 */
static void guest_line(struct sbuf *b, const struct xenprof_stack *st,
                       const struct xenprof_data *d)
{
    unsigned int domid = XENPROF_KEY_DOMID(st->key[0]);
    unsigned int mode = XENPROF_KEY_MODE(st->key[0]);
    const char *name = NULL;
    char tmp[48];
    size_t i;

    for ( i = 0; i < d->nr_doms && !name; i++ )
        if ( d->doms[i].domid == domid )
            name = d->doms[i].name;
    snprintf(tmp, sizeof(tmp), "d%uv%u", domid,
             XENPROF_KEY_VCPU(st->key[0]));
    sb_put(b, tmp, false);
    if ( name && name[0] )
    {
        sb_put(b, " ", false);
        sb_put(b, name, true);
    }
    if ( mode == XENPROF_MODE_GUEST_KERNEL )
        sb_frame(b, "[guest kernel]");
    else if ( mode == XENPROF_MODE_GUEST_USER )
        sb_frame(b, "[guest user]");
    else
    {
        snprintf(tmp, sizeof(tmp), "[guest mode %u]", mode);
        sb_frame(b, tmp);
    }
}

/* Count the samples of d into st; 0, -EBADMSG or -ENOMEM. */
static int count_samples(const struct xenprof_data *d, bool guest,
                         struct xenprof_stacks *st, char *err,
                         size_t errlen)
{
    struct xenprof_sample s;
    size_t off = 0;
    int rc;

    while ( (rc = xenprof_decode_next(d->records, d->records_len, &off,
                                      &s, err, errlen)) > 0 )
    {
        if ( s.mode != XENPROF_MODE_XEN && !guest )
            continue;
        if ( xenprof_priv_stacks_add(st, &s) )
            return -ENOMEM;
    }
    return rc;
}

/* One line per distinct stack, in *lines (*n of them); 0 or -ENOMEM. */
static int make_lines(const struct xenprof_data *d,
                      const struct xenprof_stacks *st,
                      const struct xenprof_symtab *t,
                      struct line **lines, size_t *n)
{
    const struct xenprof_stack *e;
    struct sbuf b;
    size_t i;

    *n = 0;
    *lines = malloc((st->used ? st->used : 1) * sizeof(**lines));
    if ( !*lines )
        return -ENOMEM;
    for ( i = 0; i < st->size; i++ )
    {
        e = &st->tab[i];
        if ( !e->key )
            continue;
        memset(&b, 0, sizeof(b));
        if ( XENPROF_KEY_MODE(e->key[0]) == XENPROF_MODE_XEN )
            xen_line(&b, e, t);
        else
            guest_line(&b, e, d);
        if ( b.oom || !b.p )
        {
            free(b.p);
            return -ENOMEM;
        }
        (*lines)[*n].s = b.p;
        (*lines)[(*n)++].count = e->count;
    }
    return 0;
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(((const struct line *)a)->s, ((const struct line *)b)->s);
}

/* Print the sorted lines, merging equal ones; 0 or -EIO. */
static int print_lines(FILE *out, const struct line *l, size_t n)
{
    uint64_t count;
    size_t i, j;

    for ( i = 0; i < n; i = j )
    {
        count = 0;
        for ( j = i; j < n && !strcmp(l[i].s, l[j].s); j++ )
            count += l[j].count;
        if ( fprintf(out, "%s %" PRIu64 "\n", l[i].s, count) < 0 )
            return -EIO;
    }
    return fflush(out) || ferror(out) ? -EIO : 0;
}

/* Build, sort and print the lines of st. */
static int write_stacks(const struct xenprof_data *d,
                        const struct xenprof_stacks *st, FILE *out,
                        char *err, size_t errlen)
{
    struct xenprof_symtab *t = xenprof_symtab_new(d->syms, d->nr_syms);
    struct line *lines = NULL;
    size_t n = 0, i;
    int rc = t ? make_lines(d, st, t, &lines, &n) : -ENOMEM;

    if ( !rc )
    {
        qsort(lines, n, sizeof(*lines), cmp_line);
        rc = print_lines(out, lines, n);
        if ( rc )
            xenprof_priv_err(err, errlen, rc, "folded output: write error");
    }
    for ( i = 0; i < n; i++ )
        free(lines[i].s);
    free(lines);
    xenprof_symtab_free(t);
    return rc;
}

/* Also -EINVAL when d or out is NULL, and -ENOMEM. */
int xenprof_write_folded(const struct xenprof_data *d, FILE *out,
                         const struct xenprof_folded_opts *opts,
                         char *err, size_t errlen)
{
    struct xenprof_stacks st = { 0 };
    int rc;

    if ( !d || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_write_folded: no data or output");
    rc = count_samples(d, opts ? opts->include_guest : true, &st,
                       err, errlen);
    if ( !rc )
        rc = write_stacks(d, &st, out, err, errlen);
    if ( rc == -ENOMEM )
        xenprof_priv_err(err, errlen, rc, "folded output: out of memory");
    xenprof_priv_stacks_free(&st);
    return rc;
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
