/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-decode.c: xenprof_decode_next() and xenprof_sample_ip() on valid
 * and corrupt record streams.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define BUFSZ 4096

static void valid_one_frame(void)
{
    static const uint64_t ip[] = { 0xffff82d040201234ULL };
    const struct trec r = {
        .flags = XENPROF_F_HVM, .mode = XENPROF_MODE_GUEST_KERNEL,
        .domid = 3, .vcpu = 2, .cpu = 7, .timestamp = 0x0123456789abcdefULL,
        .nr = 1, .ip = ip,
    };
    uint8_t buf[64];
    struct xenprof_sample s;
    char err[256] = "";
    size_t len = rec_put(buf, &r), off = 0;
    int rc = xenprof_decode_next(buf, len, &off, &s, err, sizeof(err));

    tap_ok(rc == 1 && off == 32 && len == 32,
           "decode: a 1-frame record decodes (rc %d, off %zu)", rc, off);
    tap_ok(s.timestamp == r.timestamp && s.cpu == 7 && s.domid == 3 &&
           s.vcpu == 2 &&
           s.mode == XENPROF_MODE_GUEST_KERNEL &&
           s.flags == XENPROF_F_HVM && s.nr_frames == 1,
           "decode: every header field of a 1-frame record");
    tap_ok(xenprof_sample_ip(&s, 0) == ip[0] &&
           xenprof_sample_ip(&s, 1) == 0,
           "decode: ip[0] read little-endian, ip[1] out of range is 0");
    rc = xenprof_decode_next(buf, len, &off, &s, err, sizeof(err));
    tap_ok(rc == 0 && off == len, "decode: 0 at the end of the buffer");
}

static void valid_max_frames(void)
{
    uint64_t ip[XENPROF_MAX_FRAMES];
    static uint8_t buf[BUFSZ];
    struct trec r = { .nr = XENPROF_MAX_FRAMES, .ip = ip, .domid = 0x7fff,
                      .flags = XENPROF_F_IDLE | XENPROF_F_TRUNCATED };
    struct xenprof_sample s;
    size_t len, off = 0;
    unsigned int i, bad = 0;
    int rc;

    for ( i = 0; i < XENPROF_MAX_FRAMES; i++ )
        ip[i] = 0xffff82d040000000ULL + ((uint64_t)i << 33) + i;
    len = rec_put(buf, &r);
    rc = xenprof_decode_next(buf, len, &off, &s, NULL, 0);
    for ( i = 0; rc == 1 && i < XENPROF_MAX_FRAMES; i++ )
        bad += xenprof_sample_ip(&s, i) != ip[i];
    tap_ok(rc == 1 && off == 24 + 8 * 128 && s.nr_frames == 128 && !bad &&
           s.domid == XENPROF_DOMID_IDLE,
           "decode: a 128-frame record decodes, every frame right");
}

/* An unknown type between two samples is skipped. */
static void unknown_type(void)
{
    uint8_t buf[256];
    struct xenprof_sample s;
    size_t len = 0, off = 0, unk;
    int rc1, rc2, rc3;

    len += rec_put(buf + len, &(struct trec){ .nr = 1, .cpu = 1 });
    unk = len;
    len += rec_put(buf + len, &(struct trec){ .type = 0x42, .nr = 3 });
    buf[unk + 11] = 200;                /* nr_frames: not checked */
    len += rec_put(buf + len, &(struct trec){ .nr = 2, .cpu = 2 });
    rc1 = xenprof_decode_next(buf, len, &off, &s, NULL, 0);
    rc2 = xenprof_decode_next(buf, len, &off, &s, NULL, 0);
    tap_ok(rc1 == 1 && rc2 == 1 && s.cpu == 2 && s.nr_frames == 2 &&
           off == len, "decode: a record of unknown type is skipped");
    off = 0;
    len = rec_put(buf, &(struct trec){ .type = 9, .nr = 0 });
    rc3 = xenprof_decode_next(buf, len, &off, &s, NULL, 0);
    tap_ok(rc3 == 0 && off == 24,
           "decode: a stream of only unknown records gives 0");
}

