/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul-atomic.h: Xen's atomic_t in userspace, for the suites that build
 * hypervisor code with a shim (tools/tests/profile, tools/tests/profile-pmu).
 * The read is relaxed, as Xen's atomic_read() is; the updates are full
 * barriers, as Xen's atomic_inc()/atomic_dec() are on x86 (a locked
 * instruction) -- at least as strong as Arm's.
 */
#ifndef TEST_COMMON_EMUL_ATOMIC_H
#define TEST_COMMON_EMUL_ATOMIC_H

typedef struct {
    int counter;
} atomic_t;

#define atomic_read(v)      __atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define atomic_inc(v) \
    ((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic_dec(v) \
    ((void)__atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_SEQ_CST))

#endif /* TEST_COMMON_EMUL_ATOMIC_H */
