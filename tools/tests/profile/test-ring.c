/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-ring.c: the per-pCPU sample ring, one thread: round trip, pads and
 * wrap-around, a full ring, short buffers, copy faults, peek, corruption
 * (LOST records: test-lost.c).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "test.h"

/*
 * Records: { uint16 size, uint8 type (never PAD or LOST), 0, uint32 tag,
 * ... }.
 */
void mkrec(uint8_t *p, unsigned int size, uint32_t tag)
{
    unsigned int i;

    p[0] = size;
    p[1] = size >> 8;
    p[2] = 1 + tag % 254;
    p[2] += p[2] >= PROFILE_REC_LOST;
    p[3] = 0;
    memcpy(p + 4, &tag, sizeof(tag));
    for ( i = 8; i < size; i++ )
        p[i] = tag * 31 + i;
}

bool isrec(const uint8_t *p, unsigned int size, uint32_t tag)
{
    uint8_t want[RMAX];

    mkrec(want, size, tag);
    return !memcmp(p, want, size);
}

/* Write a record; one that does not fit is dropped, as the sample path does. */
static bool put(struct profile_ring *r, unsigned int size, uint32_t tag)
{
    uint8_t rec[RMAX];

    mkrec(rec, size, tag);
    if ( profile_ring_write(r, rec, size) )
        return true;
    profile_ring_drop(r);
    return false;
}

int test_copy(void *ctx, unsigned int off, const void *src, unsigned int len)
{
    memcpy((uint8_t *)ctx + off, src, len);
    return 0;
}

/* Copy to buf, but fail call number fail_at (from 1). */
struct fault {
    uint8_t *buf;
    unsigned int calls, fail_at;
};

static int copy_fault(void *ctx, unsigned int off, const void *src,
                      unsigned int len)
{
    struct fault *f = ctx;

    if ( ++f->calls == f->fail_at )
        return -EFAULT;
    memcpy(f->buf + off, src, len);
    return 0;
}

uint8_t ringbuf[4096] __attribute__((aligned(8)));
uint8_t out[8192];


struct rd rd(struct profile_ring *r, unsigned int space, uint64_t *peek)
{
    struct rd d;

    d.rc = profile_ring_read(r, test_copy, out, space, peek, &d.bytes, &d.records);
    return d;
}

/* Does p[0, bytes) hold n records of sizes sz[], tags tag, tag + 1... ? */
static bool got(const uint8_t *p, unsigned int bytes, const unsigned int *sz,
                unsigned int n, uint32_t tag)
{
    unsigned int off = 0, i;

    for ( i = 0; i < n; off += sz[i++] )
        if ( off + sz[i] > bytes || !isrec(p + off, sz[i], tag + i) )
            return false;
    return off == bytes;
}

static void test_round_trip(void)
{
    static const unsigned int sz[] = { 8, 16, 24, 64, 8, 200 };
    struct profile_ring r;
    struct rd d;
    unsigned int i, total = 0;
    bool ok = true;

    RING_INIT_FLAT(&r, ringbuf, 1024);
    d = rd(&r, sizeof(out), NULL);
    tap_ok(!d.rc && !d.bytes && !d.records && !r.read,
           "empty ring: read returns 0, no bytes, no records");

    for ( i = 0; i < ARRAY_SIZE(sz); total += sz[i++] )
        ok &= put(&r, sz[i], i);
    tap_ok(ok && r.written == 6 && !r.lost && profile_ring_pending_bytes(&r) == total,
           "6 writes succeed, pending bytes are their sizes");

    d = rd(&r, sizeof(out), NULL);
    tap_ok(!d.rc && d.bytes == total && d.records == 6 &&
           got(out, d.bytes, sz, 6, 0),
           "round trip: records intact and in order");
    tap_ok(r.read == 6 && !profile_ring_pending_bytes(&r) && r.cons == r.prod,
           "round trip: read == written, nothing pending");

    d = rd(&r, sizeof(out), NULL);
    tap_ok(!d.rc && !d.bytes && !d.records && r.read == 6,
           "drained ring: read returns 0, no bytes, no records");
}

