/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * stackset-count.c: count samples by stack, in a hash table keyed by the frame
 * sequence, so that memory grows with the distinct stacks and not with
 * the samples.
 *
 * A key is an array of words: a head, then (Xen samples only) the frames
 * ip[0..nr).  The head packs the mode (bits 0-7), the walk flags
 * XENPROF_F_TRUNCATED and XENPROF_F_BAD_FRAME (bits 8-15) and, for guest
 * samples, the domid (bits 16-31) and vcpu (bits 32-47).  Xen samples of
 * any domain share their stacks: a Xen stack is a Xen stack.  A Xen
 * sample taken off Xen's stacks (XENPROF_F_NO_STACK: PV entry and exit)
 * has no stack but its IP, and is kept under its vCPU as guest samples
 * are: its head has the flags NO_STACK, HVM and IDLE, domid and vcpu.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define MIN_SIZE 64
#define WALK_FLAGS (XENPROF_F_TRUNCATED | XENPROF_F_BAD_FRAME)
#define VCPU_FLAGS (XENPROF_F_NO_STACK | XENPROF_F_HVM | XENPROF_F_IDLE)

static uint64_t hash_key(const uint64_t *key, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i;

    for ( i = 0; i < n; i++ )
    {
        h ^= key[i];
        h *= 0x100000001b3ULL;
        h ^= h >> 29;
    }
    return h ^ (h >> 32);
}

/* Build the key of s into key[]; returns its length in words. */
static size_t make_key(const struct xenprof_sample *s, uint64_t *key)
{
    size_t i;

    if ( s->mode != XENPROF_MODE_XEN )
    {
        key[0] = s->mode | ((uint64_t)(s->domid & 0xffff) << 16) |
                 ((uint64_t)(s->vcpu & 0xffff) << 32);
        return 1;
    }
    if ( s->flags & XENPROF_F_NO_STACK )
    {
        key[0] = XENPROF_MODE_XEN | ((uint64_t)(s->flags & VCPU_FLAGS) << 8) |
                 ((uint64_t)(s->domid & 0xffff) << 16) |
                 ((uint64_t)(s->vcpu & 0xffff) << 32);
        key[1] = xenprof_sample_ip(s, 0);
        return 2;
    }
    key[0] = XENPROF_MODE_XEN | ((uint64_t)(s->flags & WALK_FLAGS) << 8);
    for ( i = 0; i < s->nr_frames; i++ )
        key[i + 1] = xenprof_sample_ip(s, i);
    return 1 + s->nr_frames;
}

/* The slot of key in tab (size a power of two): its entry or a free one. */
static struct xenprof_stack *slot(struct xenprof_stack *tab, size_t size,
                                  const uint64_t *key, size_t n, uint64_t h)
{
    size_t i = h & (size - 1);

    while ( tab[i].key &&
            (tab[i].hash != h || tab[i].nkey != n ||
             memcmp(tab[i].key, key, n * sizeof(*key))) )
        i = (i + 1) & (size - 1);
    return &tab[i];
}

/* Double the table (or create it); 0 or -ENOMEM with st unchanged. */
static int grow(struct xenprof_stacks *st)
{
    size_t size = st->size ? st->size * 2 : MIN_SIZE, i;
    struct xenprof_stack *tab, *e;

    if ( size > SIZE_MAX / sizeof(*tab) )
        return -ENOMEM;
    tab = calloc(size, sizeof(*tab));
    if ( !tab )
        return -ENOMEM;
    for ( i = 0; i < st->size; i++ )
    {
        e = &st->tab[i];
        if ( e->key )
            *slot(tab, size, e->key, e->nkey, e->hash) = *e;
    }
    free(st->tab);
    st->tab = tab;
    st->size = size;
    return 0;
}

int xenprof_priv_stacks_add(struct xenprof_stacks *st,
                            const struct xenprof_sample *s)
{
    uint64_t key[1 + XENPROF_MAX_FRAMES];
    struct xenprof_stack *e;
    size_t n = make_key(s, key);
    uint64_t h = hash_key(key, n);

    if ( (st->used + 1) * 2 > st->size && grow(st) )
        return -ENOMEM;
    e = slot(st->tab, st->size, key, n, h);
    if ( !e->key )
    {
        e->key = malloc(n * sizeof(*key));
        if ( !e->key )
            return -ENOMEM;
        memcpy(e->key, key, n * sizeof(*key));
        e->nkey = n;
        e->hash = h;
        e->count = 0;
        st->used++;
    }
    e->count++;
    return 0;
}

void xenprof_priv_stacks_free(struct xenprof_stacks *st)
{
    size_t i;

    for ( i = 0; i < st->size; i++ )
        free(st->tab[i].key);
    free(st->tab);
    memset(st, 0, sizeof(*st));
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
