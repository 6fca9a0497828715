/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ring.h: a per-pCPU sample ring, private to xen/common/profile/.
 *
 * One producer (the sampled pCPU itself, in IRQ or NMI context) and one
 * consumer (the sysctl, serialised by sysctl_lock) share a ring without
 * a lock:
 *   - prod and cons count bytes since the start and never wrap (64 bits);
 *     prod is written only by the producer, cons only by the consumer;
 *   - the producer stores a record, then smp_wmb(), then publishes prod;
 *   - the consumer reads prod once, then smp_rmb(), copies records, then
 *     smp_mb() before it publishes cons and so frees their space.
 * The ring is made of chunks of 2^chunk_shift bytes, which need not be
 * contiguous.  Records are 8-byte aligned and never cross the end of a
 * chunk: a record that does not fit before it is preceded by a pad record
 * that fills the rest of the chunk.  A sample the ring has no room for is
 * dropped and counted in lost (profile_ring_drop()), and LOST records,
 * which carry such counts, are not samples: written and read count the
 * other records only, so that, once the producer is quiescent,
 *   written + lost == taken  and  written == read + pending
 * hold exactly in samples.
 */
#ifndef PROFILE_RING_H
#define PROFILE_RING_H

#include <xen/types.h>

#define PROFILE_REC_PAD  0          /* record type of padding */
#define PROFILE_REC_LOST 2          /* XEN_SYSCTL_PROFILE_REC_LOST */

/*
 * Room a committed sample leaves free, so that the LOST record of stop (32
 * bytes, after a pad of up to 24) always fits, even in a ring nobody read.
 */
#define PROFILE_RING_RESERVE 64

struct profile_ring {
    uint8_t *const *chunks;         /* size >> chunk_shift of them */
    unsigned int chunk_shift;       /* chunks of 2^chunk_shift bytes, */
                                    /*   >= the largest record */
    unsigned int chunk_mask;        /* 2^chunk_shift - 1 */
    unsigned int size;              /* a power of 2, >= the chunk size */
                                    /*   and 2 * the largest record */
    uint64_t prod;                  /* bytes produced (producer writes) */
    uint64_t cons;                  /* bytes consumed (consumer writes) */
    uint64_t written;               /* samples written (producer) */
    uint64_t lost;                  /* samples dropped (producer) */
    uint64_t read;                  /* samples read (consumer) */
    uint64_t unreported;            /* lost since the last LOST record */
    uint64_t peek_pos;              /* where the last peek ended (consumer) */
};

/*
 * A LOST record, laid out as struct xen_sysctl_profile_lost of
 * public/sysctl.h (type PROFILE_REC_LOST, the other header fields zero).
 */
struct profile_ring_lost {
    uint16_t size;
    uint8_t type;
    uint8_t flags;
    uint16_t domid, vcpu, cpu;
    uint8_t mode, nr_frames;
    uint32_t pad;
    uint64_t timestamp;
    uint64_t count;
};

/*
 * Copy len bytes of a record to offset off of the consumer's buffer.
 * Returns 0 or -EFAULT.
 */
typedef int profile_ring_copy_fn(void *ctx, unsigned int off,
                                 const void *src, unsigned int len);

/*
 * Make r an empty ring of size bytes over the chunks (size >> chunk_shift
 * of them, each of 2^chunk_shift bytes; size a power of 2).
 */
void profile_ring_init(struct profile_ring *r, uint8_t *const *chunks,
                       unsigned int chunk_shift, unsigned int size);

/*
 * Producer: append a record of size bytes (a multiple of 8, at least 8,
 * first 16 bits its size, third byte its type).  Returns false when the
 * ring has no room for it (nothing is written, nothing counted).
 */
bool profile_ring_write(struct profile_ring *r, const void *rec,
                        unsigned int size);

/* Producer: count a sample as lost (and as not reported yet). */
void profile_ring_drop(struct profile_ring *r);

/*
 * Producer: if samples were lost since the last LOST record, write one
 * for them (pCPU cpu, at stamp), in the reserve if need be: after commits
 * only, it always fits.  Returns false when it does not.
 */
bool profile_ring_write_lost(struct profile_ring *r, unsigned int cpu,
                             uint64_t stamp);

/*
 * Producer: append a sample of size bytes taken on cpu at stamp, after the
 * LOST record its predecessors' losses call for, each leaving
 * PROFILE_RING_RESERVE bytes free; when either does not fit, the sample
 * is dropped (profile_ring_drop()).  Returns whether the sample was
 * written.
 */
bool profile_ring_commit(struct profile_ring *r, const void *rec,
                         unsigned int size, unsigned int cpu, uint64_t stamp);

/*
 * Consumer: copy whole records, up to space bytes, with copy(), starting
 * *peek bytes after the oldest record.  With peek == NULL the records are
 * consumed (*peek == 0 in effect); otherwise nothing is consumed and *peek
 * is advanced past what was copied.  *bytes and *records tell what was
 * copied.  A peek starts only at 0 or where the last peek stopped, so
 * that it never has to find a record start by walking the ring: of two
 * readers peeking at once, one gets -EINVAL.  Returns 0 (also at the
 * end), -ENOBUFS when the next record alone exceeds space, -EFAULT from
 * copy() (records before it stay consumed), -EINVAL when *peek is past
 * the end or neither 0 nor where the last peek stopped (nothing is read
 * then).  -EIO, a ring that does not lead to a sane record, cannot
 * happen but for memory corruption.
 */
int profile_ring_read(struct profile_ring *r, profile_ring_copy_fn *copy,
                      void *ctx, unsigned int space, uint64_t *peek,
                      unsigned int *bytes, unsigned int *records);

/* Bytes produced and not yet consumed. */
uint64_t profile_ring_pending_bytes(const struct profile_ring *r);

#endif /* PROFILE_RING_H */
