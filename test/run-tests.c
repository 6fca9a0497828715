/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run-tests: run test programs that print TAP, count their results, and end
 * with the line "N passed, N failed[, N skipped]".  Each program's own
 * summary line gives the seconds it took.
 *
 * usage: run-tests [--summary FILE] [--env NAME=VALUE | TEST]...
 *
 * --env sets NAME to VALUE in the environment of the tests that follow it
 * (e.g. BUILD, to run the same tests against another build).
 *
 * A test program passes a check with "ok ..." and fails one with
 * "not ok ...".  "# SKIP" on an ok line counts as skipped.  A program that
 * exits non-zero without reporting a failure, or reports fewer results than
 * its plan line ("1..N") announced, adds one failure: a test cannot pass
 * by crashing early.  Exit status: 0 when nothing failed, 1 otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct counts {
    unsigned int passed, failed, skipped;
};

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Classify one output line of a test program. */
static void tap_line(const char *line, struct counts *c, long *plan,
                     unsigned int *seen)
{
    long n;

    if ( starts_with(line, "not ok") )
    {
        c->failed++;
        (*seen)++;
    }
    else if ( starts_with(line, "ok") )
    {
        if ( strstr(line, "# SKIP") || strstr(line, "# skip") )
            c->skipped++;
        else
            c->passed++;
        (*seen)++;
    }
    else if ( sscanf(line, "1..%ld", &n) == 1 )
        *plan = n;
}

static int run_one(const char *prog, struct counts *total)
{
    struct counts c = { 0 };
    long plan = -1;
    unsigned int seen = 0;
    char line[4096];
    int fds[2], status;
    pid_t pid;
    FILE *out;
    struct timespec t0, t1;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    if ( pipe(fds) )
        return -errno;
    pid = fork();
    if ( pid < 0 )
        return -errno;
    if ( pid == 0 )
    {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        execl(prog, prog, (char *)NULL);
        fprintf(stderr, "not ok - cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    out = fdopen(fds[0], "r");
    printf("# %s\n", prog);
    fflush(stdout);
    while ( out && fgets(line, sizeof(line), out) )
    {
        fputs(line, stdout);
        fflush(stdout);
        tap_line(line, &c, &plan, &seen);
    }
    if ( out )
        fclose(out);
    if ( waitpid(pid, &status, 0) < 0 )
        return -errno;
    if ( plan >= 0 && seen < plan )
    {
        printf("not ok - %s: %u of %ld planned results\n", prog, seen, plan);
        c.failed++;
    }
    else if ( !c.failed && (!WIFEXITED(status) || WEXITSTATUS(status)) )
    {
        printf("not ok - %s: exit status %d%s\n", prog,
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
               WIFEXITED(status) ? "" : " (signal)");
        c.failed++;
    }
    else if ( !seen && !c.failed )
    {
        printf("not ok - %s: reported no result\n", prog);
        c.failed++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("# %s: %u passed, %u failed, %u skipped (%.0f s)\n", prog,
           c.passed, c.failed, c.skipped,
           (double)(t1.tv_sec - t0.tv_sec) +
           (t1.tv_nsec - t0.tv_nsec) / 1e9);
    total->passed += c.passed;
    total->failed += c.failed;
    total->skipped += c.skipped;
    return 0;
}

int main(int argc, char **argv)
{
    struct counts total = { 0 };
    const char *summary = NULL;
    char line[128];
    FILE *f;
    int i = 1, rc;

    if ( argc > 2 && !strcmp(argv[1], "--summary") )
    {
        summary = argv[2];
        i = 3;
    }
    if ( i >= argc )
    {
        fprintf(stderr, "usage: run-tests [--summary FILE] "
                "[--env NAME=VALUE | TEST]...\n");
        return 2;
    }
    for ( ; i < argc; i++ )
    {
        if ( !strcmp(argv[i], "--env") && i + 1 < argc &&
             strchr(argv[i + 1], '=') )
        {
            char *eq = strchr(argv[++i], '=');

            *eq = '\0';
            setenv(argv[i], eq + 1, 1);
            printf("# == %s=%s\n", argv[i], eq + 1);
            *eq = '=';
            continue;
        }
        rc = run_one(argv[i], &total);
        if ( rc )
        {
            printf("not ok - %s: %s\n", argv[i], strerror(-rc));
            total.failed++;
        }
    }
    snprintf(line, sizeof(line), "%u passed, %u failed", total.passed,
             total.failed);
    if ( total.skipped )
        snprintf(line + strlen(line), sizeof(line) - strlen(line),
                 ", %u skipped", total.skipped);
    printf("%s\n", line);
    if ( summary && (f = fopen(summary, "w")) )
    {
        fprintf(f, "%s\n", line);
        fclose(f);
    }
    return total.failed ? 1 : 0;
}
