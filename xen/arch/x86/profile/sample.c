/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.c: take a sample of an interrupted x86 context: build its record
 * and commit it to the common code (xen/profile-source.h), for the timer
 * interrupt hook and the PMU source (pmu-source.c).
 *
 * Runs in IRQ or NMI context on the sampled pCPU: no lock, no fault, no
 * printk.  Xen context: the interrupted rip, then the frame-pointer walk
 * of the interrupted stack, but only when the interrupted %rsp lies in
 * one of this pCPU's own stacks (unwind.c); otherwise (the SYSCALL entry
 * stub and the SYSRET exit path run on the guest's %rsp) the rip alone,
 * flagged XEN_SYSCTL_PROFILE_F_NO_STACK.  Guest context: the guest's IP,
 * domain, vCPU and mode only; guest memory is never read.
 */
#include <xen/init.h>
#include <xen/irq.h>
#include <xen/kernel.h>
#include <xen/lib.h>
#include <xen/profile.h>
#include <xen/profile-source.h>
#include <xen/profile-unwind.h>
#include <xen/rcupdate.h>
#include <xen/sched.h>
#include <xen/smp.h>
#include <xen/string.h>
#include <xen/symbols.h>
#include <xen/time.h>
#include <asm/current.h>
#include <asm/regs.h>
#ifdef CONFIG_HVM
#include <asm/hvm/hvm.h>
#include <asm/hvm/svm.h>
#endif
#include <public/sysctl.h>

#include "sample.h"
#include "unwind.h"

/* Where walks end: written before a session starts, read by samples. */
static struct profile_unwind_roots __read_mostly roots;

/*
 * Functions a fresh stack is entered with, wherever a domain of that kind
 * exists yet or not: reset_stack_and_call_ind() tails and
 * reset_stack_and_jump() targets (static ones are found by name).
 */
static const char *const root_names[] = {
    "idle_loop", "continue_pv_domain", "svm_do_resume", "vmx_do_resume",
    "svm_asm_do_resume", "vmx_asm_do_vmentry",
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

void arch_profile_prepare(void)
{
    const struct domain *d = idle_vcpu[0]->domain;

    profile_add_root(&roots, (unsigned long)d->arch.ctxt_switch->tail);
    rcu_read_lock(&domlist_read_lock);
    for_each_domain ( d )
        if ( d->arch.ctxt_switch )
            profile_add_root(&roots,
                             (unsigned long)d->arch.ctxt_switch->tail);
    rcu_read_unlock(&domlist_read_lock);
}

/*
 * If regs is a guest's context, store its IP and mode and return true.
 * With SVM, an interrupt that made the guest exit is taken in Xen at
 * svm_stgi_label, where the guest's state is still in the VMCB only
 * (using_svm() is false at build time without AMD_SVM: no reference to
 * either is left).
 */
static bool guest_context(struct vcpu *v, const struct cpu_user_regs *regs,
                          uint64_t *ip, unsigned int *mode)
{
    bool kernel;

    if ( is_idle_vcpu(v) )
        return false;
    if ( guest_mode(regs) )
    {
        *ip = regs->rip;
#ifdef CONFIG_HVM
        if ( is_hvm_vcpu(v) )
            kernel = hvm_get_cpl(v) != 3;
        else
#endif
            kernel = guest_kernel_mode(v, regs);
    }
#ifdef CONFIG_HVM
    else if ( is_hvm_vcpu(v) && using_svm() &&
              regs->rip == (unsigned long)svm_stgi_label )
    {
        *ip = svm_vmcb_rip(v);
        kernel = hvm_get_cpl(v) != 3;
    }
#endif
    else
        return false;

    *mode = kernel ? XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL
                   : XEN_SYSCTL_PROFILE_MODE_GUEST_USER;
    return true;
}

/*
 * Fill rec from the interrupted context regs of this pCPU: domain, vCPU,
 * mode, the interrupted IP and, in Xen context, up to max_depth return
 * addresses.
 */
static void build_record(struct xen_sysctl_profile_record *rec,
                         const struct cpu_user_regs *regs,
                         unsigned int max_depth)
{
    struct vcpu *v = current;
    uint64_t *ip = (uint64_t *)(rec + 1);
    unsigned int n = 1, flags = 0, mode;

    if ( is_idle_vcpu(v) )
        flags |= XEN_SYSCTL_PROFILE_F_IDLE;
    else if ( is_hvm_vcpu(v) )
        flags |= XEN_SYSCTL_PROFILE_F_HVM;

    if ( !guest_context(v, regs, &ip[0], &mode) )
    {
        /* This pCPU's stack block, from the stack we run on ourselves. */
        unsigned long base = (unsigned long)get_cpu_info() & ~(STACK_SIZE - 1);

        mode = XEN_SYSCTL_PROFILE_MODE_XEN;
        ip[0] = regs->rip;
        n += profile_walk(regs->rip, regs->rsp, regs->rbp, base, &roots,
                          ip + 1, max_depth, &flags);
    }

    profile_record_header(rec, n, flags, mode, get_cycles());
}

void x86_profile_sample(const struct cpu_user_regs *regs)
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
        x86_profile_sample(get_irq_regs());
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
