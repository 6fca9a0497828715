/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * stackset.h: internals of the stack set (stackset.c) and of the flame
 * graph writers (write-flamegraph.c, write-diff.c), shared by the files of
 * libxenprofile that build or draw stack sets.  Not installed.
 *
 * A set is built in three steps: xenprof_priv_ss_new(), any number of
 * adds (xenprof_priv_ss_add_text() of a folded line's stack, or
 * xenprof_priv_ss_add_interned() of names interned by
 * xenprof_priv_ss_intern(); frame names are stored once, identical stacks
 * merged through a hash), then xenprof_priv_ss_finish(), which sorts the
 * stacks and frees the hash.  Only a finished set may be read.  Equal
 * names of one set are equal pointers.
 */
#ifndef XENPROFILE_STACKSET_H
#define XENPROFILE_STACKSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "private.h"

/* An empty set under construction; NULL when out of memory. */
struct xenprof_stackset *xenprof_priv_ss_new(void) xenprof_hidden;

/*
 * Add count samples of the stack of a folded line, stack[0..len) (root
 * first, frames split on ';', not NUL-terminated, not modified): one
 * pass, no copy but that of a new name.  Returns 0, -EINVAL (len 0 or s
 * finished), -ENOMEM, or -EOVERFLOW when a count would pass UINT64_MAX;
 * the set's stacks are unchanged on failure.
 */
int xenprof_priv_ss_add_text(struct xenprof_stackset *s, const char *stack,
                             size_t len, uint64_t count) xenprof_hidden;

/*
 * xenprof_stackset_from_data(), which keeps the raw stacks (for pprof's
 * addresses); without raw, a set without them (less memory and time, for
 * the outputs that need names only).
 */
int xenprof_priv_stackset_build(const struct xenprof_data *d,
                                const struct xenprof_filter *f,
                                const struct xenprof_symsrc *src, bool raw,
                                struct xenprof_stackset **out,
                                char *err, size_t errlen) xenprof_hidden;

/*
 * The interned copy of name[0..len) in s (being built), to give to
 * xenprof_priv_ss_add_interned(); NULL when out of memory.  It lives as
 * long as s.
 */
const char *xenprof_priv_ss_intern(struct xenprof_stackset *s,
                                   const char *name, size_t len)
    xenprof_hidden;

/*
 * Add count samples of the stack frames[0..n) (root first, n >= 1),
 * names interned in s by xenprof_priv_ss_intern() (nothing is copied or
 * looked up).  With addrs (the address of each frame, 0 for a frame
 * without one), the stack is also kept as it came, a raw stack beside the
 * stack it merges into, for the writers that give addresses (pprof).  The
 * same returns as xenprof_priv_ss_add_text().
 */
int xenprof_priv_ss_add_interned(struct xenprof_stackset *s,
                                 const char *const *frames,
                                 const uint64_t *addrs, size_t n,
                                 uint64_t count) xenprof_hidden;

/*
 * The raw stacks of a finished set (none when it was built without
 * addresses, e.g. from folded text): raw stack i has count samples, the
 * frames of stack *stack (xenprof_stackset_get()) and their addresses.
 */
size_t xenprof_priv_ss_nr_raw(const struct xenprof_stackset *s)
    xenprof_hidden;
void xenprof_priv_ss_raw(const struct xenprof_stackset *s, size_t i,
                         size_t *stack, const uint64_t **addrs,
                         uint64_t *count) xenprof_hidden;

/* Sort the stacks and drop the hash; 0 or -ENOMEM (s unchanged). */
int xenprof_priv_ss_finish(struct xenprof_stackset *s) xenprof_hidden;

/* Has s been finished (sorted, readable)? */
bool xenprof_priv_ss_finished(const struct xenprof_stackset *s)
    xenprof_hidden;

/* Write frames joined by ';' (write-folded.c); 0 or -EIO. */
int xenprof_priv_put_stack(FILE *out, const char *const *frames, size_t n)
    xenprof_hidden;

/*
 * Compare two stacks as their folded lines without the count would be
 * compared by strcmp(): <0, 0 or >0.  Frames equal as pointers are equal
 * as strings.
 */
int xenprof_priv_ss_cmp(const char *const *fa, size_t na,
                        const char *const *fb, size_t nb) xenprof_hidden;

/* One stack to draw: its frames, its width and (differential) delta. */
struct xenprof_fg_item {
    const char *const *frames;      /* root first */
    size_t nr_frames;
    uint64_t width;                 /* samples: the frame widths */
    int64_t delta;                  /* b - a, differential only */
};

/* Stack i of a drawing, in sorted order: 0, or -ENOMEM. */
typedef int (*xenprof_fg_get_t)(void *ctx, size_t i,
                                struct xenprof_fg_item *it);

/*
 * Draw n stacks (sorted as xenprof_priv_ss_cmp() says) as a flame graph;
 * diff: colour by delta and show it in the tooltips.  Returns 0, -ENODATA
 * when the widths add up to 0, -EINVAL for bad options, -EIO, -ENOMEM.
 */
int xenprof_priv_flamegraph(xenprof_fg_get_t get, void *ctx, size_t n,
                            bool diff, FILE *out,
                            const struct xenprof_svg_opts *o,
                            char *err, size_t errlen) xenprof_hidden;

/*
 * The fill of a frame at depth (write-flamegraph-colour.c); diff: by its
 * delta d, against the largest, maxdelta (not 0).
 */
void xenprof_priv_fg_colour(const char *name, size_t depth, bool diff,
                            int64_t d, uint64_t maxdelta, int rgb[3])
    xenprof_hidden;

/* The embedded CSS and JavaScript of the SVG (write-flamegraph-js.c). */
extern const char xenprof_priv_fg_css[] xenprof_hidden;
extern const char xenprof_priv_fg_js[] xenprof_hidden;

#endif /* XENPROFILE_STACKSET_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
