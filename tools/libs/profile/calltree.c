/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * calltree.c: the call tree of a stack set, and its Self/Children table.
 *
 * Nodes live in one array and are linked by index (parent, first child,
 * next sibling), so that every traversal is iterative: a folded input may
 * hold stacks of any depth.  A hash table maps (parent, function) to the
 * child node, and another one function names to function ids, so that a
 * tree is built in time linear in the frames of the distinct stacks.
 *
 * Children counts follow perf's `report --children`: a function counts
 * each sample once however often it appears in the stack (recursion), so
 * a stack's distinct functions are marked with the stack's number while
 * its frames are counted.  For the same reason the callees of a function
 * are taken from its outermost nodes only (no ancestor of the same
 * function), which one pass links per function when the tree is built.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"

#define NONE UINT32_MAX
#define MAX_NODES (UINT32_MAX / 4)

struct node {
    const char *name;                   /* NULL for the root */
    uint32_t func;                      /* function id (equal names) */
    uint32_t parent, child, next;       /* first child, next sibling */
    uint64_t self, total;
};

struct xenprof_tree {
    struct node *n;                     /* n[0] is the root */
    size_t nr;
    uint32_t *slot;                     /* (parent, func) -> node */
    size_t nr_slots;                    /* a power of two, or 0 */
    /* The function table (trees built from a stack set only). */
    const char **fname;
    uint64_t *fself, *ftotal;
    uint32_t *fmark;                    /* the last stack counted, + 1 */
    size_t nr_funcs;
    uint32_t *fslot;                    /* name -> function id */
    size_t nr_fslots;
    uint32_t *occ_head;                 /* function -> outermost node */
    uint32_t *occ_next;                 /* node -> next outermost one */
};

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    while ( *s )
        h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
    return mix(h);
}

/* A table of size*2 empty slots (NONE); NULL when out of memory. */
static uint32_t *new_slots(size_t size)
{
    uint32_t *s = size <= SIZE_MAX / sizeof(*s) ? malloc(size * sizeof(*s))
                                                : NULL;

    if ( s )
        memset(s, 0xff, size * sizeof(*s));
    return s;
}

static size_t node_pos(const struct xenprof_tree *t, uint32_t parent,
                       uint32_t func, size_t mask)
{
    size_t i = mix(((uint64_t)parent << 32) | func) & mask;
    uint32_t k;

    while ( (k = t->slot[i]) != NONE &&
            (t->n[k].parent != parent || t->n[k].func != func) )
        i = (i + 1) & mask;
    return i;
}

/* Keep the (parent, func) table at most half full; 0 or -ENOMEM. */
static int grow_slots(struct xenprof_tree *t)
{
    size_t size = t->nr_slots ? t->nr_slots * 2 : 64, i;
    uint32_t *old = t->slot;

    if ( (t->nr + 1) * 2 <= t->nr_slots )
        return 0;
    t->slot = new_slots(size);
    if ( !t->slot )
    {
        t->slot = old;
        return -ENOMEM;
    }
    t->nr_slots = size;
    for ( i = 1; i < t->nr; i++ )
        t->slot[node_pos(t, t->n[i].parent, t->n[i].func, size - 1)] = i;
    free(old);
    return 0;
}

/* The child of parent for func, created if needed; NONE: out of memory. */
static uint32_t node_child(struct xenprof_tree *t, uint32_t parent,
                           uint32_t func, const char *name)
{
    struct node *c;
    size_t pos;

    if ( t->nr_slots )
    {
        pos = node_pos(t, parent, func, t->nr_slots - 1);
        if ( t->slot[pos] != NONE )
            return t->slot[pos];
    }
    if ( t->nr >= MAX_NODES || grow_slots(t) ||
         xenprof_priv_reserve((void **)&t->n, t->nr, 1, sizeof(*t->n)) )
        return NONE;
    c = &t->n[t->nr];
    memset(c, 0, sizeof(*c));
    c->name = name;
    c->func = func;
    c->parent = parent;
    c->child = NONE;
    c->next = t->n[parent].child;
    t->n[parent].child = t->nr;
    t->slot[node_pos(t, parent, func, t->nr_slots - 1)] = t->nr;
    return t->nr++;
}

