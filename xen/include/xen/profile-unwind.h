/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile-unwind.h: where the profiler's stack walks end, for the
 * architectures' unwinders (arch/<arch>/profile/unwind.c): the functions
 * a fresh stack is entered with (the roots), and the index that answers
 * "is this return address in a root?" for every frame of a walk.  The
 * table is filled in sysctl context (xen/common/profile/unwind-roots.c)
 * and read by samples in IRQ or NMI context (profile_in_root() below).
 */
#ifndef XEN_PROFILE_UNWIND_H
#define XEN_PROFILE_UNWIND_H

#include <xen/types.h>
#include <asm/atomic.h>
#include <asm/system.h>

/*
 * Functions entered on a freshly reset stack (x86: reset_stack_and_jump()
 * targets such as idle_loop() and the context switch tails; Arm: the idle
 * loop, the guest vectors, the first entry of a vCPU), as [start, end)
 * ranges.  Above their frame a stack holds only what it held before it
 * was reset, or a guest's registers.
 */
#define PROFILE_UNWIND_MAX_ROOTS 16

/*
 * Every return address of a walk is checked against the roots: an index
 * of the text [base, base + span) in 64 chunks of 1 << shift bytes, map
 * with the bit of each chunk a root overlaps, answers "in no root" for
 * most addresses with one test.  span 0: no index, every root is
 * compared (a table initialised by hand, or a root outside the text).
 */
struct profile_unwind_roots {
    unsigned int nr;
    struct {
        unsigned long start, end;
    } root[PROFILE_UNWIND_MAX_ROOTS];
    unsigned long base, span;
    unsigned int shift;
    uint64_t map;
};

/* An empty table, indexing the text [base, base + size). */
void profile_unwind_roots_init(struct profile_unwind_roots *r,
                               unsigned long base, unsigned long size);

/*
 * Add the root [start, end) (not there yet; start < end) for the samples
 * that may read the table meanwhile: its entry and index bits before the
 * count.  False when the table is full.
 */
bool profile_unwind_add_root(struct profile_unwind_roots *r,
                             unsigned long start, unsigned long end);

/*
 * The roots of a walk, their index read once (into locals: the stores of
 * the walk could alias the table, which would make the compiler read the
 * index again for every frame).
 */
struct profile_roots_view {
    const struct profile_unwind_roots *r;
    unsigned long base, span;
    unsigned int shift;
    uint64_t map;
};

static always_inline void profile_view_roots(
    struct profile_roots_view *v, const struct profile_unwind_roots *r)
{
    v->r = r;
    v->base = r ? r->base : 0;
    v->span = r ? r->span : 0;
    v->shift = r ? r->shift & 63 : 0;   /* a shift must stay below 64 */
    v->map = r ? r->map : 0;
}

/* Is the instruction at ip in one of the roots?  Any context. */
static always_inline bool profile_in_root(unsigned long ip,
                                          const struct profile_roots_view *v)
{
    unsigned long off = ip - v->base;
    unsigned int i, nr;

    if ( !v->r )
        return false;
    /*
     * Most addresses are in no root's chunk of the text: one test.  (The
     * masks keep both shifts below 64 whatever was read.)
     */
    if ( v->span &&
         (off >= v->span || !((v->map >> ((off >> v->shift) & 63)) & 1)) )
        return false;
    /* The count, then the entries it covers (written in that order). */
    nr = read_atomic(&v->r->nr);
    smp_rmb();
    if ( nr > PROFILE_UNWIND_MAX_ROOTS )
        nr = PROFILE_UNWIND_MAX_ROOTS;
    for ( i = 0; i < nr; i++ )
        if ( ip >= v->r->root[i].start && ip < v->r->root[i].end )
            return true;
    return false;
}

/*
 * At boot: add to r, once each, the functions of Xen's symbol table whose
 * names are in names[] (local symbols match by their name after
 * "file#"), and log each name it could not add.  Sysctl context too: add
 * the function starting at fn (profile_add_root()).
 */
void profile_add_named_roots(struct profile_unwind_roots *r,
                             const char *const names[], unsigned int nr);
void profile_add_root(struct profile_unwind_roots *r, unsigned long fn);

#endif /* XEN_PROFILE_UNWIND_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
