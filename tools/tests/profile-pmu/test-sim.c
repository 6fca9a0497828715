/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-sim.c: the simulator itself behaves as the SDM and the APM say,
 * before the driver is judged against it: faults, legacy and full-width
 * writes, GLOBAL_CTRL at reset and as a gate, GLOBAL_STATUS and its
 * clearing, exact overflow, PMI delivery masking LVTPC, NMI blocking,
 * AMD's aliased banks, the TSC against the core clock.
 */
#include "test.h"

static unsigned int nmi_count;
static uint64_t nmi_ovf;
static uint32_t lvtpc_at_nmi;

static void count_nmi(unsigned int cpu, uint64_t ovf)
{
    nmi_count++;
    nmi_ovf |= ovf;
    lvtpc_at_nmi = sim_lvtpc_read();
}

static void sim_intel(void)
{
    uint64_t v;
    int rc;

    sim_init(&m_intel_v4, 1, 3000000);
    sim_set_nmi_entry(count_nmi);
    nmi_count = 0;
    nmi_ovf = 0;

    tap_ok(sim_rdmsr(0x38f, &v) == 0 && v == 0xf,
           "sim Intel: GLOBAL_CTRL enables the 4 GP counters at reset");
    tap_ok(sim_rdmsr(0x186 + 4, &v) == -EIO && v == 0,
           "sim Intel: EVNTSEL4 of a 4-counter CPU faults, reads 0");
    tap_ok(sim_rdmsr(0x4c1, &v) == -EIO,
           "sim Intel: no IA32_A_PMC0 without full-width writes");
    tap_ok(sim_wrmsr(0x38e, 0) == -EIO, "sim Intel: GLOBAL_STATUS is read-only");
    tap_ok(sim_wrmsr(0x186, 1ULL << 32) == -EIO,
           "sim Intel: EVNTSEL reserved bits fault");
    sim_wrmsr(0xc1, 0x80000005ULL);
    sim_rdmsr(0xc1, &v);
    tap_ok(v == 0xffff80000005ULL,
           "sim Intel: a legacy counter write sign-extends bit 31 (%#llx)",
           (unsigned long long)v);
    sim_wrmsr(0xc1, 0xffff00001234ULL);
    sim_rdmsr(0xc1, &v);
    tap_ok(v == 0x1234, "sim Intel: ... and drops bits 47:32 (%#llx)",
           (unsigned long long)v);

    /* GP0 counts LLC misses, interrupt on, -100. */
    sim_lvtpc_write(0x400);
    sim_wrmsr(0xc1, -100ULL);
    sim_wrmsr(0x186, 0x412e | 1u << 16 | 1u << 17 | 1u << 20 | 1u << 22);
    sim_wrmsr(0x38f, 0);
    sim_run(1000, 1000, 1000, 500, 10);
    sim_rdmsr(0xc1, &v);
    tap_ok(v == 0xffffffffff9cULL && !nmi_count,
           "sim Intel: a counter disabled in GLOBAL_CTRL does not count");
    sim_wrmsr(0x38f, 1);
    sim_run(3000, 3000, 3000, 99, 10);
    tap_ok(!nmi_count && !sim_cpu(0)->global_status,
           "sim Intel: 99 of 100 events: no overflow");
    sim_run(3000, 3000, 3000, 1, 10);
    sim_rdmsr(0x38e, &v);
    tap_ok(nmi_count == 1 && nmi_ovf == 1 && v == 1,
           "sim Intel: the 100th event overflows: status bit 0, one NMI");
    tap_ok(lvtpc_at_nmi == (0x400 | 1u << 16),
           "sim Intel: PMI delivery masked LVTPC (%#x)", lvtpc_at_nmi);
    sim_wrmsr(0xc1, -100ULL);
    sim_run(3000, 3000, 3000, 200, 10);
    tap_ok(nmi_count == 1 && sim_cpu(0)->pmis_masked == 1,
           "sim Intel: with LVTPC masked, the next PMI is dropped");
    rc = sim_wrmsr(0x390, 1);
    sim_rdmsr(0x38e, &v);
    tap_ok(!rc && v == 0, "sim Intel: GLOBAL_OVF_CTRL clears the status bit");
    tap_ok(sim_wrmsr(0x390, 1ULL << 40) == -EIO,
           "sim Intel: GLOBAL_OVF_CTRL reserved bits fault");

    /* Fixed counter 1 (cycles), OS only, in ring 3: nothing. */
    sim_wrmsr(0x30a, 0);
    sim_wrmsr(0x38d, 0x1u << 4);
    sim_wrmsr(0x38f, 1ULL << 33);
    sim_cpu(0)->ring = 3;
    sim_run(500, 0, 0, 0, 0);
    sim_rdmsr(0x30a, &v);
    tap_ok(v == 0, "sim Intel: an OS-only fixed counter ignores ring 3");
    sim_cpu(0)->ring = 0;
    sim_run(500, 0, 0, 0, 0);
    sim_rdmsr(0x30a, &v);
    tap_ok(v == 500, "sim Intel: ... and counts ring 0 cycles");

    /* The TSC at a core clock of a third of it. */
    v = sim_tsc();
    sim_set_core_khz(1000000);
    sim_run(1000, 0, 0, 0, 0);
    tap_ok(sim_tsc() - v == 3000, "sim: 1000 cycles at 1 GHz are 3000 TSC "
           "ticks at 3 GHz");
}

