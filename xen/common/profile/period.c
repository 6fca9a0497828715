/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * period.c: the frequency mode and the throttling of the PMU sources
 * (xen/profile-source.h), shared by the architectures' drivers and tested
 * in userspace with x86's.
 *
 * This file includes only what those tests can provide.
 */
#include <xen/profile-source.h>
#include <xen/types.h>

uint64_t profile_next_period(uint64_t period, uint64_t elapsed,
                             uint64_t clock_khz, unsigned int frequency,
                             uint64_t min_period, uint64_t max_period)
{
    uint64_t target, desired, quot, rem, events = period;

    if ( !elapsed || !clock_khz || !frequency )
        return period;

    /* Clock ticks that one sample should take at frequency Hz. */
    if ( clock_khz > UINT64_MAX / 1000 )
        target = UINT64_MAX / frequency;
    else
        target = clock_khz * 1000 / frequency;
    /* Keep the products below 2^64: scale events/elapsed down alike. */
    while ( elapsed > 0xffffffffULL || target > 0xffffffffULL )
    {
        if ( elapsed > 0xffffffffULL )
        {
            elapsed >>= 1;
            events >>= 1;
        }
        else
        {
            target >>= 1;
            elapsed >>= 1;
            if ( !elapsed )
                elapsed = 1;
        }
    }
    /*
     * desired = events * target / elapsed, saturated: a period far too
     * short for the frequency must go up, not wrap.  Both operands of the
     * remainder's product are below 2^32.
     */
    quot = events / elapsed;
    rem = (events % elapsed) * target / elapsed;
    if ( target && quot > (UINT64_MAX - rem) / target )
        desired = UINT64_MAX;
    else
        desired = quot * target + rem;

    /* Low-pass: move 1/8 of the way, as perf_adjust_period() does. */
    if ( desired >= period )
        period += (desired - period) / 8;
    else
        period -= (period - desired) / 8;

    if ( period < min_period )
        return min_period;
    return period > max_period ? max_period : period;
}

uint64_t profile_throttle_period(uint64_t period, uint64_t asked,
                                 uint64_t elapsed, uint64_t min_elapsed,
                                 uint64_t max_period, bool *throttled)
{
    *throttled = elapsed < min_elapsed && period < max_period;
    if ( *throttled )
        return period > max_period / 2 ? max_period : period * 2;
    /* A fixed period comes back down, with a margin against see-saws. */
    if ( asked != 0 && period > asked && elapsed / 4 >= min_elapsed )
        return period / 2 > asked ? period / 2 : asked;

    return period;
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
