/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xen.h: what xen/include/public/profilectl.h takes from Xen's public
 * xen.h (which this sparse tree does not have), so that unit tests can
 * compile the real public header in userspace, with -D__XEN_TOOLS__ and
 * this folder on the include path, and check their code against it.
 */
#ifndef TOOLS_TESTS_PUBLIC_SHIM_XEN_H
#define TOOLS_TESTS_PUBLIC_SHIM_XEN_H

#include <stdint.h>

#define uint64_aligned_t uint64_t __attribute__((aligned(8)))
#define XEN_GUEST_HANDLE_64(type) uint64_aligned_t
#define DEFINE_XEN_GUEST_HANDLE(type)

struct xenctl_bitmap {
    XEN_GUEST_HANDLE_64(uint8) bitmap;
    uint32_t nr_bits;
};

#endif /* TOOLS_TESTS_PUBLIC_SHIM_XEN_H */
