/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-xensyms-a2l.c: --xen-syms with addr2line.  A tiny C program built
 * with `gcc -g -O2` at test time (skipped without gcc or addr2line), with
 * a function inlined into another: file:line in --script, --inline in
 * folded stacks, script, report and flame graph.  Stand-ins for addr2line
 * ($XENPROFILE_ADDR2LINE): missing, failing, garbage, exiting without
 * reading (SIGPIPE), answers with discriminators.  Then the real xen-syms
 * named by $XEN_SYMS, with a profile of it named by $XEN_PROFILE_DATA, if
 * present: build-id rule, and the time of one addr2line run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "test-xensyms.h"

/* Lines 6-7: inlined_fn's body; 11: its call; 17: the call of outer. */
static const char prog_src[] =
    "#include <stdio.h>\n"
    "static volatile int sink;\n"
    "static void *ret;\n"
    "static inline __attribute__((always_inline)) void inlined_fn(int x)\n"
    "{\n"
    "    sink = x * 3;\n"
    "    sink = sink + x;\n"
    "}\n"
    "__attribute__((noipa)) void outer(int x)\n"
    "{\n"
    "    inlined_fn(x);\n"
    "    ret = __builtin_return_address(0);\n"
    "    sink = 0;\n"
    "}\n"
    "int main(void)\n"
    "{\n"
    "    outer(1);\n"
    "    printf(\"%p %p\\n\", (void *)outer, ret);\n"
    "    return 0;\n"
    "}\n";

static char prog[TPATH];                /* the program */
static uint64_t inl_addr, ret_addr;     /* in inlined_fn; in main */

static bool have(const char *cmd)
{
    char buf[256];

    snprintf(buf, sizeof(buf), "command -v %s >/dev/null 2>&1", cmd);
    return !system(buf);
}

/* Build and run the program: outer's address, the return address. */
static bool build_prog(uint64_t *outer)
{
    char src[TPATH], cmd[3 * TPATH];
    unsigned long long a = 0, b = 0;
    FILE *f;
    int n;

    tmp_path(src, "inl.c");
    tmp_path(prog, "inl");
    if ( file_save(src, prog_src, strlen(prog_src)) )
        return false;
    snprintf(cmd, sizeof(cmd), "gcc -g -O2 -fno-pie -no-pie "
             "-Wl,--build-id=sha1 -o %s %s 2>&1", prog, src);
    if ( system(cmd) )
        return false;
    f = popen(prog, "r");
    if ( !f )
        return false;
    n = fscanf(f, "%llx %llx", &a, &b);
    pclose(f);
    *outer = a;
    ret_addr = b;
    return n == 2 && a && b;
}

/* An address of outer in inlined_fn: frames inlined_fn, outer. */
static bool find_inlined(uint64_t outer)
{
    uint64_t addr[256];
    const struct xenprof_a2l_frame *f;
    struct xenprof_a2l *a;
    char err[256];
    size_t i, n;
    bool found = false;

    for ( i = 0; i < 256; i++ )
        addr[i] = outer + i;
    if ( xenprof_priv_a2l_run(prog, addr, 256, &a, err, sizeof(err)) )
        return tap_ok(false, "xen-syms: addr2line on the program: %s", err);
    for ( i = 0; i < 256 && !found; i++ )
    {
        n = xenprof_priv_a2l_get(a, addr[i], &f);
        found = n == 2 && f[0].func && !strcmp(f[0].func, "inlined_fn") &&
                f[1].func && !strcmp(f[1].func, "outer");
        if ( found )
            inl_addr = addr[i];
    }
    tap_ok(found && f[0].file && strstr(f[0].file, "inl.c") &&
           (f[0].line == 6 || f[0].line == 7) && f[1].line == 11,
           "xen-syms: addr2line: inlined_fn (inl.c:6-7) inlined in outer "
           "at inl.c:11, at %#lx", (unsigned long)inl_addr);
    xenprof_priv_a2l_free(a);
    return found;
}

/* The command on the program's profile with args after -i, --xen-syms. */
static int run_prog(struct run *r, const char *data, const char *a1,
                    const char *a2, const char *a3)
{
    return xsyms_run(r, (const char *[]){ "-i", data, "--xen-syms", prog,
                                          a1, a2, a3, NULL });
}

