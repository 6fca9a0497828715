/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-abi.c: the library's copy of the record stream's layout and
 * constants (xenprofile.h, which must not depend on Xen's headers) against
 * the hypervisor's public header, xen/sysctl.h of XEN_PUBLIC_INC (the Xen
 * tree's own in a tree): any drift fails the build of the unit tests.
 * (libxl's LIBXL_PROFILE_* are tied to XEN_SYSCTL_PROFILE_* in
 * libxl_profile.c, in the build of the toolstack.)
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xen/sysctl.h>
#include "test.h"

#define SAME(a, b) _Static_assert((a) == (b), #a " is " #b)

SAME(XENPROF_REC_VERSION, XEN_SYSCTL_PROFILE_RECORD_VERSION);
SAME(XENPROF_REC_SAMPLE, XEN_SYSCTL_PROFILE_REC_SAMPLE);
SAME(XENPROF_REC_LOST, XEN_SYSCTL_PROFILE_REC_LOST);
SAME(XENPROF_REC_OFF_SIZE, offsetof(struct xen_sysctl_profile_record, size));
SAME(XENPROF_REC_OFF_TYPE, offsetof(struct xen_sysctl_profile_record, type));
SAME(XENPROF_REC_OFF_FLAGS, offsetof(struct xen_sysctl_profile_record, flags));
SAME(XENPROF_REC_OFF_DOMID, offsetof(struct xen_sysctl_profile_record, domid));
SAME(XENPROF_REC_OFF_VCPU, offsetof(struct xen_sysctl_profile_record, vcpu));
SAME(XENPROF_REC_OFF_CPU, offsetof(struct xen_sysctl_profile_record, cpu));
SAME(XENPROF_REC_OFF_MODE, offsetof(struct xen_sysctl_profile_record, mode));
SAME(XENPROF_REC_OFF_NR_FRAMES,
     offsetof(struct xen_sysctl_profile_record, nr_frames));
SAME(XENPROF_REC_OFF_TIMESTAMP,
     offsetof(struct xen_sysctl_profile_record, timestamp));
SAME(XENPROF_REC_HDR_SIZE, sizeof(struct xen_sysctl_profile_record));
SAME(XENPROF_REC_OFF_LOST_COUNT, offsetof(struct xen_sysctl_profile_lost, count));
SAME(XENPROF_REC_LOST_SIZE, sizeof(struct xen_sysctl_profile_lost));
SAME(XENPROF_MAX_FRAMES, 1 + XEN_SYSCTL_PROFILE_MAX_DEPTH);
SAME(XENPROF_MODE_XEN, XEN_SYSCTL_PROFILE_MODE_XEN);
SAME(XENPROF_MODE_GUEST_KERNEL, XEN_SYSCTL_PROFILE_MODE_GUEST_KERNEL);
SAME(XENPROF_MODE_GUEST_USER, XEN_SYSCTL_PROFILE_MODE_GUEST_USER);
SAME(XENPROF_F_TRUNCATED, XEN_SYSCTL_PROFILE_F_TRUNCATED);
SAME(XENPROF_F_BAD_FRAME, XEN_SYSCTL_PROFILE_F_BAD_FRAME);
SAME(XENPROF_F_HVM, XEN_SYSCTL_PROFILE_F_HVM);
SAME(XENPROF_F_IDLE, XEN_SYSCTL_PROFILE_F_IDLE);
SAME(XENPROF_F_NO_STACK, XEN_SYSCTL_PROFILE_F_NO_STACK);
SAME(XENPROF_SOURCE_TIMER, XEN_SYSCTL_PROFILE_SOURCE_TIMER);
SAME(XENPROF_SOURCE_PMU, XEN_SYSCTL_PROFILE_SOURCE_PMU);
SAME(XENPROF_CPU_SAMPLED, XEN_SYSCTL_PROFILE_CPU_SAMPLED);
SAME(XENPROF_CPU_RING, XEN_SYSCTL_PROFILE_CPU_RING);
SAME(XENPROF_CPU_OFFLINED, XEN_SYSCTL_PROFILE_CPU_OFFLINED);
SAME(XENPROF_CPU_LEFT_OUT, XEN_SYSCTL_PROFILE_CPU_LEFT_OUT);
SAME(XENPROF_CPU_FAILED, XEN_SYSCTL_PROFILE_CPU_FAILED);

/*
 * The record a test encodes (helpers.c) is the one Xen writes: a sample
 * built with the public struct decodes to its fields.
 */
void test_abi(void)
{
    struct {
        struct xen_sysctl_profile_record r;
        uint64_t ip[2];
    } rec = {
        .r = { .size = sizeof(rec), .type = XEN_SYSCTL_PROFILE_REC_SAMPLE,
               .flags = XEN_SYSCTL_PROFILE_F_HVM, .domid = 7, .vcpu = 3, .cpu = 5,
               .mode = XEN_SYSCTL_PROFILE_MODE_GUEST_USER, .nr_frames = 2,
               .timestamp = 0x123456789aULL },
        .ip = { 0xffff82d040200000ULL, 42 },
    };
    struct xen_sysctl_profile_lost lost = {
        .hdr = { .size = sizeof(lost), .type = XEN_SYSCTL_PROFILE_REC_LOST,
                 .cpu = 5, .timestamp = 99 },
        .count = 12,
    };
    uint8_t buf[sizeof(lost) + sizeof(rec)];
    struct xenprof_sample s;
    size_t off = 0;
    int rc;

    memcpy(buf, &lost, sizeof(lost));
    memcpy(buf + sizeof(lost), &rec, sizeof(rec));
    rc = xenprof_decode_next(buf, sizeof(buf), &off, &s, NULL, 0);
    tap_ok(rc == 1 && s.domid == 7 && s.vcpu == 3 && s.cpu == 5 &&
           s.mode == XENPROF_MODE_GUEST_USER && s.flags == XENPROF_F_HVM &&
           s.timestamp == 0x123456789aULL && s.nr_frames == 2 &&
           xenprof_sample_ip(&s, 0) == 0xffff82d040200000ULL &&
           xenprof_sample_ip(&s, 1) == 42 && off == sizeof(buf),
           "abi: a record built with Xen's public structs decodes to its "
           "fields, after the LOST record ahead of it");
}

/* The script of d, malloc()ed in *text (its length in *len); rc. */
static int script_of(const struct xenprof_data *d, char **text, size_t *len,
                     char *err, size_t errlen)
{
    FILE *f = open_memstream(text, len);
    int rc = f ? xenprof_write_script(d, NULL, NULL, f, err, errlen) : 1;

    if ( f )
        fclose(f);
    return rc;
}

/*
 * LOST records in the stream: skipped by the sample decoder, summed by
 * xenprof_data_count() when there is no per-pCPU table, shown by the
 * script writer where they are, and checked: one of another size is
 * corrupt.
 */
void test_lost_records(void)
{
    struct {
        struct xen_sysctl_profile_lost l1;
        struct xen_sysctl_profile_record r;
        uint64_t ip;
        struct xen_sysctl_profile_lost l2;
    } st = {
        .l1 = { .hdr = { .size = 32, .type = XEN_SYSCTL_PROFILE_REC_LOST,
                         .cpu = 1, .timestamp = 1000 }, .count = 5 },
        .r = { .size = 32, .type = XEN_SYSCTL_PROFILE_REC_SAMPLE, .cpu = 1,
               .nr_frames = 1, .timestamp = 2000 },
        .ip = 0x1000,
        .l2 = { .hdr = { .size = 32, .type = XEN_SYSCTL_PROFILE_REC_LOST,
                         .cpu = 1, .timestamp = 3000 }, .count = 2 },
    };
    struct xenprof_data *d = xenprof_data_new();
    struct xenprof_cpu cpu = { .cpu = 1, .lost = 9 };
    uint64_t n = 0, lost = 0;
    char *text = NULL, err[256] = "";
    size_t len = 0;
    int rc;

    rc = d ? xenprof_data_add_records(d, &st, sizeof(st)) : -ENOMEM;
    rc = rc ?: xenprof_data_count(d, &n, &lost, err, sizeof(err));
    tap_ok(!rc && n == 1 && lost == 7,
           "lost records: 1 sample, and 5 + 2 lost from the stream (%s)",
           err);
    d->meta.timestamp_khz = 1;
    rc = script_of(d, &text, &len, err, sizeof(err));
    tap_ok(!rc && text &&
           !strncmp(text, "# lost 5 samples on cpu 1 at 1.000000\n\n"
                    "d0 0/0 [001] 2.000000: cpu-clock:\n", 73) &&
           strstr(text, "\n# lost 2 samples on cpu 1 at 3.000000\n\n") &&
           strlen(text) == len,
           "lost records: the script shows them in place");
    free(text);
    text = NULL;
    d->meta.source = XENPROF_SOURCE_PMU;
    d->meta.event = XENPROF_EVENT_INSTRUCTIONS;
    d->meta.period = 250000;
    rc = script_of(d, &text, &len, err, sizeof(err));
    tap_ok(!rc && text &&
           strstr(text, "\nd0 0/0 [001] 2.000000: 250000 instructions:\n"),
           "script: a PMU profile's samples: its period and event");
    if ( d )
        xenprof_data_add_cpu(d, &cpu);
    rc = d ? xenprof_data_count(d, &n, &lost, NULL, 0) : 1;
    tap_ok(!rc && lost == 9,
           "lost records: the per-pCPU counters, when there, are the total");
    st.l2.hdr.size = 24;
    xenprof_data_free(d);
    d = xenprof_data_new();
    rc = d ? xenprof_data_add_records(d, &st, 88) : -ENOMEM;
    rc = rc ?: xenprof_data_count(d, &n, &lost, err, sizeof(err));
    tap_ok(rc == -EBADMSG && strstr(err, "LOST record of size 24"),
           "lost records: one of the wrong size is corrupt (\"%s\")", err);
    xenprof_data_free(d);
    free(text);
}
