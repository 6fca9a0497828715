/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-race.c: a producer thread and a consumer thread race on one ring
 * for millions of records, as a sampled pCPU and the read sysctl do.
 * Records carry a sequence number and a checksum; the consumer pauses now
 * and then, so the ring fills and drops records, and every gap in the
 * sequence must be announced, exactly, by the LOST record before it.
 * The ring is made of 4 KiB chunks in reverse order, as Xen's rings are
 * of chunks, so records go round pads at every chunk's end.
 * PROFILE_RACE_RECORDS=<n> sets the number of records (default 5000000).
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "test.h"

#define RACE_RING   (64u << 10)
#define RACE_CHUNK_SHIFT 12         /* chunks of 4 KiB */
#define RACE_MAX    520             /* largest record */
#define RACE_READ   4096            /* the consumer's buffer */

struct race {
    struct profile_ring ring;
    uint64_t records;               /* to produce */
    uint64_t failed;                /* writes refused (producer, atomic) */
    bool done;                      /* producer finished (atomic) */
    uint64_t received;              /* consumer: samples */
    uint64_t announced;             /* consumer: LOST counts, summed */
    uint64_t wrong_lost;            /* consumer: a gap its LOST missed */
    bool last_lost_fit;             /* producer: the stop-time LOST fit */
    uint64_t bad, disorder;         /* consumer: corrupt, out of order */
    int rc;                         /* consumer: a profile_ring_read() error */
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* 16 to RACE_MAX bytes, by sequence number. */
static unsigned int race_size(uint64_t seq)
{
    return 16 + 8 * (mix(seq) % ((RACE_MAX - 16) / 8 + 1));
}

/* Checksum of the words after the header: sequence number, payload. */
static uint32_t race_sum(const uint8_t *rec, unsigned int size)
{
    uint64_t h = 0xcbf29ce484222325ULL, w;
    unsigned int i;

    for ( i = 8; i < size; i += 8 )
    {
        memcpy(&w, rec + i, sizeof(w));
        h = (h ^ w) * 0x100000001b3ULL;
    }
    return h ^ (h >> 32);
}

/* { uint16 size, uint8 type 1, 0, uint32 sum, uint64 seq, payload } */
static void *producer(void *arg)
{
    struct race *t = arg;
    uint64_t rec[RACE_MAX / 8], seq;
    unsigned int size, i;

    for ( seq = 0; seq < t->records; seq++ )
    {
        size = race_size(seq);
        rec[1] = seq;
        for ( i = 2; i < size / 8; i++ )
            rec[i] = seq ^ (i * 0x9e3779b97f4a7c15ULL);
        rec[0] = size | 1u << 16 |
                 (uint64_t)race_sum((uint8_t *)rec, size) << 32;
        if ( !profile_ring_commit(&t->ring, rec, size, 0, seq) )
            __atomic_store_n(&t->failed, t->failed + 1, __ATOMIC_RELAXED);
    }
    /* As at stop: the last losses; the reserve has room for them. */
    t->last_lost_fit = profile_ring_write_lost(&t->ring, 0, seq);
    __atomic_store_n(&t->done, true, __ATOMIC_RELEASE);

    return NULL;
}

/* Check the records in buf[0, bytes); next is the next sequence number. */
static void check(struct race *t, const uint8_t *buf, unsigned int bytes,
                  uint64_t *next)
{
    unsigned int off, size;
    uint64_t seq;
    uint32_t sum;
    uint16_t sz;

    for ( off = 0; off < bytes; off += size )
    {
        memcpy(&sz, buf + off, sizeof(sz));
        size = sz;
        if ( size == sizeof(struct profile_ring_lost) &&
             buf[off + 2] == PROFILE_REC_LOST )
        {
            struct profile_ring_lost l;

            memcpy(&l, buf + off, sizeof(l));
            t->announced += l.count;
            *next += l.count;       /* the gap that must follow */
            continue;
        }
        if ( size < 16 || off + size > bytes || buf[off + 2] != 1 )
        {
            t->bad++;
            return;
        }
        memcpy(&sum, buf + off + 4, sizeof(sum));
        memcpy(&seq, buf + off + 8, sizeof(seq));
        if ( size != race_size(seq) || sum != race_sum(buf + off, size) )
        {
            t->bad++;
            return;
        }
        if ( seq < *next )
            t->disorder++;
        else if ( seq > *next )
            t->wrong_lost++;
        *next = seq + 1;
        t->received++;
    }
}

static void *consumer(void *arg)
{
    static uint8_t buf[RACE_READ] __attribute__((aligned(8)));
    const struct timespec pause = { .tv_nsec = 20000 };
    struct race *t = arg;
    unsigned int bytes, n, reads = 0;
    uint64_t next = 0;
    bool done;

    /* Let the ring fill up once for sure. */
    while ( !__atomic_load_n(&t->failed, __ATOMIC_RELAXED) &&
            !__atomic_load_n(&t->done, __ATOMIC_ACQUIRE) )
        nanosleep(&pause, NULL);

    for ( ; ; )
    {
        done = __atomic_load_n(&t->done, __ATOMIC_ACQUIRE);
        t->rc = profile_ring_read(&t->ring, test_copy, buf, sizeof(buf), NULL,
                          &bytes, &n);
        if ( t->rc )
            break;
        check(t, buf, bytes, &next);
        if ( !n && done )
            break;
        if ( !(++reads % 256) )
            nanosleep(&pause, NULL);
    }
    if ( next != t->records )
        t->wrong_lost++;

    return NULL;
}

void test_race(void)
{
    static uint8_t buf[RACE_RING] __attribute__((aligned(8)));
    static uint8_t *chunks[RACE_RING >> RACE_CHUNK_SHIFT];
    const char *env = getenv("PROFILE_RACE_RECORDS");
    struct race t = { .records = env ? strtoull(env, NULL, 0) : 5000000 };
    struct timespec t0, t1;
    pthread_t prod, cons;
    uint64_t lost;
    unsigned int i;
    bool ok;

    for ( i = 0; i < ARRAY_SIZE(chunks); i++ )
        chunks[i] = buf + RACE_RING - ((i + 1) << RACE_CHUNK_SHIFT);
    profile_ring_init(&t.ring, chunks, RACE_CHUNK_SHIFT, RACE_RING);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ok = !pthread_create(&cons, NULL, consumer, &t) &&
         !pthread_create(&prod, NULL, producer, &t) &&
         !pthread_join(prod, NULL) && !pthread_join(cons, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    lost = t.ring.lost;

    tap_diag("race: %llu records in %.2f s: %llu received, %llu lost",
             (unsigned long long)t.records,
             (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
             (unsigned long long)t.received, (unsigned long long)lost);
    tap_ok(ok && !t.rc && !t.bad,
           "race: every record received is intact (size, type, checksum)");
    tap_ok(!t.disorder, "race: sequence numbers strictly increase");
    tap_ok(t.received + lost == t.records,
           "race: received + lost == produced");
    tap_ok(t.last_lost_fit,
           "race: the last LOST record fit at once, in the reserve");
    tap_ok(!t.wrong_lost && t.announced == lost,
           "race: every gap in the sequence is announced exactly by the "
           "LOST record before it; they add up to lost");
    tap_ok(t.ring.written == t.received && t.ring.read == t.received &&
           t.failed == lost && !profile_ring_pending_bytes(&t.ring),
           "race: written == read, lost == failed writes, none pending");
    tap_ok(lost && t.received,
           "race: the ring filled and dropped records, others got through");
}
