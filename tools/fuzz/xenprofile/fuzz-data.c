/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * fuzz-data.c: the data file reader, xenprof_data_read(), on any bytes
 * (a memfd, read through /proc/self/fd), then everything a profile feeds.
 *
 * The last 4 bytes of a data file are the CRC-32 of the bytes before
 * them: the harness writes the right CRC there, so that mutations reach
 * the section parsers instead of all failing the checksum (which the
 * unit tests check).  An input of 4 bytes or fewer is read as it is.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "private.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xenprof_data *d = NULL;
    uint8_t *buf = malloc(size + 1);
    char path[64], err[256];
    int fd = memfd_create("fuzz-data", 0);

    if ( !buf || fd < 0 )
        abort();
    memcpy(buf, data, size);
    if ( size > 4 )
        xenprof_put32(buf + size - 4, xenprof_priv_crc32(0, buf, size - 4));
    if ( write(fd, buf, size) != (ssize_t)size )
        abort();
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    if ( !xenprof_data_read(path, &d, err, sizeof(err)) )
    {
        fuzz_profile(d, size ? data[0] : 0);
        xenprof_data_free(d);
    }
    close(fd);
    free(buf);
    return 0;
}
