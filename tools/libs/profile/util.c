/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * util.c: small helpers shared by the rest of libxenprofile: error
 * messages, array growth and the CRC-32 of the data file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

int xenprof_priv_err(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;

    if ( !err || !errlen )
        return rc;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

int xenprof_priv_prefix(char *err, size_t errlen, int rc, const char *path)
{
    size_t plen, mlen;

    if ( !err || !errlen )
        return rc;
    plen = strlen(path) + 2;
    if ( plen >= errlen )
        return xenprof_priv_err(err, errlen, rc, "%s", path);
    mlen = strnlen(err, errlen - 1);
    if ( mlen > errlen - 1 - plen )
        mlen = errlen - 1 - plen;
    memmove(err + plen, err, mlen);
    memcpy(err, path, plen - 2);
    memcpy(err + plen - 2, ": ", 2);
    err[plen + mlen] = '\0';
    return rc;
}

/* The implicit capacity of an array of n elements (see private.h). */
static size_t capacity(size_t n)
{
    size_t cap = 16;

    if ( !n )
        return 0;
    while ( cap < n )
    {
        if ( cap > SIZE_MAX / 2 )
            return SIZE_MAX;
        cap *= 2;
    }
    return cap;
}

int xenprof_priv_reserve(void **p, size_t n, size_t add, size_t size)
{
    size_t cap;
    void *q;

    if ( add > SIZE_MAX - n )
        return -ENOMEM;
    cap = capacity(n + add);
    if ( (*p && cap == capacity(n)) || !cap )
        return 0;
    if ( cap == SIZE_MAX || cap > SIZE_MAX / size )
        return -ENOMEM;
    q = realloc(*p, cap * size);
    if ( !q )
        return -ENOMEM;
    *p = q;
    return 0;
}

/*
 * CRC-32, reflected polynomial 0xedb88320, four bits at a time (a table of
 * 16 words: small, and fast enough for files of a few hundred MiB).
 */
uint32_t xenprof_priv_crc32(uint32_t crc, const void *buf, size_t len)
{
    static const uint32_t tab[16] = {
        0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
        0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
        0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
        0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
    };
    const uint8_t *p = buf;

    crc = ~crc;
    while ( len-- )
    {
        crc ^= *p++;
        crc = (crc >> 4) ^ tab[crc & 0xf];
        crc = (crc >> 4) ^ tab[crc & 0xf];
    }
    return ~crc;
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
