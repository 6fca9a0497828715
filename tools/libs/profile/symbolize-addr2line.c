/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbolize-addr2line.c: file:line and inlined frames of code addresses, from
 * binutils' addr2line run once as a child process for all of them.
 *
 * Decoding DWARF line and inline information would be a large part of a
 * library that needs the C library only; addr2line is present wherever a
 * xen-syms with debug information is built, and a single run answers
 * many addresses fast: it reads the DWARF once (5000 addresses of a small
 * -g program in 19 ms, 3491 frames of a real profile on a release
 * xen-syms in 6 ms), where a run per address pays that every time.  It
 * is run as `addr2line -a -f -i -e ELF` with the addresses on its
 * standard input; its answer for each is
 *
 *     0x<address>                  (-a: where the address's answer starts)
 *     function                     (-f; "??" when unknown)
 *     file:line                    ("??:0", "file:?"; " (discriminator N)")
 *     ... more function, file:line pairs (-i: the functions the first
 *     one was inlined into, outwards)
 *
 * The addresses are written while the answers are read (poll(), the
 * write side non-blocking), so that neither side waits on a full pipe.
 * SIGPIPE (addr2line exiting early) is blocked in the calling thread and
 * a pending one discarded; the child gets the caller's signal mask.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE                     /* pipe2() */
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "symbolize-elf.h"

#define TIMEOUT_MS      (300 * 1000)    /* without any progress */
#define MAX_ERR_TEXT    4096            /* of its standard error kept */
#define MAX_OUT_PER     8192            /* output bytes per address */

extern char **environ;

struct ent {
    uint64_t addr;
    size_t first, n;                    /* frames fr[first..first + n) */
};

struct xenprof_a2l {
    char *text;                         /* the output, lines cut */
    struct ent *ent;                    /* sorted by address */
    size_t nr_ent;
    struct xenprof_a2l_frame *fr;
    size_t nr_fr;
};

/* A growing buffer of bytes read from a pipe. */
struct gbuf {
    char *p;
    size_t len, cap, max;
};

/* The child and the parent's ends of its pipes (-1: closed). */
struct child {
    const char *prog;
    char path[4096];                    /* prog found in PATH */
    pid_t pid;
    int in, out, err;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static void close_fd(int *fd)
{
    if ( *fd >= 0 )
        close(*fd);
    *fd = -1;
}

/* Move *fd above the standard descriptors (close-on-exec); 0 or -errno. */
static int high_fd(int *fd)
{
    int nfd;

    if ( *fd > 2 )
        return 0;
    nfd = fcntl(*fd, F_DUPFD_CLOEXEC, 3);
    if ( nfd < 0 )
        return -errno;
    close(*fd);
    *fd = nfd;
    return 0;
}

/* Three pipes, every end above 2 and close-on-exec; 0 or -errno. */
static int make_pipes(int p[3][2])
{
    int i, j, rc = 0;

    for ( i = 0; i < 3 && !rc; i++ )
        if ( pipe2(p[i], O_CLOEXEC) )
            rc = -errno;
    for ( i = 0; i < 3 && !rc; i++ )
        for ( j = 0; j < 2 && !rc; j++ )
            rc = high_fd(&p[i][j]);
    return rc;
}

/*
 * Find c->prog (in PATH unless it has a '/') into c->path: 0 or -ENOENT.
 * Done here rather than by posix_spawnp(), so that a missing program is
 * told apart from a failing one everywhere.
 */
static int find_prog(struct child *c)
{
    const char *dir = getenv("PATH"), *end;
    int len;

    if ( strchr(c->prog, '/') )
        return snprintf(c->path, sizeof(c->path), "%s", c->prog) <
               (int)sizeof(c->path) && !access(c->path, X_OK) ? 0 : -ENOENT;
    for ( dir = dir ? dir : "/usr/bin:/bin"; *dir; dir = end + !!*end )
    {
        end = dir + strcspn(dir, ":");
        len = snprintf(c->path, sizeof(c->path), "%.*s/%s",
                       end > dir ? (int)(end - dir) : 1,
                       end > dir ? dir : ".", c->prog);
        if ( len < (int)sizeof(c->path) && !access(c->path, X_OK) )
            return 0;
    }
    return -ENOENT;
}

/* Start the child on the pipes p; 0 or -errno. */
static int spawn(struct child *c, const char *elf, int p[3][2],
                 const sigset_t *mask)
{
    char *argv[] = { (char *)c->prog, "-a", "-f", "-i", "-e", (char *)elf,
                     NULL };
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int rc;

    if ( posix_spawn_file_actions_init(&fa) )
        return -ENOMEM;
    if ( posix_spawnattr_init(&at) )
    {
        posix_spawn_file_actions_destroy(&fa);
        return -ENOMEM;
    }
    rc = posix_spawn_file_actions_adddup2(&fa, p[0][0], 0) ?:
         posix_spawn_file_actions_adddup2(&fa, p[1][1], 1) ?:
         posix_spawn_file_actions_adddup2(&fa, p[2][1], 2) ?:
         posix_spawnattr_setsigmask(&at, mask) ?:
         posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK) ?:
         posix_spawn(&c->pid, c->path, &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    return -rc;
}

/* Write more of in[0..len) (*done so far); 0 or -errno. */
static int feed(int *fd, const char *in, size_t len, size_t *done)
{
    ssize_t n = write(*fd, in + *done, len - *done);

    if ( n > 0 )
        *done += n;
    else if ( n < 0 && errno == EPIPE )
        *done = len;                    /* it exited: its status tells */
    else if ( n < 0 && errno != EAGAIN && errno != EINTR )
        return -errno;
    if ( *done == len )
        close_fd(fd);
    return 0;
}

/* Read what is there into b (beyond b->max: dropped); 0 or -errno. */
static int drain(int *fd, struct gbuf *b)
{
    char tmp[65536], *p;
    ssize_t n = read(*fd, tmp, sizeof(tmp));
    size_t keep;

    if ( n < 0 )
        return errno == EAGAIN || errno == EINTR ? 0 : -errno;
    if ( !n )
    {
        close_fd(fd);
        return 0;
    }
    keep = b->max - b->len < (size_t)n ? b->max - b->len : (size_t)n;
    if ( b->len + keep + 1 > b->cap )
    {
        b->cap = (b->len + keep + 1) * 2;
        p = realloc(b->p, b->cap);
        if ( !p )
            return -ENOMEM;
        b->p = p;
    }
    memcpy(b->p + b->len, tmp, keep);
    b->len += keep;
    b->p[b->len] = '\0';
    return 0;
}

/* Write in[0..len) to the child while reading its output; 0 or -errno. */
static int exchange(struct child *c, const char *in, size_t len,
                    struct gbuf *out, struct gbuf *errb)
{
    struct pollfd p[3];
    size_t done = 0;
    int n, rc = 0;

    if ( fcntl(c->in, F_SETFL, O_NONBLOCK) )
        return -errno;
    while ( !rc && (c->in >= 0 || c->out >= 0 || c->err >= 0) )
    {
        p[0].fd = c->in;
        p[0].events = POLLOUT;
        p[1].fd = c->out;
        p[2].fd = c->err;
        p[1].events = p[2].events = POLLIN;
        n = poll(p, 3, TIMEOUT_MS);
        if ( n < 0 && errno == EINTR )
            continue;
        if ( n <= 0 )
            return n ? -errno : -ETIMEDOUT;
        if ( p[0].revents )
            rc = feed(&c->in, in, len, &done);
        if ( !rc && p[1].revents )
            rc = drain(&c->out, out);
        if ( !rc && p[2].revents )
            rc = drain(&c->err, errb);
        if ( !rc && out->len == out->max )
            rc = -EFBIG;
    }
    return rc;
}

/* Wait for the child (killed first when kill_it); its wait status. */
static int reap(struct child *c, bool kill_it)
{
    int status = 0;

    close_fd(&c->in);
    close_fd(&c->out);
    close_fd(&c->err);
    if ( c->pid <= 0 )
        return 0;
    if ( kill_it )
        kill(c->pid, SIGKILL);
    while ( waitpid(c->pid, &status, 0) < 0 && errno == EINTR )
        continue;
    c->pid = 0;
    return status;
}

/* The addresses one per line ("0x..."); NULL when out of memory. */
static char *addr_text(const uint64_t *a, size_t n, size_t *len)
{
    char *t = n < SIZE_MAX / 20 ? malloc(n * 20 + 1) : NULL;
    size_t i;

    *len = 0;
    for ( i = 0; t && i < n; i++ )
        *len += sprintf(t + *len, "0x%" PRIx64 "\n", a[i]);
    return t;
}

/* The first line of text, for a message. */
static const char *first_line(char *text)
{
    if ( !text || !*text )
        return "no message";
    text[strcspn(text, "\n")] = '\0';
    return text;
}

/*
 * Run the child on the addresses a[0..n) (sorted, distinct): its output
 * in out; 0 or -errno with a message.
 */
static int run(struct child *c, const char *elf, const uint64_t *a,
               size_t n, struct gbuf *out, char *err, size_t errlen)
{
    struct gbuf errb = { .max = MAX_ERR_TEXT };
    sigset_t pipe_set, old, pend;
    int p[3][2], rc, status;
    struct timespec zero = { 0, 0 };
    bool pending;
    size_t len;
    char *in = addr_text(a, n, &len);

    memset(p, -1, sizeof(p));
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_set, &old);
    pending = !sigpending(&pend) && sigismember(&pend, SIGPIPE);
    rc = in ? find_prog(c) : -ENOMEM;
    rc = rc ?: make_pipes(p);
    rc = rc ?: spawn(c, elf, p, &old);
    c->in = p[0][1];
    c->out = p[1][0];
    c->err = p[2][0];
    close_fd(&p[0][0]);
    close_fd(&p[1][1]);
    close_fd(&p[2][1]);
    rc = rc ?: exchange(c, in, len, out, &errb);
    status = reap(c, rc);
    if ( !pending && !sigpending(&pend) && sigismember(&pend, SIGPIPE) )
        sigtimedwait(&pipe_set, NULL, &zero);
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(in);
    if ( rc == -ETIMEDOUT || rc == -EFBIG )
        rc = xenprof_priv_err(err, errlen, -EIO, "%s: %s", c->prog,
                              rc == -EFBIG ? "too much output" :
                              "no answer in 300 s");
    else if ( rc )
        xenprof_priv_err(err, errlen, rc, "cannot run %s: %s", c->prog,
                         strerror(-rc));
    else if ( WIFSIGNALED(status) )
        rc = xenprof_priv_err(err, errlen, -EIO, "%s failed (signal %d)",
                              c->prog, WTERMSIG(status));
    else if ( !WIFEXITED(status) || WEXITSTATUS(status) )
        rc = xenprof_priv_err(err, errlen, -EIO, "%s failed (exit %d): %s",
                              c->prog, WEXITSTATUS(status),
                              first_line(errb.p));
    free(errb.p);
    return rc;
}

/* Is line "0x" and hex digits?  Its value in *v. */
static bool addr_line(const char *line, uint64_t *v)
{
    if ( line[0] != '0' || line[1] != 'x' || !line[2] ||
         strspn(line + 2, "0123456789abcdefABCDEF") != strlen(line + 2) ||
         strlen(line + 2) > 16 )
        return false;
    *v = strtoull(line + 2, NULL, 16);
    return true;
}

/* "file:line (discriminator N)" into f (cut in place). */
static void parse_loc(char *loc, struct xenprof_a2l_frame *f)
{
    char *colon, *disc = strstr(loc, " (discriminator ");

    if ( disc )
        *disc = '\0';
    colon = strrchr(loc, ':');
    f->line = 0;
    if ( colon )
    {
        *colon = '\0';
        if ( colon[1] >= '0' && colon[1] <= '9' )
            f->line = strtoul(colon + 1, NULL, 10);
    }
    f->file = strcmp(loc, "??") && *loc ? loc : NULL;
}

/* One output line into a (after k answers); 0, -EIO or -ENOMEM. */
static int parse_line(struct xenprof_a2l *a, char *line, const uint64_t *addr,
                      size_t n, size_t *k, bool *loc)
{
    struct xenprof_a2l_frame *f;
    uint64_t v;
    void *p;

    if ( !*loc && addr_line(line, &v) )
    {
        if ( *k >= n || v != addr[*k] )
            return -EIO;
        a->ent[*k].addr = v;
        a->ent[*k].first = a->nr_fr;
        a->ent[(*k)++].n = 0;
        return 0;
    }
    if ( !*k )
        return -EIO;
    if ( !*loc )
    {
        p = a->fr;
        if ( xenprof_priv_reserve(&p, a->nr_fr, 1, sizeof(*a->fr)) )
            return -ENOMEM;
        a->fr = p;
        f = &a->fr[a->nr_fr];
        f->func = strcmp(line, "??") && *line ? line : NULL;
        *loc = true;
        return 0;
    }
    parse_loc(line, &a->fr[a->nr_fr++]);
    a->ent[*k - 1].n++;
    *loc = false;
    return 0;
}

/* Parse the output text (owned by a) for addr[0..n); 0 or -errno. */
static int parse(struct xenprof_a2l *a, const uint64_t *addr, size_t n,
                 const char *prog, char *err, size_t errlen)
{
    char *line = a->text, *end, *stop = line + strlen(line);
    size_t k = 0, nr = 0;
    bool loc = false;
    int rc = 0;

    a->ent = malloc(n * sizeof(*a->ent));
    if ( !a->ent )
        return xenprof_priv_err(err, errlen, -ENOMEM, "out of memory");
    for ( ; !rc && line < stop; line = end )
    {
        end = line + strcspn(line, "\n");
        if ( *end )
            *end++ = '\0';
        if ( end - line > 1 && end[-2] == '\r' )
            end[-2] = '\0';
        nr++;
        rc = parse_line(a, line, addr, n, &k, &loc);
    }
    a->nr_ent = k;
    if ( rc == -ENOMEM )
        return xenprof_priv_err(err, errlen, rc, "out of memory");
    if ( rc || loc || k != n )
        return xenprof_priv_err(err, errlen, -EIO,
                                "%s: unexpected output at line %zu",
                                prog, rc ? nr : nr + 1);
    return 0;
}

int xenprof_priv_a2l_run(const char *elf, const uint64_t *addrs, size_t n,
                         struct xenprof_a2l **out, char *err,
                         size_t errlen)
{
    struct child c = { .prog = getenv("XENPROFILE_ADDR2LINE") };
    struct xenprof_a2l *a = calloc(1, sizeof(*a));
    uint64_t *s = malloc((n ? n : 1) * sizeof(*s));
    struct gbuf o = { .max = 256 + (n < SIZE_MAX / (2 * MAX_OUT_PER) ?
                                    n * MAX_OUT_PER : SIZE_MAX / 2) };
    size_t i, m = 0;
    int rc = a && s ? 0 : -ENOMEM;

    *out = NULL;
    if ( !c.prog || !*c.prog )
        c.prog = "addr2line";
    if ( !rc && n )
        memcpy(s, addrs, n * sizeof(*s));
    if ( !rc )
        qsort(s, n, sizeof(*s), cmp_u64);
    for ( i = 0; !rc && i < n; i++ )
        if ( !m || s[m - 1] != s[i] )
            s[m++] = s[i];
    if ( rc )
        xenprof_priv_err(err, errlen, rc, "out of memory");
    else if ( m && !(rc = run(&c, elf, s, m, &o, err, errlen)) )
    {
        a->text = o.p ? o.p : calloc(1, 1);
        o.p = NULL;
        rc = a->text ? parse(a, s, m, c.prog, err, errlen) :
             xenprof_priv_err(err, errlen, -ENOMEM, "out of memory");
    }
    free(o.p);
    free(s);
    if ( rc )
    {
        xenprof_priv_a2l_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

size_t xenprof_priv_a2l_get(const struct xenprof_a2l *a, uint64_t addr,
                            const struct xenprof_a2l_frame **f)
{
    size_t lo = 0, hi = a ? a->nr_ent : 0, mid;

    *f = NULL;
    while ( lo < hi )
    {
        mid = lo + (hi - lo) / 2;
        if ( a->ent[mid].addr == addr )
        {
            *f = a->fr + a->ent[mid].first;
            return a->ent[mid].n;
        }
        if ( a->ent[mid].addr < addr )
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

void xenprof_priv_a2l_free(struct xenprof_a2l *a)
{
    if ( !a )
        return;
    free(a->text);
    free(a->ent);
    free(a->fr);
    free(a);
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
