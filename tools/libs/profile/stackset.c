/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * stackset.c: the stack set, distinct symbolized stacks with their sample
 * counts, the input of every analysis writer.
 *
 * Memory grows with the distinct stacks, never with the samples:
 *   - every frame name is stored once (interned) in chunks of text that
 *     never move, so that a name is known by its pointer;
 *   - a stack is a run of name pointers in one growing array (frames),
 *     plus its count;
 *   - while the set is built, a hash of the pointer runs merges identical
 *     stacks; xenprof_priv_ss_finish() sorts the stacks in folded line
 *     order and frees that hash (and the name hash);
 *   - a set built from a data file also keeps its raw stacks: for each
 *     distinct stack of addresses, the stack it merged into, its count
 *     and its addresses (one word per frame).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stackset.h"

#define CHUNK_SIZE  65536
#define MIN_HASH    64

/* A block of interned names. */
struct chunk {
    struct chunk *next;
    size_t used, size;
    char text[];
};

struct name {
    const char *s;                  /* NULL: free slot */
    size_t len;
    uint64_t hash;
};

struct stk {
    const char *const *f;           /* frames; set by finish */
    size_t off, n;                  /* frames[off..off + n) while built */
    uint64_t count;
    uint64_t hash;
    size_t id;                      /* index when added (finish sorts) */
};

/* A raw stack: addrs[off..off + n) of stack `stack`, n its frames. */
struct raw {
    size_t stack;
    size_t off;
    uint64_t count;
};

struct xenprof_stackset {
    struct chunk *chunks;           /* the interned names */
    struct name *names;             /* hash of the names (building only) */
    size_t names_size, names_used;
    const char **frames;            /* every stack's frames, one run each */
    size_t nr_frames;
    struct stk *stacks;
    size_t nr_stacks;
    size_t *hash;                   /* stack index + 1, 0: free slot */
    size_t hash_size;
    const char **scratch;           /* the interned frames of add_text */
    size_t *scratch_len;            /* their lengths */
    size_t scratch_cap, last_n;     /* scratch[0..last_n): earlier lines' */
    struct raw *raw;
    size_t nr_raw;
    uint64_t *addrs;                /* of every raw stack, one run each */
    size_t nr_addrs;
    uint64_t total;
    bool finished;
};

/*
 * A hash of the bytes p[0..n), eight at a time (the folded reader hashes
 * every frame of its input: this is most of its work).
 */
static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

    for ( ; n >= 8; p += 8, n -= 8 )
    {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    if ( n )
    {
        w = 0;
        memcpy(&w, p, n);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    }
    return h ^ (h >> 29);
}

