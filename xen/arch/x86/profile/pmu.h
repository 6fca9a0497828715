/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.h: the profiler's PMU driver (pmu-detect.c, pmu.c) and the narrow
 * hardware interface it is written against.
 *
 * The driver holds all the PMU logic (detection and event to counter
 * mapping in pmu-detect.c; programming, overflow handling and frequency
 * mode in pmu.c) and touches the hardware only through the
 * profile_pmu_hw_*() functions below.  In Xen they are MSR, CPUID and
 * local APIC accesses (the port, pmu-hw.c); a userspace test can link a
 * simulated PMU in their place, so that the very same driver is tested
 * without hardware.
 */
#ifndef X86_PROFILE_PMU_H
#define X86_PROFILE_PMU_H

#include <xen/types.h>
#include <asm/msr-index.h>

/* ---- Hardware interface (pmu-hw.c, or the simulator) ---- */

/*
 * MSR accesses that cannot fault, for profile_pmu_cpu_start() and the
 * detection alone: 0, or -EIO where the MSR does not exist or does not
 * take the value.
 */
int profile_pmu_hw_rdmsr_safe(unsigned int msr, uint64_t *val);
int profile_pmu_hw_wrmsr_safe(unsigned int msr, uint64_t val);
/*
 * Plain MSR accesses (a fault is fatal), for the NMI and the stop: only
 * to MSRs that profile_pmu_cpu_start() read and wrote with the above.
 */
uint64_t profile_pmu_hw_rdmsr(unsigned int msr);
void profile_pmu_hw_wrmsr(unsigned int msr, uint64_t val);
/* The local APIC's LVT performance counter register. */
uint32_t profile_pmu_hw_lvtpc_read(void);
void profile_pmu_hw_lvtpc_write(uint32_t val);
/* CPUID leaf/subleaf into r[0..3] = eax, ebx, ecx, edx. */
void profile_pmu_hw_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4]);
/* The time stamp counter. */
uint64_t profile_pmu_hw_tsc(void);

/* ---- MSRs (asm/msr-index.h) and bits ---- */

/* Counter n of a bank whose first MSR msr-index.h names (A: full width). */
#define PMU_MSR_A_PERFCTR(n)        (MSR_IA32_A_PERFCTR0 + (n))
#define PMU_MSR_FIXED_CTR(n)        (MSR_CORE_PERF_FIXED_CTR0 + (n))
#define PMU_MSR_K7_EVNTSEL(n)       (MSR_K7_EVNTSEL0 + (n))
#define PMU_MSR_K7_PERFCTR(n)       (MSR_K7_PERFCTR0 + (n))
#define PMU_MSR_F15H_EVNTSEL(n)     (MSR_AMD_FAM15H_EVNTSEL0 + 2U * (n))
#define PMU_MSR_F15H_PERFCTR(n)     (MSR_AMD_FAM15H_PERFCTR0 + 2U * (n))

#define PMU_EVNTSEL_USR             (1ULL << 16)
#define PMU_EVNTSEL_OS              (1ULL << 17)
#define PMU_EVNTSEL_INT             (1ULL << 20)
#define PMU_EVNTSEL_EN              (1ULL << 22)

/* ---- The driver ---- */

