/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul.h: what the Arm profiler sources under test take from Xen, in
 * userspace.  The Makefile copies unwind.c, unwind.h, mode.h,
 * unwind-roots.c and profile-unwind.h without their #include lines; the
 * .c files include this header first.  The layouts are the tree's
 * (arch/arm/include/asm/arm64/processor.h, asm/current.h), checked by the
 * asserts below against the offsets of arm64/asm-offsets.c.
 */
#ifndef TEST_PROFILE_ARM64_EMUL_H
#define TEST_PROFILE_ARM64_EMUL_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define read_atomic(p)      __atomic_load_n(p, __ATOMIC_RELAXED)
#define write_atomic(p, v)  __atomic_store_n(p, v, __ATOMIC_RELAXED)
#define smp_rmb()           __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()           __atomic_thread_fence(__ATOMIC_RELEASE)
#define always_inline       inline __attribute__((always_inline))

/* From public/sysctl.h (XEN_SYSCTL_profile_op). */
#define XEN_SYSCTL_PROFILE_F_TRUNCATED       (1u << 0)
#define XEN_SYSCTL_PROFILE_F_BAD_FRAME       (1u << 1)
#define XEN_SYSCTL_PROFILE_F_NO_STACK        (1u << 4)
#define XEN_SYSCTL_PROFILE_MODE_XEN          0
#define XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL 1
#define XEN_SYSCTL_PROFILE_MODE_GUEST_USER   2

/* From public/arch-arm.h and asm/regs.h. */
#define PSR_MODE_MASK 0x1f
#define PSR_MODE_USR  0x10U
#define PSR_MODE_FIQ  0x11U
#define PSR_MODE_IRQ  0x12U
#define PSR_MODE_SVC  0x13U
#define PSR_MODE_ABT  0x17U
#define PSR_MODE_UND  0x1bU
#define PSR_MODE_SYS  0x1fU
#define PSR_MODE_EL2h 0x09U
#define PSR_MODE_EL2t 0x08U
#define PSR_MODE_EL1h 0x05U
#define PSR_MODE_EL1t 0x04U
#define PSR_MODE_EL0t 0x00U

/* From asm/config.h: a stack block, 8 pages, aligned to its size. */
#define PAGE_SIZE           4096UL
#define STACK_SIZE          (8 * PAGE_SIZE)

/* From asm/arm64/processor.h: Xen's AArch64 exception frame. */
struct cpu_user_regs {
    uint64_t x[29];
    uint64_t fp, lr, sp, pc;
    uint64_t cpsr, hsr, pad0;
    /* The guest's EL1 state: only in a frame taken from a guest. */
    uint64_t spsr_el1, spsr_fiq_irq, spsr_und_abt, sp_el0, sp_el1, elr_el1;
};

_Static_assert(offsetof(struct cpu_user_regs, fp) == 232, "fp at 232");
_Static_assert(offsetof(struct cpu_user_regs, lr) == 240, "lr at 240");
_Static_assert(offsetof(struct cpu_user_regs, sp) == 248, "sp at 248");
_Static_assert(offsetof(struct cpu_user_regs, pc) == 256, "pc at 256");
_Static_assert(offsetof(struct cpu_user_regs, cpsr) == 264, "cpsr at 264");
_Static_assert(offsetof(struct cpu_user_regs, spsr_el1) == 288,
               "spsr_el1 (UREGS_kernel_sizeof) at 288");
_Static_assert(sizeof(struct cpu_user_regs) == 336, "336 bytes");

/* From asm/current.h: at the top of every stack block. */
struct cpu_info {
    struct cpu_user_regs guest_cpu_user_regs;
    unsigned long elr;
    uint32_t flags;
};

_Static_assert(sizeof(struct cpu_info) == 352, "cpu_info is 352 bytes");

/* The headers under test, copied without their #include lines. */
#include "profile-unwind.h"
#include "unwind.h"
#include "mode.h"

#endif /* TEST_PROFILE_ARM64_EMUL_H */