static void test_pads(void)
{
    static const unsigned int sz45[] = { 16, 8 };
    struct profile_ring r;
    struct rd d;
    uint16_t pad;
    bool ok;

    RING_INIT_FLAT(&r, ringbuf, 64);
    ok = put(&r, 40, 0) && rd(&r, 64, NULL).records == 1;
    ok = ok && put(&r, 24, 1) && r.prod == 64;
    d = rd(&r, 64, NULL);
    tap_ok(ok && d.records == 1 && isrec(out, 24, 1) && r.cons == 64,
           "a record ending at the end of the buffer needs no pad");

    ok = put(&r, 40, 2) && rd(&r, 64, NULL).records == 1;
    ok = ok && put(&r, 32, 3);
    memcpy(&pad, ringbuf + 40, sizeof(pad));
    tap_ok(ok && r.prod == 104 + 24 + 32 && pad == 24 && !ringbuf[42] &&
           isrec(ringbuf, 32, 3) && profile_ring_pending_bytes(&r) == 56,
           "a record past the end: a 24-byte pad, then the record at 0");
    d = rd(&r, 64, NULL);
    tap_ok(!d.rc && d.records == 1 && d.bytes == 32 && isrec(out, 32, 3) &&
           !profile_ring_pending_bytes(&r),
           "the pad is skipped, not returned");

    /* prod at offset 56: 24 pending, 40 free, but 40 + an 8 pad do not. */
    ok = put(&r, 16, 4) && put(&r, 8, 5) && !put(&r, 40, 6);
    tap_ok(ok && r.lost == 1 && profile_ring_pending_bytes(&r) == 24,
           "a record that fits only without its pad is dropped");
    d = rd(&r, 64, NULL);
    ok = !d.rc && d.records == 2 && got(out, d.bytes, sz45, 2, 4);
    tap_ok(ok && put(&r, 40, 7) && r.prod == 184 + 8 + 40,
           "once read, the same record goes in after a pad");
}

/* Wrap-around: many cycles of writes and one read, records of varied size. */
static const struct wrap_case {
    const char *desc;
    unsigned int size, batch, space;     /* ring, writes/cycle, read buf */
    unsigned int nsz, sz[6];             /* record sizes, in turn */
} wrap_cases[] = {
    { "ring 64, 8 to 32 byte records, one write and read per cycle",
      64, 1, 4096, 4, { 8, 16, 24, 32 } },
    { "ring 256, mixed sizes, 3 writes then a 64-byte read",
      256, 3, 64, 5, { 8, 24, 40, 56, 16 } },
    { "ring 1024, up to 512 bytes, 4 writes then a 600-byte read",
      1024, 4, 600, 6, { 512, 8, 200, 96, 48, 136 } },
    { "ring 4096, 2 writes then a read of the largest record",
      4096, 2, 504, 6, { 504, 264, 8, 120, 328, 48 } },
};

#define WRAP_CYCLES 5000
#define FIFO 1024                        /* > records a ring can hold */

