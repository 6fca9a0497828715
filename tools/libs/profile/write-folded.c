/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-folded.c: the folded-stack writer, "root;...;leaf COUNT" per line
 * (the input of flamegraph.pl and inferno), and the frames of one stack
 * joined by ';', which the differential writer (write-diff.c) shares.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "stackset.h"

int xenprof_priv_put_stack(FILE *out, const char *const *frames, size_t n)
{
    size_t i;

    for ( i = 0; i < n; i++ )
        if ( (i && putc(';', out) == EOF) || fputs(frames[i], out) == EOF )
            return -EIO;
    return 0;
}

/* 0, -EIO on a write error, -EINVAL when s or out is NULL. */
int xenprof_write_folded(const struct xenprof_stackset *s, FILE *out)
{
    const char *const *frames;
    uint64_t count;
    size_t i, n;

    if ( !s || !out || !xenprof_priv_ss_finished(s) )
        return -EINVAL;
    for ( i = 0; i < xenprof_stackset_size(s); i++ )
    {
        xenprof_stackset_get(s, i, &frames, &n, &count);
        if ( xenprof_priv_put_stack(out, frames, n) ||
             fprintf(out, " %" PRIu64 "\n", count) < 0 )
            return -EIO;
    }
    return fflush(out) || ferror(out) ? -EIO : 0;
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
