/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-pprof.h: the pprof reader of the unit tests (test-pprof-read.c):
 * gzip of stored blocks, and the protocol buffer messages of
 * profile.proto that the writer uses, decoded independently of it.
 */
#ifndef XENPROFILE_TEST_PPROF_H
#define XENPROFILE_TEST_PPROF_H

#include "test.h"

#define MAXV 4                      /* values, sample types, comments */

struct dsample {
    uint64_t *loc;                  /* location ids, leaf first */
    size_t nloc;
    uint64_t val[MAXV];
    size_t nval;
};

/* A decoded Profile; ids and string indices as in the file. */
struct dprof {
    char **str;
    size_t nstr;
    uint64_t st_type[MAXV], st_unit[MAXV];
    size_t nst;
    struct dsample *smp;
    size_t nsmp;
    uint64_t *loc_id, *loc_fn;      /* a location and its line's function */
    uint64_t *loc_map, *loc_addr;   /* its mapping id and address */
    size_t nloc;
    struct dmap {
        uint64_t id, start, limit, file, build_id, has_functions;
    } *map;
    size_t nmap;
    uint64_t *fn_id, *fn_name;
    size_t nfn;
    uint64_t time, dur, period, pt_type, pt_unit;
    uint64_t comment[MAXV];
    size_t ncomment;
    bool bad;                       /* malformed: see why */
    char why[128];
};


/*
 * Write s (and d) as pprof into memory, then decode it into *dp (which
 * the caller frees with pprof_dprof_free(), whatever the result): 0, the
 * writer's error, or -EBADMSG (dp->why says what is wrong).  *blocks is
 * the number of stored blocks; *raw (malloc()ed) and *rawlen the gzip
 * bytes when raw is not NULL.
 */
int pprof_run(const struct xenprof_stackset *s, const struct xenprof_data *d,
              struct dprof *dp, unsigned int *blocks, uint8_t **raw,
              size_t *rawlen);
void pprof_dprof_free(struct dprof *d);

/* The string at index i, or NULL. */
const char *pprof_str(const struct dprof *d, uint64_t i);

/* Are ids[0..n) non-zero and distinct? */
bool pprof_distinct_ids(const uint64_t *ids, size_t n);

/* strcmp() of two char * for qsort(). */
int pprof_cmp_str(const void *a, const void *b);

/* The mapping of id, or NULL. */
const struct dmap *pprof_map(const struct dprof *d, uint64_t id);

/*
 * The samples as folded text (root first, value[0] as the count, samples
 * of the same names merged, lines sorted; malloc()ed); NULL when a
 * location or a function is missing.
 */
char *pprof_folded(const struct dprof *d);

#endif /* XENPROFILE_TEST_PPROF_H */