static void sim_full_width(void)
{
    uint64_t v;

    sim_init(&m_intel_v3_fw, 1, 3000000);
    tap_ok(sim_wrmsr(0x4c1 + 7, 0x812345678ULL) == 0 &&
           sim_rdmsr(0xc1 + 7, &v) == 0 && v == 0x812345678ULL,
           "sim Intel full-width: IA32_A_PMC7 writes all bits");
    tap_ok(sim_wrmsr(0x4c1, 1ULL << 48) == -EIO,
           "sim Intel full-width: beyond the counter width faults");
    tap_ok(sim_rdmsr(0x345, &v) == 0 && (v & (1ULL << 13)),
           "sim Intel full-width: PERF_CAPABILITIES bit 13");
}

static void sim_amd(void)
{
    uint64_t v;

    sim_init(&m_amd_17h, 1, 2000000);
    sim_set_nmi_entry(count_nmi);
    nmi_count = 0;
    nmi_ovf = 0;
    sim_wrmsr(0xc0010004, 0x123);
    tap_ok(sim_rdmsr(0xc0010201, &v) == 0 && v == 0x123,
           "sim AMD ext: PERFCTR0 is PERF_CTR0 (0xc0010201)");
    tap_ok(sim_rdmsr(0xc0010200 + 2 * 5, &v) == 0 &&
           sim_rdmsr(0xc0010200 + 2 * 6, &v) == -EIO,
           "sim AMD ext: 6 counters");
    tap_ok(sim_rdmsr(0x38e, &v) == -EIO, "sim AMD: no GLOBAL_STATUS");
    tap_ok(sim_wrmsr(0xc0010201, -5ULL) == 0 &&
           sim_rdmsr(0xc0010201, &v) == 0 && v == (1ULL << 48) - 5,
           "sim AMD: a 48-bit counter, bits 63:48 of a write ignored");
    /* Counter 5 counts retired instructions (0xc0), -10. */
    sim_lvtpc_write(0x400);
    sim_wrmsr(0xc0010200 + 11, (1ULL << 48) - 10);
    sim_wrmsr(0xc0010200 + 10, 0xc0 | 1u << 16 | 1u << 17 | 1u << 20 |
              1u << 22);
    sim_run(100, 10, 100, 0, 0);
    sim_rdmsr(0xc0010200 + 11, &v);
    tap_ok(nmi_count == 1 && nmi_ovf == 1u << 5 && v == 0 &&
           lvtpc_at_nmi == 0x400,
           "sim AMD: 10 instructions wrap counter 5: NMI, LVTPC left as is");

    sim_init(&m_amd_10h, 1, 2000000);
    tap_ok(sim_rdmsr(0xc0010200, &v) == -EIO,
           "sim AMD family 0x10: no PerfCtrExtCore bank");
}

void test_sim(void)
{
    sim_intel();
    sim_full_width();
    sim_amd();
}
