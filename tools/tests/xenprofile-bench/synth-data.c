/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * synth-data.c: write the benchmark's synthetic profile (synth.c) as a
 * data file, with a build-id, for the tests that feed it to other tools
 * (perf-script and pprof interoperability).  The same options give the
 * same file.
 *
 * usage: synth-data [-n SAMPLES] [-k STACKS] [-x] OUT.data
 *   -x  add the cases the generator does not make: samples off Xen's
 *       stacks (PV entry, HVM), an address without a symbol, a walk both
 *       truncated and bad, guest samples of an unnamed domain, of one not
 *       in the table, of one whose name has a blank and a ';', of an
 *       unknown guest mode, and a LOST record
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synth.h"

#define SYNTH_BUILD_ID "5ca1ab1e0ddba11c0ffee0ddf00dcafe12345678"

static void usage(void)
{
    fprintf(stderr, "usage: synth-data [-n SAMPLES] [-k STACKS] [-x] "
            "OUT.data\n");
    exit(2);
}

/* A sample record of n frames ip[] into rec; its size. */
static size_t sample(uint8_t *rec, unsigned int domid, unsigned int vcpu,
                     unsigned int mode, unsigned int flags,
                     const uint64_t *ip, unsigned int n, uint64_t timestamp)
{
    size_t size = XENPROF_REC_HDR_SIZE + 8 * n;
    unsigned int i;

    memset(rec, 0, size);
    synth_put_le(rec + XENPROF_REC_OFF_SIZE, 2, size);
    rec[XENPROF_REC_OFF_TYPE] = XENPROF_REC_SAMPLE;
    rec[XENPROF_REC_OFF_FLAGS] = flags;
    synth_put_le(rec + XENPROF_REC_OFF_DOMID, 2, domid);
    synth_put_le(rec + XENPROF_REC_OFF_VCPU, 2, vcpu);
    synth_put_le(rec + XENPROF_REC_OFF_CPU, 2, 1);
    rec[XENPROF_REC_OFF_MODE] = mode;
    rec[XENPROF_REC_OFF_NR_FRAMES] = n;
    synth_put_le(rec + XENPROF_REC_OFF_TIMESTAMP, 8, timestamp);
    for ( i = 0; i < n; i++ )
        synth_put_le(rec + XENPROF_REC_HDR_SIZE + 8 * i, 8, ip[i]);
    return size;
}

/* The cases of -x, after the generated samples; 0 or -ENOMEM. */
static int add_cases(struct xenprof_data *d)
{
    uint8_t buf[1024], *p = buf;
    uint64_t t = d->meta.stop_timestamp, fn[2] = { 0, 0 }, ip[3];
    size_t i, n = 0;

    for ( i = 0; i < d->nr_syms && n < 2; i++ )
        if ( d->syms[i].type == 'T' || d->syms[i].type == 't' )
            fn[n++] = d->syms[i].addr;
    if ( xenprof_data_add_domain(d, 6, "a;b c", NULL) )
        return -ENOMEM;
    ip[0] = fn[0] + 4;
    p += sample(p, 1, 2, XENPROF_MODE_XEN, XENPROF_F_NO_STACK, ip, 1, t);
    p += sample(p, 2, 0, XENPROF_MODE_XEN,
                XENPROF_F_NO_STACK | XENPROF_F_HVM, ip, 1, t);
    ip[0] = 0x1000;                     /* below every symbol */
    ip[1] = fn[1] + 9;
    p += sample(p, 0, 0, XENPROF_MODE_XEN, 0, ip, 2, t);
    ip[0] = fn[1] + 3;
    ip[1] = fn[0] + 1;
    ip[2] = 0x1008;
    p += sample(p, 0, 1, XENPROF_MODE_XEN,
                XENPROF_F_TRUNCATED | XENPROF_F_BAD_FRAME, ip, 3, t);
    ip[0] = 0xffffffff81000000ULL;
    p += sample(p, 3, 1, XENPROF_MODE_GUEST_KERNEL, 0, ip, 1, t);
    p += sample(p, 9, 0, XENPROF_MODE_GUEST_USER, 0, ip, 1, t);
    p += sample(p, 6, 0, XENPROF_MODE_GUEST_KERNEL, 0, ip, 1, t);
    p += sample(p, 4, 3, 5, 0, ip, 1, t);
    memset(p, 0, XENPROF_REC_LOST_SIZE);
    synth_put_le(p + XENPROF_REC_OFF_SIZE, 2, XENPROF_REC_LOST_SIZE);
    p[XENPROF_REC_OFF_TYPE] = XENPROF_REC_LOST;
    synth_put_le(p + XENPROF_REC_OFF_CPU, 2, 1);
    synth_put_le(p + XENPROF_REC_OFF_TIMESTAMP, 8, t);
    synth_put_le(p + XENPROF_REC_OFF_LOST_COUNT, 8, 3);
    p += XENPROF_REC_LOST_SIZE;
    return xenprof_data_add_records(d, buf, p - buf);
}

int main(int argc, char **argv)
{
    struct synth_opts o = SYNTH_DEFAULTS;
    struct xenprof_data *d;
    char err[256] = "";
    int c, rc, cases = 0;

    while ( (c = getopt(argc, argv, "n:k:x")) != -1 )
    {
        if ( c == 'x' )
            cases = 1;
        else if ( c == 'n' )
            o.nr_samples = strtoul(optarg, NULL, 0);
        else if ( c == 'k' )
            o.nr_stacks = strtoul(optarg, NULL, 0);
        else
            usage();
    }
    if ( optind + 1 != argc || !o.nr_samples || !o.nr_stacks )
        usage();
    d = synth_profile(&o);
    if ( !d )
        return 1;
    /* A build-id, as xl profile stop writes one, for the pprof mapping. */
    snprintf(d->meta.build_id, sizeof(d->meta.build_id), "%s",
             SYNTH_BUILD_ID);
    rc = cases ? add_cases(d) : 0;
    if ( rc )
        snprintf(err, sizeof(err), "out of memory");
    else
        rc = xenprof_data_write(d, argv[optind], err, sizeof(err));
    if ( rc )
        fprintf(stderr, "synth-data: %s\n", err);
    xenprof_data_free(d);
    return rc ? 1 : 0;
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
