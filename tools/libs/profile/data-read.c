/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * data-read.c: xenprof_data_read(), the data file of
 * docs/designs/xenprofile-data.md.  The file is read whole, then every
 * length and count in it is checked against the bytes that are really
 * there before anything is allocated or copied: a corrupt file gives
 * -EBADMSG and a message naming the offset, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "private.h"

/* A file being parsed. */
struct rd {
    const char *path;
    const uint8_t *buf;
    size_t len;
    char *err;
    size_t errlen;
    struct xenprof_data *d;
    unsigned int seen;                  /* bit per known section type */
    size_t rec_off, rec_len;            /* the RECORDS payload in buf */
};

static const char *const sec_names[] = {
    [XENPROF_SEC_END] = "END",
    [XENPROF_SEC_META] = "META",
    [XENPROF_SEC_CPUS] = "CPUS",
    [XENPROF_SEC_SYMBOLS] = "SYMBOLS",
    [XENPROF_SEC_DOMAINS] = "DOMAINS",
    [XENPROF_SEC_RECORDS] = "RECORDS",
};

/* Format "path: offset N: <fmt>" and return -EBADMSG. */
static int __attribute__((format(printf, 3, 4)))
bad(const struct rd *r, size_t off, const char *fmt, ...)
{
    va_list ap;
    int n;

    if ( !r->err || !r->errlen )
        return -EBADMSG;
    n = snprintf(r->err, r->errlen, "%s: offset %zu: ", r->path, off);
    if ( n < 0 || (size_t)n >= r->errlen )
        return -EBADMSG;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - n, fmt, ap);
    va_end(ap);
    return -EBADMSG;
}

/* Read fd whole into *buf (*len bytes); 0 or -errno. */
static int load_fd(int fd, uint8_t **buf, size_t *len)
{
    struct stat st;
    size_t got = 0;
    ssize_t n;
    int rc;

    if ( fstat(fd, &st) )
        return -errno;
    if ( st.st_size < 0 || (uint64_t)st.st_size >= SIZE_MAX )
        return -EFBIG;
    *buf = malloc(st.st_size ? st.st_size : 1);
    if ( !*buf )
        return -ENOMEM;
    while ( got < (size_t)st.st_size )
    {
        n = read(fd, *buf + got, st.st_size - got);
        if ( n < 0 && errno == EINTR )
            continue;
        if ( n < 0 )
        {
            rc = -errno;
            free(*buf);
            *buf = NULL;
            return rc;
        }
        if ( !n )
            break;                      /* it shrank: parse what is there */
        got += n;
    }
    *len = got;
    return 0;
}

/* Read the file at path whole; 0 or -errno with a message. */
static int load(const char *path, uint8_t **buf, size_t *len, char *err,
                size_t errlen)
{
    int fd = open(path, O_RDONLY), rc;

    if ( fd < 0 )
    {
        rc = -errno;
        return xenprof_priv_err(err, errlen, rc, "%s: %s", path,
                                strerror(-rc));
    }
    rc = load_fd(fd, buf, len);
    close(fd);
    if ( rc )
        return xenprof_priv_err(err, errlen, rc, "%s: %s", path,
                                strerror(-rc));
    return 0;
}

/* The file header: magic and version. */
static int parse_header(const struct rd *r)
{
    uint32_t version;

    if ( memcmp(r->buf, XENPROF_FILE_MAGIC, r->len < 8 ? r->len : 8) )
        return xenprof_priv_err(r->err, r->errlen, -EINVAL,
                                "%s: not a xenprofile data file", r->path);
    if ( r->len < XENPROF_HDR_SIZE )
        return bad(r, r->len, "truncated file header");
    version = xenprof_get32(r->buf + 8);
    if ( version > XENPROF_FILE_VERSION )
        return xenprof_priv_err(r->err, r->errlen, -EINVAL,
                                "%s: version %u is newer than supported (%u)",
                                r->path, version, XENPROF_FILE_VERSION);
    if ( version < 1 )
        return xenprof_priv_err(r->err, r->errlen, -EINVAL,
                                "%s: unsupported file version %u",
                                r->path, version);
    return 0;
}

