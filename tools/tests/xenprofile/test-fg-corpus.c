/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-fg-corpus.c: our flame graphs against inferno's, on a corpus of
 * cases kept outside Xen's tree, named by $XENPROFILE_CORPUS: a folder
 * per case with its folded input and the SVG inferno drew from it.  The
 * same input must give the same set of (depth, name, fg:x, fg:w) frames.
 * Without a corpus the checks are skipped.  Also the writer's speed on a
 * large synthetic input, as a diagnostic.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "test-flamegraph.h"

#define MAX_CASES 64

/* The corpus folder into buf ("" without one). */
static const char *corpus(char *buf, size_t len)
{
    const char *env = getenv("XENPROFILE_CORPUS");

    snprintf(buf, len, "%s", env ? env : "");
    return buf;
}

static bool exists(const char *dir, const char *c, const char *file)
{
    char path[2 * TPATH];
    struct stat st;

    snprintf(path, sizeof(path), "%s/%s/%s", dir, c, file);
    return !stat(path, &st);
}

/* Load dir/c/file, NUL-terminated; NULL if it cannot be read. */
static char *load(const char *dir, const char *c, const char *file,
                  size_t *len)
{
    char path[2 * TPATH];
    uint8_t *buf;
    char *s;

    snprintf(path, sizeof(path), "%s/%s/%s", dir, c, file);
    if ( file_load(path, &buf, len) )
        return NULL;
    s = realloc(buf, *len + 1);
    if ( !s )
    {
        free(buf);
        return NULL;
    }
    s[*len] = '\0';
    return s;
}

/* One case with an expected.svg: same frames as inferno's? */
static void oracle(const char *dir, const char *c)
{
    bool diff = exists(dir, c, "input.difffolded");
    size_t len, elen;
    char *in = load(dir, c, diff ? "input.difffolded" : "input.folded",
                    &len);
    char *exp = load(dir, c, "expected.svg", &elen), *svg = NULL;
    struct xenprof_stackset *a = NULL, *b;
    struct frames want, got;
    int rc = -ENOENT;

    b = in && len ? fg_set_of(in, len, diff ? &a : NULL, NULL) : NULL;
    if ( b )
        rc = fg_draw(a, b, NULL, &svg);
    want = fg_frames(exp ? exp : "", false);
    got = fg_frames(rc ? "" : svg, false);
    tap_ok(!rc && exp && fg_same(&want, &got),
           "flamegraph corpus %s: the %zu frames of inferno's SVG%s", c,
           want.n, diff ? " (differential)" : "");
    fg_frames_free(&want);
    fg_frames_free(&got);
    free(in);
    free(exp);
    free(svg);
    xenprof_stackset_free(a);
    xenprof_stackset_free(b);
}

/* bad-lines: 2 malformed lines skipped and counted, the rest kept. */
static void bad_lines(const char *dir)
{
    size_t len, bad = 99;
    char *in = load(dir, "bad-lines", "input.folded", &len);
    struct xenprof_stackset *s = in ? fg_set_of(in, len, NULL, &bad) : NULL;

    tap_ok(s && bad == 2 && xenprof_stackset_size(s) == 6 &&
           xenprof_stackset_total(s) == 607,
           "flamegraph corpus bad-lines: 2 malformed lines counted, 6 "
           "stacks (%zu malformed)", bad);
    free(in);
    xenprof_stackset_free(s);
}