/* The bits of a counter width bits wide. */
static inline uint64_t pmu_width_mask(unsigned int width)
{
    return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

enum pmu_vendor {
    PMU_VENDOR_NONE,
    PMU_VENDOR_INTEL,
    PMU_VENDOR_AMD,
};

/* What the CPU offers, from CPUID (and PERF_CAPABILITIES). */
struct pmu_caps {
    enum pmu_vendor vendor;
    unsigned int version;           /* Intel architectural perfmon */
    unsigned int nr_gp;             /* general-purpose counters */
    unsigned int gp_width;          /* bits */
    unsigned int nr_fixed;          /* Intel fixed counters */
    unsigned int fixed_width;
    uint32_t unavailable;           /* Intel CPUID.0xA.EBX: 1 = absent */
    bool full_width;                /* Intel: 0x4c1.. writes all bits */
    unsigned int family;            /* AMD family */
    bool amd_ext;                   /* AMD: 6 counters at 0xc0010200 */
    const char *why;                /* when unusable: why, for people */
};

/* Where an event is counted. */
struct pmu_counter {
    bool fixed;                     /* Intel fixed counter */
    unsigned int idx;               /* counter index */
    unsigned int ctl_msr;           /* EVNTSEL (GP counters) */
    unsigned int ctr_msr;           /* the counter, for reads */
    unsigned int wr_msr;            /* the counter, for writes */
    uint64_t ctl;                   /* EVNTSEL value, enable bit included */
    unsigned int width;             /* counter bits */
    uint64_t max_period;            /* largest period it can be armed with */
};

/* Per-pCPU state of the driver. */
struct pmu_cpu {
    struct pmu_counter ctr;
    bool active;                    /* our counter is armed */
    uint64_t period;                /* events between overflows, now */
    uint64_t asked;                 /* the period asked for (fixed) */
    unsigned int frequency;         /* Hz asked for; 0: fixed period */
    uint64_t tsc_khz;
    uint64_t last_tsc;              /* TSC at the last (re-)arm */
    uint64_t end_tsc;               /* ... and as its NMI returned */
    /* TSC ticks between overflows at the most samples a second. */
    uint64_t min_ticks;
    uint64_t nmis;                  /* overflows of our counter */
    /* The last one came too soon: period raised (the source counts it). */
    bool throttle;
    /* What start() found, put back by stop(). */
    uint64_t saved_ctl, saved_ctr, saved_fixed_ctrl, saved_global_ctrl;
    uint32_t saved_lvtpc;
    /*
     * Kept across a stop and the next start (profile_pmu_cpu_nmi()): an
     * NMI is still expected for an overflow that was pending at the stop
     * or was handled in an NMI it did not raise.
     */
    bool late;
    uint64_t late_until;            /* ... which may come until then */
    uint64_t late_nmis;             /* such NMIs, claimed */
};

/*
 * Read the CPU's PMU.  Returns 0 when it can sample: Intel architectural
 * perfmon version 2 or later with at least 2 GP counters, or AMD family
 * 0x10 or later; otherwise -EOPNOTSUPP with c->why set.
 */
int profile_pmu_detect(struct pmu_caps *c);

/*
 * Map a XEN_SYSCTL_PROFILE_EVENT_* (0 = cycles) to a counter.  GP counter 0 is
 * never used while the NMI watchdog runs (it is the watchdog's).  Returns
 * 0, or -EOPNOTSUPP when this CPU lacks the event (never a substitute).
 */
int profile_pmu_pick_counter(const struct pmu_caps *c, unsigned int event,
                             bool watchdog, struct pmu_counter *ctr);

/*
 * Arm ctr on this pCPU to overflow every period events (frequency Hz when
 * not 0: the period then adapts), with LVTPC delivering an NMI.  The
 * registers touched are saved first and put back by
 * profile_pmu_cpu_stop().  Every MSR the NMI and the stop access is read
 * or written here with the _safe accessors.  Returns 0, or -EIO when a
 * register cannot be read or written: then what was written is put back
 * and the pCPU is not armed.
 */
int profile_pmu_cpu_start(struct pmu_cpu *pc, const struct pmu_caps *c,
                          const struct pmu_counter *ctr, uint64_t period,
                          unsigned int frequency, uint64_t tsc_khz);
/*
 * Disarm this pCPU and put its registers back.  An overflow whose NMI
 * has not arrived after a bounded wait is remembered
 * (profile_pmu_cpu_nmi()).
 */
void profile_pmu_cpu_stop(struct pmu_cpu *pc, const struct pmu_caps *c);

/* What an NMI was to this pCPU's counter (profile_pmu_cpu_nmi()). */
enum pmu_nmi {
    PMU_NMI_NONE,                   /* not ours */
    PMU_NMI_OURS,                   /* our overflow: sample it */
    PMU_NMI_LATE,                   /* the overflow pending at stop: drop */
};

/*
 * In the NMI: did our counter overflow?  If so, re-arm it (adapting the
 * period in frequency mode), acknowledge the overflow, unmask LVTPC, and
 * return PMU_NMI_OURS.  An overflow that came sooner after the last than
 * PROFILE_MAX_SAMPLE_HZ allows doubles the period (throttling, as
 * perf's maximum sample rate): throttle says so until the next overflow,
 * and the source counts it (profile_sample_throttled()).  A fixed period
 * raised so comes back down, halving, once overflows are four times
 * slower than that rate.  *others is set when another counter (the
 * watchdog's) overflowed too, so that the NMI is passed on to Xen's
 * handler.  The first NMI with no overflow of ours after a stop that left
 * one pending, or after an NMI that handled ours with the watchdog's or
 * found ours only on a second look, is PMU_NMI_LATE (within
 * PMU_LATE_NMI_MS): the PMI of one of those may come after the NMI that
 * handled it.  Takes no lock, never prints, and accesses only MSRs
 * profile_pmu_cpu_start() probed.
 */
enum pmu_nmi profile_pmu_cpu_nmi(struct pmu_cpu *pc,
                                 const struct pmu_caps *c, bool *others);
/*
 * At the end of an NMI that profile_pmu_cpu_nmi() took as ours, sample
 * taken: the next re-arm keeps the time spent in the handler under half
 * of the time between overflows.
 */
void profile_pmu_cpu_nmi_end(struct pmu_cpu *pc);

/*
 * Frequency mode, as Linux perf: the next period from the events counted
 * (period) over elapsed TSC ticks, through a low-pass filter (1/8 of the
 * error per overflow), within [PROFILE_PMU_MIN_PERIOD, max_period]: on a pCPU
 * that is mostly halted the events are few, and an unbounded period would
 * shrink until the counter overflows again inside its own NMI.
 */
uint64_t profile_pmu_next_period(uint64_t period, uint64_t elapsed,
                                 uint64_t tsc_khz, unsigned int frequency,
                                 uint64_t max_period);

#endif /* X86_PROFILE_PMU_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
