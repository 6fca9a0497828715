/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-write.c: xenprof_data_write() failures leave the target untouched
 * and no temporary file behind; what is not a regular file (a device, a
 * FIFO, a symbolic link) is written, not replaced.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

/* Write the sample profile to path; rc, message in err. */
static int write_sample(const char *path, char *err, size_t errlen)
{
    struct xenprof_data *d = sample_profile();
    int rc = d ? xenprof_data_write(d, path, err, errlen) : -ENOMEM;

    xenprof_data_free(d);
    return rc;
}

/* True when path holds exactly the bytes s. */
static bool holds(const char *path, const char *s)
{
    uint8_t *buf;
    size_t len;
    bool same;

    if ( file_load(path, &buf, &len) )
        return false;
    same = len == strlen(s) && !memcmp(buf, s, len);
    free(buf);
    return same;
}

static void bad_targets(void)
{
    char dir[TPATH], path[TPATH], err[256] = "";
    int before, rc;

    before = dir_count(tmpdir_get());
    rc = write_sample(tmp_path(path, "nodir/x.data"), err, sizeof(err));
    tap_ok(rc == -ENOENT && strstr(err, path) &&
           dir_count(tmpdir_get()) == before,
           "write: a missing folder gives -ENOENT (\"%s\")", err);
    file_save(tmp_path(dir, "afile"), "x", 1);
    rc = write_sample(tmp_path(path, "afile/x.data"), err, sizeof(err));
    tap_ok(rc == -ENOTDIR && holds(dir, "x"),
           "write: a file as folder gives -ENOTDIR (\"%s\")", err);
    remove(dir);
    mkdir(tmp_path(dir, "isdir"), 0700);
    before = dir_count(tmpdir_get());
    rc = write_sample(dir, err, sizeof(err));
    tap_ok(rc == -EISDIR && dir_count(tmpdir_get()) == before &&
           dir_count(dir) == 0,
           "write: a folder at the path fails on rename, temporary file "
           "removed (rc %d, \"%s\")", rc, err);
    rmdir(dir);
}

/* As root, a folder of sysfs stands for an unwritable folder. */
static void read_only_root(void)
{
    char err[256] = "";
    struct stat st;
    int rc;

    if ( stat("/sys/kernel", &st) || !S_ISDIR(st.st_mode) )
    {
        tap_skip("root, and no /sys", "write: an unwritable folder fails");
        return;
    }
    rc = write_sample("/sys/kernel/xenprofile-test.data", err, sizeof(err));
    tap_ok(rc < 0 && rc != -ENOMEM && err[0] &&
           access("/sys/kernel/xenprofile-test.data", F_OK),
           "write: an unwritable folder (root: /sys/kernel) fails, leaves "
           "nothing (rc %d, \"%s\")", rc, err);
}

static void read_only_dir(void)
{
    char dir[TPATH], path[TPATH], err[256] = "";
    int rc;

    mkdir(tmp_path(dir, "ro"), 0500);
    if ( access(dir, W_OK) == 0 )
    {
        rmdir(dir);
        read_only_root();
        return;
    }
    tmp_path(path, "ro/x.data");
    rc = write_sample(path, err, sizeof(err));
    tap_ok(rc == -EACCES && dir_count(dir) == 0,
           "write: an unwritable folder gives -EACCES, leaves nothing "
           "(\"%s\")", err);
    rmdir(dir);
}

/* A write that fails half way (file size limit): the old file stays. */
static void half_way(void)
{
    struct xenprof_data *d = sample_profile();
    char dir[TPATH], path[TPATH], err[256] = "";
    uint8_t rec[1056];
    struct rlimit old, lim;
    unsigned int i;
    int rc = 0;

    mkdir(tmp_path(dir, "lim"), 0700);
    tmp_path(path, "lim/x.data");
    file_save(path, "old", 3);
    for ( i = 0; d && i < 256 && !rc; i++ )
        rc = xenprof_data_add_records(d, rec, rec_put(rec, &(struct trec){
            .nr = 128 }));
    if ( !d || rc || getrlimit(RLIMIT_FSIZE, &old) )
    {
        tap_ok(false, "write: a failure half way (setup)");
        xenprof_data_free(d);
        return;
    }
    lim = old;
    lim.rlim_cur = 16384;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &lim);
    rc = xenprof_data_write(d, path, err, sizeof(err));
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, SIG_DFL);
    tap_ok(rc == -EFBIG && holds(path, "old") && dir_count(dir) == 1,
           "write: a failure half way leaves the old file and no "
           "temporary file (rc %d, \"%s\")", rc, err);
    rc = xenprof_data_write(d, path, err, sizeof(err));
    tap_ok(!rc && !holds(path, "old") && dir_count(dir) == 1,
           "write: replacing a file leaves one file (\"%s\")", err);
    xenprof_data_free(d);
    remove(path);
    rmdir(dir);
}

