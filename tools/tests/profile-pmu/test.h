/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test.h: CPU models and helpers shared by the PMU driver tests (TAP
 * output: tools/tests/common/tap.c).
 */
#ifndef TEST_PMU_TEST_H
#define TEST_PMU_TEST_H

#include <stdio.h>

#include "emul.h"
#include "xen-stub.h"
#include "tap.h"                    /* tools/tests/common/tap.h */

/* xen-glue.c: pmu-source.c's static state. */
void glue_reset(void);
struct pmu_cpu *glue_state(unsigned int cpu);
const struct pmu_counter *glue_counter(void);
const struct pmu_caps *glue_caps(void);
int glue_probe_result(void);
unsigned int glue_nr_started(void);

/* models.c: the CPU models. */
extern const struct sim_model m_intel_v2, m_intel_v3_fw, m_intel_v4,
    m_intel_v4_nocaps, m_intel_v4_nobrmiss, m_intel_v1, m_intel_v0,
    m_intel_noleaf, m_intel_1gp, m_intel_short_ebx, m_intel_levelled,
    m_amd_10h, m_amd_17h, m_amd_noext, m_amd_0fh, m_hygon_18h, m_centaur;

/*
 * Power on model m (nr_cpus pCPUs, TSC and core at khz) and reset Xen
 * (xen-stub.c), pmu-source.c's state and the PMU ownership.
 */
void test_setup(const struct sim_model *m, unsigned int nr_cpus,
                uint64_t khz);
/* A profile_config for the PMU source. */
struct profile_config test_cfg(unsigned int event, uint64_t period,
                               unsigned int frequency);
/* Is the PMU free: can another owner take it (and give it back)? */
bool test_pmu_free(void);
/*
 * Compare two snapshots of a pCPU; report the differences (except the
 * addresses in skip[], 0-terminated) as diagnostics.  True when equal.
 */
bool test_same_msrs(unsigned int cpu, const struct sim_msr *a,
                    const struct sim_msr *b, unsigned int n,
                    const uint32_t *skip);

void test_sim(void);
void test_detect(void);
void test_pick(void);
void test_period(void);
void test_freq(void);
void test_watchdog(void);
void test_source(void);
void test_race(void);
void test_sharing(void);

#endif /* TEST_PMU_TEST_H */
