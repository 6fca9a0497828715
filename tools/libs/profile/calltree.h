/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * calltree.h: the call tree of libxenprofile (calltree.c), for the report
 * (not installed).
 *
 * A call tree aggregates a stack set: one node per distinct stack prefix
 * (root first), with the samples whose stack ends there (self) and the
 * samples whose stack goes through it (total).  Memory grows with the
 * distinct stacks, never with the samples.  Frame names are borrowed from
 * the stack set, which must outlive the tree.
 */
#ifndef XENPROFILE_TREE_H
#define XENPROFILE_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "private.h"

struct xenprof_tree;

/*
 * One function of the Self/Children table, as `perf report --children`:
 * total ("Children") counts the samples whose stack contains the function,
 * once per sample even when it recurses; self those where it is the leaf.
 */
struct xenprof_func {
    const char *name;                   /* borrowed from the stack set */
    uint64_t self, total;
};

/* A node as the walk shows it; depth 0 is a child of the (nameless) root. */
struct xenprof_tree_node {
    const char *name;
    uint64_t self, total;
    unsigned int depth;
};

/*
 * Called by xenprof_priv_tree_walk() when a node is entered (leave false)
 * and after all its shown children (leave true).  A non-zero return stops
 * the walk and is returned by it.
 */
typedef int (*xenprof_tree_visit_t)(const struct xenprof_tree_node *n,
                                    bool leave, void *arg);

/* Build the tree of s.  Returns 0 or -ENOMEM (*t is then NULL). */
int xenprof_priv_tree_build(const struct xenprof_stackset *s,
                            struct xenprof_tree **t) xenprof_hidden;

/* Free t (NULL allowed).  Never fails. */
void xenprof_priv_tree_free(struct xenprof_tree *t) xenprof_hidden;

/* The samples of the tree (the root's total).  Never fails. */
uint64_t xenprof_priv_tree_total(const struct xenprof_tree *t)
    xenprof_hidden;

/* Nodes of the tree, the nameless root included.  Never fails. */
size_t xenprof_priv_tree_nodes(const struct xenprof_tree *t) xenprof_hidden;

/*
 * The Self/Children table of a tree built from a stack set: every
 * distinct frame name once, sorted by total (by self when by_self), then
 * by the other count, then by name.  *funcs is malloc()ed (*n entries).
 * Returns 0 or -ENOMEM (*funcs NULL).
 */
int xenprof_priv_tree_funcs(const struct xenprof_tree *t, bool by_self,
                            struct xenprof_func **funcs, size_t *n)
    xenprof_hidden;

/*
 * The callees of function name: every subtree of t rooted at an
 * outermost node of that name (one with no ancestor of the same name)
 * merged into one tree whose root has the function as its only child, so
 * that its total is the function's Children count.  An unknown name gives
 * an empty tree.  Returns 0 or -ENOMEM (*out NULL).  t must outlive *out.
 */
int xenprof_priv_tree_callees(const struct xenprof_tree *t,
                              const char *name, struct xenprof_tree **out)
    xenprof_hidden;

/*
 * Walk t depth first, children by decreasing total (then by name),
 * leaving out every node whose total is below min (and its subtree).
 * Iterative: any depth is fine.  Returns 0 or what fn returned.
 */
int xenprof_priv_tree_walk(const struct xenprof_tree *t, uint64_t min,
                           xenprof_tree_visit_t fn, void *arg)
    xenprof_hidden;

#endif /* XENPROFILE_TREE_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