static struct xenprof_tree *tree_new(void)
{
    struct xenprof_tree *t = calloc(1, sizeof(*t));

    if ( !t || xenprof_priv_reserve((void **)&t->n, 0, 1, sizeof(*t->n)) )
    {
        free(t);
        return NULL;
    }
    memset(t->n, 0, sizeof(*t->n));
    t->n[0].parent = t->n[0].next = t->n[0].child = NONE;
    t->nr = 1;
    return t;
}

void xenprof_priv_tree_free(struct xenprof_tree *t)
{
    if ( !t )
        return;
    free(t->n);
    free(t->slot);
    free(t->fname);
    free(t->fself);
    free(t->ftotal);
    free(t->fmark);
    free(t->fslot);
    free(t->occ_head);
    free(t->occ_next);
    free(t);
}

static size_t func_pos(const struct xenprof_tree *t, const char *name)
{
    size_t mask = t->nr_fslots - 1, i = hash_str(name) & mask;

    while ( t->fslot[i] != NONE && strcmp(t->fname[t->fslot[i]], name) )
        i = (i + 1) & mask;
    return i;
}

/* Make room for one more function; 0 or -ENOMEM. */
static int grow_funcs(struct xenprof_tree *t)
{
    size_t n = t->nr_funcs, size = t->nr_fslots ? t->nr_fslots * 2 : 64, i;
    uint32_t *old = t->fslot;

    if ( n >= MAX_NODES ||
         xenprof_priv_reserve((void **)&t->fname, n, 1, sizeof(char *)) ||
         xenprof_priv_reserve((void **)&t->fself, n, 1, sizeof(uint64_t)) ||
         xenprof_priv_reserve((void **)&t->ftotal, n, 1, sizeof(uint64_t)) ||
         xenprof_priv_reserve((void **)&t->fmark, n, 1, sizeof(uint32_t)) )
        return -ENOMEM;
    if ( (n + 1) * 2 <= t->nr_fslots )
        return 0;
    t->fslot = new_slots(size);
    if ( !t->fslot )
    {
        t->fslot = old;
        return -ENOMEM;
    }
    t->nr_fslots = size;
    for ( i = 0; i < n; i++ )
        t->fslot[func_pos(t, t->fname[i])] = i;
    free(old);
    return 0;
}

/* The id of function name, added if new; NONE when out of memory. */
static uint32_t intern(struct xenprof_tree *t, const char *name)
{
    size_t pos;

    if ( t->nr_fslots && t->fslot[pos = func_pos(t, name)] != NONE )
        return t->fslot[pos];
    if ( grow_funcs(t) )
        return NONE;
    t->fname[t->nr_funcs] = name;
    t->fself[t->nr_funcs] = t->ftotal[t->nr_funcs] = 0;
    t->fmark[t->nr_funcs] = 0;
    t->fslot[func_pos(t, name)] = t->nr_funcs;
    return t->nr_funcs++;
}

/* Add stack number i (frames root first); 0 or -ENOMEM. */
static int add_stack(struct xenprof_tree *t, uint32_t i,
                     const char *const *frames, size_t nr, uint64_t count)
{
    uint32_t node = 0, f = NONE;
    size_t j;

    t->n[0].total += count;
    for ( j = 0; j < nr; j++ )
    {
        f = intern(t, frames[j]);
        if ( f == NONE ||
             (node = node_child(t, node, f, t->fname[f])) == NONE )
            return -ENOMEM;
        t->n[node].total += count;
        if ( t->fmark[f] != i + 1 )
        {
            t->fmark[f] = i + 1;
            t->ftotal[f] += count;
        }
    }
    t->n[node].self += count;
    if ( f != NONE )
        t->fself[f] += count;
    return 0;
}

/* For sorting siblings: by parent, then decreasing total, then name. */
struct sib {
    uint32_t parent, idx;
    uint64_t total;
    const char *name;
};

static int cmp_sib(const void *a, const void *b)
{
    const struct sib *x = a, *y = b;
    int c;

    if ( x->parent != y->parent )
        return x->parent < y->parent ? -1 : 1;
    if ( x->total != y->total )
        return x->total > y->total ? -1 : 1;
    c = strcmp(x->name, y->name);
    return c ? c : (x->idx < y->idx ? -1 : x->idx > y->idx);
}

