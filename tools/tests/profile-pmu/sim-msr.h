/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim-msr.h: the MSRs and LVT bits of the simulated PMU, from the Intel
 * SDM (vol. 3, chapters 18-20, "Performance Monitoring") and the AMD APM
 * (vol. 2, 13.2), not from pmu.h: a wrong constant in the driver meets a
 * faulting or silent simulated MSR.  Private to sim*.c.
 */
#ifndef TEST_PMU_SIM_MSR_H
#define TEST_PMU_SIM_MSR_H

/* Intel */
#define MSR_PERFCTR0        0x0c1           /* legacy writes: bits 31:0 */
#define MSR_EVNTSEL0        0x186
#define MSR_FIXED_CTR0      0x309
#define MSR_PERF_CAPS       0x345
#define MSR_FIXED_CTRL      0x38d
#define MSR_GLOBAL_STATUS   0x38e
#define MSR_GLOBAL_CTRL     0x38f
#define MSR_GLOBAL_OVF_CTRL 0x390
#define MSR_A_PMC0          0x4c1           /* full-width writes */
#define CAPS_FW_WRITE       (1ULL << 13)
/* AMD */
#define SIM_K7_EVNTSEL0     0xc0010000
#define SIM_K7_PERFCTR0     0xc0010004
#define MSR_F15H_CTL0       0xc0010200      /* CTL n: +2n, CTR n: +2n+1 */

#define SEL_USR             (1ULL << 16)
#define SEL_OS              (1ULL << 17)
#define SEL_INT             (1ULL << 20)
#define SEL_EN              (1ULL << 22)

#define LVT_MASKED          (1u << 16)
#define LVT_DM_MASK         0x700u
#define LVT_DM_NMI          0x400u
#define LVT_WRITABLE        (0xffu | LVT_DM_MASK | LVT_MASKED)

#endif /* TEST_PMU_SIM_MSR_H */