static void test_cli_inline(const char *data)
{
    char path[TPATH];
    uint8_t *svg = NULL;
    size_t len = 0;
    struct run r;

    run_prog(&r, data, "--folded", "-", NULL);
    tap_ok(!r.rc && !strcmp(r.out, "main;outer 1\n"),
           "xen-syms: program: folded stacks: %s%s", r.out, r.err);
    run_free(&r);
    run_prog(&r, data, "--inline", "--folded", "-");
    tap_ok(!r.rc && !strcmp(r.out, "main;outer;inlined_fn [inlined] 1\n"),
           "xen-syms: --inline: the inlined function as a frame: %s%s",
           r.out, r.err);
    run_free(&r);
    run_prog(&r, data, "--script", NULL, NULL);
    tap_ok(!r.rc && xsyms_has(r.out, " outer+0x") &&
           (strstr(r.out, "/inl.c:6\n") || strstr(r.out, "/inl.c:7\n")) &&
           xsyms_has(r.out, "/inl.c:17\n") && !strstr(r.out, "[inlined]"),
           "xen-syms: --script shows file:line, as perf's srcline lines");
    run_free(&r);
    run_prog(&r, data, "--script", "--inline", NULL);
    tap_ok(!r.rc && xsyms_has(r.out, " inlined_fn [inlined] (") &&
           xsyms_has(r.out, "/inl.c:11\n") &&
           xsyms_has(r.out, "/inl.c:17\n"),
           "xen-syms: --script --inline: the inlined frame first");
    run_free(&r);
    run_prog(&r, data, "--inline", NULL, NULL);
    tap_ok(!r.rc && xsyms_has(r.out, "inlined_fn [inlined]"),
           "xen-syms: --inline in the report");
    run_free(&r);
    run_prog(&r, data, "--inline", "--svg", tmp_path(path, "inl.svg"));
    tap_ok(!r.rc && !file_load(path, &svg, &len) &&
           memmem(svg, len, ">inlined_fn [inlined]<", 22),
           "xen-syms: --inline in the flame graph");
    run_free(&r);
    free(svg);
}

/* A stand-in for addr2line: a shell script <tmpdir>/name. */
static const char *fake(const char *name, const char *body)
{
    static char paths[6][TPATH];
    static unsigned int n;
    char *p = paths[n++ % 6];
    char text[512];

    tmp_path(p, name);
    snprintf(text, sizeof(text), "#!/bin/sh\n%s\n", body);
    if ( file_save(p, text, strlen(text)) || chmod(p, 0755) )
        tap_diag("cannot write %s", p);
    return p;
}

/* The command with $XENPROFILE_ADDR2LINE set to prog2; rc and err. */
static bool with_a2l(const char *data, const char *prog2, int rc,
                     const char *err)
{
    struct run r;
    bool ok;

    setenv("XENPROFILE_ADDR2LINE", prog2, 1);
    run_prog(&r, data, "--inline", "--folded", "-");
    unsetenv("XENPROFILE_ADDR2LINE");
    ok = r.rc == rc && xsyms_has(r.err, err);
    run_free(&r);
    return ok;
}

static void test_fakes(const char *data)
{
    struct run r;

    tap_ok(with_a2l(data, "/nonexistent/addr2line", 1,
                    "cannot run /nonexistent/addr2line: No such file") &&
           with_a2l(data, "/nonexistent/addr2line", 1,
                    "(binutils' addr2line, for --inline)"),
           "xen-syms: addr2line missing: a clear error");
    tap_ok(with_a2l(data, "false", 1, "false failed (exit 1)"),
           "xen-syms: addr2line failing: its exit status");
    tap_ok(with_a2l(data, fake("a2l-err", "echo 'bad ELF' >&2; exit 3"), 1,
                    "failed (exit 3): bad ELF"),
           "xen-syms: addr2line failing: its message");
    tap_ok(with_a2l(data, fake("a2l-junk", "echo junk"), 1,
                    "unexpected output at line 1") &&
           with_a2l(data, fake("a2l-addr", "echo 0x5; echo f; echo f:1"), 1,
                    "unexpected output at line 1") &&
           with_a2l(data, fake("a2l-odd", "read a; read b; echo $a; echo f"),
                    1, "unexpected output at line 3"),
           "xen-syms: addr2line's unexpected answers: errors");
    setenv("XENPROFILE_ADDR2LINE", "/nonexistent/addr2line", 1);
    run_prog(&r, data, "--folded", "-", NULL);
    unsetenv("XENPROFILE_ADDR2LINE");
    tap_ok(!r.rc && !r.err[0],
           "xen-syms: addr2line is not run when not needed");
    run_free(&r);
}

