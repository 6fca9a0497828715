/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-datafile.c: the data file reader on damaged and hand-made files,
 * and the atomic writer on failures.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

/* Read path: rc, and check that nothing is returned on failure. */
static int try_read(const char *path, char *err, size_t errlen)
{
    struct xenprof_data *d = (void *)1;
    int rc = xenprof_data_read(path, &d, err, errlen);

    if ( rc && d )
        rc = -9999;                     /* failure must give NULL */
    xenprof_data_free(d);
    return rc;
}

/* A valid file in memory: the sample profile, written and loaded. */
static int valid_file(uint8_t **buf, size_t *len)
{
    struct xenprof_data *d = sample_profile();
    char path[TPATH];
    int rc;

    tmp_path(path, "valid.data");
    rc = d ? xenprof_data_write(d, path, NULL, 0) : -ENOMEM;
    xenprof_data_free(d);
    if ( !rc )
        rc = file_load(path, buf, len);
    remove(path);
    return rc;
}

/* Every damaged copy of file must fail cleanly; returns the bad ones. */
static unsigned int damaged(const uint8_t *file, size_t len, bool flip)
{
    uint8_t *copy = malloc(len);
    char path[TPATH], err[256];
    unsigned int bad = 0;
    size_t i;
    int rc;

    tmp_path(path, "damaged.data");
    for ( i = 0; copy && i < len; i++ )
    {
        memcpy(copy, file, len);
        if ( flip )
            copy[i] ^= 1u << (i % 8);
        err[0] = '\0';
        file_save(path, copy, flip ? len : i);
        rc = try_read(path, err, sizeof(err));
        if ( (rc == -EBADMSG && strstr(err, "offset") &&
              strstr(err, path)) || (rc == -EINVAL && err[0]) )
            continue;
        if ( !bad++ )
            tap_diag("%s at %zu: rc %d, \"%s\"", flip ? "flip" : "cut",
                     i, rc, err);
    }
    free(copy);
    remove(path);
    return copy ? bad : 1;
}

static void damage(void)
{
    char path[TPATH], err[256] = "";
    uint8_t *file = NULL;
    size_t len = 0;
    int rc = valid_file(&file, &len);

    tmp_path(path, "valid.data");
    tap_ok(!rc && len > 100 && file_save(path, file, len) == 0 &&
           try_read(path, err, sizeof(err)) == 0,
           "file: a valid file of %zu bytes reads back (\"%s\")", len, err);
    remove(path);
    if ( rc )
        return;
    tap_ok(!damaged(file, len, false),
           "file: cut at each of %zu offsets: -EBADMSG/-EINVAL", len);
    tap_ok(!damaged(file, len, true),
           "file: a bit flipped in each of %zu bytes is detected", len);
    free(file);
}

/* Headers that are not a readable file of ours. */
static void headers(void)
{
    static const struct {
        const char *desc;
        const char *bytes;
        size_t len;
        int rc;
        const char *msg;
    } cases[] = {
        { "wrong magic", "XENPROG\0\1\0\0\0\0\0\0\0", 16, -EINVAL,
          "not a xenprofile data file" },
        { "a text file", "hello, world\n", 13, -EINVAL, "not a xenprofile" },
        { "newer version", "XENPROF\0\2\0\0\0\0\0\0\0", 16, -EINVAL,
          "version 2 is newer" },
        { "version 0", "XENPROF\0\0\0\0\0\0\0\0\0", 16, -EINVAL,
          "version 0" },
        { "an empty file", "", 0, -EBADMSG, "offset 0" },
        { "header only", "XENPROF\0\1\0\0\0\0\0\0\0", 16, -EBADMSG,
          "offset 16: truncated file: no END" },
    };
    char path[TPATH], err[256];
    size_t i;
    int rc;

    tmp_path(path, "hdr.data");
    for ( i = 0; i < sizeof(cases) / sizeof(cases[0]); i++ )
    {
        err[0] = '\0';
        file_save(path, cases[i].bytes, cases[i].len);
        rc = try_read(path, err, sizeof(err));
        tap_ok(rc == cases[i].rc && strstr(err, cases[i].msg),
               "file: %s gives %d (rc %d, \"%s\")", cases[i].desc,
               cases[i].rc, rc, err);
    }
    remove(path);
    tmp_path(path, "missing.data");
    rc = try_read(path, err, sizeof(err));
    tap_ok(rc == -ENOENT && strstr(err, path),
           "file: a missing file gives -ENOENT naming it (\"%s\")", err);
    tap_ok(xenprof_data_read(NULL, NULL, NULL, 0) == -EINVAL,
           "file: read with no path gives -EINVAL");
}

static void test_crc(void)
{
    tap_ok(test_crc32("123456789", 9) == 0xcbf43926,
           "crc32 of the test suite is the standard CRC-32");
}

/* The records' version is saved; a newer one than we know is refused. */
static void record_version(void)
{
    struct xenprof_data *d = sample_profile(), *r = NULL;
    char path[TPATH], err[256] = "";
    int rc;

    tmp_path(path, "recver.data");
    d->meta.record_version = XENPROF_REC_VERSION;
    rc = xenprof_data_write(d, path, NULL, 0);
    if ( !rc )
        rc = xenprof_data_read(path, &r, NULL, 0);
    tap_ok(!rc && r && r->meta.record_version == XENPROF_REC_VERSION,
           "file: the record version round-trips");
    xenprof_data_free(r);
    r = NULL;

    d->meta.record_version = XENPROF_REC_VERSION + 1;
    rc = xenprof_data_write(d, path, NULL, 0);
    if ( !rc )
        rc = xenprof_data_read(path, &r, err, sizeof(err));
    tap_ok(rc == -EINVAL && !r && strstr(err, "records of version 2"),
           "file: records of a newer version are refused: %s", err);
    xenprof_data_free(d);
}

void test_datafile(void)
{
    test_crc();
    damage();
    headers();
    record_version();
}
