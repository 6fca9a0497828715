/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * asm/atomic.h: what Xen's real xen/profile.h takes from it in the PMU
 * driver tests (the timer hook's count; the hook is never called here).
 */
#ifndef TEST_PMU_SHIM_ASM_ATOMIC_H
#define TEST_PMU_SHIM_ASM_ATOMIC_H

#include "emul-atomic.h"

#endif /* TEST_PMU_SHIM_ASM_ATOMIC_H */
