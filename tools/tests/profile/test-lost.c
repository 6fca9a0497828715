/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-lost.c: LOST records in the per-pCPU ring: the samples a full ring
 * dropped, announced ahead of the next sample, and at stop in the reserve
 * commits leave; checked against the public header's layout.
 */
#include <stddef.h>
#include <stdint.h>

#include "public.h"
#include "test.h"

/* The ring's LOST record is the public one (as control.c checks in Xen). */
_Static_assert(PROFILE_REC_LOST == XEN_SYSCTL_PROFILE_REC_LOST, "LOST type");
_Static_assert(sizeof(struct profile_ring_lost) ==
               sizeof(struct xen_sysctl_profile_lost), "LOST size");
_Static_assert(offsetof(struct profile_ring_lost, cpu) ==
               offsetof(struct xen_sysctl_profile_lost, hdr.cpu), "LOST cpu");
_Static_assert(offsetof(struct profile_ring_lost, timestamp) ==
               offsetof(struct xen_sysctl_profile_lost, hdr.timestamp), "LOST timestamp");
_Static_assert(offsetof(struct profile_ring_lost, count) ==
               offsetof(struct xen_sysctl_profile_lost, count), "LOST count");

/* Is p a LOST record of count samples, of pCPU cpu at tsc? */
static bool islost(const uint8_t *p, uint64_t count, unsigned int cpu,
                   uint64_t tsc)
{
    struct profile_ring_lost want = {
        .size = sizeof(want), .type = PROFILE_REC_LOST, .cpu = cpu,
        .timestamp = tsc, .count = count,
    };

    return !memcmp(p, &want, sizeof(want));
}

/* Commit a sample as the sample path does (tag as cpu 3, time tag). */
static bool commit(struct profile_ring *r, unsigned int size, uint32_t tag)
{
    uint8_t rec[RMAX];

    mkrec(rec, size, tag);
    return profile_ring_commit(r, rec, size, 3, tag);
}

/*
 * On a ring of four 256-byte chunks, from every 8-byte position: samples
 * of 8 to 192 bytes committed until the ring is long full, then the LOST
 * record of stop.  It always fits (the reserve holds at a chunk's end as
 * at the ring's), and per position the LOST counts and the samples read
 * add up to the samples taken.
 */
static void lost_chunked(void)
{
    uint8_t *chunks[4];
    struct profile_ring r;
    unsigned int start, i, off, size, samples, bad = 0, nolost = 0;
    uint64_t lost, count;
    struct rd d;

    for ( start = 0; start < 1024; start += 8 )
    {
        chunked(&r, chunks);
        for ( i = 0; i < start / 8; i++ )      /* none dropped */
            if ( !commit(&r, 8, i) || (i % 64 == 63 &&
                                       rd(&r, sizeof(out), NULL).rc) )
                bad++;
        rd(&r, sizeof(out), NULL);              /* cons = prod = start */
        for ( i = 0; i < 40; i++ )
            commit(&r, 8 * (1 + i * 7 % 24), 100 + i);
        if ( !profile_ring_write_lost(&r, 3, 999) )
            nolost++;
        d = rd(&r, sizeof(out), NULL);
        samples = lost = 0;
        for ( off = 0; !d.rc && off < d.bytes; off += size )
        {
            size = out[off] | (out[off + 1] << 8);
            if ( out[off + 2] == PROFILE_REC_LOST )
            {
                memcpy(&count, out + off + offsetof(struct profile_ring_lost,
                                                    count), sizeof(count));
                lost += count;
            }
            else
                samples++;
        }
        if ( d.rc || r.prod - r.cons || samples + lost != 40 ||
             r.lost != lost || r.written != r.read || r.unreported ||
             !guards_intact() )
            bad++;
    }
    tap_ok(!bad && !nolost,
           "lost: rings of chunks, from each of 128 positions: the "
           "stop-time LOST record always fits (%u did not), and LOST "
           "counts plus samples read make the samples taken (%u wrong)",
           nolost, bad);
}

