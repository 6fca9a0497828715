/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul.h: what the hypervisor sources under test take from Xen, in
 * userspace (as tools/tests/vpci/emul.h).  The Makefile copies ring.c,
 * ring.h, unwind.c and unwind.h without their #include lines, and the .c
 * files include this header first.
 */
#ifndef TEST_PROFILE_EMUL_H
#define TEST_PROFILE_EMUL_H

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Ordered accesses and barriers, in terms of the C11 memory model. */
/*
 * Relaxed, as Xen's read_atomic()/write_atomic() order nothing: the
 * ring's explicit barriers are what orders its accesses, and what the
 * race test checks.
 */
#define read_atomic(p)      __atomic_load_n(p, __ATOMIC_RELAXED)
#define write_atomic(p, v)  __atomic_store_n(p, v, __ATOMIC_RELAXED)
#define ACCESS_ONCE(x)      (*(volatile typeof(x) *)&(x))
#define smp_mb()            __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()           __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()           __atomic_thread_fence(__ATOMIC_RELEASE)
#define ASSERT(x)           assert(x)
#define always_inline       inline __attribute__((always_inline))

/* From public/sysctl.h (XEN_SYSCTL_profile_op). */
#define XEN_SYSCTL_PROFILE_F_TRUNCATED  (1u << 0)
#define XEN_SYSCTL_PROFILE_F_BAD_FRAME  (1u << 1)
#define XEN_SYSCTL_PROFILE_F_NO_STACK   (1u << 4)

/* From asm/config.h: a pCPU's stack block, 8 pages, aligned to its size. */
#define PAGE_SIZE           4096UL
#define STACK_SIZE          (8 * PAGE_SIZE)

/*
 * From asm/cpu-user-regs.h (Xen 4.21 and later): Xen's exception frame,
 * which ends at ss, and the event data FRED delivers above it.
 */
struct cpu_user_regs {
    uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
    uint64_t rax, rcx, rdx, rsi, rdi;
    uint32_t error_code, entry_vector;
    uint64_t rip;
    uint16_t cs, _pad0[1];
    uint8_t saved_upcall_mask, _pad1[3];
    uint64_t rflags, rsp;
    uint64_t ss;
};

struct fred_info {
    uint64_t edata;
    uint64_t _rsvd;
};

_Static_assert(offsetof(struct cpu_user_regs, rbp) == 32, "rbp at 32");
_Static_assert(offsetof(struct cpu_user_regs, rip) == 128, "rip at 128");
_Static_assert(sizeof(struct cpu_user_regs) == 168, "ends at 168");

/* From asm/traps.h: 1 when FRED is in use (test-stack.c sets it). */
extern int8_t opt_fred;

/* From asm/current.h: at the top of the primary stack. */
struct cpu_info {
    struct cpu_user_regs guest_cpu_user_regs;
    uint8_t rest[64];
};

/* The headers under test, copied without their #include lines. */
#include "ring.h"

/*
 * A ring of size bytes (a power of 2) over the contiguous buf, as one
 * chunk: the chunk table is a compound literal, so the ring is good for
 * the block this is used in.
 */
#define RING_INIT_FLAT(r, buf, size)                                    \
    profile_ring_init(r, (uint8_t *const []){ (uint8_t *)(buf) },       \
                      __builtin_ctz(size), size)
#include "profile-unwind.h"
#include "unwind.h"

#endif /* TEST_PROFILE_EMUL_H */