/* Direct calls: answers parsed, SIGPIPE, no addresses. */
static void test_a2l_direct(void)
{
    static uint64_t addr[20000];
    const struct xenprof_a2l_frame *f;
    struct xenprof_a2l *a = NULL;
    sigset_t pend;
    char err[256];
    size_t i, n;
    int rc;

    for ( i = 0; i < 20000; i++ )
        addr[i] = 0xffff82d040200000ULL + 20000 - i;
    setenv("XENPROFILE_ADDR2LINE", fake("a2l-disc", "while read a; do "
           "echo $a; echo fn; echo 'd/f.c:12 (discriminator 3)'; "
           "echo outer_fn; echo '??:0'; done"), 1);
    rc = xenprof_priv_a2l_run("x", addr, 3, &a, err, sizeof(err));
    n = rc ? 0 : xenprof_priv_a2l_get(a, addr[1], &f);
    tap_ok(n == 2 && !strcmp(f[0].func, "fn") && !strcmp(f[0].file, "d/f.c")
           && f[0].line == 12 && !strcmp(f[1].func, "outer_fn") &&
           !f[1].file && !f[1].line &&
           !xenprof_priv_a2l_get(a, addr[3], &f),
           "xen-syms: addr2line answers parsed (discriminator, ??:0)");
    xenprof_priv_a2l_free(a);
    setenv("XENPROFILE_ADDR2LINE", fake("a2l-exit", "exit 0"), 1);
    rc = xenprof_priv_a2l_run("x", addr, 20000, &a, err, sizeof(err));
    tap_ok(rc == -EIO && !a && !sigpending(&pend) &&
           !sigismember(&pend, SIGPIPE),
           "xen-syms: addr2line exiting unread: an error, no SIGPIPE (%s)",
           err);
    setenv("XENPROFILE_ADDR2LINE", fake("a2l-yes", "exec yes"), 1);
    rc = xenprof_priv_a2l_run("x", addr, 1, &a, err, sizeof(err));
    tap_ok(rc == -EIO && !a && xsyms_has(err, "a2l-yes: too much output"),
           "xen-syms: addr2line answering without end: stopped");
    setenv("XENPROFILE_ADDR2LINE", "/nonexistent", 1);
    rc = xenprof_priv_a2l_run("x", addr, 0, &a, err, sizeof(err));
    tap_ok(!rc && a && !xenprof_priv_a2l_get(a, addr[0], &f),
           "xen-syms: no address: addr2line not run");
    xenprof_priv_a2l_free(a);
    unsetenv("XENPROFILE_ADDR2LINE");
}

void test_xensyms_a2l(void)
{
    struct xenprof_elf *e = NULL;
    struct xs_sample s[1] = { { 0, { 0 } } };
    char data[TPATH], err[256];
    uint64_t outer = 0;
    int rc;

    test_a2l_direct();
    if ( !have("gcc") || !have("addr2line") )
    {
        tap_skip("no gcc or no addr2line", "xen-syms: a program built "
                 "with gcc -g -O2");
        return;
    }
    if ( !tap_ok(build_prog(&outer), "xen-syms: gcc -g -O2 program built "
                 "and run") || !find_inlined(outer) )
        return;
    err[0] = '\0';
    rc = xenprof_priv_elf_read(prog, &e, err, sizeof(err));
    tap_ok(!rc && e->has_dwarf && strlen(e->build_id) == 40,
           "xen-syms: the program's ELF: DWARF and a build-id %s%s",
           e ? e->build_id : "", err);
    s[0].ip[0] = inl_addr;
    s[0].ip[1] = ret_addr;
    if ( e && !xsyms_data_file(data, "inl.data", e->build_id, s, 1) )
    {
        test_cli_inline(data);
        test_fakes(data);
    }
    xenprof_priv_elf_free(e);
}

/* The file named by the environment variable name, or NULL. */
static const char *env_file(const char *name)
{
    const char *v = getenv(name);

    return v && *v ? v : NULL;
}

