/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ring.c: the per-pCPU sample ring, profile_ring_* (see ring.h for the
 * protocol).
 *
 * This file includes nothing but the ring and the barrier primitives, so
 * that it builds unchanged in userspace, for unit tests.
 */
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/string.h>
#include <asm/atomic.h>
#include <asm/system.h>

#include "ring.h"

/* Where byte pos (absolute: since the start) of the ring is. */
static uint8_t *at(const struct profile_ring *r, uint64_t pos)
{
    unsigned int off = pos & (r->size - 1);

    return r->chunks[off >> r->chunk_shift] + (off & r->chunk_mask);
}

/* Bytes from pos to the end of its chunk. */
static unsigned int chunk_tail(const struct profile_ring *r, uint64_t pos)
{
    return r->chunk_mask + 1U - ((unsigned int)pos & r->chunk_mask);
}

/* Size and type of the record at pos. */
static unsigned int rec_size(const struct profile_ring *r, uint64_t pos)
{
    uint16_t size;

    memcpy(&size, at(r, pos), sizeof(size));
    return size;
}

static unsigned int rec_type(const struct profile_ring *r, uint64_t pos)
{
    return at(r, pos)[2];
}

void profile_ring_init(struct profile_ring *r, uint8_t *const *chunks,
                       unsigned int chunk_shift, unsigned int size)
{
    ASSERT(size >= (1U << chunk_shift));
    memset(r, 0, sizeof(*r));
    r->chunks = chunks;
    r->chunk_shift = chunk_shift;
    r->chunk_mask = (1u << chunk_shift) - 1;
    r->size = size;
}

/* Bytes a record of size takes at prod: itself, after a pad if need be. */
static unsigned int need_at(const struct profile_ring *r, uint64_t prod,
                            unsigned int size)
{
    unsigned int tail = chunk_tail(r, prod);

    return size <= tail ? size : tail + size;
}

/*
 * Do records of size1 then size2 (0: none) fit, with keep bytes still free
 * after them?
 */
static bool fits(const struct profile_ring *r, unsigned int size1,
                 unsigned int size2, unsigned int keep)
{
    uint64_t prod = r->prod, cons = read_atomic(&r->cons);
    uint64_t end = prod + need_at(r, prod, size1);

    if ( size2 )
        end += need_at(r, end, size2);
    return end + keep - cons <= r->size;
}

bool profile_ring_write(struct profile_ring *r, const void *rec,
                        unsigned int size)
{
    uint64_t prod = r->prod;
    unsigned int tail = chunk_tail(r, prod);

    /* Whole 8-byte words, within a chunk: the pad after one fits too. */
    ASSERT(size >= 8 && !(size & 7) && size <= r->chunk_mask + 1U);
    if ( !fits(r, size, 0, 0) )
        return false;

    if ( size > tail )
    {
        /* Pad to the end of the chunk; tail < size fits in 16 bits. */
        uint16_t pad = tail;
        uint8_t *p = at(r, prod);

        memcpy(p, &pad, sizeof(pad));
        p[2] = PROFILE_REC_PAD;
        prod += tail;
    }

    memcpy(at(r, prod), rec, size);
    /* Counted before it can be read: read never runs ahead of written. */
    if ( ((const uint8_t *)rec)[2] != PROFILE_REC_LOST )
        r->written++;
    /* The record must be visible before the consumer can see prod move. */
    smp_wmb();
    write_atomic(&r->prod, prod + size);

    return true;
}

/*
 * Can the record at pos, with left bytes produced from there on, have this
 * size?  It lies within pos's chunk.
 */
static bool sane_size(const struct profile_ring *r, uint64_t pos,
                      unsigned int size, uint64_t left)
{
    return size >= 8 && !(size & 7) && size <= left &&
           size <= chunk_tail(r, pos);
}

/*
 * May a peek start at pos (absolute, in [cons, prod])?  Only at the oldest
 * record or where the last peek stopped: any other record start could only
 * be found by walking the ring, up to its whole size, in a sysctl.
 */
static bool peek_start(const struct profile_ring *r, uint64_t cons,
                       uint64_t pos)
{
    return pos == cons || pos == r->peek_pos;
}

void profile_ring_drop(struct profile_ring *r)
{
    r->lost++;
    r->unreported++;
}

bool profile_ring_write_lost(struct profile_ring *r, unsigned int cpu,
                             uint64_t stamp)
{
    struct profile_ring_lost lost = {
        .size = sizeof(lost),
        .type = PROFILE_REC_LOST,
        .cpu = cpu,
        .timestamp = stamp,
        .count = r->unreported,
    };

    if ( !r->unreported )
        return true;
    if ( !profile_ring_write(r, &lost, sizeof(lost)) )
        return false;
    r->unreported = 0;
    return true;
}

bool profile_ring_commit(struct profile_ring *r, const void *rec,
                         unsigned int size, unsigned int cpu, uint64_t stamp)
{
    /* A LOST record goes in only with the sample it comes before. */
    if ( fits(r, r->unreported ? sizeof(struct profile_ring_lost) : size,
              r->unreported ? size : 0, PROFILE_RING_RESERVE) )
    {
        profile_ring_write_lost(r, cpu, stamp);
        profile_ring_write(r, rec, size);
        return true;
    }
    profile_ring_drop(r);
    return false;
}

int profile_ring_read(struct profile_ring *r, profile_ring_copy_fn *copy,
                      void *ctx, unsigned int space, uint64_t *peek,
                      unsigned int *bytes, unsigned int *records)
{
    uint64_t cons = r->cons;
    uint64_t prod = read_atomic(&r->prod);
    unsigned int done = 0, n = 0, samples = 0;
    int rc = 0;

    *bytes = *records = 0;
    /* Read prod once, and the records only after it. */
    smp_rmb();

    if ( peek )
    {
        if ( *peek > prod - cons || !peek_start(r, cons, cons + *peek) )
            return -EINVAL;
        cons += *peek;
    }

    while ( cons < prod )
    {
        unsigned int size = rec_size(r, cons);

        if ( !sane_size(r, cons, size, prod - cons) )
        {
            rc = -EIO;
            break;
        }
        if ( rec_type(r, cons) != PROFILE_REC_PAD )
        {
            if ( done + size > space )
            {
                if ( !n )
                    rc = -ENOBUFS;
                break;
            }
            rc = copy(ctx, done, at(r, cons), size);
            if ( rc )
                break;
            done += size;
            n++;
            if ( rec_type(r, cons) != PROFILE_REC_LOST )
                samples++;
        }
        cons += size;
    }

    *bytes = done;
    *records = n;
    if ( peek )
    {
        *peek = cons - r->cons;
        r->peek_pos = cons;
        return rc;
    }

    /* Finish reading the records before their space can be reused. */
    smp_mb();
    write_atomic(&r->cons, cons);
    r->read += samples;

    return rc;
}

uint64_t profile_ring_pending_bytes(const struct profile_ring *r)
{
    return read_atomic(&r->prod) - read_atomic(&r->cons);
}

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