/*
 * The table header of CPUS, SYMBOLS, DOMAINS at p (section payload of
 * len bytes at file offset off): entry size at least min, count that fits
 * in the payload.  Returns 0 or -EBADMSG.
 */
static int table_hdr(const struct rd *r, const uint8_t *p, uint64_t len,
                     size_t off, size_t min, size_t *esize, size_t *count)
{
    if ( len < XENPROF_TABLE_HDR )
        return bad(r, off, "section too short for its table header");
    *esize = xenprof_get32(p);
    *count = xenprof_get32(p + 4);
    if ( *esize < min )
        return bad(r, off, "entry size %zu is below %zu", *esize, min);
    if ( *count > (len - XENPROF_TABLE_HDR) / *esize )
        return bad(r, off + 4, "%zu entries do not fit in %llu bytes",
                   *count, (unsigned long long)len);
    return 0;
}

/*
 * A table of fixed-size entries (at least min bytes each) that fills its
 * section (named what): its entry size and count, and room for count
 * elements of elem bytes in *array.
 */
static int fixed_table(const struct rd *r, const uint8_t *p, uint64_t len,
                       size_t off, size_t min, const char *what,
                       size_t elem, void **array, size_t *esize,
                       size_t *count)
{
    int rc = table_hdr(r, p, len, off, min, esize, count);

    if ( rc )
        return rc;
    if ( len != XENPROF_TABLE_HDR + *count * *esize )
        return bad(r, off, "%s section size does not match its entries",
                   what);
    *array = NULL;
    return xenprof_priv_reserve(array, 0, *count, elem) ? -ENOMEM : 0;
}

static int parse_cpus(struct rd *r, const uint8_t *p, uint64_t len,
                      size_t off)
{
    struct xenprof_data *d = r->d;
    struct xenprof_cpu *c;
    size_t esize, count, i;
    void *a;
    int rc = fixed_table(r, p, len, off, XENPROF_CPU_ENT_MIN, "CPUS",
                         sizeof(*d->cpus), &a, &esize, &count);

    if ( rc )
        return rc;
    d->cpus = a;
    for ( i = 0, p += XENPROF_TABLE_HDR; i < count; i++, p += esize )
    {
        c = &d->cpus[d->nr_cpus++];
        c->cpu = xenprof_get32(p);
        c->flags = xenprof_get32(p + 4);
        c->taken = xenprof_get64(p + 8);
        c->lost = xenprof_get64(p + 16);
        c->read = xenprof_get64(p + 24);
        c->cost_min = xenprof_get64(p + 32);
        c->cost_avg = xenprof_get64(p + 40);
        c->cost_max = xenprof_get64(p + 48);
        /* Entries of 56 bytes, from an older xl: none counted. */
        c->throttled = esize >= 64 ? xenprof_get64(p + 56) : 0;
    }
    return 0;
}

/* One symbol entry at p (left bytes of the payload); *used its size. */
static int parse_symbol(struct rd *r, const uint8_t *p, size_t left,
                        size_t esize, size_t off, size_t *used)
{
    struct xenprof_symbol *s = &r->d->syms[r->d->nr_syms];
    size_t n;

    if ( left < esize )
        return bad(r, off, "truncated symbol entry");
    n = xenprof_get16(p + 10);
    if ( n > left - esize )
        return bad(r, off, "symbol name past the section end");
    if ( memchr(p + esize, 0, n) )
        return bad(r, off, "symbol name contains a NUL byte");
    s->name = malloc(n + 1);
    if ( !s->name )
        return -ENOMEM;
    memcpy(s->name, p + esize, n);
    s->name[n] = '\0';
    s->addr = xenprof_get64(p);
    s->type = p[8];
    r->d->nr_syms++;
    *used = esize + n;
    return 0;
}

