/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-freq.c: frequency mode.  profile_pmu_next_period() against an exact
 * (128-bit) reference: the 1/8 low-pass step, never below PROFILE_PMU_MIN_PERIOD,
 * never above max,
 * no overflow for huge values.  Then the PMU source at F Hz while the
 * events per TSC tick change (the core clock from 3 GHz to 1 GHz under
 * a 2 GHz TSC, or the IPC): the sample rate settles within 5 % of F in
 * each phase.
 */
#include "test.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

/* What profile_pmu_next_period() computes, exactly. */
static uint64_t ref_next(uint64_t period, uint64_t elapsed, uint64_t khz,
                         unsigned int f, uint64_t max)
{
    s128 target, desired, next;

    if ( !elapsed || !khz || !f )
        return period;
    target = (u128)khz * 1000 / f;
    desired = (u128)period * target / elapsed;
    next = period + (desired - (s128)period) / 8;
    if ( next < PROFILE_PMU_MIN_PERIOD )
        return PROFILE_PMU_MIN_PERIOD;
    return next > max ? max : next;
}

static void next_basic(void)
{
    const uint64_t max = (1ULL << 47) - 1;

    tap_ok(profile_pmu_next_period(12345, 0, 3000000, 1000, max) == 12345 &&
           profile_pmu_next_period(12345, 100, 0, 1000, max) == 12345 &&
           profile_pmu_next_period(12345, 100, 3000000, 0, max) == 12345,
           "next_period: nothing elapsed, no TSC rate or no frequency: "
           "unchanged");
    tap_ok(profile_pmu_next_period(3000000, 3000000, 3000000, 1000, max) == 3000000,
           "next_period: on target: unchanged");
    tap_ok(profile_pmu_next_period(1000000, 1000000, 3000000, 1000, max) == 1250000,
           "next_period: too short: 1/8 of the way up");
    tap_ok(profile_pmu_next_period(3000000, 9000000, 3000000, 1000, max) == 2750000,
           "next_period: too long: 1/8 of the way down");
    tap_ok(profile_pmu_next_period(1, 1ULL << 40, 3000000, 10000, max) ==
           PROFILE_PMU_MIN_PERIOD &&
           profile_pmu_next_period(PROFILE_PMU_MIN_PERIOD + 1, ~0ULL, 3000000, 10000, max) ==
           PROFILE_PMU_MIN_PERIOD &&
           profile_pmu_next_period(PROFILE_PMU_MIN_PERIOD, ~0ULL, 1, 10000, max) ==
           PROFILE_PMU_MIN_PERIOD,
           "next_period: never below PROFILE_PMU_MIN_PERIOD (%u): no NMI storm, no "
           "overflow inside the handler", PROFILE_PMU_MIN_PERIOD);
    tap_ok(profile_pmu_next_period(0x7fffffff, 1000, 3000000, 1, 0x7fffffff) ==
           0x7fffffff &&
           profile_pmu_next_period(max, 3, 3000000, 1, max) == max,
           "next_period: never above max");
    /* 2^44 events * 131072000 ticks is 2^61 * 1000: 0 modulo 2^64. */
    tap_ok(profile_pmu_next_period(1ULL << 44, 1, 131072, 1, max) == max &&
           profile_pmu_next_period(max, 1, 4000000, 1, max) == max &&
           profile_pmu_next_period(1000000, 1000000, ~0ULL, 1000, max) == max,
           "next_period: a product past 2^64 saturates: far too short "
           "goes up, to max");
    /* 1 kHz at 10 kHz: no tick per sample, a target of 0. */
    tap_ok(profile_pmu_next_period(3000000, 3000000, 1, 10000, max) ==
           3000000 - 3000000 / 8,
           "next_period: a target below one tick: 1/8 of the way down");
}

/*
 * A grid of small to huge values.  All stay within [1, max] and move the
 * way the exact value moves (no product wraps, a TSC of 2^40 kHz
 * included).  Plausible ones match the exact value within 1e-6:
 * a TSC up to 10 GHz, at most 64 events per tick, at least 1000 ticks
 * between overflows (an NMI takes longer than that).
 */