static void bad_data(void)
{
    struct xenprof_data *d = xenprof_data_new();
    char path[TPATH], err[256] = "";
    uint8_t rec[64];
    int before = dir_count(tmpdir_get()), rc;

    rec_put(rec, &(struct trec){ .nr = 1 });
    rec[11] = 2;                        /* nr_frames: does not match */
    xenprof_data_add_records(d, rec, 32);
    rc = xenprof_data_write(d, tmp_path(path, "bad.data"), err,
                            sizeof(err));
    tap_ok(rc == -EBADMSG && strstr(err, "offset 0") &&
           dir_count(tmpdir_get()) == before,
           "write: corrupt records are refused before any file is made "
           "(\"%s\")", err);
    tap_ok(xenprof_data_write(NULL, path, NULL, 0) == -EINVAL &&
           xenprof_data_write(d, NULL, NULL, 0) == -EINVAL &&
           xenprof_data_write(d, "", NULL, 0) == -EINVAL,
           "write: no data or no path gives -EINVAL");
    xenprof_data_free(d);
}

static int fill_hello(FILE *f, void *arg, char *err, size_t errlen)
{
    (void)arg;
    (void)err;
    (void)errlen;
    return fputs("hello\n", f) < 0 ? -EIO : 0;
}

/*
 * Special targets: written through, never renamed over (an earlier
 * writer replaced /dev/null, as root, with a regular file: a FIFO stands
 * for every file that is not a regular one, safely).
 */
static void special_targets(void)
{
    char fifo[TPATH], target[TPATH], link[TPATH], got[16] = "", err[256];
    struct stat st;
    ssize_t n = -1;
    pid_t pid;
    int fd[2], rc;

    tmp_path(fifo, "a.fifo");
    if ( mkfifo(fifo, 0600) || pipe(fd) || (pid = fork()) < 0 )
    {
        tap_skip("cannot make a FIFO", "write: a FIFO is written");
        return;
    }
    if ( !pid )
    {
        FILE *f;

        /* Nobody writes to a FIFO replaced by a file: give up then. */
        alarm(5);
        f = fopen(fifo, "r");
        close(fd[0]);
        n = f ? (ssize_t)fread(got, 1, sizeof(got) - 1, f) : -1;
        _exit(n > 0 && write(fd[1], got, n) == n ? 0 : 1);
    }
    close(fd[1]);
    rc = xenprof_write_file(fifo, 0600, fill_hello, NULL, err, sizeof(err));
    n = read(fd[0], got, sizeof(got) - 1);
    close(fd[0]);
    waitpid(pid, NULL, 0);
    tap_ok(!rc && n == 6 && !memcmp(got, "hello\n", 6) && !lstat(fifo, &st) &&
           S_ISFIFO(st.st_mode),
           "write: a FIFO is written through, still a FIFO (%d, \"%s\")", rc,
           err);
    remove(fifo);
    file_save(tmp_path(target, "target.txt"), "old", 3);
    if ( symlink(target, tmp_path(link, "link.txt")) )
    {
        tap_skip("cannot make a symbolic link", "write: a symbolic link");
        return;
    }
    rc = xenprof_write_file(link, 0600, fill_hello, NULL, err, sizeof(err));
    tap_ok(!rc && !lstat(link, &st) && S_ISLNK(st.st_mode) &&
           holds(target, "hello\n"),
           "write: a symbolic link stays, its target is replaced (%d, \"%s\")",
           rc, err);
    remove(link);
    remove(target);
}

void test_write(void)
{
    special_targets();
    bad_targets();
    read_only_dir();
    half_way();
    bad_data();
}
