/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-stub.c: the parts of Xen the PMU source calls or is called by, over
 * the simulator (see xen-stub.h).  do_nmi() and the watchdog follow Xen's
 * arch/x86/traps.c (with the profiler's hook) and arch/x86/nmi.c:
 * the callback first, then profile_pmu_nmi(); an NMI neither claims goes
 * to nmi_watchdog_tick() when the watchdog runs (which re-arms its
 * counter whatever happened, counts "alerts" when no nmi_timer tick came
 * since the last NMI, and never clears the counter's GLOBAL_STATUS bit),
 * else it is an unknown NMI unless the profiler said it was its own.
 */
#include <stdarg.h>

#include "test.h"

#define P6_EVNTSEL0         0x186
#define P6_PERFCTR0         0x0c1
#define K7_EVNTSEL0         0xc0010000
#define K7_PERFCTR0         0xc0010004
#define EVNTSEL_USR         (1u << 16)
#define EVNTSEL_OS          (1u << 17)
#define EVNTSEL_INT         (1u << 20)
#define EVNTSEL_EN          (1u << 22)
#define WATCHDOG_TIMEOUT    5               /* opt_watchdog_timeout */
#define K7_EVENT_WIDTH      32

unsigned long cpu_khz;
unsigned int vpmu_mode;
int nmi_watchdog;
bool watchdog_force;
unsigned int xen_nmi_hz;
struct xen_nmi_stats xen_stats[SIM_NR_CPUS];
void (*xen_sample_hook)(unsigned int cpu);

char xen_log[1024];
unsigned int xen_log_count;

static nmi_callback_t *nmi_callback;
static unsigned int p6_event_width;
static struct {
    uint64_t last_irq_sums, alert_counter;
} wd[SIM_NR_CPUS];

static void do_nmi(unsigned int cpu, uint64_t ovf);

struct cpuinfo_x86 boot_cpu_data;

void xen_reset(void)
{
    static const uint8_t vendors[] = {
        [SIM_INTEL] = X86_VENDOR_INTEL, [SIM_AMD] = X86_VENDOR_AMD,
        [SIM_HYGON] = X86_VENDOR_HYGON, [SIM_CENTAUR] = X86_VENDOR_CENTAUR,
    };

    boot_cpu_data.x86_vendor = vendors[sim_model()->vendor];
    boot_cpu_data.x86 = sim_model()->family ?: 6;
    nmi_callback = NULL;
    memset(xen_stats, 0, sizeof(xen_stats));
    memset(wd, 0, sizeof(wd));
    vpmu_mode = XENPMU_MODE_OFF;
    nmi_watchdog = NMI_NONE;
    watchdog_force = false;
    cpu_khz = sim_tsc_khz();
    xen_nmi_hz = 100;
    xen_sample_hook = NULL;
    sim_set_nmi_entry(do_nmi);
}

/* Locks taken and messages printed in NMI context (emul.h). */
unsigned int xen_nmi_rule_breaks;

void xen_printk(const char *fmt, ...)
{
    size_t len = strlen(xen_log);
    va_list ap;

    if ( sim_cpu(sim_cur())->in_nmi )
        xen_nmi_rule_breaks++;
    va_start(ap, fmt);
    vsnprintf(xen_log + len, sizeof(xen_log) - len, fmt, ap);
    va_end(ap);
    xen_log_count++;
}

nmi_callback_t *set_nmi_callback(nmi_callback_t *callback)
{
    nmi_callback_t *old = nmi_callback;

    nmi_callback = callback;
    return old;
}

nmi_callback_t *xen_nmi_callback(void)
{
    return nmi_callback;
}

s_time_t xen_time(void)
{
    return (unsigned __int128)sim_tsc() * 1000000 / sim_tsc_khz();
}

int xen_vpmu_mode_set(unsigned int mode)
{
    vpmu_mode = mode;
    if ( mode != XENPMU_MODE_OFF && pmu_owned_by(PMU_OWNER_PROFILER) )
    {
        vpmu_mode = XENPMU_MODE_OFF;
        return -EBUSY;
    }
    return 0;
}

/* Reading the time takes a few cycles. */
s_time_t xen_now(void)
{
    sim_run(40, 20, 40, 0, 0);
    return xen_time();
}

void cpu_relax(void)
{
    sim_run(150, 10, 150, 0, 0);
}

const cpumask_t *cpumask_of(unsigned int cpu)
{
    static cpumask_t masks[SIM_NR_CPUS];

    assert(cpu < SIM_NR_CPUS);
    masks[cpu].bits[0] = 1UL << cpu;
    return &masks[cpu];
}

/* An IPI, waited for: func runs on each pCPU of selected in turn. */
void on_selected_cpus(const cpumask_t *selected, void (*func)(void *info),
                      void *info, int wait)
{
    unsigned int cpu, prev = sim_cur();

    assert(wait);
    for ( cpu = 0; cpu < sim_nr_cpus(); cpu++ )
    {
        if ( !(selected->bits[0] & (1UL << cpu)) )
            continue;
        sim_set_cpu(cpu);
        func(info);
    }
    sim_set_cpu(prev);
}

void x86_profile_sample(const struct cpu_user_regs *regs)
{
    unsigned int cpu = sim_cur();

    xen_stats[cpu].samples++;
    if ( xen_sample_hook )
        xen_sample_hook(cpu);
}

void profile_sample_throttled(void)
{
    xen_stats[sim_cur()].throttled++;
}

/* ---- The NMI watchdog (arch/x86/nmi.c) ---- */

static unsigned int wd_msr(bool sel)
{
    if ( sim_model()->vendor == SIM_INTEL )
        return sel ? P6_EVNTSEL0 : P6_PERFCTR0;
    return sel ? K7_EVNTSEL0 : K7_PERFCTR0;
}

static void write_watchdog_counter(void)
{
    uint64_t count = cpu_khz * 1000ULL / xen_nmi_hz;

    sim_wrmsr(wd_msr(false), 0 - count);
}

void xen_watchdog_rearm(void)
{
    write_watchdog_counter();
}

void xen_watchdog_wrap_in(uint64_t cycles)
{
    sim_wrmsr(wd_msr(false), 0 - cycles);
}

/* setup_p6_watchdog() / setup_k7_watchdog(), then check_nmi_watchdog(). */
void xen_watchdog_setup(void)
{
    bool intel = sim_model()->vendor == SIM_INTEL;
    unsigned int i, n = intel ? 2 : 4;
    uint32_t r[4], evntsel;

    nmi_watchdog = NMI_LOCAL_APIC;
    xen_nmi_hz = cpu_khz >> 20 ? cpu_khz >> 20 : 1;
    if ( intel )
    {
        sim_cpuid(0xa, 0, r);
        p6_event_width = (r[0] >> 16) & 0xff;
    }
    for ( i = 0; i < n; i++ )
    {
        sim_wrmsr(wd_msr(true) + i, 0);
        sim_wrmsr(wd_msr(false) + i, 0);
    }
    evntsel = EVNTSEL_INT | EVNTSEL_OS | EVNTSEL_USR | (intel ? 0x3c : 0x76);
    sim_wrmsr(wd_msr(true), evntsel);
    write_watchdog_counter();
    sim_lvtpc_write(APIC_DM_NMI);
    sim_wrmsr(wd_msr(true), evntsel | EVNTSEL_EN);
}

static bool nmi_watchdog_tick(unsigned int cpu)
{
    struct xen_nmi_stats *s = &xen_stats[cpu];
    /* nmi_timer_fn() runs every second. */
    uint64_t sum = sim_tsc() / (sim_tsc_khz() * 1000);
    bool watchdog_tick = true;
    uint64_t v;

    if ( wd[cpu].last_irq_sums == sum )
    {
        if ( ++wd[cpu].alert_counter == WATCHDOG_TIMEOUT * xen_nmi_hz )
            s->wd_stuck++;
        if ( wd[cpu].alert_counter > s->wd_alert_max )
            s->wd_alert_max = wd[cpu].alert_counter;
    }
    else
    {
        wd[cpu].last_irq_sums = sum;
        wd[cpu].alert_counter = 0;
    }

    sim_rdmsr(wd_msr(false), &v);
    if ( sim_model()->vendor == SIM_INTEL )
    {
        if ( v & (1ULL << (p6_event_width - 1)) )
            watchdog_tick = false;
        sim_lvtpc_write(APIC_DM_NMI);
    }
    else if ( v & (1ULL << K7_EVENT_WIDTH) )
        watchdog_tick = false;
    write_watchdog_counter();

    if ( watchdog_tick )
        s->wd_ticks++;
    else
        s->wd_spurious++;
    return watchdog_tick;
}

/* ---- do_nmi() (arch/x86/traps.c) ---- */

static void do_nmi(unsigned int cpu, uint64_t ovf)
{
    /* The interrupted context: x86_profile_sample() here ignores it. */
    static const struct cpu_user_regs *regs;
    struct xen_nmi_stats *s = &xen_stats[cpu];
    nmi_callback_t *callback = ACCESS_ONCE(nmi_callback);
    /* The watchdog's counter is GP 0 (P6 and K7 alike). */
    uint64_t wd_bit = nmi_watchdog != NMI_NONE ? 1ULL << SIM_GP(0) : 0;
    bool handle_unknown = false;
    unsigned int profiled;

    s->nmis++;
    if ( callback && callback(regs, cpu) )
    {
        s->claimed++;
        if ( ovf & wd_bit )
            s->wd_swallowed++;
        return;
    }
    profiled = profile_pmu_nmi(regs);
    if ( profiled == PROFILE_NMI_OURS )
    {
        s->profiled++;
        if ( ovf & wd_bit )
            s->wd_swallowed++;
        /* Port 0x61, rate-limited (pCPU 0 gets the platform's NMIs). */
        if ( !cpu && profile_pmu_nmi_reason_due() )
            s->port61++;
        return;
    }
    if ( !cpu )
        s->port61++;
    s->passed++;
    if ( (ovf & ~wd_bit) && !(ovf & wd_bit) )
        s->ours_passed++;

    if ( nmi_watchdog == NMI_NONE ||
         (!nmi_watchdog_tick(cpu) && watchdog_force) )
        handle_unknown = !profiled;
    if ( handle_unknown )
        s->unknown++;
}
