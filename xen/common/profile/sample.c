/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.c: the common end of the sample path, where a source's record
 * is committed to this pCPU's ring (xen/profile-source.h).
 *
 * Runs in IRQ (timer source) or NMI (PMU source) context on the sampled
 * pCPU: it takes no lock, never allocates, never prints and touches only
 * this pCPU's struct profile_cpu.  The source builds the record in the
 * pCPU's scratch buffer, which is then copied into the ring whole, so that
 * a full ring drops exactly this sample and counts it.  Samples dropped
 * since the pCPU's previous record are announced by a LOST record ahead
 * of its next one (ring.c).
 */
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/smp.h>
#include <xen/time.h>
#include <asm/atomic.h>
#include <asm/system.h>

#include "private.h"

/*
 * Every pCPU's state, allocated by the first start of a session and never
 * freed, and the session's configuration: what the sample path reads.
 */
struct profile_cpu *__read_mostly profile_cpus;
struct profile_config __read_mostly profile_session;

/* The pCPU state of a sample in progress on this pCPU. */
static struct profile_cpu *this_sample(void)
{
    return &profile_cpus[smp_processor_id()];
}

/*
 * Announce a sample on this pCPU before testing sampling: the side that
 * stops a pCPU clears sampling, then waits for in_sample to drop.
 * Returns this pCPU's state if it may record (then sample_end() must
 * follow), else NULL.
 */
static struct profile_cpu *sample_begin(void)
{
    struct profile_cpu *cpus = ACCESS_ONCE(profile_cpus);
    struct profile_cpu *pc;

    if ( !cpus )
        return NULL;
    pc = &cpus[smp_processor_id()];

    write_atomic(&pc->in_sample, true);
    smp_mb();
    if ( ACCESS_ONCE(pc->sampling) )
    {
        /* The ring, published before sampling was set. */
        smp_rmb();
        return pc;
    }

    smp_mb();
    write_atomic(&pc->in_sample, false);
    return NULL;
}

static void sample_end(struct profile_cpu *pc)
{
    smp_mb();
    write_atomic(&pc->in_sample, false);
}

struct xen_sysctl_profile_record *profile_sample_begin(unsigned int *max_depth)
{
    uint64_t t0 = get_cycles();
    struct profile_cpu *pc = sample_begin();

    if ( !pc )
        return NULL;
    pc->t0 = t0;
    *max_depth = profile_session.max_depth;
    return (void *)pc->scratch;
}

void profile_record_header(struct xen_sysctl_profile_record *rec,
                           unsigned int n, unsigned int flags,
                           unsigned int mode,
                           uint64_t stamp)
{
    const struct vcpu *v = current;

    rec->size = sizeof(*rec) + n * sizeof(uint64_t);
    rec->type = XEN_SYSCTL_PROFILE_REC_SAMPLE;
    rec->flags = flags;
    rec->domid = v->domain->domain_id;
    rec->vcpu = v->vcpu_id;
    rec->cpu = smp_processor_id();
    rec->mode = mode;
    rec->nr_frames = n;
    rec->pad = 0;
    rec->timestamp = stamp;
}

void profile_sample_commit(struct xen_sysctl_profile_record *rec)
{
    struct profile_cpu *pc = this_sample();
    uint64_t cost;

    profile_ring_commit(&pc->ring, rec, rec->size, rec->cpu, rec->timestamp);
    if ( rec->flags & XEN_SYSCTL_PROFILE_F_NO_STACK )
        pc->no_stack++;

    cost = get_cycles() - pc->t0;
    if ( !pc->cost_min || cost < pc->cost_min )
        pc->cost_min = cost;
    if ( cost > pc->cost_max )
        pc->cost_max = cost;
    pc->cost_sum += cost;

    sample_end(pc);
}

void profile_sample_throttled(void)
{
    struct profile_cpu *pc = sample_begin();

    if ( !pc )
        return;
    pc->throttled++;
    sample_end(pc);
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
