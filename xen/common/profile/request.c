/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * request.c: a start request of XEN_SYSCTL_profile_op, validated whole
 * before anything changes: its pCPU mask, its configuration, and the
 * source that will run it.
 */
#include <xen/cpumask.h>
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/time.h>

#include "private.h"

/*
 * Parse the pCPU mask: every bit must name an online pCPU.  Not
 * xenctl_bitmap_to_cpumask(): it allocates, and it drops the bits past
 * nr_cpu_ids without a word, where a request naming a pCPU that does not
 * exist or is offline must fail (-EINVAL, as the sysctl's errno list
 * says) rather than profile fewer pCPUs than asked.  Copied 64 bytes at
 * a time, so nothing is allocated and the stack use is bounded.
 */
int profile_get_cpumask(const struct xenctl_bitmap *map, cpumask_t *mask)
{
    unsigned int i, bit;
    uint8_t bytes[64];

    if ( !map->nr_bits )
    {
        cpumask_copy(mask, &cpu_online_map);
        return 0;
    }
    if ( map->nr_bits > 8 * 65536 )
        return -EINVAL;

    cpumask_clear(mask);
    for ( i = 0; i < DIV_ROUND_UP(map->nr_bits, 8); i += sizeof(bytes) )
    {
        unsigned int n = min_t(unsigned int, sizeof(bytes),
                               DIV_ROUND_UP(map->nr_bits, 8) - i);

        if ( copy_from_guest_offset(bytes, map->bitmap, i, n) )
            return -EFAULT;
        for ( bit = 0; bit < n * 8 && i * 8 + bit < map->nr_bits; bit++ )
        {
            unsigned int cpu = i * 8 + bit;

            if ( !(bytes[bit / 8] & (1u << (bit % 8))) )
                continue;
            if ( cpu >= nr_cpu_ids || !cpu_online(cpu) )
                return -EINVAL;
            __cpumask_set_cpu(cpu, mask);
        }
    }

    return cpumask_empty(mask) ? -EINVAL : 0;
}

/* Validate a start request into cfg (source not chosen yet). */
int profile_get_config(const struct xen_sysctl_profile_start *s,
                       struct profile_config *cfg)
{
    if ( s->flags || s->source > XEN_SYSCTL_PROFILE_SOURCE_PMU ||
         s->event > XEN_SYSCTL_PROFILE_EVENT_BRANCH_MISSES )
        return -EINVAL;
    if ( s->max_depth < 1 || s->max_depth > XEN_SYSCTL_PROFILE_MAX_DEPTH )
        return -EINVAL;
    if ( s->ring_kib && (s->ring_kib < PROFILE_RING_KIB_MIN ||
                         s->ring_kib > PROFILE_RING_KIB_MAX) )
        return -EINVAL;
    if ( !s->frequency == !s->period )
        return -EINVAL;
    /* A period is ns for the timer, events for the PMU: name the source. */
    if ( s->period && s->source == XEN_SYSCTL_PROFILE_SOURCE_AUTO )
        return -EINVAL;

    memset(cfg, 0, sizeof(*cfg));
    cfg->source = s->source;
    cfg->frequency = s->frequency;
    cfg->period = s->period;
    cfg->max_depth = s->max_depth;
    cfg->ring_kib = s->ring_kib ?: PROFILE_RING_KIB_DEFAULT;
    cfg->event = s->event;

    return 0;
}

/*
 * Choose the source: the one asked for, or for auto the PMU when it can
 * run cfg, else the timer (unless a PMU event was asked for), recording
 * why in cfg->reason.
 */
const struct profile_source *profile_pick_source(struct profile_config *cfg,
                                                 int *rc)
{
    const struct profile_source *pmu = arch_profile_pmu_source();
    const struct profile_source *src = &profile_timer_source;
    unsigned int why = XEN_SYSCTL_PROFILE_REASON_NO_PMU_SRC;
    bool busy;

    cfg->reason = XEN_SYSCTL_PROFILE_REASON_REQUESTED;
    if ( cfg->source != XEN_SYSCTL_PROFILE_SOURCE_TIMER && pmu )
    {
        why = XEN_SYSCTL_PROFILE_REASON_NO_PMU;
        *rc = pmu->check(cfg, &why);
        if ( !*rc )
        {
            if ( cfg->source == XEN_SYSCTL_PROFILE_SOURCE_AUTO )
                cfg->reason = XEN_SYSCTL_PROFILE_REASON_PMU_OK;
            cfg->source = XEN_SYSCTL_PROFILE_SOURCE_PMU;
            return pmu;
        }
        if ( *rc == -EINVAL )
            return NULL;
    }
    if ( cfg->source == XEN_SYSCTL_PROFILE_SOURCE_PMU ||
         (cfg->source == XEN_SYSCTL_PROFILE_SOURCE_AUTO && cfg->event) )
    {
        /* The PMU was asked for, or an event only a PMU can count. */
        cfg->reason = why;
        busy = why == XEN_SYSCTL_PROFILE_REASON_VPMU ||
               why == XEN_SYSCTL_PROFILE_REASON_PMU_BUSY;
        *rc = pmu && busy ? -EBUSY : -ENODEV;
        return NULL;
    }
    if ( cfg->source == XEN_SYSCTL_PROFILE_SOURCE_AUTO )
        cfg->reason = why;

    cfg->source = XEN_SYSCTL_PROFILE_SOURCE_TIMER;
    if ( cfg->frequency )
    {
        if ( cfg->frequency > PROFILE_TIMER_HZ_MAX )
        {
            *rc = -EINVAL;
            return NULL;
        }
        cfg->period = SECONDS(1) / cfg->frequency;
    }
    *rc = src->check(cfg, &why);

    return *rc ? NULL : src;
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
