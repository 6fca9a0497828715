/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sample.h: taking a sample of an interrupted x86 context (sample.c), for
 * the sources of this architecture: the timer interrupt hook and the PMU
 * overflow NMI (pmu-source.c).
 */
#ifndef X86_PROFILE_SAMPLE_H
#define X86_PROFILE_SAMPLE_H

struct cpu_user_regs;

/*
 * Take one sample of regs on this pCPU, if it is sampling: build its
 * record and commit it (xen/profile-source.h).  IRQ or NMI context.
 */
void x86_profile_sample(const struct cpu_user_regs *regs);

#endif /* X86_PROFILE_SAMPLE_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