static bool wrap_one(const struct wrap_case *c)
{
    static uint32_t ftag[FIFO], fsz[FIFO];
    unsigned int head = 0, tail = 0, cycle, i, off, pend = 0, k = 0;
    uint64_t recbytes = 0;
    struct profile_ring r;
    struct rd d;
    bool ok = true;

    RING_INIT_FLAT(&r, ringbuf, c->size);
    for ( cycle = 0; ok && cycle <= WRAP_CYCLES; cycle++ )
    {
        for ( i = 0; cycle < WRAP_CYCLES && i < c->batch; i++, k++ )
            if ( put(&r, c->sz[k % c->nsz], k) )
            {
                ftag[head % FIFO] = k;
                fsz[head++ % FIFO] = c->sz[k % c->nsz];
                pend += c->sz[k % c->nsz];
                recbytes += c->sz[k % c->nsz];
            }
        do {
            /* At most one pad is pending, shorter than a record. */
            ok = profile_ring_pending_bytes(&r) == r.prod - r.cons &&
                 profile_ring_pending_bytes(&r) - pend < RMAX;
            d = rd(&r, c->space, NULL);
            ok = ok && !d.rc && d.records <= head - tail;
            for ( off = 0, i = 0; ok && i < d.records; i++, tail++ )
            {
                ok = isrec(out + off, fsz[tail % FIFO], ftag[tail % FIFO]);
                off += fsz[tail % FIFO];
                pend -= fsz[tail % FIFO];
            }
            ok = ok && off == d.bytes;
        } while ( ok && cycle == WRAP_CYCLES && d.records );
    }
    tap_diag("%u writes: %llu written, %llu lost, %llu pad bytes",
             k, (unsigned long long)r.written,
             (unsigned long long)r.lost,
             (unsigned long long)(r.prod - recbytes));

    return ok && head == tail && !profile_ring_pending_bytes(&r) &&
           r.prod > recbytes && r.written + r.lost == k &&
           r.written == head && r.read == r.written;
}

static void test_wrap(void)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(wrap_cases); i++ )
        tap_ok(wrap_one(&wrap_cases[i]),
               "wrap: %s: records intact, in order, pads never returned",
               wrap_cases[i].desc);
}

/* A full ring: writes fail once it is full, and each failure is lost. */
static const struct full_case {
    unsigned int size, rec, attempts, fits;
} full_cases[] = {
    { 256, 32, 20, 8 },
    { 256, 24, 20, 10 },                 /* the 11th would need a pad */
    { 64, 8, 100, 8 },
    { 1024, 200, 10, 5 },
};

static void test_full(void)
{
    unsigned int i, j, sz[64];
    const struct full_case *c;
    struct profile_ring r;
    struct rd d;
    bool ok;

    for ( i = 0; i < ARRAY_SIZE(full_cases); i++ )
    {
        c = &full_cases[i];
        RING_INIT_FLAT(&r, ringbuf, c->size);
        for ( ok = true, j = 0; j < c->attempts; j++ )
            ok &= put(&r, c->rec, j) == (j < c->fits);
        tap_ok(ok && r.written == c->fits && r.lost == c->attempts - c->fits &&
               r.written + r.lost == c->attempts &&
               profile_ring_pending_bytes(&r) == c->fits * c->rec,
               "full ring %u, %u-byte records: %u of %u writes fail, lost "
               "counts them", c->size, c->rec, c->attempts - c->fits,
               c->attempts);

        for ( j = 0; j < c->fits; j++ )
            sz[j] = c->rec;
        d = rd(&r, sizeof(out), NULL);
        tap_ok(!d.rc && d.records == c->fits && r.read == r.written &&
               got(out, d.bytes, sz, c->fits, 0) && put(&r, c->rec, 99),
               "full ring %u: read == written, records intact, room again",
               c->size);
    }
}

static void test_short(void)
{
    static const unsigned int sz[] = { 16, 24, 32, 8, 40 };
    struct profile_ring r;
    struct rd d;
    unsigned int i;

    RING_INIT_FLAT(&r, ringbuf, 256);
    for ( i = 0; i < ARRAY_SIZE(sz); i++ )
        put(&r, sz[i], i);

    d = rd(&r, 15, NULL);
    tap_ok(d.rc == -ENOBUFS && !d.bytes && !d.records && !r.cons && !r.read &&
           profile_ring_pending_bytes(&r) == 120,
           "a buffer smaller than the next record: -ENOBUFS, nothing read");
    d = rd(&r, 16 + 24 + 31, NULL);
    tap_ok(!d.rc && d.records == 2 && d.bytes == 40 &&
           got(out, d.bytes, sz, 2, 0) && r.read == 2 && r.cons == 40,
           "space for 2 of 5 records: 2 whole records read");
    d = rd(&r, 31, NULL);
    tap_ok(d.rc == -ENOBUFS && !d.records && r.cons == 40,
           "then a 31-byte buffer for a 32-byte record: -ENOBUFS");
    d = rd(&r, 80, NULL);
    tap_ok(!d.rc && d.records == 3 && got(out, d.bytes, sz + 2, 3, 2) &&
           r.read == 5 && !profile_ring_pending_bytes(&r),
           "then the 3 others, exactly fitting");
}

