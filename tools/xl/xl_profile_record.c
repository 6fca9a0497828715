/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xl_profile_record.c: `xl profile record [start options] [--duration S]
 * [-- CMD]`: start a profile, record while CMD runs (or until SIGINT or
 * SIGTERM, or for S seconds) draining the samples into a spool file, then
 * stop and save (xl_profile_save.c); on a terminal, a status line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <libxl.h>
#include <libxl_utils.h>

#include <xenprofile.h>

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
    int fd;                         /* opened O_APPEND */
    const char *path;               /* its name, as the state holds it */
    void *buf;                      /* consumed, not yet written */
    size_t len, done;               /* bytes in buf, bytes written */
    uint64_t total;                 /* bytes in the spool file */
};

/* --duration: at most a year. */
#define MAX_DURATION (366ULL * 24 * 3600)

/*
 * Write what is pending; 0 when nothing is left.  buf starts at a record
 * boundary: when only part of it could be written (a full disk), the
 * spool is cut back to that boundary, so that it never ends in half a
 * record, and the whole of buf is written again next time.
 */
static int spool_flush(struct spool *sp)
{
    ssize_t n;

    while (sp->done < sp->len) {
        n = write(sp->fd, (char *)sp->buf + sp->done, sp->len - sp->done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            /* If it cannot be cut, appending the rest later is right. */
            if (sp->done && !ftruncate(sp->fd, sp->total - sp->done)) {
                sp->total -= sp->done;
                sp->done = 0;
            }
            return -1;
        }
        sp->done += n;
        sp->total += n;
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
    rc = libxl_profile_read_all(ctx, false, &sp->buf, &sp->len);
    return spool_flush(sp) ? -1 : rc;
}

/*
 * Name sp in s if it is not named there; true when that changed s.  A
 * spool that was removed (a `stop` run elsewhere saved it) is named no
 * more: the state file may be another session's by now.
 */
static bool note_spool(struct state *s, const struct spool *sp)
{
    struct stat st;

    if (sp->fd < 0 || !strcmp(s->spool, sp->path) ||
        fstat(sp->fd, &st) || !st.st_nlink)
        return false;
    snprintf(s->spool, sizeof(s->spool), "%s", sp->path);
    return true;
}

/*
 * The bytes at the start of sp->buf whose records are whole in the spool
 * file: all those written, unless a write was cut short in a record and
 * could not be cut back (a reader then cuts that record off).
 */
static size_t spool_written(const struct spool *sp)
{
    return whole_records(sp->buf, sp->done);
}

/*
 * After a failed save: keep in the spool what was drained but not yet
 * written there, or say how many samples that loses.
 */
static void spool_keep(struct spool *sp)
{
    struct xenprof_sample smp;
    uint64_t n = 0;
    size_t off = 0, from;

    if (sp->done >= sp->len || !spool_flush(sp))
        return;
    from = spool_written(sp);
    while (xenprof_decode_next((uint8_t *)sp->buf + from, sp->len - from,
                               &off, &smp, NULL, 0) > 0)
        n++;
    fprintf(stderr, "xl profile record: %"PRIu64" samples drained from Xen "
            "could not be written to %s: they are lost\n", n, sp->path);
}

/* SIGINT or SIGTERM seen (the recording's end, or nothing while saving). */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

/* Catch SIGINT and SIGTERM (on), or restore what they did (off). */
static void catch_stop(bool on)
{
    static struct sigaction old_int, old_term;
    struct sigaction sa;

    if (!on) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        return;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a signal ends the second's sleep at once. */
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
}

/*
 * The status line of a recording on a terminal, refreshed about once a
 * second on stderr: elapsed time, samples per second (over the last
 * refresh), samples lost, KiB pending in Xen, size of the spool.
 */
struct progress {
    bool tty;
    uint64_t t0, last_ns, last_taken;
};

static void progress_show(struct progress *pr, const struct spool *sp)
{
    libxl_profile_status st;
    uint64_t taken = 0, lost = 0, pending = 0, t = now_ns();
    double rate;
    int i;

    if (!pr->tty)
        return;
    libxl_profile_status_init(&st);
    if (!libxl_profile_get_status(ctx, &st)) {
        for (i = 0; i < st.num_cpus; i++) {
            taken += st.cpus[i].taken;
            lost += st.cpus[i].lost;
            pending += st.cpus[i].pending_bytes;
        }
        /* Over the last refresh; the first time, since the start. */
        if (!pr->last_ns)
            pr->last_ns = pr->t0;
        rate = t > pr->last_ns ?
               (double)(taken - pr->last_taken) * 1e9 / (t - pr->last_ns) : 0;
        fprintf(stderr, "\rxl profile record: %"PRIu64" s, %.0f samples/s, "
                "%"PRIu64" lost, %"PRIu64" KiB pending, spool %.1f MiB\033[K",
                (t - pr->t0) / 1000000000, rate, lost, pending / 1024,
                sp->total / 1048576.0);
        pr->last_ns = t;
        pr->last_taken = taken;
    }
    libxl_profile_status_dispose(&st);
}

/* Clear the status line (the terminal's line is the shell's again). */
static void progress_end(const struct progress *pr)
{
    if (pr->tty)
        fprintf(stderr, "\r\033[K");
}

/*
 * Record: with a command (argv[0] not NULL) until it exits, forwarding a
 * SIGTERM to it (a SIGINT from the terminal reaches it by itself); with
 * none until SIGINT or SIGTERM, or until seconds have passed (not 0).
 * The rings are drained into sp and the domains noted every second.  The
 * command's wait status in *status.  -1 when it could not be run.
 */
static int record_until(char **argv, unsigned long seconds,
                        struct spool *sp, int *status)
{
    struct progress pr = { .tty = isatty(STDERR_FILENO), .t0 = now_ns() };
    bool warned = false, forwarded = false;
    pid_t pid = 0;
    struct state s;

    *status = 0;
    if (argv[0]) {
        pid = fork();
        if (pid < 0) {
            perror("xl profile record: fork");
            return -1;
        }
        if (!pid) {
            catch_stop(false);
            execvp(argv[0], argv);
            fprintf(stderr, "xl profile record: cannot run %s: %s\n",
                    argv[0], strerror(errno));
            _exit(127);
        }
    }
    for (;;) {
        if (pid && waitpid(pid, status, WNOHANG) == pid)
            break;
        if (!pid && (stop_signal ||
                     (seconds && now_ns() - pr.t0 >= seconds * 1000000000ULL)))
            break;
        if (pid && stop_signal == SIGTERM && !forwarded) {
            kill(pid, SIGTERM);
            forwarded = true;
        }
        sleep(1);
        if (spool_drain(sp) && !warned) {
            progress_end(&pr);
            fprintf(stderr, "xl profile record: warning: cannot drain the "
                    "samples into the spool now; retrying\n");
            warned = true;
        }
        /*
         * The state file is written (and synced) only when it changes; a
         * verb that rewrote it meanwhile may have dropped the spool.
         */
        state_load(&s);
        if (state_note_domains(&s) | note_spool(&s, sp))
            state_save(&s);
        state_free(&s);
        progress_show(&pr, sp);
    }
    progress_end(&pr);
    /* What still cannot be written stays in sp->buf for save_profile(). */
    spool_flush(sp);
    return 0;
}

/*
 * Name the spool after data_path in buf (len bytes), as an absolute path
 * that a `stop` run from another folder finds: "DIR/FILE.spool.PID".
 * -1 after a warning when it cannot be named (the samples are then only
 * read at the end).
 */
static int spool_name(const char *data_path, char *buf, size_t len)
{
    char *dir_copy = strdup(data_path), *base_copy = strdup(data_path);
    char *dir = dir_copy && base_copy ? realpath(dirname(dir_copy), NULL)
                                      : NULL;
    int n = -1, rc = -1;

    if (dir)
        n = snprintf(buf, len, "%s/%s.spool.%d", strcmp(dir, "/") ? dir : "",
                     basename(base_copy), (int)getpid());
    if (!dir)
        fprintf(stderr, "xl profile record: warning: cannot find the folder "
                "of %s: %s; samples will only be read at the end\n",
                data_path, strerror(errno));
    else if (n < 0 || (size_t)n >= len || strchr(buf, '\n'))
        fprintf(stderr, "xl profile record: warning: no spool beside %s "
                "(its path is over %zu bytes or holds a newline); samples "
                "will only be read at the end\n", data_path, len - 1);
    else
        rc = 0;
    if (rc)
        buf[0] = '\0';
    free(dir);
    free(dir_copy);
    free(base_copy);
    return rc;
}

/*
 * Create the spool beside data_path, named in name (len bytes), and name
 * it in the state file.  Without it (a warning said why) sp->fd is -1 and
 * name is "".
 */
static void spool_open(struct spool *sp, const char *data_path, char *name,
                       size_t len)
{
    struct state s;

    if (spool_name(data_path, name, len))
        return;
    sp->path = name;
    sp->fd = open(name, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC,
                  0600);
    if (sp->fd < 0) {
        fprintf(stderr, "xl profile record: warning: cannot create %s: %s; "
                "samples will only be read at the end\n", name,
                strerror(errno));
        name[0] = '\0';
        return;
    }
    state_load(&s);
    note_spool(&s, sp);
    if (state_save(&s)) {
        /* A spool the state does not name would never be saved. */
        fprintf(stderr, "xl profile record: warning: no spool without the "
                "state file; samples will only be read at the end\n");
        close(sp->fd);
        sp->fd = -1;
        unlink(name);
        name[0] = '\0';
    }
    state_free(&s);
}

/*
 * record: start, record (while a command runs, until SIGINT or SIGTERM,
 * or for --duration seconds), stop and save, as `perf record`.  The rings
 * are drained every second into a spool file beside the data file (named
 * in the state file), so that a long recording does not fill them;
 * `stop` (here or run again by hand, should anything fail) saves the
 * spool's samples with the rest.  A signal while saving changes nothing:
 * the samples are saved.  Exit status: the command's, 0 without one, or
 * 1 when the profile could not be taken or saved.
 */
int profile_record(int argc, char **argv)
{
    static struct option opts[] = {
        {"data", 1, 0, 'd'}, {"duration", 1, 0, 'D'}, COMMON_LONG_OPTS };
    libxl_profile_params p;
    const char *data_path = "xenprofile.data", *folded = NULL;
    unsigned long long seconds = 0;
    libxl_bitmap cpumap;
    struct spool sp = { .fd = -1 };
    char spool[STATE_PATH_MAX] = "";
    size_t written;
    int opt, status = 0, ret = EXIT_FAILURE;

    libxl_profile_params_init(&p);
    p.max_depth = DEFAULT_DEPTH;
    libxl_bitmap_init(&cpumap);
    SWITCH_FOREACH_OPT(opt, "F:c:s:C:g:b:e:o:d:D:", opts, "profile record", 0) {
    case 'D':
        if (parse_num("--duration", optarg, 1, MAX_DURATION, &seconds))
            goto out;
        break;
    default:
        if (!profile_output_option(opt, optarg, &data_path, &folded) &&
            profile_start_option(opt, optarg, &p, &cpumap))
            goto out;
        break;
    }
    if (seconds && optind < argc) {
        fprintf(stderr, "xl profile record: --duration and a command "
                "exclude each other (the command's end ends the "
                "recording)\n");
        goto out;
    }
    catch_stop(true);
    if (profile_do_start("record", &p, &cpumap))
        goto out_signals;

    spool_open(&sp, data_path, spool, sizeof(spool));

    if (record_until(argv + optind, seconds, &sp, &status))
        goto out_signals;
    written = spool_written(&sp);
    if (!save_profile("record", data_path, folded, spool,
                      sp.buf ? (char *)sp.buf + written : NULL,
                      sp.len - written))
        ret = optind == argc ? EXIT_SUCCESS :
              WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILURE;
    else
        spool_keep(&sp);

 out_signals:
    catch_stop(false);
 out:
    if (sp.fd >= 0)
        close(sp.fd);
    free(sp.buf);
    libxl_bitmap_dispose(&cpumap);
    libxl_profile_params_dispose(&p);
    return ret;
}

/*
 * Local variables:
 * mode: C
 * c-basic-offset: 4
 * indent-tabs-mode: nil
 * End:
 */
