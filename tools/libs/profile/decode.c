/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * decode.c: the record stream of XEN_SYSCTL_profile_op read, decoded by
 * byte offset (XENPROF_REC_OFF_* in xenprofile.h).  This is the only file
 * of the library that knows the record layout.
 *
 * Every record, of any type, starts with the 24-byte header (size, type,
 * ...) and its size is a multiple of 8 and at least the header: that is
 * what lets a reader skip a type it does not know.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "private.h"

uint64_t xenprof_sample_ip(const struct xenprof_sample *s, unsigned int i)
{
    if ( !s || !s->ip || i >= s->nr_frames )
        return 0;
    return xenprof_get64(s->ip + 8 * (size_t)i);
}

/* Format "record at offset N: <fmt>" into err; returns -EBADMSG. */
static int __attribute__((format(printf, 4, 5)))
corrupt(char *err, size_t errlen, size_t where, const char *fmt, ...)
{
    va_list ap;
    int n;

    if ( !err || !errlen )
        return -EBADMSG;
    n = snprintf(err, errlen, "record at offset %zu: ", where);
    if ( n < 0 || (size_t)n >= errlen )
        return -EBADMSG;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - n, fmt, ap);
    va_end(ap);
    return -EBADMSG;
}

/* Check the size of the record at off; 0 or -EBADMSG. */
static int check_size(const uint8_t *buf, size_t len, size_t off,
                      size_t base, char *err, size_t errlen)
{
    unsigned int size;

    if ( len - off < 2 )
        return corrupt(err, errlen, base + off, "truncated header");
    size = xenprof_get16(buf + off + XENPROF_REC_OFF_SIZE);
    if ( size % 8 )
        return corrupt(err, errlen, base + off,
                       "size %u is not a multiple of 8", size);
    if ( size < XENPROF_REC_HDR_SIZE )
        return corrupt(err, errlen, base + off,
                       "size %u is below the %u-byte header",
                       size, XENPROF_REC_HDR_SIZE);
    if ( size > len - off )
        return corrupt(err, errlen, base + off,
                       "size %u goes past the end (%zu bytes left)",
                       size, len - off);
    return 0;
}

/* Decode the sample record of `size` bytes at p; 0 or -EBADMSG. */
static int decode_sample(const uint8_t *p, unsigned int size,
                         struct xenprof_sample *s, size_t where,
                         char *err, size_t errlen)
{
    unsigned int nr = p[XENPROF_REC_OFF_NR_FRAMES];

    if ( nr < 1 || nr > XENPROF_MAX_FRAMES )
        return corrupt(err, errlen, where, "nr_frames %u is not 1..%u",
                       nr, XENPROF_MAX_FRAMES);
    if ( size != XENPROF_REC_HDR_SIZE + 8 * nr )
        return corrupt(err, errlen, where,
                       "size %u does not match nr_frames %u", size, nr);
    s->timestamp = xenprof_get64(p + XENPROF_REC_OFF_TIMESTAMP);
    s->cpu = xenprof_get16(p + XENPROF_REC_OFF_CPU);
    s->domid = xenprof_get16(p + XENPROF_REC_OFF_DOMID);
    s->vcpu = xenprof_get16(p + XENPROF_REC_OFF_VCPU);
    s->mode = p[XENPROF_REC_OFF_MODE];
    s->flags = p[XENPROF_REC_OFF_FLAGS];
    s->nr_frames = nr;
    s->ip = p + XENPROF_REC_HDR_SIZE;
    return 0;
}

/* Decode the LOST record of `size` bytes at p; 0 or -EBADMSG. */
static int decode_lost(const uint8_t *p, unsigned int size,
                       struct xenprof_sample *s, uint64_t *lost,
                       size_t where, char *err, size_t errlen)
{
    if ( size != XENPROF_REC_LOST_SIZE )
        return corrupt(err, errlen, where,
                       "LOST record of size %u, not %u", size,
                       XENPROF_REC_LOST_SIZE);
    memset(s, 0, sizeof(*s));
    s->timestamp = xenprof_get64(p + XENPROF_REC_OFF_TIMESTAMP);
    s->cpu = xenprof_get16(p + XENPROF_REC_OFF_CPU);
    *lost = xenprof_get64(p + XENPROF_REC_OFF_LOST_COUNT);
    return 0;
}

/*
 * The next sample (1) or, with lost, LOST record (2) at *off; 0 at the
 * end.  On -EBADMSG *off is left at the corrupt record, so that the
 * caller can tell how much of the stream was good.  Inlined in the two
 * decoders below, so that the sample decoder pays nothing for LOST.
 */
static inline int decode(const uint8_t *buf, size_t len, size_t *off,
                         struct xenprof_sample *s, uint64_t *lost,
                         size_t base, char *err, size_t errlen)
{
    unsigned int size, type;
    int rc;

    if ( !off || !s || (!buf && len) || *off > len )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "invalid argument to xenprof_decode_next");
    while ( *off < len )
    {
        rc = check_size(buf, len, *off, base, err, errlen);
        if ( rc )
            return rc;
        size = xenprof_get16(buf + *off + XENPROF_REC_OFF_SIZE);
        type = buf[*off + XENPROF_REC_OFF_TYPE];
        if ( type == XENPROF_REC_SAMPLE )
            rc = decode_sample(buf + *off, size, s, base + *off, err,
                               errlen) ?: 1;
        else if ( type == XENPROF_REC_LOST )
        {
            uint64_t count = 0;

            rc = decode_lost(buf + *off, size, s, &count, base + *off, err,
                             errlen);
            if ( !rc && lost )
            {
                *lost = count;
                rc = 2;
            }
        }
        if ( rc < 0 )
            return rc;
        *off += size;                   /* an unknown type is skipped */
        if ( rc )
            return rc;
    }
    return 0;
}

int xenprof_priv_decode_any(const uint8_t *buf, size_t len, size_t *off,
                            struct xenprof_sample *s, uint64_t *lost,
                            size_t base, char *err, size_t errlen)
{
    return decode(buf, len, off, s, lost, base, err, errlen);
}

int xenprof_priv_decode(const uint8_t *buf, size_t len, size_t *off,
                        struct xenprof_sample *s, size_t base,
                        char *err, size_t errlen)
{
    return decode(buf, len, off, s, NULL, base, err, errlen);
}

int xenprof_decode_next(const uint8_t *buf, size_t len, size_t *off,
                        struct xenprof_sample *s, char *err, size_t errlen)
{
    return xenprof_priv_decode(buf, len, off, s, 0, err, errlen);
}

int xenprof_priv_check_records(const uint8_t *buf, size_t len, size_t base,
                               char *err, size_t errlen)
{
    struct xenprof_sample s;
    size_t off = 0;
    int rc;

    while ( (rc = xenprof_priv_decode(buf, len, &off, &s, base,
                                      err, errlen)) > 0 )
        continue;
    return rc;
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