static void test_fault(void)
{
    static const unsigned int sz[] = { 16, 24, 32, 8, 40 };
    struct fault f = { .buf = out, .fail_at = 3 };
    struct profile_ring r;
    unsigned int i, bytes, n;
    uint64_t peek = 0;
    struct rd d;
    int rc;

    RING_INIT_FLAT(&r, ringbuf, 256);
    for ( i = 0; i < ARRAY_SIZE(sz); i++ )
        put(&r, sz[i], i);

    rc = profile_ring_read(&r, copy_fault, &f, sizeof(out), &peek, &bytes, &n);
    tap_ok(rc == -EFAULT && n == 2 && bytes == 40 && peek == 40 &&
           !r.cons && !r.read,
           "peek, copy fails on the 3rd record: -EFAULT, peek stops at it");

    f.calls = 0;
    rc = profile_ring_read(&r, copy_fault, &f, sizeof(out), NULL, &bytes, &n);
    tap_ok(rc == -EFAULT && n == 2 && bytes == 40 &&
           got(out, bytes, sz, 2, 0) && r.read == 2 && r.cons == 40,
           "copy fails on the 3rd record: -EFAULT, the first 2 consumed");

    d = rd(&r, sizeof(out), NULL);
    tap_ok(!d.rc && d.records == 3 && got(out, d.bytes, sz + 2, 3, 2),
           "the 3rd record is still there, with the rest");

    put(&r, 8, 9);
    f.calls = 0;
    f.fail_at = 1;
    rc = profile_ring_read(&r, copy_fault, &f, sizeof(out), NULL, &bytes, &n);
    tap_ok(rc == -EFAULT && !n && !bytes && r.read == 5 &&
           profile_ring_pending_bytes(&r) == 8,
           "copy fails on the 1st record: -EFAULT, nothing consumed");
}

static void test_peek(void)
{
    static const unsigned int sz[] = { 24, 32, 16, 40, 8 };
    static uint8_t first[256];
    struct profile_ring r;
    uint64_t peek = 0;
    struct rd d;
    unsigned int i;
    bool ok;

    /* Start at offset 208 of 256, so a pad precedes the 2nd record. */
    RING_INIT_FLAT(&r, ringbuf, 256);
    for ( i = 0; i < 26; i++ )
        put(&r, 8, 100);
    rd(&r, sizeof(out), NULL);
    for ( i = 0; i < ARRAY_SIZE(sz); i++ )
        put(&r, sz[i], i);

    d = rd(&r, 56, &peek);
    ok = !d.rc && d.records == 2 && d.bytes == 56 && peek == 80;
    memcpy(first, out, d.bytes);
    d = rd(&r, 56, &peek);
    ok = ok && !d.rc && d.records == 2 && peek == 136 &&
         got(out, d.bytes, sz + 2, 2, 2);
    d = rd(&r, 56, &peek);
    ok = ok && !d.rc && d.records == 1 && peek == 144 && isrec(out, 8, 4);
    tap_ok(ok && got(first, 56, sz, 2, 0) && r.cons == 208 && r.read == 26,
           "peek reads the records in turn, advances peek past the pad, "
           "consumes nothing");

    d = rd(&r, 56, &peek);
    tap_ok(!d.rc && !d.records && peek == 144,
           "peek at the end: 0, no records");
    peek = 152;
    d = rd(&r, 56, &peek);
    tap_ok(d.rc == -EINVAL && !d.records && peek == 152,
           "peek past the end: -EINVAL");

    peek = 0;
    d = rd(&r, sizeof(out), &peek);
    ok = !d.rc && d.records == 5 && peek == 144;
    memcpy(first, out, d.bytes);
    d = rd(&r, sizeof(out), NULL);
    tap_ok(ok && !d.rc && d.records == 5 && d.bytes == 120 &&
           got(first, 120, sz, 5, 0) && !memcmp(first, out, 120) &&
           r.read == 31 && !profile_ring_pending_bytes(&r),
           "peek again from 0, then a consuming read: the same records");
}