/* Count a failed grid point; say what it was the first time. */
static void grid_diag(unsigned int *count, const char *what, uint64_t p,
                      uint64_t elapsed, uint64_t khz, unsigned int freq,
                      uint64_t max, uint64_t got, uint64_t want)
{
    if ( (*count)++ )
        return;
    tap_diag("next_period(%#llx, %#llx, %llu, %u, %#llx) = %#llx, exactly "
             "%#llx: %s", (unsigned long long)p,
             (unsigned long long)elapsed, (unsigned long long)khz, freq,
             (unsigned long long)max, (unsigned long long)got,
             (unsigned long long)want, what);
}

static void next_grid(void)
{
    static const uint64_t periods[] = {
        1, 2, 9, 1000, 3000000, 0x7fffffff, 1ULL << 40, (1ULL << 47) - 1,
    };
    static const uint64_t elapsed[] = {
        1, 7, 1000, 3000000, 0xffffffffULL, 1ULL << 32, 1ULL << 40,
        1ULL << 63, ~0ULL,
    };
    static const uint64_t khz[] = {
        1, 1000, 2000000, 4500000, 100000000, 1ULL << 40,
    };
    static const unsigned int freqs[] = { 1, 99, 1000, 10000 };
    static const uint64_t maxes[] = { 0x7fffffff, (1ULL << 47) - 1 };
    unsigned int a, b, c, d, e, n = 0, range = 0, dir = 0, close = 0;
    uint64_t got, want, p;

    for ( a = 0; a < ARRAY_SIZE(periods); a++ )
    for ( b = 0; b < ARRAY_SIZE(elapsed); b++ )
    for ( c = 0; c < ARRAY_SIZE(khz); c++ )
    for ( d = 0; d < ARRAY_SIZE(freqs); d++ )
    for ( e = 0; e < ARRAY_SIZE(maxes); e++ )
    {
        p = min(periods[a], maxes[e]);
        got = profile_pmu_next_period(p, elapsed[b], khz[c], freqs[d], maxes[e]);
        want = ref_next(p, elapsed[b], khz[c], freqs[d], maxes[e]);
        n++;
        if ( got < PROFILE_PMU_MIN_PERIOD || got > maxes[e] )
            grid_diag(&range, "out of range", p, elapsed[b], khz[c],
                      freqs[d], maxes[e], got, want);
        if ( (got > p && want < p) || (got < p && want > p) )
            grid_diag(&dir, "wrong way", p, elapsed[b], khz[c], freqs[d],
                      maxes[e], got, want);
        if ( khz[c] <= 10000000 && p / elapsed[b] <= 64 &&
             elapsed[b] >= 1000 &&
             (got > want ? got - want : want - got) > want / 1000000 + 1 )
            grid_diag(&close, "not close", p, elapsed[b], khz[c], freqs[d],
                      maxes[e], got, want);
    }
    tap_ok(!range, "next_period grid: %u of %u out of [PROFILE_PMU_MIN_PERIOD, max]",
           range, n);
    tap_ok(!dir, "next_period grid: %u of %u move the wrong way (overflow)",
           dir, n);
    tap_ok(!close, "next_period grid: %u of %u plausible ones off the exact "
           "value by more than 1e-6", close, n);
}

/* One phase: seconds of 10 ms chunks; the worst rate after settling. */
static unsigned int phase(unsigned int seconds, unsigned int settle,
                          unsigned int f, unsigned int ipc_x100,
                          unsigned int *first)
{
    unsigned int s, i, worst = 0, dev;
    uint64_t before;

    for ( s = 0; s < seconds; s++ )
    {
        before = xen_stats[0].samples;
        for ( i = 0; i < 100; i++ )
            sim_run_ticks(sim_tsc_khz() * 10, ipc_x100, 0, 0);
        if ( s == 0 && first )
            *first = xen_stats[0].samples - before;
        if ( s < settle )
            continue;
        dev = xen_stats[0].samples - before;
        dev = dev > f ? dev - f : f - dev;
        if ( dev > worst )
            worst = dev;
    }
    return worst;
}

