/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * stackset-build.c: a data file's samples, symbolized into a stack set
 * (the frames of the folded format, see xenprofile.h).
 *
 * Samples are counted by raw stack (stackset-count.c), then every
 * distinct raw stack is turned into its frames and added to a stack set
 * (stackset.c).  Different raw stacks can give the same frames (two
 * return addresses in one function): the set merges them.  Frames i > 0
 * are return addresses and are looked up at addr - 1, each distinct
 * address once (symbolize-cache.h).  A name never contains ';' or a
 * control character: such bytes are written as '_' so that the line
 * format holds.
 *
 * The names come from the profile's embedded table, or from a symbol
 * source (--xen-syms): its table, and with inline_frames the functions
 * inlined at each address (addr2line), as frames after the function that
 * holds them, innermost last, marked XENPROF_INLINED_SUFFIX.
 *
 * Each raw stack also goes into the set as it is, with the address of
 * each of its frames (xenprof_priv_ss_add_interned()): a Xen frame's sampled
 * address (an inlined frame's is that of the frame that holds it), 0 for
 * the vCPU, the markers and the guest frames.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize-cache.h"
#include "symbolize-elf.h"
#include "stackset.h"

/* What the frames of the raw stacks are built with, for one set. */
struct build {
    struct xenprof_stackset *set;
    const struct xenprof_data *d;
    const struct xenprof_symtab *t;
    const struct xenprof_symsrc *src;
    struct xenprof_fcache cache;    /* names by Xen address */
    const char **frames;            /* the stack being built */
    uint64_t *addrs;
    size_t n;
    const char **names;             /* one address's names, for the cache */
    size_t nr_names;
    char *text;                     /* a name being cleaned */
    size_t text_cap;
};

/* A byte a frame name cannot hold: ';' (the separator) or a control. */
static bool unsafe(unsigned char c)
{
    return c == ';' || c < 0x20 || c == 0x7f;
}

/*
 * The interned copy of str (then suffix, if not NULL): the unsafe bytes
 * of str become '_'.  NULL when out of memory.
 */
static const char *name_of(struct build *b, const char *str,
                           const char *suffix)
{
    size_t n = strlen(str), m = suffix ? strlen(suffix) : 0, i;
    char *p;

    for ( i = 0; i < n && !unsafe(str[i]); i++ )
        ;
    if ( i == n && !m )
        return xenprof_priv_ss_intern(b->set, str, n);
    if ( n + m + 1 > b->text_cap )
    {
        p = realloc(b->text, 2 * (n + m + 1));
        if ( !p )
            return NULL;
        b->text = p;
        b->text_cap = 2 * (n + m + 1);
    }
    for ( i = 0; i < n; i++ )
        b->text[i] = unsafe(str[i]) ? '_' : str[i];
    memcpy(b->text + n, suffix ? suffix : "", m);
    return xenprof_priv_ss_intern(b->set, b->text, n + m);
}

/* Append an interned frame at addr; 0 or -ENOMEM. */
static int push(struct build *b, const char *name, uint64_t addr)
{
    if ( !name || XENPROF_RESERVE(b->frames, b->n, 1) ||
         XENPROF_RESERVE(b->addrs, b->n, 1) )
        return -ENOMEM;
    b->frames[b->n] = name;
    b->addrs[b->n++] = addr;
    return 0;
}

/* The vCPU frame: "d1v0 name", or "d1v0" when it has no name. */
static int vcpu_head(struct build *b, const struct xenprof_stack *st)
{
    unsigned int domid = XENPROF_KEY_DOMID(st->key[0]);
    const struct xenprof_domain *dom = xenprof_priv_domain(b->d, domid);
    char tmp[32 + sizeof(dom->name)];

    snprintf(tmp, sizeof(tmp), "d%uv%u%s%.*s", domid,
             XENPROF_KEY_VCPU(st->key[0]), dom && dom->name[0] ? " " : "",
             (int)sizeof(dom->name) - 1, dom ? dom->name : "");
    return push(b, name_of(b, tmp, NULL), 0);
}

/*
 * The names of Xen address look (its function, then the functions
 * inlined there, outermost first, marked XENPROF_INLINED_SUFFIX), from
 * the cache or looked up and cached.  0 or -ENOMEM.
 */
static int xen_names(struct build *b, uint64_t look,
                     const char *const **names, size_t *n)
{
    const struct xenprof_a2l_frame *f;
    const char *name;
    size_t k = 0;

    if ( xenprof_priv_fc_get(&b->cache, look, names, n) )
        return 0;
    name = xenprof_symtab_lookup(b->t, look);
    b->nr_names = 0;
    if ( name && b->src && b->src->inline_frames )
        k = xenprof_priv_a2l_get(b->src->a2l, look, &f);
    if ( XENPROF_RESERVE(b->names, 0, k + 1) )
        return -ENOMEM;
    b->names[b->nr_names] = name_of(b, name ? name : "[unknown]", NULL);
    if ( !b->names[b->nr_names++] )
        return -ENOMEM;
    /* f[k - 1] is the function that holds them: already a frame. */
    while ( k-- > 1 )
    {
        if ( !f[k - 1].func )
            continue;
        b->names[b->nr_names] = name_of(b, f[k - 1].func,
                                        XENPROF_INLINED_SUFFIX);
        if ( !b->names[b->nr_names++] )
            return -ENOMEM;
    }
    *n = b->nr_names;
    return xenprof_priv_fc_put(&b->cache, look, b->names, b->nr_names, names);
}

/*
 * The frames of a Xen stack (key: head, frames innermost first).  A walk
 * marked both truncated and bad (not expected) gets both markers,
 * "[truncated];[bad frame];...".  A sample off Xen's stacks is kept under
 * its vCPU: "d1v0 name;[pv entry];lstar_enter" for a PV vCPU (the entry
 * and exit paths run on the guest's stack pointer), "...;[no stack];..."
 * otherwise.  0 or -ENOMEM.
 */
static int xen_frames(struct build *b, const struct xenprof_stack *st)
{
    unsigned int flags = XENPROF_KEY_FLAGS(st->key[0]);
    const char *const *names;
    size_t i, j, n;
    int rc = 0;

    if ( flags & XENPROF_F_NO_STACK )
        rc = vcpu_head(b, st) ?:
             push(b, name_of(b, flags & (XENPROF_F_HVM | XENPROF_F_IDLE) ?
                             "[no stack]" : "[pv entry]", NULL), 0);
    if ( !rc && (flags & XENPROF_F_TRUNCATED) )
        rc = push(b, name_of(b, "[truncated]", NULL), 0);
    if ( !rc && (flags & XENPROF_F_BAD_FRAME) )
        rc = push(b, name_of(b, "[bad frame]", NULL), 0);
    for ( i = st->nkey - 1; !rc && i >= 1; i-- )
    {
        rc = xen_names(b, st->key[i] - (i > 1), &names, &n);
        for ( j = 0; !rc && j < n; j++ )
            rc = push(b, names[j], st->key[i]);
    }
    return rc;
}

/*
 * The frames of a guest sample: "d1v0 name;[guest kernel]", or "d1v0;..."
 * when the domain is not in the table or its name is empty.  An unknown
 * mode N gives "[guest mode N]".  0 or -ENOMEM.
 */
static int guest_frames(struct build *b, const struct xenprof_stack *st)
{
    unsigned int mode = XENPROF_KEY_MODE(st->key[0]);
    char tmp[48];

    if ( mode == XENPROF_MODE_GUEST_KERNEL )
        snprintf(tmp, sizeof(tmp), "[guest kernel]");
    else if ( mode == XENPROF_MODE_GUEST_USER )
        snprintf(tmp, sizeof(tmp), "[guest user]");
    else
        snprintf(tmp, sizeof(tmp), "[guest mode %u]", mode);
    return vcpu_head(b, st) ?: push(b, name_of(b, tmp, NULL), 0);
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

/*
 * Symbolize every distinct stack of st into set (names from src), kept
 * with its addresses too when raw.
 */
static int fill_set(struct xenprof_stackset *set,
                    const struct xenprof_data *d,
                    const struct xenprof_stacks *st,
                    const struct xenprof_symsrc *src, bool raw)
{
    struct xenprof_symtab *own = NULL;
    struct build b = { .set = set, .d = d, .src = src };
    const struct xenprof_stack *e;
    size_t i;
    int rc = 0;

    b.t = src ? src->t : NULL;
    if ( !b.t )
        b.t = own = xenprof_symtab_new(d->syms, d->nr_syms);
    /* About two distinct addresses per raw stack: one table, no rehash. */
    if ( !b.t || xenprof_priv_fc_reserve(&b.cache, 2 * st->used) )
        rc = -ENOMEM;
    for ( i = 0; i < st->size && !rc; i++ )
    {
        e = &st->tab[i];
        if ( !e->key )
            continue;
        b.n = 0;
        rc = XENPROF_KEY_MODE(e->key[0]) == XENPROF_MODE_XEN ?
             xen_frames(&b, e) : guest_frames(&b, e);
        if ( !rc )
            rc = xenprof_priv_ss_add_interned(set, b.frames,
                                              raw ? b.addrs : NULL, b.n,
                                              e->count);
    }
    xenprof_priv_fc_free(&b.cache);
    free(b.frames);
    free(b.addrs);
    free(b.names);
    free(b.text);
    xenprof_symtab_free(own);
    return rc;
}

int xenprof_stackset_from_data(const struct xenprof_data *d,
                               const struct xenprof_filter *f,
                               const struct xenprof_symsrc *src,
                               struct xenprof_stackset **out,
                               char *err, size_t errlen)
{
    return xenprof_priv_stackset_build(d, f, src, true, out, err, errlen);
}

int xenprof_priv_stackset_build(const struct xenprof_data *d,
                                const struct xenprof_filter *f,
                                const struct xenprof_symsrc *src, bool raw,
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
        rc = fill_set(set, d, &st, src, raw);
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