/*
 * A PEEK offset other than 0 and the one the last peek returned is refused
 * with -EINVAL before anything is read, a record start included (finding
 * one would take a walk of the ring): every offset of a ring whose buffer
 * is allocated to its exact size (so that ASan sees a read past its end),
 * the last byte of the buffer included.
 */
static void test_peek_offsets(void)
{
    static const unsigned int sz[] = { 24, 32, 16, 40, 8 };
    /* Record starts after cons, the pad at 24 included, and the end. */
    static const uint64_t starts[] = { 0, 24, 48, 80, 96, 136, 144 };
    uint64_t refused_starts = 0;
    uint8_t *buf = malloc(256);
    struct profile_ring r;
    uint64_t off, peek, bad = 0, good = 0;
    unsigned int i, j;
    struct rd d;

    if ( !tap_ok(buf != NULL, "peek offsets: allocate a 256-byte ring") )
        return;
    RING_INIT_FLAT(&r, buf, 256);
    for ( i = 0; i < 26; i++ )
        put(&r, 8, 100);
    rd(&r, sizeof(out), NULL);
    for ( i = 0; i < ARRAY_SIZE(sz); i++ )
        put(&r, sz[i], i);

    for ( off = 0; off <= 200; off++ )
    {
        bool start = false;

        for ( j = 0; j < ARRAY_SIZE(starts); j++ )
            start = start || starts[j] == off;
        /* Forget where the last peek ended: only 0 is a start then. */
        r.peek_pos = 0;
        peek = off;
        d = rd(&r, sizeof(out), &peek);
        if ( off ? d.rc != -EINVAL || d.records || peek != off : d.rc != 0 )
            bad++;
        else
            good++;
        refused_starts += start && off && d.rc == -EINVAL;
    }
    tap_ok(!bad && refused_starts == ARRAY_SIZE(starts) - 1,
           "peek at each offset 1..200: -EINVAL, nothing read, record "
           "starts (%" PRIu64 ") too; at 0 the records (%" PRIu64 " right)",
           refused_starts, good);

    /* The cursor Xen keeps: a peek resumes where the last one ended. */
    peek = 0;
    d = rd(&r, 56, &peek);
    i = d.records;
    d = rd(&r, 56, &peek);
    tap_ok(!d.rc && i == 2 && d.records == 2 && peek == 136 &&
           r.peek_pos == r.cons + 136,
           "peek resumes at the offset the last peek returned");
    free(buf);
}

/* A corrupt size in the 2nd of 3 records of 24 bytes. */
static const struct corrupt_case {
    const char *desc;
    uint16_t size;
} corrupt_cases[] = {
    { "size 0", 0 },
    { "size 3", 3 },
    { "size 12, not a multiple of 8", 12 },
    { "size 512, past prod", 512 },
    { "size 2048, past the end of the buffer", 2048 },
    { "size 0xfff8", 0xfff8 },
};

static void test_corrupt(void)
{
    const struct corrupt_case *c;
    struct profile_ring r;
    uint64_t peek = 0;
    struct rd d, p, again;
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(corrupt_cases); i++ )
    {
        c = &corrupt_cases[i];
        RING_INIT_FLAT(&r, ringbuf, 1024);
        put(&r, 24, 0);
        put(&r, 24, 1);
        put(&r, 24, 2);
        memcpy(ringbuf + 24, &c->size, sizeof(c->size));

        peek = 0;
        p = rd(&r, sizeof(out), &peek);
        d = rd(&r, sizeof(out), NULL);
        again = rd(&r, sizeof(out), NULL);
        tap_ok(p.rc == -EIO && p.records == 1 && peek == 24 &&
               d.rc == -EIO && d.records == 1 && isrec(out, 24, 0) &&
               r.read == 1 && r.cons == 24 &&
               again.rc == -EIO && !again.records && r.cons == 24,
               "corrupt record, %s: -EIO after the good one", c->desc);
    }
}

