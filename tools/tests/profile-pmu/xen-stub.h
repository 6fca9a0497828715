/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-stub.h: the rest of Xen around the PMU source, over the simulator
 * (xen-stub.c): the NMI callback slot and do_nmi() with the NMI watchdog
 * of Xen (arch/x86/nmi.c, arch/x86/traps.c), IPIs, time,
 * x86_profile_sample().  It records what happened to every NMI.
 */
#ifndef TEST_PMU_XEN_STUB_H
#define TEST_PMU_XEN_STUB_H

#include "emul.h"

struct xen_nmi_stats {
    uint64_t nmis;              /* do_nmi() */
    uint64_t claimed;           /* the callback returned 1 */
    uint64_t profiled;          /* profile_pmu_nmi(): the profiler's alone */
    uint64_t passed;            /* ... 0 (or none): Xen's handling */
    uint64_t wd_ticks;          /* nmi_watchdog_tick(), its counter wrapped */
    uint64_t wd_spurious;       /* nmi_watchdog_tick() for nothing */
    uint64_t wd_alert_max;      /* highest alert_counter */
    uint64_t wd_stuck;          /* "Watchdog timer detects ... stuck!" */
    uint64_t unknown;           /* unknown_nmi_error() (any pCPU) */
    /* What each NMI carried (the simulator knows) against its handling. */
    uint64_t wd_swallowed;      /* the watchdog's PMI, claimed */
    uint64_t ours_passed;       /* only a profile PMI, not claimed */
    uint64_t samples;           /* x86_profile_sample() */
    uint64_t port61;            /* reads of port 0x61 (pCPU 0) */
    uint64_t throttled;         /* profile_sample_throttled() */
};

extern struct xen_nmi_stats xen_stats[SIM_NR_CPUS];
extern bool watchdog_force;
extern unsigned int xen_nmi_hz;
/* Called by x86_profile_sample() (NMI context), when set. */
extern void (*xen_sample_hook)(unsigned int cpu);

/* The messages xen_printk() kept, and their number. */
extern char xen_log[1024];
extern unsigned int xen_log_count;

/* Xen as booted on the simulator: no callback, no vPMU, no watchdog. */
void xen_reset(void);
/* Start the NMI watchdog on this pCPU as Xen's boot does (P6 or K7). */
void xen_watchdog_setup(void);
/* Re-arm its counter for a full period now, as each tick does. */
void xen_watchdog_rearm(void);
/* Set its counter to wrap after these many cycles instead. */
void xen_watchdog_wrap_in(uint64_t cycles);
nmi_callback_t *xen_nmi_callback(void);
/* The simulated time of this pCPU, in ns, without letting time pass. */
s_time_t xen_time(void);
/*
 * XENPMU_mode_set with the profiler (x86/cpu/vpmu.c): set the mode,
 * then refuse (-EBUSY, mode back to off) if the profiler owns the PMU.
 */
int xen_vpmu_mode_set(unsigned int mode);

#endif /* TEST_PMU_XEN_STUB_H */
