/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * util.c: small helpers shared by the rest of libxenprofile: error
 * messages, array growth, text without control characters and the
 * CRC-32 of the data file.
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
size_t xenprof_priv_capacity(size_t n)
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
    cap = xenprof_priv_capacity(n + add);
    if ( (*p && cap == xenprof_priv_capacity(n)) || !cap )
        return 0;
    if ( cap == SIZE_MAX || cap > SIZE_MAX / size )
        return -ENOMEM;
    q = realloc(*p, cap * size);
    if ( !q )
        return -ENOMEM;
    *p = q;
    return 0;
}

void xenprof_priv_put_text(FILE *out, const char *s, bool no_semicolon)
{
    unsigned char c;

    for ( ; *s; s++ )
    {
        c = *s;
        fputc(c < 0x20 || c == 0x7f ? '?' : c == ';' && no_semicolon ? '_' : c,
              out);
    }
}

/* Tables of the slicing-by-8 CRC-32, built once (see crc32_tables()). */
static uint32_t crc_tab[8][256];
static int crc_ready;

/*
 * Build the tables on first use.  Racing threads compute and store the
 * same values, and the flag is published only after the tables.
 */
static void crc32_tables(void)
{
    uint32_t c;
    unsigned int i, j;

    if ( __atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE) )
        return;
    for ( i = 0; i < 256; i++ )
    {
        c = i;
        for ( j = 0; j < 8; j++ )
            c = (c >> 1) ^ (0xedb88320u & -(c & 1));
        crc_tab[0][i] = c;
    }
    for ( i = 0; i < 256; i++ )
        for ( j = 1; j < 8; j++ )
            crc_tab[j][i] = (crc_tab[j - 1][i] >> 8) ^
                            crc_tab[0][crc_tab[j - 1][i] & 0xff];
    __atomic_store_n(&crc_ready, 1, __ATOMIC_RELEASE);
}

/*
 * CRC-32, reflected polynomial 0xedb88320 (as zlib and gzip), eight bytes
 * at a time: files of hundreds of MiB are read at memory speed.
 */
uint32_t xenprof_priv_crc32(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    uint32_t lo, hi;

    crc32_tables();
    crc = ~crc;
    for ( ; len >= 8; len -= 8, p += 8 )
    {
        lo = crc ^ xenprof_get32(p);
        hi = xenprof_get32(p + 4);
        crc = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
              crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
              crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
              crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
    }
    while ( len-- )
        crc = (crc >> 8) ^ crc_tab[0][(crc ^ *p++) & 0xff];
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