/*
 * A ring of 1 KiB in four chunks of 256 bytes, apart from each other, in
 * reverse order, each between guard bytes.
 */
#define CH_SHIFT 8
#define CH_GUARD 64
#define CH_SLOT ((1u << CH_SHIFT) + 2 * CH_GUARD)
static uint8_t ch_mem[4 * CH_SLOT] __attribute__((aligned(8)));

void chunked(struct profile_ring *r, uint8_t **chunks)
{
    unsigned int i;

    memset(ch_mem, 0xa5, sizeof(ch_mem));
    for ( i = 0; i < 4; i++ )
        chunks[i] = ch_mem + (3 - i) * CH_SLOT + CH_GUARD;
    profile_ring_init(r, chunks, CH_SHIFT, 4u << CH_SHIFT);
}

bool guards_intact(void)
{
    unsigned int i, j;

    for ( i = 0; i < 4; i++ )
        for ( j = 0; j < CH_GUARD; j++ )
            if ( ch_mem[i * CH_SLOT + j] != 0xa5 ||
                 ch_mem[(i + 1) * CH_SLOT - 1 - j] != 0xa5 )
                return false;
    return true;
}

/*
 * Do the n bytes at p hold whole records, tags *tag, *tag + 1, ... (sizes
 * from their headers)?  *tag is advanced past them.
 */
static bool got_tags(const uint8_t *p, unsigned int n, uint32_t *tag)
{
    unsigned int off = 0, size;

    while ( off < n )
    {
        size = p[off] | (p[off + 1] << 8);
        if ( size < 8 || off + size > n || !isrec(p + off, size, (*tag)++) )
            return false;
        off += size;
    }
    return true;
}