static uint64_t hash_frames(const char *const *f, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    size_t i;

    for ( i = 0; i < n; i++ )
    {
        h ^= (uint64_t)(uintptr_t)f[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
    }
    return h;
}

/* Copy name[0..len) into a chunk; NULL when out of memory. */
static const char *store(struct xenprof_stackset *s, const char *name,
                         size_t len)
{
    struct chunk *c = s->chunks;
    char *p;

    if ( !c || c->size - c->used < len + 1 )
    {
        size_t size = len + 1 > CHUNK_SIZE ? len + 1 : CHUNK_SIZE;

        c = malloc(sizeof(*c) + size);
        if ( !c )
            return NULL;
        c->next = s->chunks;
        c->used = 0;
        c->size = size;
        s->chunks = c;
    }
    p = c->text + c->used;
    memcpy(p, name, len);
    p[len] = '\0';
    c->used += len + 1;
    return p;
}

/* Double the name hash (or create it); 0 or -ENOMEM. */
static int grow_names(struct xenprof_stackset *s)
{
    size_t size = s->names_size ? s->names_size * 2 : MIN_HASH, i, j;
    struct name *tab;

    if ( size > SIZE_MAX / sizeof(*tab) )
        return -ENOMEM;
    tab = calloc(size, sizeof(*tab));
    if ( !tab )
        return -ENOMEM;
    for ( i = 0; i < s->names_size; i++ )
    {
        if ( !s->names[i].s )
            continue;
        for ( j = s->names[i].hash & (size - 1); tab[j].s;
              j = (j + 1) & (size - 1) )
            ;
        tab[j] = s->names[i];
    }
    free(s->names);
    s->names = tab;
    s->names_size = size;
    return 0;
}

/* The interned copy of name[0..len); NULL when out of memory. */
static const char *intern(struct xenprof_stackset *s, const char *name,
                          size_t len)
{
    uint64_t h = hash_bytes(name, len);
    struct name *e;
    size_t i;

    if ( (s->names_used + 1) * 2 > s->names_size && grow_names(s) )
        return NULL;
    for ( i = h & (s->names_size - 1); ; i = (i + 1) & (s->names_size - 1) )
    {
        e = &s->names[i];
        if ( !e->s )
            break;
        if ( e->hash == h && e->len == len && !memcmp(e->s, name, len) )
            return e->s;
    }
    e->s = store(s, name, len);
    if ( !e->s )
        return NULL;
    e->len = len;
    e->hash = h;
    s->names_used++;
    return e->s;
}

/* Room for n interned frames in the scratch array; 0 or -ENOMEM. */
static int scratch_room(struct xenprof_stackset *s, size_t n)
{
    const char **p;
    size_t *len, cap = s->scratch_cap ? s->scratch_cap : 64;

    if ( n <= s->scratch_cap )
        return 0;
    while ( cap < n )
    {
        if ( cap > SIZE_MAX / sizeof(*p) / 2 )
            return -ENOMEM;
        cap *= 2;
    }
    p = realloc(s->scratch, cap * sizeof(*p));
    if ( !p )
        return -ENOMEM;
    s->scratch = p;
    len = realloc(s->scratch_len, cap * sizeof(*len));
    if ( !len )
        return -ENOMEM;
    s->scratch_len = len;
    s->scratch_cap = cap;
    return 0;
}

/* Double the stack hash (or create it); 0 or -ENOMEM. */
static int grow_stacks(struct xenprof_stackset *s)
{
    size_t size = s->hash_size ? s->hash_size * 2 : MIN_HASH, i, j;
    size_t *tab;

    if ( size > SIZE_MAX / sizeof(*tab) )
        return -ENOMEM;
    tab = calloc(size, sizeof(*tab));
    if ( !tab )
        return -ENOMEM;
    for ( i = 0; i < s->nr_stacks; i++ )
    {
        for ( j = s->stacks[i].hash & (size - 1); tab[j];
              j = (j + 1) & (size - 1) )
            ;
        tab[j] = i + 1;
    }
    free(s->hash);
    s->hash = tab;
    s->hash_size = size;
    return 0;
}

/* The hash slot of the stack f[0..n): its entry or a free one. */
static size_t *find(const struct xenprof_stackset *s, const char *const *f,
                    size_t n, uint64_t h)
{
    size_t i = h & (s->hash_size - 1);
    const struct stk *e;

    for ( ; s->hash[i]; i = (i + 1) & (s->hash_size - 1) )
    {
        e = &s->stacks[s->hash[i] - 1];
        if ( e->hash == h && e->n == n &&
             !memcmp(s->frames + e->off, f, n * sizeof(*f)) )
            break;
    }
    return &s->hash[i];
}

/* Append the stack f[0..n) (interned) with count; 0 or -ENOMEM. */
static int append(struct xenprof_stackset *s, const char *const *f,
                  size_t n, uint64_t count, uint64_t h, size_t *slot)
{
    struct stk *e;
    void *p;

    p = s->frames;
    if ( xenprof_priv_reserve(&p, s->nr_frames, n, sizeof(*s->frames)) )
        return -ENOMEM;
    s->frames = p;
    p = s->stacks;
    if ( xenprof_priv_reserve(&p, s->nr_stacks, 1, sizeof(*s->stacks)) )
        return -ENOMEM;
    s->stacks = p;
    memcpy(s->frames + s->nr_frames, f, n * sizeof(*f));
    e = &s->stacks[s->nr_stacks++];
    e->f = NULL;
    e->off = s->nr_frames;
    e->n = n;
    e->count = count;
    e->hash = h;
    e->id = s->nr_stacks - 1;
    s->nr_frames += n;
    *slot = s->nr_stacks;
    return 0;
}

struct xenprof_stackset *xenprof_priv_ss_new(void)
{
    return calloc(1, sizeof(struct xenprof_stackset));
}

/* Room for one more raw stack of n addresses; 0 or -ENOMEM. */
static int reserve_raw(struct xenprof_stackset *s, size_t n)
{
    void *p = s->raw;

    if ( xenprof_priv_reserve(&p, s->nr_raw, 1, sizeof(*s->raw)) )
        return -ENOMEM;
    s->raw = p;
    p = s->addrs;
    if ( xenprof_priv_reserve(&p, s->nr_addrs, n, sizeof(*s->addrs)) )
        return -ENOMEM;
    s->addrs = p;
    return 0;
}

/*
 * Add the stack of the n interned frames f, and with addrs a raw stack;
 * see the header.
 */
static int add_interned(struct xenprof_stackset *s, const char *const *f,
                        const uint64_t *addrs, size_t n, uint64_t count)
{
    size_t *slot;
    struct raw *r;
    uint64_t h;

    if ( addrs && reserve_raw(s, n) )
        return -ENOMEM;
    if ( (s->nr_stacks + 1) * 2 > s->hash_size && grow_stacks(s) )
        return -ENOMEM;
    h = hash_frames(f, n);
    slot = find(s, f, n, h);
    if ( *slot )
        s->stacks[*slot - 1].count += count;
    else if ( append(s, f, n, count, h, slot) )
        return -ENOMEM;
    s->total += count;
    if ( addrs )
    {
        r = &s->raw[s->nr_raw++];
        r->stack = *slot - 1;
        r->off = s->nr_addrs;
        r->count = count;
        memcpy(s->addrs + s->nr_addrs, addrs, n * sizeof(*addrs));
        s->nr_addrs += n;
    }
    return 0;
}

/* May count samples of n frames be added to s?  0, -EINVAL, -EOVERFLOW. */
static int can_add(const struct xenprof_stackset *s, size_t n,
                   uint64_t count)
{
    if ( !n || s->finished )
        return -EINVAL;
    return count > UINT64_MAX - s->total ? -EOVERFLOW : 0;
}

int xenprof_priv_ss_add_text(struct xenprof_stackset *s, const char *stack,
                             size_t len, uint64_t count)
{
    const char *end = stack + len, *semi;
    size_t n = 0;
    int rc = can_add(s, len, count);

    if ( rc )
        return rc;
    for ( ; ; stack = semi + 1, n++ )
    {
        semi = memchr(stack, ';', end - stack);
        if ( !semi )
            semi = end;
        if ( scratch_room(s, n + 1) )
            return -ENOMEM;
        /*
         * Folded lines come sorted: most frames are those of the line
         * before at the same depth, found without a hash.
         */
        if ( n >= s->last_n || s->scratch_len[n] != (size_t)(semi - stack) ||
             memcmp(s->scratch[n], stack, semi - stack) )
        {
            s->scratch_len[n] = semi - stack;
            if ( !(s->scratch[n] = intern(s, stack, semi - stack)) )
                return -ENOMEM;
        }
        if ( semi == end )
            break;
    }
    n++;
    if ( n > s->last_n )
        s->last_n = n;
    return add_interned(s, s->scratch, NULL, n, count);
}

const char *xenprof_priv_ss_intern(struct xenprof_stackset *s,
                                   const char *name, size_t len)
{
    return s->finished ? NULL : intern(s, name, len);
}

int xenprof_priv_ss_add_interned(struct xenprof_stackset *s,
                                 const char *const *frames,
                                 const uint64_t *addrs, size_t n,
                                 uint64_t count)
{
    return can_add(s, n, count) ?: add_interned(s, frames, addrs, n, count);
}

int xenprof_priv_ss_cmp(const char *const *fa, size_t na,
                        const char *const *fb, size_t nb)
{
    const unsigned char *a, *b;
    unsigned int ca, cb;
    size_t i = 0;

    for ( ; ; i++ )
    {
        for ( ; i < na && i < nb && fa[i] == fb[i]; i++ )
            ;
        if ( i == na || i == nb )
            return i == nb ? (i != na) : -1;
        a = (const unsigned char *)fa[i];
        b = (const unsigned char *)fb[i];
        while ( *a && *a == *b )
            a++, b++;
        /* Past a frame's end comes ';' (more frames) or the line's end. */
        ca = *a ? *a : (i + 1 < na ? ';' : 0);
        cb = *b ? *b : (i + 1 < nb ? ';' : 0);
        if ( ca != cb )
            return ca < cb ? -1 : 1;
        /* Equal names of two sets: go on with the next frame. */
    }
}

static int cmp_stk(const void *a, const void *b)
{
    const struct stk *x = a, *y = b;

    return xenprof_priv_ss_cmp(x->f, x->n, y->f, y->n);
}

int xenprof_priv_ss_finish(struct xenprof_stackset *s)
{
    size_t i, *where = NULL;

    if ( s->nr_raw )
    {
        where = malloc(s->nr_stacks * sizeof(*where));
        if ( !where )
            return -ENOMEM;
    }
    for ( i = 0; i < s->nr_stacks; i++ )
        s->stacks[i].f = s->frames + s->stacks[i].off;
    /* Folded input is usually sorted already. */
    for ( i = 1; i < s->nr_stacks && cmp_stk(&s->stacks[i - 1],
                                             &s->stacks[i]) < 0; i++ )
        ;
    if ( i < s->nr_stacks )
        qsort(s->stacks, s->nr_stacks, sizeof(*s->stacks), cmp_stk);
    /* The raw stacks follow theirs to its sorted place. */
    if ( where )
    {
        for ( i = 0; i < s->nr_stacks; i++ )
            where[s->stacks[i].id] = i;
        for ( i = 0; i < s->nr_raw; i++ )
            s->raw[i].stack = where[s->raw[i].stack];
        free(where);
    }
    free(s->hash);
    free(s->names);
    free(s->scratch);
    free(s->scratch_len);
    s->hash = NULL;
    s->names = NULL;
    s->scratch = NULL;
    s->scratch_len = NULL;
    s->hash_size = s->names_size = s->names_used = s->scratch_cap = 0;
    s->last_n = 0;
    s->finished = true;
    return 0;
}

/* NULL is allowed.  Never fails. */
void xenprof_stackset_free(struct xenprof_stackset *s)
{
    struct chunk *c, *next;

    if ( !s )
        return;
    for ( c = s->chunks; c; c = next )
    {
        next = c->next;
        free(c);
    }
    free(s->names);
    free(s->frames);
    free(s->stacks);
    free(s->hash);
    free(s->scratch);
    free(s->scratch_len);
    free(s->raw);
    free(s->addrs);
    free(s);
}

/* 0 for NULL.  Never fails. */
bool xenprof_priv_ss_finished(const struct xenprof_stackset *s)
{
    return s->finished;
}

size_t xenprof_stackset_size(const struct xenprof_stackset *s)
{
    return s ? s->nr_stacks : 0;
}

/* 0 for NULL.  Never fails. */
uint64_t xenprof_stackset_total(const struct xenprof_stackset *s)
{
    return s ? s->total : 0;
}

/* Never fails: out of range (or s NULL), no frames and count 0. */
void xenprof_stackset_get(const struct xenprof_stackset *s, size_t i,
                          const char *const **frames, size_t *nr_frames,
                          uint64_t *count)
{
    const struct stk *e;

    if ( !s || !s->finished || i >= s->nr_stacks )
    {
        *frames = NULL;
        *nr_frames = 0;
        *count = 0;
        return;
    }
    e = &s->stacks[i];
    *frames = e->f;
    *nr_frames = e->n;
    *count = e->count;
}

size_t xenprof_priv_ss_nr_raw(const struct xenprof_stackset *s)
{
    return s && s->finished ? s->nr_raw : 0;
}

void xenprof_priv_ss_raw(const struct xenprof_stackset *s, size_t i,
                         size_t *stack, const uint64_t **addrs,
                         uint64_t *count)
{
    const struct raw *r = &s->raw[i];

    *stack = r->stack;
    *addrs = s->addrs + r->off;
    *count = r->count;
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