static int parse_symbols(struct rd *r, const uint8_t *p, uint64_t len,
                         size_t off)
{
    size_t esize, count, i, n = 0, pos = XENPROF_TABLE_HDR;
    void *a = NULL;
    int rc = table_hdr(r, p, len, off, XENPROF_SYM_ENT_HDR, &esize,
                       &count);

    if ( rc )
        return rc;
    if ( xenprof_priv_reserve(&a, 0, count, sizeof(*r->d->syms)) )
        return -ENOMEM;
    r->d->syms = a;
    for ( i = 0; i < count; i++ )
    {
        rc = parse_symbol(r, p + pos, len - pos, esize, off + pos, &n);
        if ( rc )
            return rc;
        pos += n;
    }
    if ( pos != len )
        return bad(r, off + pos, "%llu bytes after the last symbol",
                   (unsigned long long)(len - pos));
    return 0;
}

static int parse_domains(struct rd *r, const uint8_t *p, uint64_t len,
                         size_t off)
{
    struct xenprof_data *d = r->d;
    struct xenprof_domain *dom;
    size_t esize, count, i;
    void *a;
    int rc = fixed_table(r, p, len, off, XENPROF_DOM_ENT_SIZE, "DOMAINS",
                         sizeof(*d->doms), &a, &esize, &count);

    if ( rc )
        return rc;
    d->doms = a;
    for ( i = 0, p += XENPROF_TABLE_HDR; i < count; i++, p += esize )
    {
        if ( !memchr(p + 24, 0, sizeof(dom->name)) )
            return bad(r, off + XENPROF_TABLE_HDR + i * esize + 24,
                       "domain name is not terminated");
        dom = &d->doms[d->nr_doms++];
        dom->domid = xenprof_get32(p);
        memcpy(dom->uuid, p + 8, sizeof(dom->uuid));
        memcpy(dom->name, p + 24, sizeof(dom->name));
    }
    return 0;
}

/*
 * Check the records; they are not copied: once the whole file is parsed
 * the buffer becomes d->records (see adopt_records()), so that a profile
 * takes the file's size in memory once, not twice.
 */
static int parse_records(struct rd *r, const uint8_t *p, uint64_t len,
                         size_t off)
{
    int rc = xenprof_priv_check_records(p, len, off, r->err, r->errlen);

    if ( rc )
        return xenprof_priv_prefix(r->err, r->errlen, rc, r->path);
    r->rec_off = p - r->buf;
    r->rec_len = len;
    return 0;
}

/*
 * Make buf, the whole file, d's record stream: move the records to its
 * start and give it the implicit capacity arrays of the library have
 * (private.h), so that xenprof_data_add_records() can still append.
 * Returns 0 (buf is then owned by d) or -ENOMEM (buf still the caller's).
 */
static int adopt_records(struct rd *r, uint8_t *buf)
{
    size_t cap = xenprof_priv_capacity(r->rec_len);
    uint8_t *p;

    if ( !r->rec_len )
    {
        free(buf);
        return 0;
    }
    memmove(buf, buf + r->rec_off, r->rec_len);
    p = realloc(buf, cap);
    if ( !p )
        return -ENOMEM;
    r->d->records = p;
    r->d->records_len = r->rec_len;
    return 0;
}

/* The END section at off (its header): last, and the checksum matches. */
static int parse_end(const struct rd *r, uint64_t len, size_t off)
{
    size_t crc_off = off + XENPROF_SEC_HDR_SIZE;

    if ( len != XENPROF_END_SIZE )
        return bad(r, off, "END section of %llu bytes, not %u",
                   (unsigned long long)len, XENPROF_END_SIZE);
    if ( crc_off + len != r->len )
        return bad(r, crc_off + len, "data after the END section");
    if ( xenprof_get32(r->buf + crc_off) !=
         xenprof_priv_crc32(0, r->buf, crc_off) )
        return bad(r, crc_off, "checksum mismatch: the file is corrupt");
    return 0;
}

