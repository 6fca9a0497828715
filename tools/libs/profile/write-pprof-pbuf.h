/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-pprof-pbuf.h: the two encoders behind the pprof writer (not installed):
 * protocol buffers built in memory, and a gzip stream of stored
 * (uncompressed) deflate blocks.  Both depend on the C library only.
 *
 * Both keep their first error (out of memory, write error) and ignore
 * every later call, so that a caller can check once at the end.
 */
#ifndef XENPROFILE_PBUF_H
#define XENPROFILE_PBUF_H

#include <stdbool.h>
#include <stdio.h>

#include "private.h"

/* Protocol buffer wire types. */
#define XENPROF_PB_VARINT       0
#define XENPROF_PB_LEN          2

/* A message being encoded; zeroed: empty. */
struct xenprof_pb {
    uint8_t *p;                     /* encoded bytes */
    size_t len, cap;
    bool oom;                       /* an append failed: p is incomplete */
};

/* Empty b (keeping its memory), and free it.  Never fail. */
void xenprof_priv_pb_reset(struct xenprof_pb *b) xenprof_hidden;
void xenprof_priv_pb_free(struct xenprof_pb *b) xenprof_hidden;

/* Bytes of the varint encoding of v (1..10).  Never fails. */
size_t xenprof_priv_pb_varint_size(uint64_t v) xenprof_hidden;

/* Append raw bytes, a varint, a field key (field << 3 | wire type). */
void xenprof_priv_pb_raw(struct xenprof_pb *b, const void *p, size_t len)
    xenprof_hidden;
void xenprof_priv_pb_varint(struct xenprof_pb *b, uint64_t v)
    xenprof_hidden;
void xenprof_priv_pb_key(struct xenprof_pb *b, unsigned int field,
                         unsigned int wire) xenprof_hidden;

/* A varint field; nothing when v is 0 (the proto3 default). */
void xenprof_priv_pb_uint(struct xenprof_pb *b, unsigned int field,
                          uint64_t v) xenprof_hidden;

/* A length-delimited field (bytes, string or embedded message). */
void xenprof_priv_pb_bytes(struct xenprof_pb *b, unsigned int field,
                           const void *p, size_t len) xenprof_hidden;

/* A packed repeated varint field; nothing when n is 0. */
void xenprof_priv_pb_packed(struct xenprof_pb *b, unsigned int field,
                            const uint64_t *v, size_t n) xenprof_hidden;

/*
 * A gzip member (RFC 1952) whose deflate data (RFC 1951) is a run of
 * stored blocks: valid gzip that any inflater reads, written as it goes
 * with one block of memory.  The header has no name and mtime 0, so that
 * equal input gives equal bytes.
 */
#define XENPROF_GZ_BLOCK        65535   /* the largest stored block */

struct xenprof_gz {
    FILE *out;
    uint32_t crc;                   /* CRC-32 of the data so far */
    uint32_t size;                  /* its length, modulo 2^32 */
    size_t n;                       /* bytes waiting in buf */
    bool failed;                    /* a write failed */
    uint8_t buf[XENPROF_GZ_BLOCK];
};

/* Start a member on out: write the header.  Never fails (see failed). */
void xenprof_priv_gz_start(struct xenprof_gz *z, FILE *out) xenprof_hidden;

/* Add data to the member.  Never fails (see failed). */
void xenprof_priv_gz_write(struct xenprof_gz *z, const void *p, size_t len)
    xenprof_hidden;

/*
 * Add a length-delimited protobuf field holding msg (its key, length and
 * bytes).  Never fails (see failed); msg must not have oom set.
 */
void xenprof_priv_gz_field(struct xenprof_gz *z, unsigned int field,
                           const struct xenprof_pb *msg) xenprof_hidden;

/*
 * End the member: the last block, the CRC-32 and the size, then flush
 * out.  Returns 0, or -EIO when any write of the member failed.
 */
int xenprof_priv_gz_finish(struct xenprof_gz *z) xenprof_hidden;

#endif /* XENPROFILE_PBUF_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
