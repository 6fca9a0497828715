/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * stackset-build.c: a data file's samples, symbolized into a stack set
 * (the frames of the folded format, see xenprofile.h).
 *
 * Samples are counted by raw stack (stackset-count.c), then every distinct raw
 * stack is turned into its frames and added to a stack set
 * (stackset.c).  Different raw stacks can give the same frames (two
 * return addresses in one function): the set merges them.  Frames i > 0
 * are return addresses and are looked up at addr - 1.  A name never
 * contains ';' or a control character: such bytes are written as '_' so
 * that the line format holds.
 *
 * The names come from the profile's embedded table, or from a symbol
 * source (--xen-syms): its table, and with inline_frames the functions
 * inlined at each address (addr2line), as frames after the function that
 * holds them, innermost last, marked XENPROF_INLINED_SUFFIX.
 *
 * Each raw stack also goes into the set as it is, with the address of
 * each of its frames (xenprof_priv_ss_add_raw()): a Xen frame's sampled
 * address (an inlined frame's is that of the frame that holds it), 0 for
 * the vCPU, the markers and the guest frames.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize-elf.h"
#include "stackset.h"

/*
 * A growing string, and the address of each of its frames (0 for a
 * frame without one); oom is set (and both left as they are) on failure.
 */
struct sbuf {
    char *p;
    size_t len, cap;
    uint64_t *addrs;
    size_t nr_addrs;
    bool oom;
};

/* Note the address of the next frame. */
static void sb_addr(struct sbuf *b, uint64_t addr)
{
    void *p = b->addrs;

    if ( b->oom || xenprof_priv_reserve(&p, b->nr_addrs, 1,
                                        sizeof(*b->addrs)) )
    {
        b->oom = true;
        return;
    }
    b->addrs = p;
    b->addrs[b->nr_addrs++] = addr;
}

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

/* Append a frame at addr: ';' (none before the first frame), then name. */
static void sb_frame(struct sbuf *b, const char *name, uint64_t addr)
{
    if ( b->len )
        sb_put(b, ";", false);
    sb_put(b, name, true);
    sb_addr(b, addr);
}

/* The functions inlined at addr, outermost first, as frames. */
static void inlined(struct sbuf *b, const struct xenprof_a2l *a,
                    uint64_t addr, uint64_t at)
{
    const struct xenprof_a2l_frame *f;
    size_t n = xenprof_priv_a2l_get(a, addr, &f);

    /* f[n - 1] is the function that holds them: already a frame. */
    while ( n-- > 1 )
    {
        if ( !f[n - 1].func )
            continue;
        sb_frame(b, f[n - 1].func, at);
        sb_put(b, XENPROF_INLINED_SUFFIX, false);
    }
}

/* "d1v0 name", or "d1v0" when the domain has no name in the table. */
static void vcpu_head(struct sbuf *b, const struct xenprof_stack *st,
                      const struct xenprof_data *d)
{
    unsigned int domid = XENPROF_KEY_DOMID(st->key[0]);
    const struct xenprof_domain *dom = xenprof_priv_domain(d, domid);
    const char *name = dom ? dom->name : NULL;
    char tmp[48];
    snprintf(tmp, sizeof(tmp), "d%uv%u", domid,
             XENPROF_KEY_VCPU(st->key[0]));
    sb_put(b, tmp, false);
    sb_addr(b, 0);
    if ( name && name[0] )
    {
        sb_put(b, " ", false);
        sb_put(b, name, true);
    }
}

/*
 * The line of a Xen stack (key: head, frames innermost first).  A walk
 * marked both truncated and bad (not expected) gets both markers,
 * "[truncated];[bad frame];...".  A sample off Xen's stacks is kept under
 * its vCPU: "d1v0 name;[pv entry];lstar_enter" for a PV vCPU (the entry
 * and exit paths run on the guest's stack pointer), "...;[no stack];..."
 * otherwise.
 */
static void xen_line(struct sbuf *b, const struct xenprof_stack *st,
                     const struct xenprof_data *d,
                     const struct xenprof_symtab *t,
                     const struct xenprof_symsrc *src)
{
    unsigned int flags = XENPROF_KEY_FLAGS(st->key[0]);
    const char *name;
    size_t i;
    uint64_t addr;

    if ( flags & XENPROF_F_NO_STACK )
    {
        vcpu_head(b, st, d);
        sb_frame(b, flags & (XENPROF_F_HVM | XENPROF_F_IDLE) ? "[no stack]"
                                                             : "[pv entry]",
                 0);
    }
    if ( flags & XENPROF_F_TRUNCATED )
        sb_frame(b, "[truncated]", 0);
    if ( flags & XENPROF_F_BAD_FRAME )
        sb_frame(b, "[bad frame]", 0);
    for ( i = st->nkey - 1; i >= 1; i-- )
    {
        addr = st->key[i] - (i > 1);
        name = xenprof_symtab_lookup(t, addr);
        sb_frame(b, name ? name : "[unknown]", st->key[i]);
        if ( name && src && src->inline_frames )
            inlined(b, src->a2l, addr, st->key[i]);
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
    unsigned int mode = XENPROF_KEY_MODE(st->key[0]);
    char tmp[48];

    vcpu_head(b, st, d);
    if ( mode == XENPROF_MODE_GUEST_KERNEL )
        sb_frame(b, "[guest kernel]", 0);
    else if ( mode == XENPROF_MODE_GUEST_USER )
        sb_frame(b, "[guest user]", 0);
    else
    {
        snprintf(tmp, sizeof(tmp), "[guest mode %u]", mode);
        sb_frame(b, tmp, 0);
    }
}

/* Count the samples of d that pass f into st; 0, -EBADMSG or -ENOMEM. */
static int count_samples(const struct xenprof_data *d,
                         const struct xenprof_filter *f,
                         struct xenprof_stacks *st, char *err,
                         size_t errlen)
{
    struct xenprof_sample s;
    size_t off = 0;
    int rc;

    while ( (rc = xenprof_decode_next(d->records, d->records_len, &off,
                                      &s, err, errlen)) > 0 )
    {
        if ( !xenprof_filter_match(d, f, &s) )
            continue;
        if ( xenprof_priv_stacks_add(st, &s) )
            return -ENOMEM;
    }
    return rc;
}

/* Add the frames of raw stack e to set; 0, -ENOMEM or -EOVERFLOW. */
static int add_stack(struct xenprof_stackset *set,
                     const struct xenprof_data *d,
                     const struct xenprof_stack *e,
                     const struct xenprof_symtab *t,
                     const struct xenprof_symsrc *src, struct sbuf *b,
                     const char ***frames, size_t *cap)
{
    size_t n;

    b->len = 0;
    b->nr_addrs = 0;
    if ( b->p )
        b->p[0] = '\0';
    if ( XENPROF_KEY_MODE(e->key[0]) == XENPROF_MODE_XEN )
        xen_line(b, e, d, t, src);
    else
        guest_line(b, e, d);
    if ( b->oom || !b->p )
        return -ENOMEM;
    n = xenprof_priv_split(b->p, frames, cap);
    if ( !n )
        return -ENOMEM;
    /* A frame per address, unless a name broke the line format. */
    if ( n != b->nr_addrs )
        return xenprof_priv_ss_add(set, *frames, n, e->count);
    return xenprof_priv_ss_add_raw(set, *frames, b->addrs, n, e->count);
}

/* Symbolize every distinct stack of st into set (names from src). */
static int fill_set(struct xenprof_stackset *set,
                    const struct xenprof_data *d,
                    const struct xenprof_stacks *st,
                    const struct xenprof_symsrc *src)
{
    struct xenprof_symtab *own = NULL;
    const struct xenprof_symtab *t = src ? src->t : NULL;
    struct sbuf b = { 0 };
    const char **frames = NULL;
    size_t cap = 0, i;
    int rc = 0;

    if ( !t )
        t = own = xenprof_symtab_new(d->syms, d->nr_syms);
    if ( !t )
        rc = -ENOMEM;
    for ( i = 0; i < st->size && !rc; i++ )
        if ( st->tab[i].key )
            rc = add_stack(set, d, &st->tab[i], t, src, &b, &frames, &cap);
    free(b.p);
    free(b.addrs);
    free(frames);
    xenprof_symtab_free(own);
    return rc;
}

int xenprof_stackset_from_data(const struct xenprof_data *d,
                               const struct xenprof_filter *f,
                               const struct xenprof_symsrc *src,
                               struct xenprof_stackset **out,
                               char *err, size_t errlen)
{
    struct xenprof_stacks st = { 0 };
    struct xenprof_stackset *set;
    int rc;

    if ( out )
        *out = NULL;
    if ( !d || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "stack set: no data or no output");
    set = xenprof_priv_ss_new();
    rc = set ? count_samples(d, f, &st, err, errlen) : -ENOMEM;
    if ( !rc )
        rc = fill_set(set, d, &st, src);
    if ( !rc )
        rc = xenprof_priv_ss_finish(set);
    xenprof_priv_stacks_free(&st);
    if ( rc )
    {
        xenprof_stackset_free(set);
        if ( rc == -ENOMEM )
            xenprof_priv_err(err, errlen, rc, "stack set: out of memory");
        else if ( rc == -EOVERFLOW )
            xenprof_priv_err(err, errlen, rc,
                             "stack set: sample count overflow");
        return rc;
    }
    *out = set;
    return 0;
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
