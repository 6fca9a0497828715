/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * synth.h: synthetic hypervisor profiles, built in memory from a seed
 * (the same seed gives the same profile on every host): the fuzzers'
 * seeds, and profiles of any size for benchmarks.
 */
#ifndef XENPROFILE_SYNTH_H
#define XENPROFILE_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "../../libs/profile/private.h"

struct synth_opts {
    uint64_t seed;
    size_t nr_samples;              /* records */
    size_t nr_stacks;               /* distinct Xen stacks (about) */
    size_t nr_syms;                 /* symbols, text and data */
    unsigned int min_depth;         /* Xen frames per stack */
    unsigned int max_depth;
    unsigned int guest_permille;    /* guest-mode samples */
};

/* The benchmark's sizes: 1M samples, 50k stacks, 7k symbols, 5-40. */
#define SYNTH_DEFAULTS { .seed = 1, .nr_samples = 1000000, \
                         .nr_stacks = 50000, .nr_syms = 7000, \
                         .min_depth = 5, .max_depth = 40, \
                         .guest_permille = 80 }

/*
 * Build the profile: metadata of a timer profile at 97 Hz, the symbols
 * (text 't'/'T' with "path/file.c#name" statics, and data), a few
 * domains, and nr_samples records drawn from nr_stacks stack templates
 * that share prefixes as real call paths do, with a skewed popularity.
 * Returns NULL (and a message on stderr) when out of memory.
 */
struct xenprof_data *synth_profile(const struct synth_opts *o);

/* Store the low `bytes` bytes of v at p, little-endian (a record field). */
void synth_put_le(uint8_t *p, unsigned int bytes, uint64_t v);

#endif /* XENPROFILE_SYNTH_H */
