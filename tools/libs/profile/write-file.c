/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-file.c: xenprof_write_file(), the one way the tools write a file:
 * a temporary file beside it, filled by the caller's writer, flushed,
 * fsync'ed and renamed over it, then the folder synced.  A reader sees
 * the old file or the whole new one, never a part; on any failure the
 * old file is left as it was and the temporary one removed.
 *
 * Only a regular file (or a path that does not exist yet) is replaced:
 * a device, a FIFO or a socket (/dev/null, /dev/stdout, a named pipe) is
 * opened and written as it is, and a symbolic link stays: its target is
 * replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "private.h"

/* Tries at a free temporary name before giving up (EEXIST). */
#define TMP_TRIES 100

/* Make the rename durable; best effort (the file is in place already). */
static void sync_dir(const char *path)
{
    char *copy = strdup(path);
    int fd;

    if ( !copy )
        return;
    fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
    if ( fd >= 0 )
    {
        fsync(fd);
        close(fd);
    }
    free(copy);
}

/*
 * Create "<path>.<pid>.<n>" exclusively, with mode (less the umask):
 * its fd, or -errno with a message.  *tmp is the name (to free).
 */
static int create_tmp(const char *path, unsigned int mode, char **tmp,
                      char *err, size_t errlen)
{
    size_t n = strlen(path) + 32;
    unsigned int i;
    int fd = -1, e = EEXIST;

    *tmp = malloc(n);
    if ( !*tmp )
        return xenprof_priv_err(err, errlen, -ENOMEM, "%s: %s", path,
                                strerror(ENOMEM));
    for ( i = 0; i < TMP_TRIES && fd < 0 && e == EEXIST; i++ )
    {
        snprintf(*tmp, n, "%s.%ld.%u", path, (long)getpid(), i);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        e = fd < 0 ? errno : 0;
    }
    if ( fd >= 0 )
        return fd;
    return xenprof_priv_err(err, errlen, -e, "%s: cannot create %s: %s",
                            path, *tmp, strerror(e));
}

/*
 * Fill the file open as fd, then flush, (with sync) sync, and close it.
 * A device or a FIFO is not synced: fsync() would fail there.
 */
static int fill_fd(int fd, bool sync, xenprof_fill_t *fill, void *arg,
                   char *err, size_t errlen)
{
    FILE *f = fdopen(fd, "wb");
    int rc;

    if ( !f )
    {
        rc = errno ? -errno : -ENOMEM;
        close(fd);
        return rc;
    }
    rc = fill(f, arg, err, errlen);
    if ( !rc && (fflush(f) || ferror(f)) )
        rc = errno ? -errno : -EIO;
    if ( !rc && sync && fsync(fileno(f)) )
        rc = -errno;
    if ( fclose(f) && !rc )
        rc = errno ? -errno : -EIO;
    return rc;
}

/* Write to path, not a regular file, as it is (no rename, no sync). */
static int write_through(const char *path, xenprof_fill_t *fill, void *arg,
                         char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), rc, e;

    if ( fd < 0 )
    {
        e = errno;
        return xenprof_priv_err(err, errlen, -e, "%s: cannot open: %s",
                                path, strerror(e));
    }
    rc = fill_fd(fd, false, fill, arg, err, errlen);
    if ( rc && (!err || !errlen || !err[0]) )
        xenprof_priv_err(err, errlen, rc, "%s: cannot write: %s", path,
                         strerror(-rc));
    return rc;
}

int xenprof_write_file(const char *path, unsigned int mode,
                       xenprof_fill_t *fill, void *arg, char *err,
                       size_t errlen)
{
    char *tmp = NULL, *real = NULL;
    struct stat st;
    int fd, rc, e;

    if ( !path || !*path || !fill )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_write_file: no path or writer");
    if ( err && errlen )
        err[0] = '\0';
    if ( !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) )
        return write_through(path, fill, arg, err, errlen);
    /* A symbolic link to a file: replace the file. */
    if ( !lstat(path, &st) && S_ISLNK(st.st_mode) &&
         (real = realpath(path, NULL)) )
        path = real;
    fd = create_tmp(path, mode, &tmp, err, errlen);
    if ( fd < 0 )
    {
        free(tmp);
        free(real);
        return fd;
    }
    rc = fill_fd(fd, true, fill, arg, err, errlen);
    if ( rc && (!err || !errlen || !err[0]) )
        xenprof_priv_err(err, errlen, rc, "%s: cannot write %s: %s", path,
                         tmp, strerror(-rc));
    else if ( !rc && rename(tmp, path) )
    {
        e = errno;
        rc = xenprof_priv_err(err, errlen, -e, "%s: cannot rename %s: %s",
                              path, tmp, strerror(e));
    }
    if ( rc )
        unlink(tmp);
    else
        sync_dir(path);
    free(tmp);
    free(real);
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