static const struct {
    const struct sim_model *m;
    unsigned int event, f;
    uint64_t tsc_khz, core_a, core_b;
    unsigned int ipc_a, ipc_b;
} freqs[] = {
    /* Cycles under a 2 GHz TSC: the core at 3 GHz, then 1 GHz. */
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1000, 2000000, 3000000,
      1000000, 100, 100 },
    { &m_intel_v2, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1000, 2000000, 3000000,
      1000000, 100, 100 },
    { &m_amd_17h, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 1000, 2000000, 3000000, 1000000,
      100, 100 },
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 10000, 2000000, 3000000,
      1000000, 100, 100 },
    { &m_intel_v4, XEN_SYSCTL_PROFILE_EVENT_CYCLES, 100, 2000000, 3000000,
      1000000, 100, 100 },
    /* Instructions at IPC 2, then 0.5, the clock unchanged. */
    { &m_intel_v3_fw, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 1000, 3000000,
      3000000, 3000000, 200, 50 },
    { &m_amd_10h, XEN_SYSCTL_PROFILE_EVENT_INSTRUCTIONS, 997, 3000000, 3000000,
      3000000, 200, 50 },
};

static void freq_source(void)
{
    const struct profile_source *src = arch_profile_pmu_source();
    struct profile_config cfg;
    unsigned int i, k, reason, worst, first = 0, settle;
    const unsigned int seconds = 6;
    int rc;

    for ( i = 0; i < ARRAY_SIZE(freqs); i++ )
    {
        test_setup(freqs[i].m, 1, freqs[i].tsc_khz);
        cfg = test_cfg(freqs[i].event, 0, freqs[i].f);
        rc = src->check(&cfg, &reason);
        if ( !rc )
            rc = src->start(&cfg, 0, &reason);
        if ( !tap_ok(!rc, "freq %s, event %u, %u Hz: started",
                     freqs[i].m->name, freqs[i].event, freqs[i].f) )
            continue;
        /* 1/8 of the error per sample: some 40 samples to settle. */
        settle = freqs[i].f >= 200 ? 1 : 3;

        /* Two phases: the core clock and the IPC change in between. */
        for ( k = 0; k < 2; k++ )
        {
            uint64_t core = k ? freqs[i].core_b : freqs[i].core_a;
            unsigned int ipc = k ? freqs[i].ipc_b : freqs[i].ipc_a;

            sim_set_core_khz(core);
            worst = phase(seconds, settle, freqs[i].f, ipc, &first);
            tap_ok(worst * 20 <= freqs[i].f, "freq %s, %u Hz, %llu MHz, "
                   "IPC %u%%: within %u Hz from second %u (first second "
                   "%u)", freqs[i].m->name, freqs[i].f,
                   (unsigned long long)core / 1000, ipc, worst, settle + 1,
                   first);
        }
        tap_ok(!xen_stats[0].passed && !xen_stats[0].unknown,
               "freq %s, %u Hz: every NMI claimed", freqs[i].m->name,
               freqs[i].f);
        src->stop(0);
    }
}

/*
 * A rare event in frequency mode: the first period is a guess made for
 * cycles (cpu_khz * 1000 / F), and the period then moves 1/8 of the way
 * per sample.  Reported, not judged: how long until the rate is right.
 */
static void freq_rare_event(void)
{
    const struct profile_source *src = arch_profile_pmu_source();
    struct profile_config cfg;
    unsigned int reason, s, i;
    uint64_t before, n = 0;

    test_setup(&m_intel_v3_fw, 1, 3000000);
    cfg = test_cfg(XEN_SYSCTL_PROFILE_EVENT_LLC_MISSES, 0, 1000);
    if ( src->check(&cfg, &reason) || src->start(&cfg, 0, &reason) )
        return;
    /* 1000 LLC misses per million cycles: 3 million a second. */
    for ( s = 0; s < 60; s++ )
    {
        before = xen_stats[0].samples;
        for ( i = 0; i < 10; i++ )
            sim_run_ticks(sim_tsc_khz() * 100, 100, 1000, 0);
        n = xen_stats[0].samples - before;
        if ( n >= 950 )
            break;
    }
    tap_diag("freq LLC misses at 3e6/s, 1000 Hz: %llu samples in second %u "
             "(%llu in all)", (unsigned long long)n, s + 1,
             (unsigned long long)xen_stats[0].samples);
    src->stop(0);
}

void test_freq(void)
{
    next_basic();
    next_grid();
    freq_source();
    freq_rare_event();
}
