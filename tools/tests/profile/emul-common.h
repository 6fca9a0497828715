/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emul-common.h: what xen/common/profile/symbols.c and
 * xen/common/pmu-owner.c take from Xen, in userspace.  The Makefile
 * copies them without their #include lines, with this header first.
 */
#ifndef TEST_PROFILE_EMUL_COMMON_H
#define TEST_PROFILE_EMUL_COMMON_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "public.h"

/* xen/symbols.h */
#define KSYM_NAME_LEN       127
int xensyms_read(uint32_t *symnum, char *type, unsigned long *address,
                 char *name);

/* xen/lib.h, xen/guest_access.h, xen/sched.h: handles hold addresses. */
#define ROUNDUP(x, a)       (((x) + (a) - 1) & ~((a) - 1))
#define min(a, b)           ((a) < (b) ? (a) : (b))
#define BUILD_BUG_ON(c)     _Static_assert(!(c), #c)
#define copy_to_guest_offset(hnd, off, ptr, nr) \
    (memcpy((uint8_t *)(hnd).p + (off), ptr, (nr) * sizeof(*(ptr))), 0)
bool hypercall_preempt_check(void);
int profile_symbols(struct xen_sysctl_profile_symbols *op);

/* xen/spinlock.h: the tests are single-threaded. */
#define DEFINE_SPINLOCK(l)  int l
#define spin_lock(l)        ((void)(l))
#define spin_unlock(l)      ((void)(l))

/* The header under test, copied without its #include lines. */
#define CONFIG_XEN_PROFILER 1
#include "pmu-owner.h"

#endif /* TEST_PROFILE_EMUL_COMMON_H */
