/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul.h: what pmu.c, pmu-source.c and pmu-owner.c take from Xen, in
 * userspace (as tools/tests/profile/emul.h).  The Makefile copies them
 * (and pmu.h) without their #include lines, and the .c files include this
 * header first.  The hardware under them is sim.c; the rest of Xen they
 * call (NMI callback slot, IPIs, time, x86_profile_sample()) is xen-stub.c.
 */
#ifndef TEST_PMU_EMUL_H
#define TEST_PMU_EMUL_H

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sim.h"

/* xen/compiler.h, xen/kernel.h, xen/lib.h */
#define cf_check
#define __read_mostly
#define ARRAY_SIZE(a)       (sizeof(a) / sizeof((a)[0]))
/* As Xen's: the pointer comparison warns about mixed types. */
#define min(x, y) ({                            \
    const typeof(x) _x = (x);                   \
    const typeof(y) _y = (y);                   \
    (void)(&_x == &_y);                         \
    _x < _y ? _x : _y; })
#define max(x, y) ({                            \
    const typeof(x) _x = (x);                   \
    const typeof(y) _y = (y);                   \
    (void)(&_x == &_y);                         \
    _x > _y ? _x : _y; })
#define read_atomic(p)      __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define write_atomic(p, v)  __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define ACCESS_ONCE(x)      (*(volatile typeof(x) *)&(x))
#define barrier()           __asm__ __volatile__ ( "" ::: "memory" )
#define smp_mb()            __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define likely(x)           __builtin_expect(!!(x), 1)
#define unlikely(x)         __builtin_expect(!!(x), 0)
#define always_inline       inline __attribute__((always_inline))
#define ASSERT(x)           assert(x)

/* xen/lib.h: messages are kept (xen-stub.c), not printed into the TAP. */
#define XENLOG_WARNING      "<4>"
#define XENLOG_G_WARNING    "<G><4>"
void xen_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define printk(fmt, args...) xen_printk(fmt, ## args)
#define printk_once(fmt, args...) ({                \
    static bool once_;                              \
                                                    \
    if ( !once_ )                                   \
    {                                               \
        once_ = true;                               \
        xen_printk(fmt, ## args);                   \
    }                                               \
})

/* xen/percpu.h, xen/smp.h: one slot per simulated pCPU. */
#define DEFINE_PER_CPU(type, name) __typeof__(type) per_cpu__##name[SIM_NR_CPUS]
#define per_cpu(name, cpu)  (per_cpu__##name[cpu])
#define smp_processor_id()  sim_cur()
#define this_cpu(name)      per_cpu(name, smp_processor_id())

/* xen/cpumask.h, xen/smp.h */
typedef struct cpumask {
    unsigned long bits[1];
} cpumask_t;
const cpumask_t *cpumask_of(unsigned int cpu);
void on_selected_cpus(const cpumask_t *selected, void (*func)(void *info),
                      void *info, int wait);

/* xen/time.h: simulated time; asking for it lets simulated cycles pass. */
typedef int64_t s_time_t;
#define MILLISECS(ms)       ((s_time_t)((ms) * 1000000ULL))
#define NOW()               xen_now()
s_time_t xen_now(void);

/* asm/processor.h, asm/time.h */
extern unsigned long cpu_khz;
void cpu_relax(void);

/*
 * asm/x86-vendors.h, asm/cpufeature.h: the boot CPU's vendor and family
 * (xen_reset() takes them from the simulated model).
 */
#define X86_VENDOR_INTEL    (1 << 0)
#define X86_VENDOR_AMD      (1 << 1)
#define X86_VENDOR_CENTAUR  (1 << 2)
#define X86_VENDOR_HYGON    (1 << 4)
struct cpuinfo_x86 {
    uint8_t x86;                            /* family */
    uint8_t x86_vendor;
};
extern struct cpuinfo_x86 boot_cpu_data;
#define cpu_has_pdcm        (sim_model()->pdcm)

/* asm/msr-index.h: the PMU's MSRs. */
#define MSR_P6_PERFCTR(n)               (0x000000c1 + (n))
#define MSR_P6_EVNTSEL(n)               (0x00000186 + (n))
#define MSR_IA32_A_PERFCTR0             0x000004c1
#define MSR_IA32_PERF_CAPABILITIES      0x00000345
#define MSR_CORE_PERF_FIXED_CTR0        0x00000309
#define MSR_CORE_PERF_FIXED_CTR_CTRL    0x0000038d
#define MSR_CORE_PERF_GLOBAL_STATUS     0x0000038e
#define MSR_CORE_PERF_GLOBAL_CTRL       0x0000038f
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL   0x00000390
#define MSR_K7_EVNTSEL0                 0xc0010000U
#define MSR_K7_PERFCTR0                 0xc0010004U
#define MSR_AMD_FAM15H_EVNTSEL0         0xc0010200U
#define MSR_AMD_FAM15H_PERFCTR0         0xc0010201U

/* asm/apicdef.h */
#define APIC_DM_NMI                     0x400

/* asm/vpmu.h, public/pmu.h */
#define XENPMU_MODE_OFF     0
#define XENPMU_MODE_SELF    (1 << 0)
extern unsigned int vpmu_mode;

/* asm/nmi.h */
#define NMI_NONE            0
#define NMI_IO_APIC         1
#define NMI_LOCAL_APIC      2
struct cpu_user_regs;
typedef int nmi_callback_t(const struct cpu_user_regs *regs, int cpu);
nmi_callback_t *set_nmi_callback(nmi_callback_t *callback);
extern int nmi_watchdog;

/*
 * xen/spinlock.h: one thread; taking a held lock is a deadlock.  Taking
 * any lock in NMI context breaks the sample path's rules: counted.
 */
typedef struct {
    bool held;
} spinlock_t;
#define DEFINE_SPINLOCK(l) spinlock_t l = { false }
extern unsigned int xen_nmi_rule_breaks;
static inline void spin_lock(spinlock_t *l)
{
    assert(!l->held);
    if ( sim_cpu(sim_cur())->in_nmi )
        xen_nmi_rule_breaks++;
    l->held = true;
}
static inline void spin_unlock(spinlock_t *l)
{
    assert(l->held);
    l->held = false;
}

/* xen/pmu-owner.h */
#define PMU_OWNER_NONE      0
#define PMU_OWNER_HVM       1
#define PMU_OWNER_PROFILER  2
/* The tests' stand-in for any other exclusive owner. */
#define PMU_OWNER_OTHER     3
int acquire_pmu_ownership(int pmu_ownership);
void release_pmu_ownership(int pmu_ownership);
bool pmu_owned_by(int pmu_ownership);

/*
 * The real headers: public/sysctl.h (XEN_PUBLIC_INC), xen/profile.h and
 * xen/profile-source.h (with the empty headers of shim/), the x86 sample
 * path's sample.h.
 */
#include <xen/sysctl.h>
#include <xen/profile.h>
#include <xen/profile-source.h>
#include "sample.h"

/* The driver under test, copied without its #include lines. */
#include "pmu.h"

#endif /* TEST_PMU_EMUL_H */