static void test_chunks(void)
{
    uint8_t *chunks[4];
    struct profile_ring r;
    uint32_t wtag = 0, rtag = 0, ptag;
    uint64_t peek, dropped = 0;
    unsigned int i, size, pad;
    struct rd d;
    bool ok = true;

    /* 200 bytes, then 104 that do not fit in the 56 left of chunk 0. */
    chunked(&r, chunks);
    ok = put(&r, 200, 0) && put(&r, 104, 1);
    pad = chunks[0][200] | (chunks[0][201] << 8);
    tap_ok(ok && pad == 56 && chunks[0][202] == PROFILE_REC_PAD &&
           isrec(chunks[0], 200, 0) && isrec(chunks[1], 104, 1) &&
           r.prod == 360 && guards_intact(),
           "chunks: a record that does not fit in its chunk goes to the "
           "next, after a pad of the rest (%u)", pad);
    d = rd(&r, sizeof(out), NULL);
    tap_ok(!d.rc && d.records == 2 && isrec(out, 200, 0) &&
           isrec(out + 200, 104, 1),
           "chunks: and they read back whole, in order");

    /* Sizes 8..192 round the ring, drained too seldom to keep up. */
    chunked(&r, chunks);
    for ( i = 0; ok && i < 3000; i++ )
    {
        size = 8 + 8 * (i * 7 % 24);
        if ( put(&r, size, wtag) )
            wtag++;
        else
            dropped++;
        if ( i % 13 == 12 )
        {
            d = rd(&r, sizeof(out), NULL);
            ok = !d.rc && got_tags(out, d.bytes, &rtag);
        }
    }
    d = rd(&r, sizeof(out), NULL);
    ok = ok && !d.rc && got_tags(out, d.bytes, &rtag);
    tap_ok(ok && rtag == wtag && r.written == wtag && r.read == wtag &&
           r.lost == dropped && dropped && r.prod > 60 * 1024 &&
           guards_intact(),
           "chunks: %u records of 8 to 192 bytes round the ring %u times: "
           "all read back whole and in order (%" PRIu64 " dropped when "
           "full), none wrote past a chunk", wtag,
           (unsigned int)(r.prod >> 10), dropped);

    /* Peeks of 100 bytes at a time walk the chunks as one read does. */
    chunked(&r, chunks);
    for ( i = 0; i < 7; i++ )
        put(&r, 40 + 16 * i, 100 + i);     /* 40..136: pads in between */
    peek = 0;
    ptag = 100;
    ok = true;
    do {
        d = rd(&r, 136, &peek);
        ok = ok && !d.rc && got_tags(out, d.bytes, &ptag);
    } while ( ok && d.records );
    d = rd(&r, sizeof(out), NULL);
    rtag = 100;
    tap_ok(ok && ptag == 107 && !d.rc && d.records == 7 &&
           got_tags(out, d.bytes, &rtag),
           "chunks: peeks across the chunks' ends find the records a read "
           "finds");

    /*
     * Every offset a peek may be given: without a cursor (peek_pos
     * spoilt) refused but at 0; as the cursor of an earlier peek, across
     * pads and chunks' ends, read from where a record or a pad starts.
     */
    {
        static const unsigned int sz[] = { 136, 96, 120, 64, 176, 8, 160 };
        uint64_t start[ARRAY_SIZE(sz) * 2 + 1], rstart[ARRAY_SIZE(sz)];
        uint64_t before;
        unsigned int nb = 0, o, k, wrong = 0;

        chunked(&r, chunks);
        put(&r, 200, 0);
        rd(&r, sizeof(out), NULL);              /* cons = prod = 200 */
        for ( i = 0; i < ARRAY_SIZE(sz); i++ )
        {
            before = r.prod;
            put(&r, sz[i], 10 + i);
            if ( r.prod - before > sz[i] )
                start[nb++] = before;           /* a pad starts here */
            rstart[i] = r.prod - sz[i];
            start[nb++] = rstart[i];
        }
        start[nb++] = r.prod;
        for ( o = 0; o <= r.prod - r.cons; o++ )
        {
            bool at = false;

            for ( k = 0; k < nb; k++ )
                at = at || start[k] == r.cons + o;
            /* The first record at or after this offset. */
            for ( k = 0; k < ARRAY_SIZE(sz) && rstart[k] < r.cons + o; k++ )
                continue;
            peek = o;
            r.peek_pos = ~0ULL;                 /* no cursor */
            d = rd(&r, sizeof(out), &peek);
            if ( o ? d.rc != -EINVAL || d.records : d.rc || !d.records )
                wrong++;
            if ( !at )
                continue;
            peek = o;
            r.peek_pos = r.cons + o;            /* an earlier peek's end */
            d = rd(&r, sizeof(out), &peek);
            if ( d.rc || (k < ARRAY_SIZE(sz) &&
                          (!d.records || !isrec(out, sz[k], 10 + k))) )
                wrong++;
        }
        tap_ok(!wrong && nb > ARRAY_SIZE(sz) + 1,
               "chunks: a peek at each of the %u offsets is refused without "
               "a cursor but at 0, and resumed at each of the %u starts of "
               "records and pads reads from there (%u wrong)",
               (unsigned int)(r.prod - r.cons + 1), nb, wrong);
    }

    /* A size that runs past the end of its chunk is corrupt. */
    chunked(&r, chunks);
    put(&r, 200, 0);
    put(&r, 104, 1);                        /* at the start of chunk 1 */
    for ( i = 2; i < 6; i++ )
        put(&r, 96, i);
    chunks[1][0] = 264 & 0xff;              /* ends 8 bytes into chunk 2 */
    chunks[1][1] = 264 >> 8;
    d = rd(&r, sizeof(out), NULL);
    tap_ok(d.rc == -EIO && d.records == 1 && isrec(out, 200, 0) &&
           r.cons == 256,
           "chunks: a size that crosses the end of its chunk is corrupt: "
           "-EIO after the good record");
}

void test_ring(void)
{
    test_round_trip();
    test_pads();
    test_wrap();
    test_full();
    test_short();
    test_fault();
    test_peek();
    test_peek_offsets();
    test_corrupt();
    test_chunks();
}
