/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.c: build a sample record from an interrupted x86 context.
 *
 * Runs in IRQ or NMI context on the sampled pCPU: no lock, no fault, no
 * printk.  Xen context: the interrupted rip, then the frame-pointer walk
 * of the interrupted stack.  Guest context: the guest's IP, domain, vCPU
 * and mode only; guest memory is never read.
 */
#include <xen/lib.h>
#include <xen/profile.h>
#include <xen/sched.h>
#include <xen/smp.h>
#include <asm/current.h>
#include <asm/msr.h>
#include <asm/regs.h>
#ifdef CONFIG_HVM
#include <asm/hvm/hvm.h>
#include <asm/hvm/svm/vmcb.h>
#endif
#include <public/profilectl.h>

#include "unwind.h"

#ifdef CONFIG_HVM
/* Where an interrupt taken on the way out of an SVM guest lands. */
extern char svm_stgi_label[];
#endif

/*
 * If regs is a guest's context, store its IP and mode and return true.
 * With SVM, an interrupt that made the guest exit is taken in Xen at
 * svm_stgi_label, where the guest's state is still in the VMCB only.
 */
static bool guest_context(const struct vcpu *v,
                          const struct cpu_user_regs *regs, uint64_t *ip,
                          unsigned int *mode)
{
    bool kernel;

    if ( is_idle_vcpu(v) )
        return false;
    if ( guest_mode(regs) )
    {
        *ip = regs->rip;
#ifdef CONFIG_HVM
        if ( is_hvm_vcpu(v) )
            kernel = hvm_get_cpl((struct vcpu *)v) != 3;
        else
#endif
            kernel = guest_kernel_mode(v, regs);
    }
#ifdef CONFIG_HVM
    else if ( is_hvm_vcpu(v) && cpu_has_svm &&
              regs->rip == (unsigned long)svm_stgi_label )
    {
        *ip = v->arch.hvm.svm.vmcb->rip;
        kernel = hvm_get_cpl((struct vcpu *)v) != 3;
    }
#endif
    else
        return false;

    *mode = kernel ? XEN_PROFILE_MODE_GUEST_KERNEL
                   : XEN_PROFILE_MODE_GUEST_USER;
    return true;
}

unsigned int arch_profile_record(struct xen_profile_record *rec,
                                 const struct cpu_user_regs *regs,
                                 unsigned int max_depth)
{
    const struct vcpu *v = current;
    uint64_t *ip = (uint64_t *)(rec + 1);
    unsigned int n = 1, flags = 0, mode;

    if ( is_idle_vcpu(v) )
        flags |= XEN_PROFILE_F_IDLE;
    else if ( is_hvm_vcpu(v) )
        flags |= XEN_PROFILE_F_HVM;

    if ( !guest_context(v, regs, &ip[0], &mode) )
    {
        unsigned long sp = regs->rsp;

        mode = XEN_PROFILE_MODE_XEN;
        ip[0] = regs->rip;
        n += profile_unwind(regs->rbp, sp,
                            get_stack_trace_bottom(sp) + sizeof(long),
                            ip + 1, max_depth, &flags);
    }

    rec->size = sizeof(*rec) + n * sizeof(*ip);
    rec->type = XEN_PROFILE_REC_SAMPLE;
    rec->flags = flags;
    rec->domid = v->domain->domain_id;
    rec->vcpu = v->vcpu_id;
    rec->cpu = smp_processor_id();
    rec->mode = mode;
    rec->nr_frames = n;
    rec->pad = 0;
    rec->tsc = rdtsc();

    return rec->size;
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
