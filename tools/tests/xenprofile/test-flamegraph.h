/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-flamegraph.h: reading flame graph SVGs back, shared by
 * test-flamegraph.c and test-fg-corpus.c.
 */
#ifndef XENPROFILE_TEST_FLAMEGRAPH_H
#define XENPROFILE_TEST_FLAMEGRAPH_H

#include "test.h"

/* A drawn frame, as read back from an SVG. */
struct frame {
    long depth, y;
    char *name;                     /* from <title>, unescaped */
    uint64_t x, w;                  /* fg:x, fg:w */
    int rgb[3];                     /* fill, -1 if not rgb() */
};

struct frames {
    struct frame *f;
    size_t n;
    bool bad;                       /* unparsable */
};

/*
 * Every frame of svg (<title>NAME (...)</title> then <rect y fill fg:x
 * fg:w/>); depth from y: the root is the lowest frame (the highest when
 * inverted), frames 16 px apart.  fs.bad when anything is off.
 */
struct frames fg_frames(const char *svg, bool inverted);
void fg_frames_free(struct frames *fs);

/* Same (depth, name, start, width) sets (sorts both)?  Diags if not. */
bool fg_same(struct frames *want, struct frames *got);

/* The frame named name at depth, or NULL. */
const struct frame *fg_find(const struct frames *fs, long depth,
                            const char *name);

/* Tags balanced, one root, attributes quoted, text escaped?  *why. */
bool fg_well_formed(const char *s, const char **why);

/* Draw b (diff: a against b) into *svg (malloc()ed); the writer's rc. */
int fg_draw(const struct xenprof_stackset *a,
            const struct xenprof_stackset *b,
            const struct xenprof_svg_opts *o, char **svg);

/* A set from folded text (len 0: strlen); diff: b, with a in *a. */
struct xenprof_stackset *fg_set_of(const char *text, size_t len,
                                   struct xenprof_stackset **a,
                                   size_t *bad);

void test_flamegraph(void);
void test_fg_corpus(void);

#endif /* XENPROFILE_TEST_FLAMEGRAPH_H */
