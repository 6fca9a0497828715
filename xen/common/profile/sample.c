/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.c: the sample path, common to all sources.
 *
 * Runs in IRQ (timer source) or NMI (PMU source) context on the sampled
 * pCPU: it takes no lock, never allocates, never prints and touches only
 * this pCPU's struct profile_cpu.  The record is built in a scratch
 * buffer and then copied into the ring whole, so that a full ring drops
 * exactly this sample and counts it.
 */
#include <xen/lib.h>
#include <xen/smp.h>
#include <asm/atomic.h>
#include <asm/msr.h>
#include <asm/system.h>

#include "private.h"

/*
 * Announce a sample on this pCPU before testing sampling: the stopping
 * side clears sampling, then waits for in_sample to drop (control.c).
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
        return pc;

    smp_mb();
    write_atomic(&pc->in_sample, false);
    return NULL;
}

static void sample_end(struct profile_cpu *pc)
{
    smp_mb();
    write_atomic(&pc->in_sample, false);
}

void profile_sample(const struct cpu_user_regs *regs)
{
    uint64_t t0 = rdtsc(), cost;
    struct profile_cpu *pc = sample_begin();
    struct xen_profile_record *rec;
    unsigned int size;

    if ( !pc )
        return;

    rec = (void *)pc->scratch;
    size = arch_profile_record(rec, regs, profile_session.max_depth);
    ring_write(&pc->ring, rec, size);
    if ( rec->flags & XEN_PROFILE_F_NO_STACK )
        pc->no_stack++;

    cost = rdtsc() - t0;
    if ( !pc->cost_min || cost < pc->cost_min )
        pc->cost_min = cost;
    if ( cost > pc->cost_max )
        pc->cost_max = cost;
    pc->cost_sum += cost;

    sample_end(pc);
}

void profile_sample_lost(void)
{
    struct profile_cpu *pc = sample_begin();

    if ( !pc )
        return;
    ring_drop(&pc->ring);
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
