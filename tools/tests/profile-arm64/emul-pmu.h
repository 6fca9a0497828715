/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul-pmu.h: what xen/arch/arm/profile/pmu.c takes from Xen, in
 * userspace, over a simulated PMUv3 and GIC (test-pmu.c).  The Makefile
 * copies pmu.c, xen/common/pmu-owner.c and the headers they need without
 * their #include lines, with this header first.  Two pCPUs; per-CPU
 * variables are arrays indexed by the one that runs (sim_cpu_id).
 */
#ifndef TEST_PROFILE_ARM64_EMUL_PMU_H
#define TEST_PROFILE_ARM64_EMUL_PMU_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <xen/sysctl.h>

#define register_t xen_register_t  /* not libc's */
typedef uint64_t xen_register_t;
typedef int64_t s_time_t;

#define cf_check
#define __read_mostly
#define XENLOG_WARNING      ""
#define XENLOG_G_WARNING    ""
#define ACCESS_ONCE(x)      (*(volatile typeof(x) *)&(x))
#define write_atomic(p, v)  __atomic_store_n(p, v, __ATOMIC_RELAXED)
#define isb()               ((void)0)
#define printk(fmt, ...)    (sim_printk++)
extern unsigned int sim_printk;

/* Per-CPU variables. */
#define SIM_NR_CPUS         2
extern unsigned int sim_cpu_id;
#define DEFINE_PER_CPU(type, name) __typeof__(type) per_cpu__##name[SIM_NR_CPUS]
#define DECLARE_PER_CPU(type, name) \
    extern __typeof__(type) per_cpu__##name[SIM_NR_CPUS]
#define this_cpu(name)      (per_cpu__##name[sim_cpu_id])
#define per_cpu(name, cpu)  (per_cpu__##name[cpu])

/* System registers of the running pCPU (test-pmu.c). */
uint64_t sim_read_sysreg(const char *name);
void sim_write_sysreg(const char *name, uint64_t v);
#define READ_SYSREG(r)      sim_read_sysreg(#r)
#define WRITE_SYSREG(v, r)  sim_write_sysreg(#r, (uint64_t)(v))
extern bool sim_has_pmu;
#define cpu_has_pmu         sim_has_pmu
extern unsigned long cpu_khz;
uint64_t get_cycles(void);

/* The device tree: one PMU node, its PPI. */
struct dt_device_node;
struct dt_device_match {
    const char *compatible;
};
#define DT_MATCH_COMPATIBLE(p) { .compatible = (p) }
const struct dt_device_node *dt_find_matching_node(
    const struct dt_device_node *from, const struct dt_device_match *m);
int platform_get_irq(const struct dt_device_node *np, int index);
#define NR_GIC_SGI          16
#define NR_GIC_LOCAL_IRQS   32

/* The GIC: the PMU's PPI is banked, a descriptor per pCPU. */
struct irq_desc;
struct hw_irq_controller {
    void (*enable)(struct irq_desc *desc);
    void (*disable)(struct irq_desc *desc);
};
struct irqaction {
    void (*handler)(int irq, void *dev_id);
    const char *name;
    void *dev_id;
    bool free_on_release;
};
struct irq_desc {
    const struct hw_irq_controller *handler;
    struct irqaction *action;
    int lock;
    bool enabled;                   /* unmasked at the GIC */
};
struct irq_desc *irq_to_desc(int irq);
int setup_irq(unsigned int irq, unsigned int flags, struct irqaction *a);
#define spin_lock_irqsave(l, f)      ((void)(l), (f) = 0)
#define spin_unlock_irqrestore(l, f) ((void)(l), (void)(f))

/* IPIs: run fn on that pCPU, now. */
#define cpumask_of(cpu)     (cpu)
void on_selected_cpus(unsigned int cpu, void (*fn)(void *), void *data,
                      int wait);

/* The sample path and the rest of the profiler. */
struct cpu_user_regs;
#define get_irq_regs()      ((struct cpu_user_regs *)NULL)
void arm_profile_sample(const struct cpu_user_regs *regs);

/* xen/spinlock.h, for pmu-owner.c (single-threaded). */
#define DEFINE_SPINLOCK(l)  int l
#define spin_lock(l)        ((void)(l))
#define spin_unlock(l)      ((void)(l))

/* The headers under test, copied without their #include lines. */
#define CONFIG_XEN_PROFILER 1
#define CONFIG_HAS_XEN_PROFILER_PMU 1
#include "profile-source.h"
#include "pmu-owner.h"
#include "asm-profile.h"

#endif /* TEST_PROFILE_ARM64_EMUL_PMU_H */