/* Relink every sibling list in walk order; 0 or -ENOMEM. */
static int sort_children(struct xenprof_tree *t)
{
    struct sib *s = malloc(t->nr * sizeof(*s));
    size_t i, k;

    if ( !s )
        return -ENOMEM;
    for ( i = 1; i < t->nr; i++ )
        s[i - 1] = (struct sib){ t->n[i].parent, i, t->n[i].total,
                                 t->n[i].name };
    qsort(s, t->nr - 1, sizeof(*s), cmp_sib);
    for ( i = 0; i < t->nr - 1; i = k )
    {
        t->n[s[i].parent].child = s[i].idx;
        for ( k = i + 1; k < t->nr - 1 && s[k].parent == s[i].parent; k++ )
            t->n[s[k - 1].idx].next = s[k].idx;
        t->n[s[k - 1].idx].next = NONE;
    }
    free(s);
    return 0;
}

/*
 * Link the outermost nodes of every function (those with no ancestor of
 * the same function), in one depth-first pass that counts the nodes of
 * each function on the current path.  0 or -ENOMEM.
 */
static int index_outermost(struct xenprof_tree *t)
{
    uint32_t *on = calloc(t->nr_funcs + 1, sizeof(*on)), k, f;

    t->occ_head = malloc((t->nr_funcs + 1) * sizeof(*t->occ_head));
    t->occ_next = malloc(t->nr * sizeof(*t->occ_next));
    if ( !on || !t->occ_head || !t->occ_next )
    {
        free(on);
        return -ENOMEM;
    }
    memset(t->occ_head, 0xff, (t->nr_funcs + 1) * sizeof(*t->occ_head));
    for ( k = t->n[0].child; k != NONE; )
    {
        f = t->n[k].func;
        if ( !on[f]++ )
        {
            t->occ_next[k] = t->occ_head[f];
            t->occ_head[f] = k;
        }
        if ( t->n[k].child != NONE )
        {
            k = t->n[k].child;
            continue;
        }
        /* Leave k, and its ancestors until one has a next sibling. */
        for ( ; ; )
        {
            on[t->n[k].func]--;
            if ( t->n[k].next != NONE )
            {
                k = t->n[k].next;
                break;
            }
            k = t->n[k].parent;
            if ( !k )
            {
                k = NONE;
                break;
            }
        }
    }
    free(on);
    return 0;
}

int xenprof_priv_tree_build(const struct xenprof_stackset *s,
                            struct xenprof_tree **out)
{
    struct xenprof_tree *t = tree_new();
    size_t i, n = s ? xenprof_stackset_size(s) : 0, nr;
    const char *const *frames;
    uint64_t count;
    int rc = t ? 0 : -ENOMEM;

    for ( i = 0; !rc && i < n; i++ )
    {
        xenprof_stackset_get(s, i, &frames, &nr, &count);
        rc = i >= MAX_NODES ? -ENOMEM : add_stack(t, i, frames, nr, count);
    }
    rc = rc ?: sort_children(t);
    rc = rc ?: index_outermost(t);
    if ( rc )
    {
        xenprof_priv_tree_free(t);
        t = NULL;
    }
    *out = t;
    return rc;
}

uint64_t xenprof_priv_tree_total(const struct xenprof_tree *t)
{
    return t->n[0].total;
}

size_t xenprof_priv_tree_nodes(const struct xenprof_tree *t)
{
    return t->nr;
}

