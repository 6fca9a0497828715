/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * private.h: state shared by the files of xen/common/profile/.
 *
 * Locking: the session (profile_cpus, profile_session) changes only with
 * the CPU maps held: in the sysctl (itself serialised by sysctl_lock) and
 * in the CPU notifier (maps held for writing).  The sample path runs in
 * IRQ or NMI context on the sampled pCPU, takes no lock and touches only
 * its own struct profile_cpu.
 */
#ifndef PROFILE_PRIVATE_H
#define PROFILE_PRIVATE_H

#include <xen/cache.h>
#include <xen/cpumask.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <xen/types.h>
#include <xen/profile.h>
#include <xen/profile-source.h>
#include <public/sysctl.h>

#include "ring.h"

/*
 * Per-pCPU state, in an array of nr_cpu_ids allocated at the first start
 * and kept (the lock-free sample path must never see it freed).  Each on
 * cache lines of its own: its pCPU's sample path writes it every sample.
 */
struct profile_cpu {
    struct profile_ring ring;
    uint8_t **chunks;               /* the ring's memory, when allocated */
    unsigned int nr_chunks;         /* chunks allocated so far */
    unsigned int chunk_order;       /* of each chunk's pages */
    unsigned int flags;             /* XEN_SYSCTL_PROFILE_CPU_* */
    bool sampling;                  /* the sample path may record */
    bool in_sample;                 /* the sample path is running */
    uint64_t cost_min, cost_max, cost_sum;  /* get_cycles() per sample */
    uint64_t no_stack;              /* samples flagged F_NO_STACK */
    uint64_t throttled;             /* periods raised: overflows too fast */
    uint64_t t0;                    /* cycles when this sample began */
    struct timer timer;             /* timer source */
    s_time_t next;                  /* timer source: next sample due */
    uint64_t *scratch;              /* the record in making */
} __cacheline_aligned;

/*
 * What a start may ask for: this hypervisor's policy, which the limits
 * sub-op reports (xen_sysctl_profile_limits).  The rings of one session
 * together take at most profile-mem= (CONFIG_XEN_PROFILER_MEM MiB by
 * default), and at most 1/PROFILE_FREE_FRACTION of Xen's free memory at
 * start.
 */
#define PROFILE_RING_KIB_MIN        16
#define PROFILE_RING_KIB_MAX        65536
#define PROFILE_RING_KIB_DEFAULT    1024
#define PROFILE_FREE_FRACTION       4
#define PROFILE_TIMER_HZ_MAX        10000
#define PROFILE_TIMER_NS_MIN        (SECONDS(1) / PROFILE_TIMER_HZ_MAX)
#define PROFILE_TIMER_NS_MAX        SECONDS(1)

extern struct profile_cpu *profile_cpus;    /* NULL before the first start */
extern struct profile_config profile_session;
extern const struct profile_source profile_timer_source;

/* XEN_SYSCTL_PROFILE_symbols */
int profile_symbols(struct xen_sysctl_profile_symbols *op);

/* A start request (request.c): the pCPUs, validated, and its source. */
int profile_get_cpumask(const struct xenctl_bitmap *map, cpumask_t *mask);
int profile_get_config(const struct xen_sysctl_profile_start *s,
                       struct profile_config *cfg);
const struct profile_source *profile_pick_source(struct profile_config *cfg,
                                                 int *rc);

#endif /* PROFILE_PRIVATE_H */
