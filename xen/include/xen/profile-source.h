/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile-source.h: the interface between the profiler's common code
 * (xen/common/profile/) and its sample sources: the timer source (common)
 * and the architecture's PMU source and record builder.
 *
 * The sample path goes one way, from the architecture to the common code:
 * an interrupt of a source (arch) asks for the record buffer
 * (profile_sample_begin()), fills it from the interrupted context, and
 * hands it to profile_sample_commit(), which writes it into this pCPU's
 * ring.  The common code never calls back into the architecture while a
 * sample is taken.
 */
#ifndef XEN_PROFILE_SOURCE_H
#define XEN_PROFILE_SOURCE_H

#include <xen/types.h>

struct xen_sysctl_profile_record;

/* A validated start request. */
struct profile_config {
    unsigned int source;            /* XEN_SYSCTL_PROFILE_SOURCE_{TIMER,PMU} */
    unsigned int reason;            /* XEN_SYSCTL_PROFILE_REASON_* */
    unsigned int frequency;         /* Hz as asked, 0 if period given */
    uint64_t period;                /* ns (timer) / events (pmu) */
    unsigned int max_depth;         /* 1..XEN_SYSCTL_PROFILE_MAX_DEPTH */
    unsigned int ring_kib;
    unsigned int event;
};

/*
 * A sample source.  start() and stop() run in the sysctl or the CPU
 * notifier, IRQs on, the CPU maps held, for one pCPU at a time.
 */
struct profile_source {
    unsigned int id;                /* XEN_SYSCTL_PROFILE_SOURCE_* */
    /*
     * Can this host run cfg?  0, or -EOPNOTSUPP / -EBUSY (with *reason, a
     * XEN_SYSCTL_PROFILE_REASON_*, saying why) / -EINVAL.
     */
    int (*check)(const struct profile_config *cfg, unsigned int *reason);
    /*
     * Start sampling cpu into its ring.  0, or -errno; with -EBUSY,
     * *reason (XEN_SYSCTL_PROFILE_REASON_*) says who holds the PMU.
     */
    int (*start)(const struct profile_config *cfg, unsigned int cpu,
                 unsigned int *reason);
    /*
     * Stop sampling cpu.  A sample may still be in progress on return:
     * the caller waits for it before freeing anything.
     */
    void (*stop)(unsigned int cpu);
};

/*
 * The sample path, in IRQ or NMI context on the sampled pCPU (common).
 *
 * profile_sample_begin(): NULL when this pCPU is not sampling; else the
 * record buffer (XEN_SYSCTL_PROFILE_MAX_RECORD bytes) to fill, with *max_depth
 * the Xen frames the record may hold after the interrupted IP; then
 * profile_sample_commit() must follow, with the buffer filled (rec->size
 * set).  A full ring drops the record and counts it.
 */
struct xen_sysctl_profile_record *
profile_sample_begin(unsigned int *max_depth);
/*
 * Fill rec's header for a sample of the current vCPU on this pCPU: n IPs
 * after it (ip[0] the interrupted one), XEN_SYSCTL_PROFILE_F_* flags, a
 * XEN_SYSCTL_PROFILE_MODE_*, and the timestamp stamp (get_cycles()).
 */
void profile_record_header(struct xen_sysctl_profile_record *rec,
                           unsigned int n, unsigned int flags,
                           unsigned int mode,
                           uint64_t stamp);
void profile_sample_commit(struct xen_sysctl_profile_record *rec);
/*
 * Count one overflow of this pCPU's PMU source that came faster than
 * PROFILE_MAX_SAMPLE_HZ (its period was raised).
 */
void profile_sample_throttled(void);

/*
 * The timer source, from the timer interrupt hook: is a sample of this
 * pCPU due now?  Then the architecture takes it.
 */
bool profile_timer_due(void);

/*
 * Frequency mode of a PMU source, as Linux perf: the next period from the
 * events counted (period) over elapsed ticks of a clock of clock_khz,
 * through a low-pass filter (1/8 of the error per overflow), within
 * [min_period, max_period]: on a pCPU that is mostly idle the events are
 * few, and an unbounded period would shrink until the counter overflows
 * again inside its own interrupt.
 */
uint64_t profile_next_period(uint64_t period, uint64_t elapsed,
                             uint64_t clock_khz, unsigned int frequency,
                             uint64_t min_period, uint64_t max_period);

/*
 * Throttling, as perf's maximum sample rate: after an overflow that came
 * elapsed clock ticks after the last, when that is less than min_elapsed
 * (PROFILE_MAX_SAMPLE_HZ), the period doubles (up to max_period) and
 * *throttled is set.  A fixed period (asked: the period asked for; 0 in
 * frequency mode) so raised halves back towards asked once overflows are
 * four times slower than that.  Returns the period to arm next.
 */
uint64_t profile_throttle_period(uint64_t period, uint64_t asked,
                                 uint64_t elapsed, uint64_t min_elapsed,
                                 uint64_t max_period, bool *throttled);

/*
 * What a PMU source arms, either mode: a period of at least
 * PROFILE_PMU_MIN_PERIOD events, at most PROFILE_PMU_MAX_HZ overflows a
 * second asked for (throttling bounds what comes).
 */
#define PROFILE_PMU_MIN_PERIOD  10000
#define PROFILE_PMU_MAX_HZ      10000

/*
 * The overflows a PMU source takes per pCPU and second, at most: one that
 * comes sooner after the last raises the period (throttling, as perf's
 * maximum sample rate).  Reported in limits.sample_hz_max.
 */
#define PROFILE_MAX_SAMPLE_HZ   50000

/*
 * Does cfg ask for a frequency or period within those limits and the
 * counter's max_period?  0, or -EINVAL.
 */
int profile_pmu_check_rate(const struct profile_config *cfg,
                           uint64_t max_period);

/* The PMU source of this architecture, or NULL when it has none. */
#ifdef CONFIG_HAS_XEN_PROFILER_PMU
const struct profile_source *arch_profile_pmu_source(void);
#else
static inline const struct profile_source *arch_profile_pmu_source(void)
{
    return NULL;
}
#endif

/*
 * The life cycle the PMU sources share (common/profile/pmu-session.c):
 * their start and stop.  The PMU is taken (arch_profile_pmu_take()) when
 * the first pCPU starts and given back (arch_profile_pmu_give()) when
 * the last stops; each pCPU is programmed on itself by IPI, and one that
 * cannot be is not sampled.  Called under the CPU maps, as the sources'
 * start and stop are.
 */
int cf_check profile_pmu_start(const struct profile_config *cfg,
                               unsigned int cpu, unsigned int *reason);
void cf_check profile_pmu_stop(unsigned int cpu);
/* Has a pCPU been started, and not stopped yet? */
bool profile_pmu_started(void);

/* The architecture's part: 0, or -errno with *reason set (take). */
int arch_profile_pmu_take(unsigned int *reason);
void arch_profile_pmu_give(void);
/* On the pCPU to start or stop (IPI): 0 when it samples, or -errno. */
int arch_profile_pmu_start_here(const struct profile_config *cfg);
void arch_profile_pmu_stop_here(void);

/*
 * Before a session starts sampling (sysctl context): let the architecture
 * prepare what its sample path reads, e.g. where stack walks end.
 */
void arch_profile_prepare(void);

#endif /* XEN_PROFILE_SOURCE_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
