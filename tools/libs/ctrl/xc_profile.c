/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xc_profile.c: XEN_SYSCTL_profile_op, the hypervisor sampling profiler.
 *
 * One wrapper per sub-op: bounce the caller's buffers, issue the sysctl,
 * copy the results out.  Each returns 0, or -1 with errno set from the
 * hypervisor (see XEN_SYSCTL_profile_op in xen/include/public/sysctl.h
 * for the errno values).
 */
#include "xc_private.h"

/* Start sysctl as sub-op cmd of XEN_SYSCTL_profile_op, all else zero. */
static struct xen_sysctl_profile_op *profile_op(struct xen_sysctl *sysctl,
                                                uint32_t cmd)
{
    memset(sysctl, 0, sizeof(*sysctl));
    sysctl->cmd = XEN_SYSCTL_profile_op;
    sysctl->u.profile_op.cmd = cmd;
    return &sysctl->u.profile_op;
}

int xc_profile_start(xc_interface *xch, struct xen_sysctl_profile_start *start,
                     const uint8_t *cpumap, unsigned int nr_bits)
{
    struct xen_sysctl sysctl;
    struct xen_sysctl_profile_op *op;
    DECLARE_HYPERCALL_BOUNCE_IN(cpumap, (nr_bits + 7) / 8);
    int ret;

    if ( !cpumap )
        nr_bits = 0;
    HYPERCALL_BOUNCE_SET_SIZE(cpumap, (nr_bits + 7) / 8);
    if ( xc_hypercall_bounce_pre(xch, cpumap) )
        return -1;

    op = profile_op(&sysctl, XEN_SYSCTL_PROFILE_start);
    op->u.start = *start;
    op->u.start.cpumap.nr_bits = nr_bits;
    set_xen_guest_handle(op->u.start.cpumap.bitmap, cpumap);

    ret = do_sysctl(xch, &sysctl);
    /* Why the source was chosen, or why start failed; pCPUs not started. */
    start->reason = op->u.start.reason;
    start->nr_failed = op->u.start.nr_failed;

    xc_hypercall_bounce_post(xch, cpumap);
    return ret;
}

static int profile_simple_op(xc_interface *xch, uint32_t cmd)
{
    struct xen_sysctl sysctl;

    profile_op(&sysctl, cmd);
    return do_sysctl(xch, &sysctl);
}

int xc_profile_stop(xc_interface *xch)
{
    return profile_simple_op(xch, XEN_SYSCTL_PROFILE_stop);
}

int xc_profile_release(xc_interface *xch)
{
    return profile_simple_op(xch, XEN_SYSCTL_PROFILE_release);
}

int xc_profile_status(xc_interface *xch,
                      struct xen_sysctl_profile_status *status,
                      xen_sysctl_profile_cpu_t *cpus, unsigned int *nr_cpus)
{
    struct xen_sysctl sysctl;
    struct xen_sysctl_profile_op *op;
    DECLARE_HYPERCALL_BOUNCE(cpus, 0, XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    unsigned int n = cpus ? *nr_cpus : 0;
    int ret;

    HYPERCALL_BOUNCE_SET_SIZE(cpus, n * sizeof(*cpus));
    if ( xc_hypercall_bounce_pre(xch, cpus) )
        return -1;

    op = profile_op(&sysctl, XEN_SYSCTL_PROFILE_status);
    op->u.status.nr_cpus = n;
    set_xen_guest_handle(op->u.status.cpus, cpus);
    ret = do_sysctl(xch, &sysctl);
    xc_hypercall_bounce_post(xch, cpus);
    if ( !ret )
    {
        *status = op->u.status;
        *nr_cpus = status->nr_cpus;
    }
    return ret;
}

int xc_profile_limits(xc_interface *xch,
                      struct xen_sysctl_profile_limits *limits)
{
    struct xen_sysctl sysctl;
    struct xen_sysctl_profile_op *op;
    int ret;

    op = profile_op(&sysctl, XEN_SYSCTL_PROFILE_limits);
    ret = do_sysctl(xch, &sysctl);
    if ( !ret )
        *limits = op->u.limits;
    return ret;
}

int xc_profile_read(xc_interface *xch, unsigned int cpu, uint32_t flags,
                    uint64_t *offset, void *buf, uint32_t size,
                    uint32_t *bytes, uint32_t *records,
                    uint64_t *pending_bytes)
{
    struct xen_sysctl sysctl;
    struct xen_sysctl_profile_read *rd;
    DECLARE_HYPERCALL_BOUNCE(buf, size, XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    int ret;

    /* Nothing copied, as far as a caller knows, until Xen says so. */
    *bytes = 0;
    *records = 0;
    *pending_bytes = 0;
    if ( xc_hypercall_bounce_pre(xch, buf) )
        return -1;

    rd = &profile_op(&sysctl, XEN_SYSCTL_PROFILE_read)->u.read;
    rd->cpu = cpu;
    rd->size = size;
    rd->flags = flags;
    rd->offset = offset ? *offset : 0;
    set_xen_guest_handle(rd->buffer, buf);
    ret = do_sysctl(xch, &sysctl);
    /* Records copied before a failure are consumed: always report them. */
    *bytes = rd->bytes;
    *records = rd->records;
    *pending_bytes = rd->pending_bytes;
    if ( offset )
        *offset = rd->offset;
    if ( *bytes > size )
        *bytes = 0;
    xc_hypercall_bounce_post(xch, buf);
    return ret;
}

int xc_profile_symbols(xc_interface *xch, uint32_t *index, void *buf,
                       uint32_t size, uint32_t *bytes, uint32_t *count)
{
    struct xen_sysctl sysctl;
    struct xen_sysctl_profile_symbols *sy;
    DECLARE_HYPERCALL_BOUNCE(buf, size, XC_HYPERCALL_BUFFER_BOUNCE_OUT);
    int ret;

    if ( xc_hypercall_bounce_pre(xch, buf) )
        return -1;

    sy = &profile_op(&sysctl, XEN_SYSCTL_PROFILE_symbols)->u.symbols;
    sy->index = *index;
    sy->size = size;
    set_xen_guest_handle(sy->buffer, buf);
    ret = do_sysctl(xch, &sysctl);
    xc_hypercall_bounce_post(xch, buf);
    if ( !ret )
    {
        *index = sy->index;
        *bytes = sy->bytes;
        *count = sy->count;
    }
    return ret;
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