/*
 * LOST records: samples dropped since the previous record are announced
 * by one LOST record, with their count, ahead of the next sample that
 * fits; a LOST record that does not fit drops that sample too; the last
 * losses are announced at stop.  LOST records are not samples: written,
 * read and pending count samples only.
 */
void test_lost(void)
{
    struct profile_ring r;
    struct rd d;
    bool ok;

    /* 256 bytes, of which commits leave PROFILE_RING_RESERVE (64) free. */
    RING_INIT_FLAT(&r, ringbuf, 256);
    ok = commit(&r, 64, 0) && commit(&r, 56, 1) && commit(&r, 64, 2) &&
         !commit(&r, 16, 3) && !commit(&r, 8, 4);
    tap_ok(ok && r.written == 3 && r.lost == 2 && r.unreported == 2 &&
           profile_ring_pending_bytes(&r) == 184,
           "lost: commits leave 64 bytes free; past that samples are "
           "dropped and counted unreported");
    d = rd(&r, sizeof(out), NULL);
    ok = commit(&r, 16, 5);
    d = rd(&r, sizeof(out), NULL);
    tap_ok(ok && d.records == 2 && d.bytes == 32 + 16 &&
           islost(out, 2, 3, 5) && isrec(out + 32, 16, 5) && !r.unreported &&
           r.written == 4 && r.read == 4 && r.lost == 2,
           "lost: the next sample comes after a LOST record of 2, which is "
           "not counted as a sample");

    /* 192 bytes used: an 8-byte sample fits, not with the reserve. */
    RING_INIT_FLAT(&r, ringbuf, 256);
    ok = commit(&r, 120, 6) && commit(&r, 64, 7) && commit(&r, 8, 8) &&
         !commit(&r, 8, 9) && !commit(&r, 8, 10);
    tap_ok(ok && r.lost == 2 && r.unreported == 2 && r.written == 3 &&
           profile_ring_pending_bytes(&r) == 192,
           "lost: neither a sample nor its LOST record goes into the reserve");
    ok = profile_ring_write_lost(&r, 1, 99);
    d = rd(&r, sizeof(out), NULL);
    tap_ok(ok && d.records == 4 && d.bytes == 224 &&
           islost(out + 192, 2, 1, 99) && !r.unreported &&
           r.written == r.read && profile_ring_write_lost(&r, 1, 100) &&
           !profile_ring_pending_bytes(&r),
           "lost: at stop, in a ring nobody read, the last losses get their "
           "LOST record (in the reserve); with none lost, none is written");
    tap_ok(r.written + r.lost == 5 && r.written == r.read,
           "lost: written + lost == taken, written == read, in samples");

    /*
     * Room for a LOST record and the reserve, not for the sample after
     * it: neither goes in (a LOST record always comes with its sample).
     */
    RING_INIT_FLAT(&r, ringbuf, 256);
    ok = commit(&r, 152, 11) && !commit(&r, 48, 12) && !commit(&r, 16, 13);
    tap_ok(ok && r.unreported == 2 && r.lost == 2 &&
           profile_ring_pending_bytes(&r) == 152,
           "lost: no LOST record goes in without the sample it announces");

    /*
     * The reserve is enough for the stop-time LOST record after a pad: 64
     * bytes free, prod 24 bytes before the end of the buffer.
     */
    RING_INIT_FLAT(&r, ringbuf, 256);
    ok = commit(&r, 40, 20) && rd(&r, sizeof(out), NULL).records == 1 &&
         commit(&r, 96, 21) && commit(&r, 96, 22) && r.prod == 232 &&
         !commit(&r, 8, 23) && !commit(&r, 8, 24) &&
         profile_ring_write_lost(&r, 2, 77);
    d = rd(&r, sizeof(out), NULL);
    tap_ok(ok && d.records == 3 && d.bytes == 96 + 96 + 32 &&
           islost(out + 192, 2, 2, 77) && r.prod == 232 + 24 + 32,
           "lost: the stop-time LOST record fits in the reserve after a "
           "24-byte pad");

    lost_chunked();
}