/* A corrupt second record: what to change in it. */
struct corrupt_case {
    const char *desc;
    int size;                       /* -1: keep */
    int nr;                         /* -1: keep */
    size_t len_cut;                 /* bytes cut off the buffer end */
    uint8_t type;                   /* 0: sample */
    unsigned int frames;            /* of the record as encoded */
    const char *msg;                /* expected in the message */
};

static const struct corrupt_case corrupt_cases[] = {
    { "size 0", 0, -1, 0, 0, 1, "size 0" },
    { "size not a multiple of 8", 36, -1, 0, 0, 2, "multiple of 8" },
    { "size below the header", 16, -1, 0, 0, 1, "below" },
    { "size beyond the buffer", 48, -1, 0, 0, 1, "past the end" },
    { "record cut by the buffer end", -1, -1, 8, 0, 2, "past the end" },
    { "only 1 byte left", -1, -1, 39, 0, 2, "truncated" },
    { "nr_frames 0", -1, 0, 0, 0, 1, "nr_frames 0" },
    { "nr_frames 129", 24 + 8 * 129, 129, 0, 0, 129, "nr_frames 129" },
    { "nr_frames 2, size for 1", -1, 2, 0, 0, 1, "does not match" },
    { "nr_frames 1, size for 3", -1, 1, 0, 0, 3, "does not match" },
    { "unknown type, size 12", 12, -1, 0, 7, 1, "multiple of 8" },
    { "unknown type, size 8", 8, -1, 0, 7, 1, "below" },
};

static void corrupt_one(const struct corrupt_case *c)
{
    static uint8_t buf[BUFSZ];
    struct xenprof_sample s;
    char err[256] = "";
    size_t len, off = 0;
    int rc1, rc2;

    len = rec_put(buf, &(struct trec){ .nr = 1 });
    len += rec_put(buf + len, &(struct trec){ .nr = c->frames,
                                              .type = c->type });
    if ( c->size >= 0 )
        put_le(buf + 32, c->size, 2);
    if ( c->nr >= 0 )
        buf[32 + 11] = c->nr;
    len -= c->len_cut;
    rc1 = xenprof_decode_next(buf, len, &off, &s, err, sizeof(err));
    rc2 = xenprof_decode_next(buf, len, &off, &s, err, sizeof(err));
    tap_ok(rc1 == 1 && rc2 == -EBADMSG && off == 32 &&
           strstr(err, "offset 32") && strstr(err, c->msg),
           "decode: corrupt, %s: -EBADMSG at offset 32 (rc %d, \"%s\")",
           c->desc, rc2, err);
}

static void bad_args(void)
{
    uint8_t buf[32];
    struct xenprof_sample s;
    size_t off = 40;
    int rc1, rc2;

    rec_put(buf, &(struct trec){ .nr = 1 });
    rc1 = xenprof_decode_next(buf, sizeof(buf), &off, &s, NULL, 0);
    off = 0;
    rc2 = xenprof_decode_next(NULL, 8, &off, &s, NULL, 0);
    tap_ok(rc1 == -EINVAL && rc2 == -EINVAL,
           "decode: offset past the buffer or NULL buffer: -EINVAL");
    off = 0;
    tap_ok(xenprof_decode_next(NULL, 0, &off, &s, NULL, 0) == 0,
           "decode: an empty buffer gives 0");
}

void test_decode(void)
{
    size_t i;

    valid_one_frame();
    valid_max_frames();
    unknown_type();
    for ( i = 0; i < sizeof(corrupt_cases) / sizeof(corrupt_cases[0]); i++ )
        corrupt_one(&corrupt_cases[i]);
    bad_args();
}
