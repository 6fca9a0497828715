/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul-control.h: what xen/common/profile/control.c takes from Xen, in
 * userspace.  The Makefile copies control.c and the headers it includes
 * from xen/ without their #include lines, with this header first.  The
 * pCPUs, the CPU maps, the heap, preemption and the sample source are the
 * test's (test-control.c), which drives them one call at a time.
 */
#ifndef TEST_PROFILE_EMUL_CONTROL_H
#define TEST_PROFILE_EMUL_CONTROL_H

#include <stdio.h>
#include <stdlib.h>

#include "emul.h"
#include "public.h"

/* Xen's own signatures, whose arguments a stub need not use. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define CONFIG_XEN_PROFILER         1
#define CONFIG_XEN_PROFILER_MEM     64

/* xen/compiler.h, xen/init.h, xen/param.h, xen/lib.h, xen/kernel.h */
#define cf_check
#define __init
#define __read_mostly
#define __ro_after_init
#define SMP_CACHE_BYTES     64
#define __cacheline_aligned __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define unlikely(x)         (x)
#define BUILD_BUG_ON(c)     _Static_assert(!(c), #c)
#define sizeof_field(t, m)  sizeof(((t *)NULL)->m)
#define min(a, b)           ((a) < (b) ? (a) : (b))
#define min_t(t, a, b)      ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define MB(x)               ((uint64_t)(x) << 20)
#define SECONDS(s)          ((int64_t)(s) * 1000000000LL)
#define size_param(n, v)
/* The test calls control.c's initcall itself (test_control_init). */
#define __initcall(f)       int (*const test_control_init)(void) = (f)
#define XENLOG_G_WARNING    ""
#define printk(...)         test_printk(__VA_ARGS__)
void test_printk(const char *fmt, ...);
const void *memchr_inv(const void *p, int c, size_t n);
#define cpu_relax()         ((void)0)
#define array_index_nospec(i, n)    (i)

/* xen/mm.h: the test's heap counts pages out and back. */
#define PAGE_SHIFT          12
#define MEMF_no_scrub       (1u << 0)
#define MEMF_node(n)        ((((n) + 1) & 0xff) << 8)
#define cpu_to_node(c)      0
unsigned int get_order_from_bytes(unsigned long size);
void *alloc_xenheap_pages(unsigned int order, unsigned int memflags);
void free_xenheap_pages(void *p, unsigned int order);
void get_outstanding_claims(uint64_t *free_pages, uint64_t *outstanding_pages);

/* xen/xmalloc.h, xen/xvmalloc.h */
#define xmalloc_bytes(n)        test_malloc(n, 1, false)
#define xzalloc_array(t, n) \
    ((t *)test_malloc(sizeof(t) * (n), __alignof__(t), true))
#define xvzalloc_array(t, n)    xzalloc_array(t, n)
#define XFREE(p)                do { test_free(p); (p) = NULL; } while ( 0 )
/* As Xen's: the type's alignment honoured (UBSan checks every access). */
void *test_malloc(size_t size, size_t align, bool zero);
void test_free(void *p);

/* xen/sched.h */
bool hypercall_preempt_check(void);

/* xen/atomic.h */
#include "emul-atomic.h"

/*
 * xen/time.h, xen/timer.h: a timer remembers its last set_timer() for
 * test-timer.c (emul-timer.h); control.c never arms one.
 */
typedef int64_t s_time_t;
struct timer {
    void (*fn)(void *data);
    void *data;
    unsigned int cpu;
    s_time_t expires;
    bool active;                    /* set and neither killed nor run */
};
extern unsigned long cpu_khz;
uint64_t get_cycles(void);

/* xen/cpumask.h, xen/cpu.h: up to 64 pCPUs. */
extern unsigned int nr_cpu_ids;
typedef struct {
    uint64_t bits;
} cpumask_t;
static inline bool cpumask_test_cpu(unsigned int cpu, const cpumask_t *m)
{
    return m->bits & (1ULL << cpu);
}
static inline unsigned int cpumask_next(int cpu, const cpumask_t *m)
{
    unsigned int c;

    for ( c = cpu + 1; c < nr_cpu_ids; c++ )
        if ( cpumask_test_cpu(c, m) )
            return c;
    return nr_cpu_ids;
}
#define cpumask_first(m)        cpumask_next(-1, m)
#define for_each_cpu(c, m) \
    for ( (c) = cpumask_first(m); (c) < nr_cpu_ids; (c) = cpumask_next(c, m) )
#define cpumask_weight(m)       ((unsigned int)__builtin_popcountll((m)->bits))
#define cpumask_copy(d, s)      (*(d) = *(s))
#define cpumask_equal(a, b)     ((a)->bits == (b)->bits)
bool get_cpu_maps(void);
void put_cpu_maps(void);

struct notifier_block {
    int (*notifier_call)(struct notifier_block *nb, unsigned long action,
                         void *hcpu);
};
#define NOTIFY_DONE             0
#define CPU_ONLINE              1
#define CPU_DOWN_PREPARE        2
#define CPU_DOWN_FAILED         3
void register_cpu_notifier(struct notifier_block *nb);

/* xen/guest_access.h: handles hold addresses. */
#define guest_handle_is_null(h) ((h).p == NULL)
#define copy_to_guest_offset(hnd, off, ptr, nr) \
    (memcpy((hnd).p + (off), ptr, (nr) * sizeof(*(ptr))), 0)

/* The headers of xen/ control.c includes, without their #include lines. */
#include "ring.h"
#include "profile.h"
#include "profile-source.h"
#include "private.h"

#endif /* TEST_PROFILE_EMUL_CONTROL_H */
