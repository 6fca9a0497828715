/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * data-meta.c: the META section of the data file, key/value pairs for the
 * fields of struct xenprof_meta (docs/designs/xenprofile-data.md).
 *
 * Entry: uint16 key_len, uint8 kind, uint8 pad (0), uint32 value_len, the
 * key, the value.  Kind 1 is a uint64 (value_len 8), kind 2 a string
 * without its NUL: the field up to its first NUL, at most size - 1 bytes.
 * Readers skip keys they do not know, and a key that is missing leaves
 * its field zero (or "").
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "private.h"

struct meta_field {
    const char *key;
    unsigned int kind;          /* XENPROF_META_* */
    size_t off, size;           /* the field in struct xenprof_meta */
};

#define U64(f) { #f, XENPROF_META_U64, offsetof(struct xenprof_meta, f), \
                 sizeof(((struct xenprof_meta *)0)->f) }
#define STR(f) { #f, XENPROF_META_STR, offsetof(struct xenprof_meta, f), \
                 sizeof(((struct xenprof_meta *)0)->f) }

static const struct meta_field fields[] = {
    STR(xen_version), STR(build_id), STR(hostname), U64(timestamp_khz),
    U64(nr_host_cpus), U64(source), STR(source_reason), U64(frequency),
    U64(max_depth), U64(period), U64(start_time_ns), U64(stop_time_ns),
    U64(start_timestamp), U64(stop_timestamp), U64(record_version), U64(event),
    STR(arch),
};

#define NR_FIELDS (sizeof(fields) / sizeof(fields[0]))

/*
 * Keys of files written before the timestamps were named for what they
 * are (the x86 TSC was the only clock then): read, never written.
 */
#define OLD(k, f) { k, XENPROF_META_U64, offsetof(struct xenprof_meta, f), \
                    sizeof(((struct xenprof_meta *)0)->f) }
static const struct meta_field old_fields[] = {
    OLD("tsc_khz", timestamp_khz), OLD("start_tsc", start_timestamp),
    OLD("stop_tsc", stop_timestamp),
};

#define NR_OLD_FIELDS (sizeof(old_fields) / sizeof(old_fields[0]))

/* A string field's length (at most size - 1: it may lack its NUL). */
static size_t str_len(const struct xenprof_meta *m,
                      const struct meta_field *f)
{
    return strnlen((const char *)m + f->off, f->size - 1);
}

/* The value of an integer field of m. */
static uint64_t get_u64(const struct xenprof_meta *m,
                        const struct meta_field *f)
{
    const uint8_t *p = (const uint8_t *)m + f->off;
    uint32_t v32;
    uint64_t v64;

    if ( f->size == sizeof(v32) )
    {
        memcpy(&v32, p, sizeof(v32));
        return v32;
    }
    memcpy(&v64, p, sizeof(v64));
    return v64;
}

size_t xenprof_priv_meta_size(const struct xenprof_meta *m)
{
    size_t i, n = 0;

    for ( i = 0; i < NR_FIELDS; i++ )
        n += XENPROF_META_ENT_HDR + strlen(fields[i].key) +
             (fields[i].kind == XENPROF_META_U64 ? 8
                                                 : str_len(m, &fields[i]));
    return n;
}

void xenprof_priv_meta_encode(const struct xenprof_meta *m, uint8_t *buf)
{
    const struct meta_field *f;
    size_t i, klen, vlen;

    for ( i = 0; i < NR_FIELDS; i++ )
    {
        f = &fields[i];
        klen = strlen(f->key);
        vlen = f->kind == XENPROF_META_U64 ? 8 : str_len(m, f);
        xenprof_put16(buf, klen);
        buf[2] = f->kind;
        buf[3] = 0;
        xenprof_put32(buf + 4, vlen);
        memcpy(buf + XENPROF_META_ENT_HDR, f->key, klen);
        buf += XENPROF_META_ENT_HDR + klen;
        if ( f->kind == XENPROF_META_U64 )
            xenprof_put64(buf, get_u64(m, f));
        else
            memcpy(buf, (const char *)m + f->off, vlen);
        buf += vlen;
    }
}

/* Store v (vlen bytes, of `kind`) in field f of m; NULL or what's wrong. */
static const char *set_field(struct xenprof_meta *m,
                             const struct meta_field *f, unsigned int kind,
                             const uint8_t *v, size_t vlen)
{
    uint8_t *p = (uint8_t *)m + f->off;
    uint64_t v64;
    uint32_t v32;

    if ( kind != f->kind )
        return "wrong kind";
    if ( kind == XENPROF_META_STR )
    {
        if ( vlen >= f->size || memchr(v, 0, vlen) )
            return "bad string";
        memset(p, 0, f->size);
        memcpy(p, v, vlen);
        return NULL;
    }
    if ( vlen != 8 )
        return "bad integer size";
    v64 = xenprof_get64(v);
    if ( f->size == sizeof(v32) )
    {
        if ( v64 > UINT32_MAX )
            return "integer out of range";
        v32 = v64;
        memcpy(p, &v32, sizeof(v32));
    }
    else
        memcpy(p, &v64, sizeof(v64));
    return NULL;
}

/* Apply one entry (key k of klen bytes) to m; NULL or what is wrong. */
/* The field of table (n entries) whose key is k (klen bytes), or NULL. */
static const struct meta_field *find_field(const struct meta_field *table,
                                           size_t n, const uint8_t *k,
                                           size_t klen)
{
    size_t i;

    for ( i = 0; i < n; i++ )
        if ( strlen(table[i].key) == klen &&
             !memcmp(table[i].key, k, klen) )
            return &table[i];
    return NULL;
}

static const char *apply(struct xenprof_meta *m, const uint8_t *k,
                         size_t klen, unsigned int kind, const uint8_t *v,
                         size_t vlen)
{
    const struct meta_field *f = find_field(fields, NR_FIELDS, k, klen);

    if ( !f )
        f = find_field(old_fields, NR_OLD_FIELDS, k, klen);
    /* An unknown key is skipped. */
    return f ? set_field(m, f, kind, v, vlen) : NULL;
}

int xenprof_priv_meta_decode(const uint8_t *p, size_t len, size_t base,
                             struct xenprof_meta *m, char *err,
                             size_t errlen)
{
    size_t off = 0, klen, vlen;
    const char *why;

    memset(m, 0, sizeof(*m));
    while ( off < len )
    {
        if ( len - off < XENPROF_META_ENT_HDR )
            return xenprof_priv_err(err, errlen, -EBADMSG,
                                    "offset %zu: truncated META entry",
                                    base + off);
        klen = xenprof_get16(p + off);
        vlen = xenprof_get32(p + off + 4);
        if ( klen > len - off - XENPROF_META_ENT_HDR ||
             vlen > len - off - XENPROF_META_ENT_HDR - klen )
            return xenprof_priv_err(err, errlen, -EBADMSG,
                                    "offset %zu: META entry past its section",
                                    base + off);
        why = apply(m, p + off + XENPROF_META_ENT_HDR, klen, p[off + 2],
                    p + off + XENPROF_META_ENT_HDR + klen, vlen);
        if ( why )
            return xenprof_priv_err(err, errlen, -EBADMSG,
                                    "offset %zu: META entry: %s",
                                    base + off, why);
        off += XENPROF_META_ENT_HDR + klen + vlen;
    }
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