/* The section payload of len bytes at off, of a known type. */
static int parse_section(struct rd *r, unsigned int type, uint64_t len,
                         size_t off)
{
    const uint8_t *p = r->buf + off;
    int rc;

    if ( r->seen & (1u << type) )
        return bad(r, off - XENPROF_SEC_HDR_SIZE, "second %s section",
                   sec_names[type]);
    r->seen |= 1u << type;
    switch ( type )
    {
    case XENPROF_SEC_META:
        rc = xenprof_priv_meta_decode(p, len, off, &r->d->meta, r->err,
                                      r->errlen);
        if ( rc )
            return xenprof_priv_prefix(r->err, r->errlen, rc, r->path);
        /* Records of another layout would be misread: refuse them. */
        if ( r->d->meta.record_version > XENPROF_REC_VERSION )
            return xenprof_priv_err(r->err, r->errlen, -EINVAL,
                                    "%s: records of version %u (this "
                                    "reader knows %u): use a newer "
                                    "xenprofile", r->path,
                                    r->d->meta.record_version,
                                    XENPROF_REC_VERSION);
        return 0;
    case XENPROF_SEC_CPUS:
        return parse_cpus(r, p, len, off);
    case XENPROF_SEC_SYMBOLS:
        return parse_symbols(r, p, len, off);
    case XENPROF_SEC_DOMAINS:
        return parse_domains(r, p, len, off);
    default:
        return parse_records(r, p, len, off);
    }
}

/* The sections after the file header, up to and including END. */
static int parse_sections(struct rd *r)
{
    size_t off = XENPROF_HDR_SIZE;
    uint32_t type;
    uint64_t len;
    int rc;

    for ( ;; )
    {
        if ( off == r->len )
            return bad(r, off, "truncated file: no END section");
        if ( r->len - off < XENPROF_SEC_HDR_SIZE )
            return bad(r, off, "truncated section header");
        type = xenprof_get32(r->buf + off);
        len = xenprof_get64(r->buf + off + 8);
        if ( len > r->len - off - XENPROF_SEC_HDR_SIZE )
            return bad(r, off,
                       "section length %llu exceeds the %zu bytes left",
                       (unsigned long long)len,
                       r->len - off - XENPROF_SEC_HDR_SIZE);
        if ( type == XENPROF_SEC_END )
            return parse_end(r, len, off);
        off += XENPROF_SEC_HDR_SIZE;
        if ( type <= XENPROF_SEC_RECORDS )
        {
            rc = parse_section(r, type, len, off);
            if ( rc )
                return rc;
        }
        off += len;                     /* unknown types are skipped */
    }
}

/*
 * *d is NULL on failure.  -ENOMEM, or an errno from open/read, comes with
 * a message too.
 */
int xenprof_data_read(const char *path, struct xenprof_data **d,
                      char *err, size_t errlen)
{
    struct rd r = { .path = path, .err = err, .errlen = errlen };
    uint8_t *buf = NULL;
    int rc;

    if ( d )
        *d = NULL;
    if ( !path || !d )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_data_read: no path or result");
    rc = load(path, &buf, &r.len, err, errlen);
    if ( rc )
        return rc;
    r.buf = buf;
    r.d = xenprof_data_new();
    rc = r.d ? parse_header(&r) : -ENOMEM;
    if ( !rc )
        rc = parse_sections(&r);
    if ( !rc )
    {
        rc = adopt_records(&r, buf);
        if ( !rc )
            buf = NULL;
    }
    if ( rc == -ENOMEM )
        xenprof_priv_err(err, errlen, rc, "%s: %s", path, strerror(ENOMEM));
    free(buf);
    if ( rc )
        xenprof_data_free(r.d);
    else
        *d = r.d;
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
