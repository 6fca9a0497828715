/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-pprof-pbuf.c: protocol buffer encoding into a growing buffer, and
 * a gzip writer that stores its data in uncompressed deflate blocks (see
 * write-pprof-pbuf.h).
 *
 * Protocol buffers (protobuf.dev, "Encoding"): a message is a sequence of
 * fields, each a key (field number << 3 | wire type) followed by a varint
 * (wire type 0: 7 bits a byte, least significant first, the top bit set
 * on every byte but the last) or by a varint length and that many bytes
 * (wire type 2: strings, embedded messages and packed repeated varints).
 *
 * gzip (RFC 1952): a 10-byte header, deflate data, then the CRC-32 and
 * the length (modulo 2^32) of the uncompressed data, little-endian.  A
 * stored deflate block (RFC 1951, 3.2.4) is, at a byte boundary, a byte
 * holding BFINAL (bit 0) and BTYPE 00, then LEN and its complement NLEN
 * (16 bits each, little-endian), then LEN bytes.  Since every block here
 * is stored, every block starts at a byte boundary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "write-pprof-pbuf.h"

/* Make room for add more bytes; false (and oom set) when out of memory. */
static bool pb_room(struct xenprof_pb *b, size_t add)
{
    size_t cap = b->cap ? b->cap : 256;
    uint8_t *p;

    if ( b->oom )
        return false;
    if ( b->len + add <= b->cap )
        return true;
    while ( cap < b->len + add )
    {
        if ( cap > SIZE_MAX / 2 )
        {
            b->oom = true;
            return false;
        }
        cap *= 2;
    }
    p = realloc(b->p, cap);
    if ( !p )
    {
        b->oom = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

void xenprof_priv_pb_reset(struct xenprof_pb *b)
{
    b->len = 0;
    b->oom = false;
}

void xenprof_priv_pb_free(struct xenprof_pb *b)
{
    free(b->p);
    memset(b, 0, sizeof(*b));
}

size_t xenprof_priv_pb_varint_size(uint64_t v)
{
    size_t n = 1;

    while ( v >= 0x80 )
    {
        v >>= 7;
        n++;
    }
    return n;
}

/* Encode v at p (room for 10 bytes); returns the bytes written. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;

    while ( v >= 0x80 )
    {
        p[n++] = (v & 0x7f) | 0x80;
        v >>= 7;
    }
    p[n++] = v;
    return n;
}

void xenprof_priv_pb_raw(struct xenprof_pb *b, const void *p, size_t len)
{
    if ( !len || !pb_room(b, len) )
        return;
    memcpy(b->p + b->len, p, len);
    b->len += len;
}

void xenprof_priv_pb_varint(struct xenprof_pb *b, uint64_t v)
{
    if ( pb_room(b, 10) )
        b->len += put_varint(b->p + b->len, v);
}

void xenprof_priv_pb_key(struct xenprof_pb *b, unsigned int field,
                         unsigned int wire)
{
    xenprof_priv_pb_varint(b, ((uint64_t)field << 3) | wire);
}

void xenprof_priv_pb_uint(struct xenprof_pb *b, unsigned int field,
                          uint64_t v)
{
    if ( !v )
        return;
    xenprof_priv_pb_key(b, field, XENPROF_PB_VARINT);
    xenprof_priv_pb_varint(b, v);
}

void xenprof_priv_pb_bytes(struct xenprof_pb *b, unsigned int field,
                           const void *p, size_t len)
{
    xenprof_priv_pb_key(b, field, XENPROF_PB_LEN);
    xenprof_priv_pb_varint(b, len);
    xenprof_priv_pb_raw(b, p, len);
}

void xenprof_priv_pb_packed(struct xenprof_pb *b, unsigned int field,
                            const uint64_t *v, size_t n)
{
    size_t len = 0, i;

    if ( !n )
        return;
    for ( i = 0; i < n; i++ )
        len += xenprof_priv_pb_varint_size(v[i]);
    xenprof_priv_pb_key(b, field, XENPROF_PB_LEN);
    xenprof_priv_pb_varint(b, len);
    if ( !pb_room(b, len) )
        return;
    for ( i = 0; i < n; i++ )
        b->len += put_varint(b->p + b->len, v[i]);
}

/* Write p[0..len) to the file; failed is set on a short write. */
static void gz_out(struct xenprof_gz *z, const void *p, size_t len)
{
    if ( !z->failed && fwrite(p, 1, len, z->out) != len )
        z->failed = true;
}

/* Write the waiting bytes as one stored block (the last one if final). */
static void gz_block(struct xenprof_gz *z, bool final)
{
    uint8_t hdr[5];

    hdr[0] = final ? 1 : 0;             /* BFINAL, BTYPE 00: stored */
    xenprof_put16(hdr + 1, z->n);
    xenprof_put16(hdr + 3, ~z->n & 0xffff);
    gz_out(z, hdr, sizeof(hdr));
    gz_out(z, z->buf, z->n);
    z->n = 0;
}

void xenprof_priv_gz_start(struct xenprof_gz *z, FILE *out)
{
    /* ID1 ID2, CM 8 (deflate), FLG 0, MTIME 0, XFL 0, OS 3 (Unix). */
    static const uint8_t hdr[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

    z->out = out;
    z->crc = 0;
    z->size = 0;
    z->n = 0;
    z->failed = false;
    gz_out(z, hdr, sizeof(hdr));
}

void xenprof_priv_gz_write(struct xenprof_gz *z, const void *p, size_t len)
{
    const uint8_t *q = p;
    size_t n;

    if ( z->failed )
        return;
    z->crc = xenprof_priv_crc32(z->crc, p, len);
    z->size += (uint32_t)len;
    while ( len )
    {
        n = XENPROF_GZ_BLOCK - z->n;
        if ( n > len )
            n = len;
        memcpy(z->buf + z->n, q, n);
        z->n += n;
        q += n;
        len -= n;
        if ( z->n == XENPROF_GZ_BLOCK )
            gz_block(z, false);
    }
}

void xenprof_priv_gz_field(struct xenprof_gz *z, unsigned int field,
                           const struct xenprof_pb *msg)
{
    uint8_t head[20];
    size_t n;

    n = put_varint(head, ((uint64_t)field << 3) | XENPROF_PB_LEN);
    n += put_varint(head + n, msg->len);
    xenprof_priv_gz_write(z, head, n);
    xenprof_priv_gz_write(z, msg->p, msg->len);
}

int xenprof_priv_gz_finish(struct xenprof_gz *z)
{
    uint8_t tail[8];

    gz_block(z, true);
    xenprof_put32(tail, z->crc);
    xenprof_put32(tail + 4, z->size);
    gz_out(z, tail, sizeof(tail));
    if ( fflush(z->out) || ferror(z->out) )
        z->failed = true;
    return z->failed ? -EIO : 0;
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
