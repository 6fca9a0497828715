/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu-session.c: the life cycle the architectures' PMU sources share
 * (xen/profile-source.h): the PMU taken from Xen's ownership arbitration
 * when the first pCPU starts, given back when the last stops, and each
 * pCPU programmed on itself by IPI; a pCPU that cannot be programmed is
 * not sampled, and the session goes on without it.  What taking the PMU
 * and programming a pCPU mean is the architecture's.
 *
 * Tested in userspace with x86's source and with Arm's.
 */
#include <xen/cpumask.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/profile-source.h>
#include <xen/smp.h>

static DEFINE_PER_CPU(int, start_rc);
static unsigned int nr_started;     /* pCPUs armed; under the CPU maps */
static const struct profile_config *start_cfg;  /* for start_here() */

static void cf_check start_here(void *data)
{
    this_cpu(start_rc) = arch_profile_pmu_start_here(start_cfg);
}

static void cf_check stop_here(void *data)
{
    arch_profile_pmu_stop_here();
}

int profile_pmu_check_rate(const struct profile_config *cfg,
                           uint64_t max_period)
{
    if ( cfg->frequency ? cfg->frequency > PROFILE_PMU_MAX_HZ
                        : cfg->period < PROFILE_PMU_MIN_PERIOD ||
                          cfg->period > max_period )
        return -EINVAL;

    return 0;
}

bool profile_pmu_started(void)
{
    return nr_started != 0;
}

int cf_check profile_pmu_start(const struct profile_config *cfg,
                               unsigned int cpu, unsigned int *reason)
{
    int rc;

    if ( !nr_started )
    {
        rc = arch_profile_pmu_take(reason);
        if ( rc )
            return rc;
    }
    per_cpu(start_rc, cpu) = -EIO;
    start_cfg = cfg;
    on_selected_cpus(cpumask_of(cpu), start_here, NULL, 1);
    start_cfg = NULL;
    rc = per_cpu(start_rc, cpu);
    if ( rc )
    {
        printk(XENLOG_G_WARNING
               "profiler: pCPU %u: PMU cannot be programmed (%d): not sampled\n",
               cpu, rc);
        if ( !nr_started )
            arch_profile_pmu_give();
        return rc;
    }
    nr_started++;

    return 0;
}

void cf_check profile_pmu_stop(unsigned int cpu)
{
    on_selected_cpus(cpumask_of(cpu), stop_here, NULL, 1);
    if ( --nr_started )
        return;
    arch_profile_pmu_give();
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