/* One addr2line run on the distinct Xen addresses of d: timed. */
static void time_a2l(const char *xs, const struct xenprof_data *d)
{
    struct xenprof_sample s;
    struct xenprof_a2l *a = NULL;
    const struct xenprof_a2l_frame *f;
    struct timespec t0, t1;
    uint64_t *addr = malloc(d->records_len);    /* >= frames */
    size_t off = 0, n = 0, i, answered = 0;
    unsigned int j;
    char err[256];
    int rc = addr ? 0 : -ENOMEM;

    while ( !rc && xenprof_decode_next(d->records, d->records_len, &off,
                                       &s, NULL, 0) > 0 )
        for ( j = 0; s.mode == XENPROF_MODE_XEN && j < s.nr_frames; j++ )
            addr[n++] = xenprof_sample_ip(&s, j) - (j > 0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = rc ?: xenprof_priv_a2l_run(xs, addr, n, &a, err, sizeof(err));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for ( i = 0; !rc && i < n; i++ )
        answered += xenprof_priv_a2l_get(a, addr[i], &f) && f[0].func;
    tap_ok(!rc && answered == n, "xen-syms: real xen-syms: addr2line "
           "answered %zu of %zu frames (%s)", answered, n, rc ? err : "");
    tap_diag("real xen-syms: one addr2line run for %zu frames: %.1f ms",
             n, (t1.tv_sec - t0.tv_sec) * 1e3 +
                (t1.tv_nsec - t0.tv_nsec) / 1e6);
    xenprof_priv_a2l_free(a);
    free(addr);
}

/* The real profile's build-id rule (the ELF may be of a later build). */
static void real_cli(const char *xs, const char *data,
                     const struct xenprof_elf *e,
                     const struct xenprof_data *d)
{
    bool same = !strcasecmp(e->build_id, d->meta.build_id);
    struct run r;

    xsyms_run(&r, (const char *[]){ "-i", data, "--xen-syms", xs,
                                    "--folded", "-", NULL });
    if ( same )
        tap_ok(!r.rc && !r.err[0] && xsyms_has(r.out, "idle_loop"),
               "xen-syms: real xen-syms, same build-id: its names");
    else
        tap_ok(r.rc == 1 && xsyms_has(r.err, e->build_id) &&
               xsyms_has(r.err, d->meta.build_id),
               "xen-syms: real xen-syms of another build: %s", r.err);
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", data, "--xen-syms", xs,
                                    "--force", "--folded", "-", NULL });
    tap_ok(!r.rc && xsyms_has(r.out, "idle_loop") &&
           (same || xsyms_has(r.err, "used anyway (--force)")),
           "xen-syms: real xen-syms with --force");
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", data, "--xen-syms", xs,
                                    "--force", "--inline", NULL });
    tap_ok(r.rc == 1 && xsyms_has(r.err, "no debug information"),
           "xen-syms: real xen-syms (release build): --inline needs DWARF");
    run_free(&r);
}

void test_xensyms_real(void)
{
    char err[256];
    const char *xs = env_file("XEN_SYMS");
    const char *data = env_file("XEN_PROFILE_DATA");
    struct xenprof_elf *e = NULL;
    struct xenprof_data *d = NULL;
    struct stat st;
    int rc;

    if ( !xs || stat(xs, &st) )
    {
        tap_skip("no xen-syms (set XEN_SYMS)", "xen-syms: the real one");
        return;
    }
    err[0] = '\0';
    rc = xenprof_priv_elf_read(xs, &e, err, sizeof(err));
    tap_ok(!rc && e->nr_syms > 1000 && strlen(e->build_id) == 40,
           "xen-syms: the real %s: %zu symbols, build-id %s%s", xs,
           e ? e->nr_syms : 0, e ? e->build_id : "", err);
    if ( e && data && !stat(data, &st) &&
         !xenprof_data_read(data, &d, err, sizeof(err)) )
    {
        real_cli(xs, data, e, d);
        if ( have("addr2line") )
            time_a2l(xs, d);
    }
    else
        tap_skip("no profile (set XEN_PROFILE_DATA)",
                 "xen-syms: the real one with its profile");
    xenprof_data_free(d);
    xenprof_priv_elf_free(e);
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