/* empty: an error, not an empty profile. */
static void empty(const char *dir)
{
    char path[2 * TPATH], err[128] = "";
    struct xenprof_stackset *s = (void *)1;
    FILE *f;
    int rc = -ENOENT;

    snprintf(path, sizeof(path), "%s/empty/input.folded", dir);
    if ( (f = fopen(path, "r")) )
    {
        rc = xenprof_stackset_read_folded(f, &s, NULL, err, sizeof(err));
        fclose(f);
    }
    tap_ok(rc == -ENODATA && !s, "flamegraph corpus empty: -ENODATA "
           "(\"%s\")", err);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The case folders of dir, sorted; how many. */
static size_t cases(const char *dir, char *names[MAX_CASES])
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;

    while ( d && (e = readdir(d)) && n < MAX_CASES )
        if ( e->d_name[0] != '.' && exists(dir, e->d_name, "expected.svg") )
            if ( (names[n] = strdup(e->d_name)) )
                n++;
    if ( d )
        closedir(d);
    qsort(names, n, sizeof(*names), cmp_str);
    return n;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A sink that counts the bytes and lines (about one per frame) written. */
struct sink {
    size_t bytes, lines;
};

static ssize_t count_write(void *c, const char *buf, size_t n)
{
    struct sink *k = c;
    const char *p = buf, *end = buf + n;

    k->bytes += n;
    while ( (p = memchr(p, '\n', end - p)) )
        k->lines++, p++;
    return n;
}

/* Folded text of n distinct stacks, depth 5 to 40, shared prefixes. */
static char *synthetic(size_t n, size_t *len)
{
    uint64_t r = 42;
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    size_t i, j, depth;

    for ( i = 0; f && i < n; i++ )
    {
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        depth = 5 + (r >> 33) % 36;
        for ( j = 0; j + 1 < depth; j++ )
        {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            fprintf(f, "%sxen_function_%u", j ? ";" : "",
                    (unsigned int)((r >> 33) % (j < 4 ? 3 : 1500)));
        }
        fprintf(f, ";leaf_%zu %u\n", i, (unsigned int)(1 + (r >> 40) % 999));
    }
    if ( f )
        fclose(f);
    return text;
}

/* Time one SVG write into a counting sink; rc, what was written, time. */
static int timed(const struct xenprof_stackset *s,
                 const struct xenprof_svg_opts *o, struct sink *k, double *t)
{
    cookie_io_functions_t io = { .write = count_write };
    FILE *f = fopencookie(k, "w", io);
    int rc;

    memset(k, 0, sizeof(*k));
    if ( !f )
        return -errno;
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    *t = now();
    rc = xenprof_write_flamegraph(s, f, o, NULL, 0);
    fclose(f);
    *t = now() - *t;
    return rc;
}

/* The writer's speed, as diagnostics (not checked: valgrind is slow). */
static void bench(void)
{
    struct xenprof_svg_opts all = { .minwidth = 1e-9 };
    size_t len = 0;
    char *text = synthetic(50000, &len);
    double t0 = now(), t, t2;
    struct xenprof_stackset *s = text ? fg_set_of(text, len, NULL, NULL)
                                      : NULL;
    struct sink k, k2;
    int rc;

    t0 = now() - t0;
    rc = s ? timed(s, NULL, &k, &t) : -ENOMEM;
    rc = rc ?: timed(s, &all, &k2, &t2);
    tap_ok(!rc && xenprof_stackset_size(s) == 50000,
           "flamegraph speed: 50000 stacks of depth 5-40 drawn");
    if ( rc )
        goto out;
    tap_diag("speed: folded parse %.1f MiB in %.3f s (%.1f MiB/s)",
             len / 1048576.0, t0, len / 1048576.0 / t0);
    tap_diag("speed: SVG writer, every frame drawn (minwidth 1e-9): ~%zu "
             "frames, %.1f MiB in %.3f s = %.1f MiB/s", k2.lines,
             k2.bytes / 1048576.0, t2, k2.bytes / 1048576.0 / t2);
    tap_diag("speed: SVG writer, default options: %zu frames (the rest "
             "under 0.1 px), %.1f KiB in %.3f s", k.lines,
             k.bytes / 1024.0, t);
out:
    free(text);
    xenprof_stackset_free(s);
}

void test_fg_corpus(void)
{
    char dir[TPATH], *names[MAX_CASES];
    struct stat st;
    size_t n, i;

    if ( stat(corpus(dir, sizeof(dir)), &st) || !S_ISDIR(st.st_mode) )
    {
        tap_diag("flame graph corpus %s%s (XENPROFILE_CORPUS names its "
                 "folder)", dir, dir[0] ? " not found" : "not given");
        tap_skip("corpus absent", "flamegraph corpus: frames as inferno's");
        tap_skip("corpus absent", "flamegraph corpus bad-lines");
        tap_skip("corpus absent", "flamegraph corpus empty");
    }
    else
    {
        n = cases(dir, names);
        tap_ok(n > 0, "flamegraph corpus: %zu cases with an expected.svg "
               "in %s", n, dir);
        for ( i = 0; i < n; i++ )
        {
            oracle(dir, names[i]);
            free(names[i]);
        }
        bad_lines(dir);
        empty(dir);
    }
    bench();
}
