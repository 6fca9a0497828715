/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul-timer.h: what xen/common/profile/timer.c takes from Xen, in
 * userspace, on top of emul-control.h (the same struct profile_cpu).  The
 * Makefile copies timer.c without its #include lines, with this header
 * first.  The pCPU, the clock and the timers are test-timer.c's; the
 * barriers and the accesses to the per-pCPU flag are counted, so that the
 * test sees in which order timer.c does them.
 */
#ifndef TEST_PROFILE_EMUL_TIMER_H
#define TEST_PROFILE_EMUL_TIMER_H

#include "emul-control.h"

/* xen/percpu.h, xen/smp.h: up to 64 pCPUs; test_cpu runs the code. */
#define DEFINE_PER_CPU(type, name)  type test_percpu_##name[64]
#define per_cpu(name, cpu)          (test_percpu_##name[cpu])
#define this_cpu(name)              per_cpu(name, smp_processor_id())
extern unsigned int test_cpu;
#define smp_processor_id()          test_cpu

/* xen/time.h, xen/timer.h, asm/system.h */
#define MICROSECS(us)       ((s_time_t)(us) * 1000LL)
s_time_t NOW(void);
void init_timer(struct timer *t, void (*fn)(void *data), void *data,
                unsigned int cpu);
void set_timer(struct timer *t, s_time_t expires);
void kill_timer(struct timer *t);
#define likely(x)               (x)
#define local_irq_save(f)       ((f) = 0)
#define local_irq_restore(f)    ((void)(f))

/* The order of what timer.c does: barriers and the flag's accesses. */
struct timer_trace {
    unsigned int wmb, rmb;          /* barriers so far */
    unsigned int now_wmb, now_rmb;  /* ... at the last NOW() */
    unsigned int set_wmb;           /* ... when the flag was last set */
    s_time_t set_next;              /* the pCPU's deadline then */
    unsigned int read_rmb;          /* ... when the flag was last read */
    unsigned int misuse;            /* timers re-initialised while set,
                                       or killed never initialised */
};
extern struct timer_trace test_timer_trace;
#undef smp_wmb
#undef smp_rmb
#define smp_wmb()   (test_timer_trace.wmb++, \
                     __atomic_thread_fence(__ATOMIC_RELEASE))
#define smp_rmb()   (test_timer_trace.rmb++, \
                     __atomic_thread_fence(__ATOMIC_ACQUIRE))
/* timer.c reads and writes only its per-pCPU flag with these. */
#undef read_atomic
#undef write_atomic
bool test_flag_read(const bool *p);
void test_flag_write(bool *p, bool v);
#define read_atomic(p)      test_flag_read(p)
#define write_atomic(p, v)  test_flag_write(p, v)

#endif /* TEST_PROFILE_EMUL_TIMER_H */
