/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hypercall-loop.c: the cost of a cheap hypercall, for the overhead of
 * profiling (profile-overhead.sh, make bench): COUNT
 * xen_version(XENVER_version) hypercalls through libxencall, timed with
 * CLOCK_MONOTONIC.  Prints "ns_per_call N" (with three decimals) and
 * checks that each call gave the same version.
 *
 * usage: hypercall-loop [COUNT]   (default 200000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <xencall.h>
#include <xen/xen.h>
#include <xen/version.h>

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000, i;
    xencall_handle *xc = xencall_open(NULL, 0);
    struct timespec t0, t1;
    long v, first;
    double ns;

    if ( !xc || !n )
    {
        fprintf(stderr, "hypercall-loop: %s\n",
                xc ? "COUNT must be at least 1" : "cannot open xencall");
        return 1;
    }
    first = xencall2(xc, __HYPERVISOR_xen_version, XENVER_version, 0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for ( i = 0; i < n; i++ )
    {
        v = xencall2(xc, __HYPERVISOR_xen_version, XENVER_version, 0);
        if ( v != first )
        {
            fprintf(stderr, "hypercall-loop: call %lu gave %ld, not %ld\n",
                    i, v, first);
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n;
    printf("ns_per_call %.3f\n", ns);
    xencall_close(xc);
    return 0;
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
