/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.c: the simulated PMU (see sim.h); pmu.h's hardware interface
 * (pmu_hw_*()) over it is sim-hw.c.
 *
 * MSR numbers and bits are the simulator's own (sim-msr.h), not pmu.h's:
 * a wrong constant in the driver meets a faulting or silent simulated
 * MSR.  Its CPUID is sim-cpuid.c, its MSR snapshots sim-snapshot.c.
 */
#include <assert.h>
#include <stdlib.h>

#include "emul.h"

#include "sim-msr.h"

static const struct sim_model *model;
static struct sim_cpu cpus[SIM_NR_CPUS];
static unsigned int nr_cpus, cur;
static uint64_t tsc_khz;
static void (*nmi_entry)(unsigned int cpu, uint64_t ovf);

/* ---- The model ---- */

static bool intel(void)
{
    return model->vendor == SIM_INTEL;
}

static bool amd(void)
{
    return model->vendor == SIM_AMD || model->vendor == SIM_HYGON;
}

/* Intel architectural perfmon version, 0 without CPUID leaf 0xa. */
static unsigned int arch_version(void)
{
    return intel() && model->max_leaf >= 0xa ? model->version : 0;
}

bool sim_has_global(void)
{
    return arch_version() >= 2;
}

unsigned int sim_nr_gp(void)
{
    if ( amd() )
        return model->ext_core ? 6 : 4;
    if ( intel() )
        return arch_version() ? model->nr_gp : 2;   /* P6 */
    return 0;
}

unsigned int sim_nr_fixed(void)
{
    return sim_has_global() ? model->nr_fixed : 0;
}

