/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test.h: helpers shared by the libxenprofile unit tests.
 */
#ifndef XENPROFILE_TEST_H
#define XENPROFILE_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../libs/profile/private.h"

#include "tap.h"                    /* tools/tests/common */

/* A record to encode; type 0 means XENPROF_REC_SAMPLE. */
struct trec {
    uint8_t type, flags, mode;
    uint16_t domid, vcpu, cpu;
    uint64_t timestamp;
    unsigned int nr;                /* frames */
    const uint64_t *ip;             /* nr frames; NULL: 0x1000 + 8 * i */
};

/* Little-endian stores, byte by byte. */
void put_le(uint8_t *p, uint64_t v, unsigned int bytes);
uint64_t get_le(const uint8_t *p, unsigned int bytes);

/* Encode r at buf (24 + 8 * nr bytes, returned), byte by byte. */
size_t rec_put(uint8_t *buf, const struct trec *r);

/* A fresh temporary folder, removed (with its files) by tmpdir_done(). */
const char *tmpdir_get(void);
void tmpdir_done(void);

/* "<tmpdir>/<name>" into buf (TPATH bytes); returns buf. */
#define TPATH 512
char *tmp_path(char *buf, const char *name);

/* Whole-file helpers: 0 or -errno; *buf is malloc()ed. */
int file_load(const char *path, uint8_t **buf, size_t *len);
int file_save(const char *path, const void *buf, size_t len);

/* Number of entries in a folder (without . and ..), or -1. */
int dir_count(const char *path);

/* CRC-32 (IEEE, as zlib), computed independently of the library. */
uint32_t test_crc32(const void *buf, size_t len);

/*
 * A small profile with every field set (test-data.c), NULL when out of
 * memory, and a comparison that names the first field that differs.
 */
struct xenprof_data *sample_profile(void);
bool same_data(const struct xenprof_data *a, const struct xenprof_data *b,
               char *why);

/*
 * A sample of a hand-built profile, repeated `times` (test-folded.c,
 * test-report.c): ip[] innermost first, 0 ends it; taken ms after timestamp.
 */
struct tsample {
    unsigned int times;
    uint8_t mode, flags;
    uint16_t domid, vcpu, cpu;
    uint64_t ip[4];
    unsigned int ms;
};
/* Add s's records to d, at timestamp + ms * 1000 + i; 0 or -errno. */
int add_tsample(struct xenprof_data *d, const struct tsample *s,
                uint64_t timestamp);

/* Add the symbols of nm(1)-like lines "addr type name" to d; 0 or -errno. */
int add_nm(struct xenprof_data *d, const char *nm);

/* The folded text of d (helpers.c): the stack set, then its writer. */
int data_folded(const struct xenprof_data *d, FILE *out, int include_guest,
                char *err, size_t errlen);

/* The suites. */
void test_abi(void);
void test_lost_records(void);
void test_decode(void);
void test_data(void);
void test_datafile(void);
void test_crafted(void);
void test_write(void);
void test_symbols(void);
void test_folded(void);
/*
 * Is got (may be NULL) want?  If not, show the first differing line and
 * all of got as diagnostics.
 */
bool same_text(const char *got, const char *want);
/*
 * Is got the expected output data/expected/<name>?  (TEST_REGEN=1: write
 * it there.)
 */
bool same_expected(const char *got, const char *name);
/*
 * The files of data/expected/, built into the program by mkexpected.sh
 * (expected-data.c); the last entry's name is NULL.
 */
struct test_expected {
    const char *name;
    const unsigned char *text;      /* len bytes, then a NUL */
    size_t len;
};
extern const struct test_expected test_expected[];
/* A stack set parsed from folded text; NULL on failure. */
struct xenprof_stackset *stackset_of_text(const char *text);

void test_stackset(void);
void test_flamegraph(void);
void test_report(void);
void test_pprof(void);
void test_xensyms(void);

#endif /* XENPROFILE_TEST_H */