static int cmp_total(const void *a, const void *b)
{
    const struct xenprof_func *x = a, *y = b;

    if ( x->total != y->total )
        return x->total > y->total ? -1 : 1;
    if ( x->self != y->self )
        return x->self > y->self ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_self(const void *a, const void *b)
{
    const struct xenprof_func *x = a, *y = b;

    if ( x->self != y->self )
        return x->self > y->self ? -1 : 1;
    return cmp_total(a, b);
}

int xenprof_priv_tree_funcs(const struct xenprof_tree *t, bool by_self,
                            struct xenprof_func **funcs, size_t *n)
{
    size_t i;

    *n = 0;
    *funcs = malloc((t->nr_funcs ? t->nr_funcs : 1) * sizeof(**funcs));
    if ( !*funcs )
        return -ENOMEM;
    for ( i = 0; i < t->nr_funcs; i++ )
        (*funcs)[i] = (struct xenprof_func){ t->fname[i], t->fself[i],
                                             t->ftotal[i] };
    qsort(*funcs, t->nr_funcs, sizeof(**funcs), by_self ? cmp_self
                                                        : cmp_total);
    *n = t->nr_funcs;
    return 0;
}

/* Add the subtree of src's node k under out's node at; 0 or -ENOMEM. */
static int merge(struct xenprof_tree *out, uint32_t at,
                 const struct xenprof_tree *src, uint32_t k)
{
    const struct node *s;
    uint32_t top = k, d = at;

    for ( ; ; )
    {
        s = &src->n[k];
        out->n[d].self += s->self;
        out->n[d].total += s->total;
        if ( s->child != NONE )
        {
            k = s->child;
            d = node_child(out, d, src->n[k].func, src->n[k].name);
            if ( d == NONE )
                return -ENOMEM;
            continue;
        }
        /* Up to the first ancestor (below top) with a next sibling. */
        while ( k != top && src->n[k].next == NONE )
        {
            k = src->n[k].parent;
            d = out->n[d].parent;
        }
        if ( k == top )
            return 0;
        k = src->n[k].next;
        d = node_child(out, out->n[d].parent, src->n[k].func,
                       src->n[k].name);
        if ( d == NONE )
            return -ENOMEM;
    }
}

int xenprof_priv_tree_callees(const struct xenprof_tree *t,
                              const char *name, struct xenprof_tree **out)
{
    struct xenprof_tree *c = tree_new();
    uint32_t k = NONE, at;
    size_t pos;
    int rc = c ? 0 : -ENOMEM;

    if ( !rc && t->occ_head && t->nr_fslots &&
         t->fslot[pos = func_pos(t, name)] != NONE )
        k = t->occ_head[t->fslot[pos]];
    for ( ; !rc && k != NONE; k = t->occ_next[k] )
    {
        at = node_child(c, 0, t->n[k].func, t->n[k].name);
        rc = at == NONE ? -ENOMEM : merge(c, at, t, k);
        c->n[0].total += t->n[k].total;
    }
    rc = rc ?: sort_children(c);
    if ( rc )
    {
        xenprof_priv_tree_free(c);
        c = NULL;
    }
    *out = c;
    return rc;
}

/* Leave nodes up from k until one with a shown next sibling. */
static int walk_up(const struct xenprof_tree *t, uint32_t *k,
                   unsigned int *depth, uint64_t min,
                   xenprof_tree_visit_t fn, void *arg)
{
    struct xenprof_tree_node v;
    const struct node *n;
    int rc;

    while ( *k != 0 )
    {
        n = &t->n[*k];
        v = (struct xenprof_tree_node){ n->name, n->self, n->total,
                                        *depth };
        rc = fn(&v, true, arg);
        if ( rc )
            return rc;
        if ( n->next != NONE && t->n[n->next].total >= min )
        {
            *k = n->next;
            return 0;
        }
        *k = n->parent;
        (*depth)--;
    }
    return 0;
}

int xenprof_priv_tree_walk(const struct xenprof_tree *t, uint64_t min,
                           xenprof_tree_visit_t fn, void *arg)
{
    struct xenprof_tree_node v;
    unsigned int depth = 0;
    uint32_t k = t->n[0].child;
    const struct node *n;
    int rc;

    if ( k == NONE || t->n[k].total < min )
        return 0;
    while ( k != 0 )
    {
        n = &t->n[k];
        v = (struct xenprof_tree_node){ n->name, n->self, n->total, depth };
        rc = fn(&v, false, arg);
        if ( rc )
            return rc;
        if ( n->child != NONE && t->n[n->child].total >= min )
        {
            k = n->child;
            depth++;
            continue;
        }
        rc = walk_up(t, &k, &depth, min, fn, arg);
        if ( rc )
            return rc;
    }
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