static uint64_t mask(unsigned int width)
{
    return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

unsigned int sim_width(unsigned int id)
{
    if ( amd() )
        return 48;
    if ( id >= 32 )
        return model->fixed_width;
    return arch_version() ? model->gp_width : 40;
}

unsigned int sim_counters(unsigned int ids[64])
{
    unsigned int n = 0, i;

    for ( i = 0; i < sim_nr_gp(); i++ )
        ids[n++] = SIM_GP(i);
    for ( i = 0; i < sim_nr_fixed(); i++ )
        ids[n++] = SIM_FIXED(i);
    return n;
}

static uint64_t *value(struct sim_cpu *c, unsigned int id)
{
    return id >= 32 ? &c->fixed[id - 32] : &c->ctr[id];
}

/* Architectural events (SDM table 18-1) and the CPUID.0xA.EBX bits. */
static enum sim_event intel_event(uint64_t sel)
{
    unsigned int code = sel & 0xff, umask = (sel >> 8) & 0xff, bit;
    enum sim_event e;

    if ( code == 0x3c && umask == 0x00 )
        e = SIM_EV_CYCLES, bit = 0;
    else if ( code == 0xc0 && umask == 0x00 )
        e = SIM_EV_INSTRUCTIONS, bit = 1;
    else if ( code == 0x3c && umask == 0x01 )
        e = SIM_EV_REF_CYCLES, bit = 2;
    else if ( code == 0x2e && umask == 0x41 )
        e = SIM_EV_LLC_MISSES, bit = 4;
    else if ( code == 0xc5 && umask == 0x00 )
        e = SIM_EV_BRANCH_MISSES, bit = 6;
    else
        return SIM_EV_NONE;
    /* An event the CPU does not have counts nothing. */
    if ( arch_version() &&
         (bit >= model->ebx_len || (model->unavailable & (1u << bit))) )
        return SIM_EV_NONE;
    return e;
}

/* AMD core events: EventSelect[11:8] is at bits 35:32. */
static enum sim_event amd_event(uint64_t sel)
{
    unsigned int code = (sel & 0xff) | ((sel >> 24) & 0xf00);

    if ( (sel >> 8) & 0xff )
        return SIM_EV_NONE;
    switch ( code )
    {
    case 0x76: return SIM_EV_CYCLES;
    case 0xc0: return SIM_EV_INSTRUCTIONS;
    case 0xc3: return SIM_EV_BRANCH_MISSES;
    }
    return SIM_EV_NONE;
}

/* What counter id counts now, in this pCPU's ring; SIM_EV_NONE: nothing. */
static enum sim_event counting(const struct sim_cpu *c, unsigned int id)
{
    static const enum sim_event fixed_ev[SIM_MAX_FIXED] = {
        SIM_EV_INSTRUCTIONS, SIM_EV_CYCLES, SIM_EV_REF_CYCLES,
    };
    uint64_t sel;

    if ( id >= 32 )
    {
        unsigned int nib = (c->fixed_ctrl >> (4 * (id - 32))) & 0xf;

        if ( !(c->global_ctrl & (1ULL << id)) ||
             !(nib & (c->ring == 3 ? 2 : 1)) )
            return SIM_EV_NONE;
        return fixed_ev[id - 32];
    }
    sel = c->evntsel[id];
    if ( !(sel & SEL_EN) || !(sel & (c->ring == 3 ? SEL_USR : SEL_OS)) )
        return SIM_EV_NONE;
    if ( sim_has_global() && !(c->global_ctrl & (1ULL << id)) )
        return SIM_EV_NONE;
    return intel() ? intel_event(sel) : amd_event(sel);
}

static bool pmi_enabled(const struct sim_cpu *c, unsigned int id)
{
    if ( id >= 32 )
        return (c->fixed_ctrl >> (4 * (id - 32))) & 8;
    return c->evntsel[id] & SEL_INT;
}

/* ---- Set up ---- */

uint64_t sim_nmi_faults;
uint64_t sim_plain_faults;

void sim_init(const struct sim_model *m, unsigned int n, uint64_t khz)
{
    unsigned int i;

    assert(n >= 1 && n <= SIM_NR_CPUS && khz);
    assert(m->nr_gp <= SIM_MAX_GP && m->nr_fixed <= SIM_MAX_FIXED);
    model = m;
    nr_cpus = n;
    tsc_khz = khz;
    cur = 0;
    memset(cpus, 0, sizeof(cpus));
    for ( i = 0; i < n; i++ )
    {
        struct sim_cpu *c = &cpus[i];

        c->tsc = c->tsc_base = 1000000 + i;
        c->core_khz = khz;
        c->lvtpc = SIM_LVTPC_RESET;
        /* At reset GLOBAL_CTRL enables the GP counters (SDM 18.2.2). */
        c->global_ctrl = sim_has_global() ? mask(sim_nr_gp()) : 0;
    }
}

const struct sim_model *sim_model(void)
{
    return model;
}

unsigned int sim_nr_cpus(void)
{
    return nr_cpus;
}

uint64_t sim_tsc_khz(void)
{
    return tsc_khz;
}

void sim_set_cpu(unsigned int cpu)
{
    assert(cpu < nr_cpus);
    assert(!cpus[cur].in_nmi && !cpus[cur].defer);
    cur = cpu;
}

unsigned int sim_cur(void)
{
    return cur;
}

struct sim_cpu *sim_cpu(unsigned int cpu)
{
    assert(cpu < nr_cpus);
    return &cpus[cpu];
}

void sim_set_nmi_entry(void (*entry)(unsigned int cpu, uint64_t ovf))
{
    nmi_entry = entry;
}

/* ---- Counting, overflow, delivery ---- */

static void raise_pmi(struct sim_cpu *c, uint64_t ovf)
{
    c->pmis++;
    if ( (c->lvtpc & LVT_MASKED) || (c->lvtpc & LVT_DM_MASK) != LVT_DM_NMI )
    {
        c->pmis_masked++;
        return;
    }
    if ( c->pmi_lost )
    {
        c->pmis_lost++;
        return;
    }
    if ( model->pmi_masks_lvtpc )
    {
        c->lvtpc |= LVT_MASKED;
        c->masked_on_delivery++;
    }
    if ( c->pending )
        c->pmis_merged++;
    else
        c->pending_due = c->events[SIM_EV_CYCLES] + c->pmi_latency;
    c->pending = true;
    c->pending_ovf |= ovf;
}

/* Take a due NMI at this instruction boundary, unless NMIs are blocked. */
void sim_deliver(struct sim_cpu *c)
{
    uint64_t ovf;

    assert(c == &cpus[cur]);
    while ( c->pending && !c->in_nmi && !c->defer &&
            c->events[SIM_EV_CYCLES] >= c->pending_due )
    {
        ovf = c->pending_ovf;
        c->pending = false;
        c->pending_ovf = 0;
        c->in_nmi = true;
        c->nmis++;
        if ( nmi_entry )
            nmi_entry(cur, ovf);
        c->in_nmi = false;                  /* IRET */
    }
}

void sim_external_nmi(void)
{
    struct sim_cpu *c = &cpus[cur];

    if ( !c->pending )
        c->pending_due = c->events[SIM_EV_CYCLES];
    c->pending = true;
    sim_deliver(c);
}

/* Execute delta[] events: no counter wraps more than once (sim_run()). */
static void advance(struct sim_cpu *c, const uint64_t delta[SIM_EV_NR])
{
    unsigned int ids[64], n = sim_counters(ids), i;
    uint64_t ovf = 0, m, *v;
    enum sim_event e;

    for ( i = 0; i < n; i++ )
    {
        e = counting(c, ids[i]);
        if ( e == SIM_EV_NONE || !delta[e] )
            continue;
        m = mask(sim_width(ids[i]));
        v = value(c, ids[i]);
        assert(delta[e] <= m - *v + 1);
        *v += delta[e];
        if ( *v <= m )
            continue;
        *v &= m;
        c->overflows[ids[i]]++;
        if ( sim_has_global() )
            c->global_status |= 1ULL << ids[i];
        if ( pmi_enabled(c, ids[i]) )
            ovf |= 1ULL << ids[i];
    }
    for ( e = 0; e < SIM_EV_NR; e++ )
        c->events[e] += delta[e];
    c->cyc_since += delta[SIM_EV_CYCLES];
    c->tsc = c->tsc_base +
             (uint64_t)((unsigned __int128)c->cyc_since * tsc_khz /
                        c->core_khz);
    /* Counters overflowing together raise one PMI. */
    if ( ovf )
        raise_pmi(c, ovf);
}

/* Smallest pos of base with floor(tot * pos / base) >= target. */
static uint64_t when(uint64_t target, uint64_t tot, uint64_t base)
{
    unsigned __int128 p = (unsigned __int128)target * base;

    return (p + tot - 1) / tot;
}

void sim_run(uint64_t cycles, uint64_t instructions, uint64_t ref_cycles,
             uint64_t llc_misses, uint64_t branch_misses)
{
    struct sim_cpu *c = &cpus[cur];
    const uint64_t tot[SIM_EV_NR] = {
        cycles, instructions, ref_cycles, llc_misses, branch_misses,
    };
    uint64_t done[SIM_EV_NR] = { 0 }, delta[SIM_EV_NR];
    uint64_t base = 0, pos = 0, next, target, at, nd;
    unsigned int ids[64], n, i;
    enum sim_event e;

    for ( e = 0; e < SIM_EV_NR; e++ )
        if ( tot[e] > base )
            base = tot[e];

    while ( pos < base )
    {
        /* Stop at the next overflow... */
        next = base;
        n = sim_counters(ids);
        for ( i = 0; i < n; i++ )
        {
            e = counting(c, ids[i]);
            if ( e == SIM_EV_NONE || !tot[e] )
                continue;
            target = done[e] + (mask(sim_width(ids[i])) - *value(c, ids[i])) +
                     1;
            if ( target > tot[e] )
                continue;
            at = when(target, tot[e], base);
            if ( at < next )
                next = at;
        }
        /* ... or when a PMI on its way arrives. */
        if ( c->pending && !c->in_nmi && !c->defer && tot[SIM_EV_CYCLES] &&
             c->pending_due > c->events[SIM_EV_CYCLES] )
        {
            target = done[SIM_EV_CYCLES] +
                     (c->pending_due - c->events[SIM_EV_CYCLES]);
            if ( target <= tot[SIM_EV_CYCLES] )
            {
                at = when(target, tot[SIM_EV_CYCLES], base);
                if ( at < next )
                    next = at;
            }
        }
        assert(next > pos);

        for ( e = 0; e < SIM_EV_NR; e++ )
        {
            nd = (unsigned __int128)tot[e] * next / base;
            delta[e] = nd - done[e];
            done[e] = nd;
        }
        pos = next;
        advance(c, delta);
        sim_deliver(c);
    }
    sim_deliver(c);
}

void sim_run_ticks(uint64_t ticks, unsigned int ipc_x100,
                   uint64_t llc_per_mcycle, uint64_t br_per_mcycle)
{
    struct sim_cpu *c = &cpus[cur];
    uint64_t cyc = (unsigned __int128)ticks * c->core_khz / tsc_khz;

    sim_run(cyc, cyc * ipc_x100 / 100, ticks, cyc / 1000000 * llc_per_mcycle,
            cyc / 1000000 * br_per_mcycle);
}

void sim_idle(uint64_t ticks)
{
    struct sim_cpu *c = &cpus[cur];

    c->tsc_base += ticks;
    c->tsc += ticks;
    /* An NMI on its way wakes the pCPU. */
    if ( c->pending )
        c->pending_due = c->events[SIM_EV_CYCLES];
    sim_deliver(c);
}

void sim_set_core_khz(uint64_t khz)
{
    struct sim_cpu *c = &cpus[cur];

    assert(khz);
    c->tsc_base = c->tsc;
    c->cyc_since = 0;
    c->core_khz = khz;
}

uint64_t sim_tsc(void)
{
    return cpus[cur].tsc;
}

/* ---- MSRs, LVTPC, CPUID ---- */

enum kind {
    K_NONE, K_SEL, K_CTR, K_CTR_FW, K_FIXED, K_FIXED_CTRL, K_STATUS,
    K_GLOBAL_CTRL, K_OVF_CTRL, K_CAPS,
};

static enum kind found(enum kind k, unsigned int *n, unsigned int idx)
{
    *n = idx;
    return k;
}

static enum kind decode(unsigned int msr, unsigned int *n)
{
    if ( intel() )
    {
        if ( msr >= MSR_EVNTSEL0 && msr < MSR_EVNTSEL0 + sim_nr_gp() )
            return found(K_SEL, n, msr - MSR_EVNTSEL0);
        if ( msr >= MSR_PERFCTR0 && msr < MSR_PERFCTR0 + sim_nr_gp() )
            return found(K_CTR, n, msr - MSR_PERFCTR0);
        /* IA32_A_PMCx exist when PERF_CAPABILITIES.FW_WRITE is 1. */
        if ( arch_version() && model->full_width &&
             msr >= MSR_A_PMC0 && msr < MSR_A_PMC0 + sim_nr_gp() )
            return found(K_CTR_FW, n, msr - MSR_A_PMC0);
        if ( msr >= MSR_FIXED_CTR0 && msr < MSR_FIXED_CTR0 + sim_nr_fixed() )
            return found(K_FIXED, n, msr - MSR_FIXED_CTR0);
        if ( sim_has_global() )
            switch ( msr )
            {
            case MSR_FIXED_CTRL: return K_FIXED_CTRL;
            case MSR_GLOBAL_STATUS: return K_STATUS;
            case MSR_GLOBAL_CTRL: return K_GLOBAL_CTRL;
            case MSR_GLOBAL_OVF_CTRL: return K_OVF_CTRL;
            }
        if ( msr == MSR_PERF_CAPS && model->pdcm && !model->no_perf_caps )
            return K_CAPS;
        return K_NONE;
    }
    if ( amd() )
    {
        /* The legacy bank aliases the first four PerfCtrExtCore pairs. */
        if ( msr >= SIM_K7_EVNTSEL0 && msr < SIM_K7_EVNTSEL0 + 4 )
            return found(K_SEL, n, msr - SIM_K7_EVNTSEL0);
        if ( msr >= SIM_K7_PERFCTR0 && msr < SIM_K7_PERFCTR0 + 4 )
            return found(K_CTR, n, msr - SIM_K7_PERFCTR0);
        if ( model->ext_core && msr >= MSR_F15H_CTL0 &&
             msr < MSR_F15H_CTL0 + 2 * sim_nr_gp() )
            return found((msr - MSR_F15H_CTL0) & 1 ? K_CTR : K_SEL, n,
                         (msr - MSR_F15H_CTL0) / 2);
    }
    return K_NONE;
}

static uint64_t valid_global(void)
{
    return mask(sim_nr_gp()) | (mask(sim_nr_fixed()) << 32);
}

static int rd(struct sim_cpu *c, unsigned int msr, uint64_t *val)
{
    unsigned int n = 0;

    *val = 0;                               /* as rdmsr_safe() on a fault */
    switch ( decode(msr, &n) )
    {
    case K_NONE: return -EIO;
    case K_SEL: *val = c->evntsel[n]; break;
    case K_CTR: case K_CTR_FW: *val = c->ctr[n]; break;
    case K_FIXED: *val = c->fixed[n]; break;
    case K_FIXED_CTRL: *val = c->fixed_ctrl; break;
    case K_STATUS: *val = c->global_status; break;
    case K_GLOBAL_CTRL: *val = c->global_ctrl; break;
    case K_OVF_CTRL: *val = 0; break;
    case K_CAPS: *val = (model->full_width ? CAPS_FW_WRITE : 0) | 0x5; break;
    }
    return 0;
}

static int wr(struct sim_cpu *c, unsigned int msr, uint64_t val)
{
    unsigned int n = 0;

    switch ( decode(msr, &n) )
    {
    case K_NONE:
    case K_STATUS:                          /* read-only */
    case K_CAPS:
        return -EIO;
    case K_SEL:
        /* Intel: bits 63:32 reserved; AMD: 63:42 (HG at 41:40). */
        if ( val & ~mask(intel() ? 32 : 42) )
            return -EIO;
        c->evntsel[n] = val;
        break;
    case K_CTR:
        if ( intel() )
            /* Legacy: bits 31:0 written, bit 31 sign-extended. */
            c->ctr[n] = (uint64_t)(int64_t)(int32_t)val;
        else
            /*
             * AMD: 48 bits; bits 63:48 are ignored (Xen's K7 watchdog
             * writes 0 - count unmasked, with wrmsrl(), and works).
             */
            c->ctr[n] = val;
        c->ctr[n] &= mask(sim_width(SIM_GP(n)));
        break;
    case K_CTR_FW:
        if ( val & ~mask(sim_width(SIM_GP(n))) )
            return -EIO;
        c->ctr[n] = val;
        break;
    case K_FIXED:
        if ( val & ~mask(sim_width(SIM_FIXED(n))) )
            return -EIO;
        c->fixed[n] = val;
        break;
    case K_FIXED_CTRL:
        if ( val & ~mask(4 * sim_nr_fixed()) )
            return -EIO;
        c->fixed_ctrl = val;
        break;
    case K_GLOBAL_CTRL:
        if ( val & ~valid_global() )
            return -EIO;
        c->global_ctrl = val;
        break;
    case K_OVF_CTRL:
        if ( val & ~(valid_global() | (3ULL << 62)) )
            return -EIO;
        c->global_status &= ~val;
        break;
    }
    return 0;
}

int sim_rdmsr(unsigned int msr, uint64_t *val)
{
    return rd(&cpus[cur], msr, val);
}

int sim_wrmsr(unsigned int msr, uint64_t val)
{
    return wr(&cpus[cur], msr, val);
}

uint32_t sim_lvtpc_read(void)
{
    return cpus[cur].lvtpc;
}

void sim_lvtpc_write(uint32_t val)
{
    cpus[cur].lvtpc = val & LVT_WRITABLE;
}
