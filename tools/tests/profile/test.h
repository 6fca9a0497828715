/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test.h: TAP output shared by the profiler's hypervisor unit tests.
 */
#ifndef TEST_PROFILE_TEST_H
#define TEST_PROFILE_TEST_H

#include <stdio.h>

#include "emul.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))


/* A profile_ring_copy_fn: memcpy() to ctx + off. */
int test_copy(void *ctx, unsigned int off, const void *src, unsigned int len);

/* test-ring.c: records tagged for checking, and reads of a ring. */
#define RMAX 512                    /* largest record in these tests */
void mkrec(uint8_t *p, unsigned int size, uint32_t tag);
bool isrec(const uint8_t *p, unsigned int size, uint32_t tag);
extern uint8_t ringbuf[4096], out[8192];
struct rd {
    int rc;
    unsigned int bytes, records;
};
struct rd rd(struct profile_ring *r, unsigned int space, uint64_t *peek);
/*
 * A ring of 1 KiB in four chunks of 256 bytes (table in chunks), apart,
 * in reverse order, between guard bytes; are the guards intact?
 */
void chunked(struct profile_ring *r, uint8_t **chunks);
bool guards_intact(void);

void test_ring(void);
void test_lost(void);
void test_race(void);
void test_unwind(void);
void test_stack(void);
void test_symbols(void);
void test_owner(void);
void test_control(void);
void test_timer(void);

#endif /* TEST_PROFILE_TEST_H */
