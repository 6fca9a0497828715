/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xl_profile_record.c: `xl profile record [start options] -- CMD`: start
 * a profile, run CMD while draining the samples into a spool file, then
 * stop and save (xl_profile_save.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <libxl.h>
#include <libxl_utils.h>

#include "xl.h"
#include "xl_utils.h"
#include "xl_profile.h"

/*
 * The spool of `record`: records consumed from Xen are kept in buf until
 * they are all written to fd, so that a full disk delays draining instead
 * of losing samples.  Without a spool (fd < 0) nothing is drained: the
 * samples stay in Xen.
 */
struct spool {
    int fd;
    void *buf;                      /* consumed, not yet written */
    size_t len, done;               /* bytes in buf, bytes written */
};

/* Write what is pending; 0 when nothing is left. */
static int spool_flush(struct spool *sp)
{
    ssize_t n;

    while (sp->done < sp->len) {
        n = write(sp->fd, (char *)sp->buf + sp->done, sp->len - sp->done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        sp->done += n;
    }
    /* Written: a failed fsync() must not make us write it twice. */
    if (sp->len)
        fsync(sp->fd);
    free(sp->buf);
    sp->buf = NULL;
    sp->len = sp->done = 0;
    return 0;
}

/* Drain the rings into the spool, once earlier records are written. */
static int spool_drain(struct spool *sp)
{
    int rc;

    if (sp->fd < 0)
        return 0;
    if (spool_flush(sp))
        return -1;
    /* Even on failure, buf holds consumed records: keep them. */
    rc = libxl_profile_read_all(ctx, 0, &sp->buf, &sp->len);
    return spool_flush(sp) ? -1 : rc;
}

/*
 * Run argv, draining the rings into sp every second; its wait status in
 * *status.  -1 when it could not be run (said in one line).
 */
static int run_command(char **argv, struct spool *sp, int *status)
{
    void (*old)(int) = signal(SIGINT, SIG_IGN);
    pid_t pid = fork();
    bool warned = false;

    if (pid < 0) {
        perror("xl profile record: fork");
        signal(SIGINT, old);
        return -1;
    }
    if (!pid) {
        signal(SIGINT, SIG_DFL);
        execvp(argv[0], argv);
        fprintf(stderr, "xl profile record: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, status, WNOHANG) != pid) {
        sleep(1);
        if (spool_drain(sp) && !warned) {
            fprintf(stderr, "xl profile record: warning: cannot drain the "
                    "samples into the spool now; retrying\n");
            warned = true;
        }
    }
    signal(SIGINT, old);
    /* What still cannot be written stays in sp->buf for save_profile(). */
    spool_flush(sp);
    return 0;
}

/*
 * record: start, run a command, stop and save, as `perf record`.  While
 * the command runs the rings are drained every second into a spool file
 * beside the data file (named in the state file), so that a long command
 * does not fill them; `stop` (here or run again by hand, should anything
 * fail) saves the spool's samples with the rest.  Exit status: the
 * command's, or 1 when the profile could not be taken or saved.
 */
int profile_record(int argc, char **argv)
{
    static struct option opts[] = { {"data", 1, 0, 'd'}, COMMON_LONG_OPTS };
    libxl_profile_params p = { .max_depth = DEFAULT_DEPTH };
    const char *data_path = "xenprofile.data", *folded = NULL;
    libxl_bitmap cpumap;
    struct spool sp = { .fd = -1 };
    struct state s;
    int opt, status = 0, ret = EXIT_FAILURE;

    libxl_bitmap_init(&cpumap);
    SWITCH_FOREACH_OPT(opt, "F:c:s:C:g:b:e:o:d:", opts, "profile record", 1) {
    default:
        if (!profile_output_option(opt, optarg, &data_path, &folded) &&
            profile_start_option(opt, optarg, &p, &cpumap))
            goto out;
        break;
    }
    if (profile_do_start("record", &p, &cpumap))
        goto out;

    state_load(&s);
    snprintf(s.spool, sizeof(s.spool), "%s.spool.%d", data_path,
             (int)getpid());
    sp.fd = open(s.spool, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (sp.fd < 0)
        fprintf(stderr, "xl profile record: warning: cannot create %s: %s; "
                "samples will only be read at the end\n", s.spool,
                strerror(errno));
    else
        state_save(&s);
    state_free(&s);

    if (!run_command(argv + optind, &sp, &status) &&
        !save_profile("record", data_path, folded,
                      (char *)sp.buf + sp.done, sp.len - sp.done))
        ret = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILURE;

 out:
    if (sp.fd >= 0)
        close(sp.fd);
    free(sp.buf);
    libxl_bitmap_dispose(&cpumap);
    return ret;
}

/*
 * Local variables:
 * mode: C
 * c-basic-offset: 4
 * indent-tabs-mode: nil
 * End:
 */
