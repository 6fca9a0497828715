/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.h: a simulated x86 PMU, the hardware under pmu.c in these tests.
 *
 * Up to SIM_NR_CPUS pCPUs, each with its own MSRs, local APIC LVTPC, TSC
 * and counters, of one CPU model (struct sim_model): Intel architectural
 * perfmon (GP and fixed counters, GLOBAL_CTRL/STATUS/OVF_CTRL, legacy
 * and full-width counter writes) or AMD core counters (legacy K7 bank,
 * and the PerfCtrExtCore bank that aliases it).  An MSR the model lacks
 * faults (-EIO), as does writing a read-only MSR or reserved bits.
 *
 * sim_run() lets the current pCPU execute a workload; every enabled
 * counter advances by its event, exactly: the run stops at each overflow.
 * An overflow sets its GLOBAL_STATUS bit (Intel) and, with its interrupt
 * bit set and LVTPC unmasked in NMI mode, raises a PMI: the model may
 * mask LVTPC on delivery (Intel does), and the NMI is delivered to the
 * entry point set with sim_set_nmi_entry() (Xen's do_nmi(), xen-stub.c)
 * at the next instruction boundary, blocked while an NMI is handled.
 *
 * Optional realism per pCPU: each pmu_hw_*() access can cost cycles
 * (msr_cost; the handler's own events), and a PMI can take pmi_latency
 * cycles to arrive; a pCPU can lose every PMI (pmi_lost).
 */
#ifndef TEST_PMU_SIM_H
#define TEST_PMU_SIM_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_NR_CPUS         4
#define SIM_MAX_GP          8
#define SIM_MAX_FIXED       3

/* Counter ids: GP n is n, Intel fixed n is 32 + n (GLOBAL_STATUS bits). */
#define SIM_GP(n)           (n)
#define SIM_FIXED(n)        (32 + (n))

/* An x2APIC-style address under which snapshots list LVTPC. */
#define SIM_LVTPC_ADDR      0x834
#define SIM_LVTPC_RESET     0x10000u        /* masked */

enum sim_vendor {
    SIM_INTEL,
    SIM_AMD,
    SIM_HYGON,
    SIM_CENTAUR,
};

/* The workload's events (sim_run() arguments, in this order). */
enum sim_event {
    SIM_EV_CYCLES,
    SIM_EV_INSTRUCTIONS,
    SIM_EV_REF_CYCLES,
    SIM_EV_LLC_MISSES,
    SIM_EV_BRANCH_MISSES,
    SIM_EV_NR,
    SIM_EV_NONE = SIM_EV_NR,                /* an event nothing counts */
};

struct sim_model {
    const char *name;
    enum sim_vendor vendor;
    uint32_t max_leaf;                      /* CPUID.0.EAX */
    /* Intel: CPUID.0xA, CPUID.1.ECX.PDCM, PERF_CAPABILITIES */
    unsigned int version, nr_gp, gp_width, ebx_len, nr_fixed, fixed_width;
    uint32_t unavailable;                   /* CPUID.0xA.EBX */
    bool pdcm;
    bool no_perf_caps;                      /* PDCM, but the MSR faults */
    bool full_width;                        /* PERF_CAPABILITIES bit 13 */
    /* AMD, Hygon */
    unsigned int family;                    /* display family */
    uint32_t max_ext_leaf;                  /* CPUID.0x80000000.EAX */
    bool ext_core;                          /* CPUID.0x80000001.ECX[23] */
    /*
     * CPUID levelled, as Xen masks it for a PV vCPU: PDCM and
     * PerfCtrExtCore hidden from CPUID though the CPU has them.
     */
    bool levelled;
    /* Delivery */
    bool pmi_masks_lvtpc;                   /* PMI delivery masks LVTPC */
};

struct sim_cpu {
    /* Registers */
    uint64_t evntsel[SIM_MAX_GP], ctr[SIM_MAX_GP];
    uint64_t fixed[SIM_MAX_FIXED], fixed_ctrl;
    uint64_t global_ctrl, global_status;
    uint32_t lvtpc;
    /* Time: TSC ticks per cycle is tsc_khz / core_khz. */
    uint64_t tsc, tsc_base, cyc_since, core_khz;
    uint64_t events[SIM_EV_NR];             /* executed, ever */
    unsigned int ring;                      /* 0 (Xen) or 3 */
    /* Delivery */
    unsigned int msr_cost;                  /* cycles per pmu_hw_*() access */
    unsigned int cost_misses;               /* ... and LLC/branch misses */
    unsigned int pmi_latency;               /* cycles until a PMI arrives */
    bool pmi_lost;                          /* PMIs never arrive */
    uint32_t wrmsr_fail;                    /* a write of this MSR fails
                                               (-EIO, or a fault); 0: none */
    bool in_nmi;
    unsigned int defer;                     /* inside a pmu_hw_*() access */
    bool pending;                           /* an NMI is on its way */
    uint64_t pending_due;                   /* ... at events[CYCLES] */
    uint64_t pending_ovf;                   /* counters it is for */
    /* Statistics */
    uint64_t pmis;                          /* raised, delivered or not */
    uint64_t pmis_masked;                   /* dropped: LVTPC masked */
    uint64_t pmis_lost;                     /* dropped: pmi_lost */
    uint64_t pmis_merged;                   /* joined a pending NMI */
    uint64_t nmis;                          /* delivered */
    uint64_t masked_on_delivery;            /* LVTPC masked by a PMI */
    uint64_t overflows[64];                 /* per counter id */
    uint64_t hw_access;                     /* pmu_hw_*() MSR/APIC calls */
    unsigned int nr_touched;                /* MSRs the driver wrote */
    uint32_t touched[32];
};

/*
 * pmu_hw_*() MSR accesses that faulted inside an NMI, over every pCPU and
 * every sim_init() of the process.
 */
extern uint64_t sim_nmi_faults;
/*
 * Plain (not _safe) MSR accesses that faulted, anywhere: each would be a
 * fatal #GP in Xen.  Over every pCPU and every sim_init() of the process.
 */
extern uint64_t sim_plain_faults;

/* Power on nr_cpus pCPUs of model m, TSC (and core clock) tsc_khz. */
void sim_init(const struct sim_model *m, unsigned int nr_cpus,
              uint64_t tsc_khz);
const struct sim_model *sim_model(void);
unsigned int sim_nr_cpus(void);
uint64_t sim_tsc_khz(void);
/* The pCPU that runs: pmu_hw_*(), sim_run() and the shims act on it. */
void sim_set_cpu(unsigned int cpu);
unsigned int sim_cur(void);
struct sim_cpu *sim_cpu(unsigned int cpu);

/* The NMI entry point: cpu, and the counters whose PMI it carries. */
void sim_set_nmi_entry(void (*entry)(unsigned int cpu, uint64_t ovf));

/*
 * Execute a workload on the current pCPU: these many events of each kind,
 * spread evenly over the run, in ring sim_cpu()->ring.  The TSC advances
 * with the cycles at the core clock.
 */
void sim_run(uint64_t cycles, uint64_t instructions, uint64_t ref_cycles,
             uint64_t llc_misses, uint64_t branch_misses);
/*
 * Run for ticks TSC ticks at the core clock: instructions at ipc_x100 %
 * of the cycles, ref cycles at the TSC rate, LLC and branch misses per
 * million cycles.
 */
void sim_run_ticks(uint64_t ticks, unsigned int ipc_x100,
                   uint64_t llc_per_mcycle, uint64_t br_per_mcycle);
/* Halted: the TSC moves, nothing counts. */
void sim_idle(uint64_t ticks);
/* Cycles per second of the current pCPU from now on. */
void sim_set_core_khz(uint64_t khz);
uint64_t sim_tsc(void);

/* The hardware, raw (no cost, not recorded): the model's semantics. */
int sim_rdmsr(unsigned int msr, uint64_t *val);
int sim_wrmsr(unsigned int msr, uint64_t val);
uint32_t sim_lvtpc_read(void);
/* Deliver c's pending PMI as an NMI, when nothing defers it (sim-hw.c). */
void sim_deliver(struct sim_cpu *c);
/*
 * An NMI from outside the PMU (an IPI, a platform NMI) to the current
 * pCPU, now: it carries no overflow, and merges with one pending.
 */
void sim_external_nmi(void);
void sim_lvtpc_write(uint32_t val);
void sim_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4]);

/* The model's counters: general-purpose, fixed, global control. */
unsigned int sim_nr_gp(void);
unsigned int sim_nr_fixed(void);
bool sim_has_global(void);

/* The counters of the model: ids, width, MSR of the value. */
unsigned int sim_counters(unsigned int ids[64]);
unsigned int sim_width(unsigned int id);

/* Every MSR of the model (and LVTPC) of a pCPU: address and value. */
struct sim_msr {
    uint32_t addr;
    uint64_t val;
};
#define SIM_MAX_MSRS 64
unsigned int sim_snapshot(unsigned int cpu, struct sim_msr *out);

#endif /* TEST_PMU_SIM_H */
