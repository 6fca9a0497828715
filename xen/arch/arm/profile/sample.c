/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.c: take a sample of an interrupted Arm (AArch64) context: build
 * its record and commit it to the common code (xen/profile-source.h), for
 * the hypervisor timer hook and the PMU source (pmu.c).
 *
 * Runs in IRQ context on the sampled pCPU: no lock, no fault, no printk.
 * The interrupted frame is a guest's exactly when it is this stack's
 * guest_cpu_user_regs (what guest_mode() computes, without its ASSERTs,
 * which must not fire in a sample): then the guest's PC, domain, vCPU
 * and mode (from the saved PSTATE) only; guest memory is never read.
 * Otherwise it is Xen's: the interrupted PC, then the frame-record walk
 * of the stack we run on ourselves (unwind.c), if the interrupted SP
 * lies in it.
 */
#include <xen/init.h>
#include <xen/irq.h>
#include <xen/kernel.h>
#include <xen/lib.h>
#include <xen/profile.h>
#include <xen/profile-source.h>
#include <xen/profile-unwind.h>
#include <xen/sched.h>
#include <xen/smp.h>
#include <asm/current.h>
#include <asm/regs.h>
#include <asm/time.h>
#include <public/sysctl.h>

#include "mode.h"
#include "sample.h"
#include "unwind.h"

/* Where walks end: written before a session starts, read by samples. */
static struct profile_unwind_roots __read_mostly roots;

/*
 * Functions whose frame is the outermost of a walk: the guest vectors
 * (arm64/entry.S: above their frame is the guest's x29), the targets of
 * reset_stack_and_jump() and switch_stack_and_jump() (the idle loop, a
 * new vCPU's return to its guest, the boot CPU's init_done()), a new
 * vCPU's first function, and a secondary CPU's start.  Static ones are
 * found by name ("file#name" in the symbol table).
 */
static const char *const root_names[] = {
    "guest_sync_slowpath", "guest_irq", "guest_error",
    "guest_sync_compat", "guest_irq_compat", "guest_error_compat",
    "return_to_new_vcpu32", "return_to_new_vcpu64", "idle_loop",
    "continue_new_vcpu", "init_done", "start_secondary",
};

/* Once at boot: a scan of the whole symbol table, not in a sysctl. */
static int __init cf_check add_named_roots(void)
{
    BUILD_BUG_ON(ARRAY_SIZE(root_names) > PROFILE_UNWIND_MAX_ROOTS);
    profile_unwind_roots_init(&roots, (unsigned long)_stext,
                              (unsigned long)_etext - (unsigned long)_stext);
    profile_add_named_roots(&roots, root_names, ARRAY_SIZE(root_names));

    return 0;
}
__initcall(add_named_roots);

/* Every root of Arm is a function of the table, found at boot. */
void arch_profile_prepare(void)
{
}

/*
 * Fill rec from the interrupted context regs of this pCPU: domain, vCPU,
 * mode, the interrupted PC and, in Xen context, up to max_depth return
 * addresses.
 */
static void build_record(struct xen_sysctl_profile_record *rec,
                         const struct cpu_user_regs *regs,
                         unsigned int max_depth)
{
    const struct vcpu *v = current;
    uint64_t *ip = (uint64_t *)(rec + 1);
    unsigned int n = 1, flags = 0, mode;

    /* Every Arm domain is an HVM one (XEN_DOMCTL_CDF_hvm is mandatory). */
    if ( is_idle_vcpu(v) )
        flags |= XEN_SYSCTL_PROFILE_F_IDLE;
    else
        flags |= XEN_SYSCTL_PROFILE_F_HVM;

    ip[0] = regs->pc;
    if ( regs == guest_cpu_user_regs() && !is_idle_vcpu(v) )
        mode = arm_profile_guest_mode(regs->cpsr);
    else
    {
        /* This stack's block, from the stack we run on ourselves. */
        unsigned long base = (unsigned long)get_cpu_info() & ~(STACK_SIZE - 1);

        mode = XEN_SYSCTL_PROFILE_MODE_XEN;
        if ( hyp_mode(regs) )
            n += profile_walk(regs->pc, regs->lr, regs->sp, regs->fp, base,
                              &roots, ip + 1, max_depth, &flags);
        else
            flags |= XEN_SYSCTL_PROFILE_F_NO_STACK;
    }

    profile_record_header(rec, n, flags, mode, get_cycles());
}

void arm_profile_sample(const struct cpu_user_regs *regs)
{
    unsigned int max_depth;
    struct xen_sysctl_profile_record *rec = profile_sample_begin(&max_depth);

    if ( !rec )
        return;
    build_record(rec, regs, max_depth);
    profile_sample_commit(rec);
}

void profile_timer_sample(void)
{
    /* The interrupted context, as do_IRQ() recorded it. */
    if ( profile_timer_due() )
        arm_profile_sample(get_irq_regs());
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
