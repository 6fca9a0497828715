/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-xensyms.c: --xen-syms.  The ELF reader on a crafted xen-syms
 * (elf-craft.c): symbols with their sizes, static names, aliases, the
 * build-id, DWARF detection; every truncation and a table of corruptions
 * (clean errors naming the offset, never a crash), random byte changes;
 * then the command: names from the ELF instead of the embedded table,
 * the build-id rule (mismatch, --force, no build-id, folded input) and
 * the option errors.  addr2line, a gcc-built program and the real
 * xen-syms are in test-xensyms-a2l.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-craft.h"
#include "test-xensyms.h"

static uint8_t elf[CRAFT_MAX];
static size_t elf_len;
static struct craft_layout lay;

bool xsyms_has(const char *text, const char *want)
{
    if ( text && strstr(text, want) )
        return true;
    tap_diag("missing '%s' in: %s", want, text ? text : "(null)");
    return false;
}

int xsyms_run(struct run *r, const char *const *args)
{
    const char *argv[32] = { "xenprofile" };
    size_t i;

    for ( i = 0; args[i] && i < 30; i++ )
        argv[i + 1] = args[i];
    argv[i + 1] = NULL;
    return run_report(r, argv);
}

int xsyms_data_file(char *path, const char *name, const char *id,
                    const struct xs_sample *s, size_t n)
{
    struct xenprof_data *d = xenprof_data_new();
    uint8_t rec[24 + 8 * 8];
    struct trec t = { .domid = 1 };
    char err[256];
    size_t i;
    int rc = d ? 0 : -1;

    if ( d )
        snprintf(d->meta.build_id, sizeof(d->meta.build_id), "%s", id);
    for ( i = 0; !rc && i < n; i++ )
    {
        t.mode = s[i].mode;
        t.ip = s[i].ip;
        for ( t.nr = 0; t.nr < 8 && s[i].ip[t.nr]; t.nr++ )
            continue;
        t.timestamp = 1000 * i;
        rc = xenprof_data_add_records(d, rec, rec_put(rec, &t));
    }
    rc = rc ?: xenprof_data_add_symbol(d, CRAFT_TEXT, 'T', "emb_fn");
    tmp_path(path, name);
    rc = rc ?: xenprof_data_write(d, path, err, sizeof(err));
    xenprof_data_free(d);
    return rc ? -1 : 0;
}

/* The number of lines of text. */
static unsigned int lines(const char *text)
{
    unsigned int n = 0;

    for ( ; text && *text; text++ )
        n += *text == '\n';
    return n;
}

/* Parse buf[0..len) as "x.elf"; the table in *e (freed by the caller). */
static int parse(const uint8_t *buf, size_t len, struct xenprof_elf **e,
                 char *err, size_t errlen)
{
    err[0] = '\0';
    return xenprof_priv_elf_parse(buf, len, "x.elf", e, err, errlen);
}

/* Lookups in the crafted table: offset from CRAFT_TEXT, name or NULL. */
static void check_lookups(const struct xenprof_symtab *t)
{
    static const struct {
        uint64_t off;
        const char *name;
    } cases[] = {
        { 0xff, NULL }, { 0x100, "helper" }, { 0x13f, "helper" },
        { 0x140, NULL }, { 0x200, "common/a.c#dup" },
        { 0x31f, "common/b.c#dup" }, { 0x320, NULL }, { 0x400, "label" },
        { 0x4ff, "label" }, { 0x500, "do_work" }, { 0x57f, "do_work" },
        { 0x580, NULL }, { 0x605, "weak_fn" }, { 0x610, NULL },
        { 0x7ff, "last_fn" }, { 0x800, NULL }, { 0x10000, NULL },
    };
    const char *got;
    unsigned int i, bad = 0;

    for ( i = 0; i < sizeof(cases) / sizeof(*cases); i++ )
    {
        got = xenprof_symtab_lookup(t, CRAFT_TEXT + cases[i].off);
        if ( (!got) != (!cases[i].name) ||
             (got && strcmp(got, cases[i].name)) )
        {
            tap_diag("+0x%lx: got %s, want %s",
                     (unsigned long)cases[i].off, got ? got : "NULL",
                     cases[i].name ? cases[i].name : "NULL");
            bad++;
        }
    }
    tap_ok(!bad, "xen-syms: %u lookups: sizes end functions, statics "
           "named as the embedded table, aliases, labels", i);
}

static void test_good(void)
{
    struct craft_opts o = { 0 };
    struct xenprof_elf *e = NULL;
    char err[256];
    int rc;

    elf_len = craft_elf(elf, &o, &lay);
    rc = parse(elf, elf_len, &e, err, sizeof(err));
    if ( !tap_ok(!rc && e, "xen-syms: the crafted ELF is read (%s)", err) )
        return;
    tap_ok(!strcmp(e->build_id, CRAFT_BUILD_ID) && !e->has_dwarf &&
           e->nr_syms == 8, "xen-syms: build-id %s, no DWARF, 8 text "
           "symbols (%zu)", e->build_id, e->nr_syms);
    check_lookups(e->t);
    xenprof_priv_elf_free(e);
    o.dwarf = true;
    o.no_note = true;
    elf_len = craft_elf(elf, &o, &lay);
    rc = parse(elf, elf_len, &e, err, sizeof(err));
    tap_ok(!rc && e->has_dwarf && !e->build_id[0],
           "xen-syms: .debug_info and .debug_line found; no build-id note");
    xenprof_priv_elf_free(e);
    o.dwarf = o.no_note = false;
    elf_len = craft_elf(elf, &o, &lay);
}

/* Every truncation fails with a message and leaks nothing. */
static void test_truncated(void)
{
    struct xenprof_elf *e;
    char err[256];
    size_t len, bad = 0;
    int rc;

    for ( len = 0; len < elf_len; len++ )
    {
        rc = parse(elf, len, &e, err, sizeof(err));
        if ( rc >= 0 || e || strncmp(err, "x.elf: ", 7) )
        {
            if ( !bad++ )
                tap_diag("length %zu: rc %d, '%s'", len, rc, err);
            xenprof_priv_elf_free(e);
        }
    }
    tap_ok(!bad, "xen-syms: all %zu truncations fail with a message",
           elf_len);
    rc = parse(elf, lay.shdrs + 3, &e, err, sizeof(err));
    tap_ok(rc == -EBADMSG && xsyms_has(err, "past the end of the file"),
           "xen-syms: truncated section headers: %s", err);
}

/* A field to change: at off, bytes wide, to v. */
struct corrupt {
    const char *what;
    size_t *base;                       /* NULL: 0 */
    size_t off;
    unsigned int bytes;
    uint64_t v;
    int rc;
    const char *msg;
};

static size_t shdrs_off, symtab_off, strtab_off, note_off;

#define SH(i, f) (&shdrs_off), (64 * (i) + (f))

static const struct corrupt corrupts[] = {
    { "bad magic", NULL, 1, 1, 'e', -EINVAL, "not an ELF file" },
    { "32-bit", NULL, 4, 1, 1, -EINVAL, "not a 64-bit ELF" },
    { "big-endian", NULL, 5, 1, 2, -EINVAL, "not a little-endian" },
    { "version", NULL, 6, 1, 9, -EBADMSG, "offset 0x6: unknown ELF" },
    { "ET_REL", NULL, 16, 2, 1, -EINVAL, "not an executable" },
    { "machine", NULL, 18, 2, 3, -EINVAL, "not an x86-64 or AArch64" },
    { "e_shoff 0", NULL, 40, 8, 0, -EINVAL, "no section headers" },
    { "e_shoff huge", NULL, 40, 8, 1ULL << 62, -EBADMSG,
      "offset 0x4000000000000000: section header 0" },
    { "e_shoff -1", NULL, 40, 8, ~0ULL, -EBADMSG, "past the end" },
    { "e_shentsize", NULL, 58, 2, 40, -EBADMSG, "offset 0x3a" },
    { "e_shnum huge", NULL, 60, 2, 0xfff0, -EBADMSG,
      "offset 0x3c: bad number of section headers" },
    { "e_shstrndx", NULL, 62, 2, 7, -EBADMSG, "offset 0x3e" },
    { "shstrtab type", SH(6, 4), 4, 1, -EBADMSG, "wrong type" },
    { "shstrtab offset", SH(6, 24), 8, ~0ULL - 8, -EBADMSG, "past the end" },
    { "shstrtab size", SH(6, 32), 8, 1ULL << 40, -EBADMSG, "past the end" },
    { "no symtab", SH(4, 4), 4, 1, -EINVAL, "no symbol table" },
    { "sym entsize", SH(4, 56), 8, 16, -EBADMSG, "entry size" },
    { "sym size", SH(4, 32), 8, 25, -EBADMSG, "entry size" },
    { "sh_link 0", SH(4, 40), 4, 0, -EBADMSG, "index out of range" },
    { "sh_link big", SH(4, 40), 4, 99, -EBADMSG, "index out of range" },
    { "sh_link type", SH(4, 40), 4, 1, -EBADMSG, "wrong type" },
    { "sh_link NOBITS", SH(4, 40), 4, 2, -EBADMSG, "wrong type" },
    { "symtab offset", SH(4, 24), 8, 1ULL << 63, -EBADMSG, "past the end" },
    { "strtab size", SH(5, 32), 8, 0, -EBADMSG, "not terminated" },
    { "strtab unterminated", SH(5, 32), 8, 5, -EBADMSG, "not terminated" },
    { "st_name", &symtab_off, 24 * 2, 4, 0x10000, -EBADMSG,
      "symbol name out of the string table" },
    { "st_name end", &symtab_off, 24 * 15, 4, 0x72, -EBADMSG,
      "symbol name out of" },
    { "st_shndx", &symtab_off, 24 * 2 + 6, 2, 0xfff0, 0, NULL },
    { "note namesz", &note_off, 0, 4, 0xffffffff, -EBADMSG,
      "note larger than its section" },
    { "note descsz", &note_off, 4, 4, 21, -EBADMSG, "note larger" },
    { "build-id size", &note_off, 4, 4, 0, -EBADMSG, "bad build-id note" },
    { "note type", &note_off, 8, 4, 4, 0, NULL },
    { "note size", SH(3, 32), 8, 37, 0, NULL },
    { "note offset", SH(3, 24), 8, 1ULL << 32, -EBADMSG, "past the end" },
};

/* Extended numbering: e_shnum 0 and e_shstrndx SHN_XINDEX. */
static void test_extended(void)
{
    uint8_t *b = malloc(elf_len);
    struct xenprof_elf *e = NULL;
    char err[256];
    int rc;

    if ( !b )
        return;
    memcpy(b, elf, elf_len);
    put_le(b + 60, 0, 2);
    put_le(b + 62, 0xffff, 2);
    put_le(b + lay.shdrs + 32, lay.shnum, 8);
    put_le(b + lay.shdrs + 40, 6, 4);
    rc = parse(b, elf_len, &e, err, sizeof(err));
    tap_ok(!rc && e && e->nr_syms == 8 && e->build_id[0],
           "xen-syms: extended section numbering (%s)", err);
    xenprof_priv_elf_free(e);
    put_le(b + lay.shdrs + 32, 0, 8);
    rc = parse(b, elf_len, &e, err, sizeof(err));
    tap_ok(rc == -EBADMSG && xsyms_has(err, "offset 0x3c"),
           "xen-syms: extended numbering of 0 sections: %s", err);
    free(b);
}

static void test_corrupt(void)
{
    uint8_t *b = malloc(CRAFT_MAX);
    struct xenprof_elf *e;
    const struct corrupt *c;
    char err[256];
    unsigned int i, bad = 0;
    int rc;

    shdrs_off = lay.shdrs;
    symtab_off = lay.symtab;
    strtab_off = lay.strtab;
    note_off = lay.note;
    for ( i = 0; b && i < sizeof(corrupts) / sizeof(*corrupts); i++ )
    {
        c = &corrupts[i];
        memcpy(b, elf, elf_len);
        put_le(b + (c->base ? *c->base : 0) + c->off, c->v, c->bytes);
        rc = parse(b, elf_len, &e, err, sizeof(err));
        xenprof_priv_elf_free(e);
        if ( rc == c->rc && (!c->msg || (strstr(err, c->msg) &&
                                         !strncmp(err, "x.elf: ", 7))) )
            continue;
        tap_diag("%s: rc %d (want %d), '%s'", c->what, rc, c->rc, err);
        bad++;
    }
    tap_ok(b && !bad, "xen-syms: %u corruptions give their errors", i);
    memcpy(b, elf, elf_len);
    put_le(b + 18, 183, 2);             /* EM_AARCH64 */
    rc = parse(b, elf_len, &e, err, sizeof(err));
    xenprof_priv_elf_free(e);
    tap_ok(rc == 0, "xen-syms: an AArch64 one (Xen on Arm's) is read (%d)", rc);
    memcpy(b, elf, elf_len);
    craft_elf(b, &(struct craft_opts){ .no_funcs = true }, &lay);
    rc = parse(b, CRAFT_MAX, &e, err, sizeof(err));
    tap_ok(rc == -EINVAL && xsyms_has(err, "no function symbols"),
           "xen-syms: no function symbol: %s", err);
    craft_elf(elf, &(struct craft_opts){ 0 }, &lay);
    free(b);
}

/* Random byte changes: any result, a message on failure, no crash. */
static void test_random(void)
{
    uint8_t *b = malloc(elf_len);
    struct xenprof_elf *e;
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    unsigned int i, j, ok = 0, bad = 0;
    char err[256];
    int rc;

    for ( i = 0; b && i < 3000; i++ )
    {
        memcpy(b, elf, elf_len);
        for ( j = 0; j < 1 + i % 4; j++ )
        {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            b[(x >> 8) % elf_len] = x >> 56;
        }
        rc = parse(b, elf_len, &e, err, sizeof(err));
        if ( !rc )
            ok += !!xenprof_symtab_lookup(e->t, CRAFT_TEXT + 0x100);
        else if ( !err[0] )
            bad++;
        xenprof_priv_elf_free(e);
    }
    tap_ok(b && !bad, "xen-syms: 3000 random changes: %u still read, no "
           "failure without a message", ok);
    free(b);
}

/* A file of the crafted ELF (or opts) at <tmpdir>/name. */
static const char *elf_file(const char *name, const struct craft_opts *o)
{
    static char paths[4][TPATH];
    static unsigned int n;
    uint8_t b[CRAFT_MAX];
    struct craft_layout l;
    char *p = paths[n++ % 4];

    tmp_path(p, name);
    file_save(p, b, craft_elf(b, o, &l));
    return p;
}

#define T(off) (CRAFT_TEXT + (off))

static const struct xs_sample samples[] = {
    { 0, { T(0x110), T(0x511), T(0x301), 0 } },
    { 0, { T(0x150), T(0x701), 0 } },
    { 0, { T(0x620), T(0x501), T(0x201), 0 } },
    { 1, { 0x1234, 0 } },
};

static void test_cli(void)
{
    const char *x = elf_file("x.elf", &(struct craft_opts){ 0 });
    const char *nonote = elf_file("nonote.elf",
                                  &(struct craft_opts){ .no_note = true });
    char good[TPATH], other[TPATH], none[TPATH], upper[TPATH];
    char dso[TPATH + 8];
    struct run r;

    if ( xsyms_data_file(good, "xs-good.data", CRAFT_BUILD_ID, samples, 4) ||
         xsyms_data_file(other, "xs-other.data", "0123456789abcdef", samples,
                         4) ||
         xsyms_data_file(none, "xs-none.data", "", samples, 4) ||
         xsyms_data_file(upper, "xs-upper.data",
                         "A0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3",
                         samples, 4) )
    {
        tap_ok(false, "xen-syms: data files written");
        return;
    }
    xsyms_run(&r, (const char *[]){ "-i", good, "--folded", "-", NULL });
    tap_ok(!r.rc && !strcmp(r.out, "d1v0;[guest kernel] 1\nemb_fn;emb_fn 1\n"
                            "emb_fn;emb_fn;emb_fn 2\n"),
           "xen-syms: without it, the embedded table: %s", r.out);
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", good, "--xen-syms", x, "--folded",
                                    "-", NULL });
    tap_ok(!r.rc && !r.err[0] &&
           !strcmp(r.out, "common/a.c#dup;do_work;[unknown] 1\n"
                          "common/b.c#dup;do_work;helper 1\n"
                          "d1v0;[guest kernel] 1\nlast_fn;[unknown] 1\n"),
           "xen-syms: the ELF's names and sizes in the stacks: %s%s", r.out,
           r.err);
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", good, "--xen-syms", x, "--script",
                                    NULL });
    snprintf(dso, sizeof(dso), " (%s)\n", x);
    tap_ok(!r.rc && xsyms_has(r.out, "ffff82d040200110 helper+0x10 (") &&
           xsyms_has(r.out, "ffff82d040200511 do_work+0x11 (") &&
           xsyms_has(r.out, dso) &&
           xsyms_has(r.out, "ffff82d040200150 [unknown] ([unknown])\n") &&
           !strstr(r.out, "emb_fn"),
           "xen-syms: --script with its names, the ELF as the dso");
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", good, "--xen-syms", x, "--top",
                                    "3", NULL });
    tap_ok(!r.rc && xsyms_has(r.out, "do_work"), "xen-syms: the report");
    run_free(&r);

    xsyms_run(&r, (const char *[]){ "-i", other, "--xen-syms", x, NULL });
    tap_ok(r.rc == 1 && !r.out[0] && xsyms_has(r.err, CRAFT_BUILD_ID) &&
           xsyms_has(r.err, "0123456789abcdef") &&
           xsyms_has(r.err, "--force"),
           "xen-syms: another build-id is an error naming both: %s", r.err);
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", other, "--xen-syms", x, "--force",
                                    "--folded", "-", NULL });
    tap_ok(!r.rc && xsyms_has(r.err, "warning: ") &&
           xsyms_has(r.err, "used anyway (--force)") &&
           lines(r.err) == 1 &&
           xsyms_has(r.out, "helper"),
           "xen-syms: --force: one warning line, the ELF's names");
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", upper, "--xen-syms", x, NULL });
    tap_ok(!r.rc && !r.err[0], "xen-syms: build-ids compare without case");
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", none, "--xen-syms", x, NULL });
    tap_ok(!r.rc && xsyms_has(r.err, "has no build-id: cannot check"),
           "xen-syms: a profile without build-id: a warning");
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", good, "--xen-syms", nonote, NULL });
    tap_ok(r.rc == 1 && xsyms_has(r.err, "build-id (none)"),
           "xen-syms: an ELF without build-id does not match: %s", r.err);
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i@B", "--xen-syms", x, NULL });
    tap_ok(!r.rc && xsyms_has(r.err, "holds folded stacks: no build-id"),
           "xen-syms: folded input: a warning: %s", r.err);
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "-i", good, "--diff", other,
                                    "--xen-syms", x, "--folded", "-", NULL });
    tap_ok(r.rc == 1 && xsyms_has(r.err, "xs-other.data has build-id"),
           "xen-syms: --diff checks both profiles");
    run_free(&r);
}

/* Option and file errors. */
static void test_cli_errors(void)
{
    static const struct {
        const char *args[8];
        int rc;
        const char *err;
    } cases[] = {
        { { "-i@A", "--force" }, 2, "--force needs --xen-syms" },
        { { "-i@A", "--inline" }, 2, "--inline needs --xen-syms" },
        { { "-i@A", "--xen-syms" }, 2, "--xen-syms needs a value" },
        { { "-i@A", "--xen-syms=" }, 2, "bad value for --xen-syms" },
        { { "-i@A", "--force=1", "--xen-syms", "x" }, 2, "takes no value" },
        { { "-i@A", "--xen-syms", "/nonexistent/xen-syms" }, 1,
          "cannot open /nonexistent/xen-syms: No such file" },
        { { "-i@A", "--xen-syms", "@A" }, 1, "not an ELF file" },
        { { "-i@A", "--xen-syms", "/tmp" }, 1, "not a regular file" },
    };
    const char *x = elf_file("x2.elf", &(struct craft_opts){ 0 });
    const char *args[12];
    unsigned int i, j, bad = 0;
    struct run r;

    for ( i = 0; i < sizeof(cases) / sizeof(*cases); i++ )
    {
        for ( j = 0; cases[i].args[j]; j++ )
            args[j] = cases[i].args[j];
        args[j] = NULL;
        if ( xsyms_run(&r, args) || r.rc != cases[i].rc ||
             !strstr(r.err, cases[i].err) )
        {
            tap_diag("case %u: rc %d, err %s", i, r.rc, r.err);
            bad++;
        }
        run_free(&r);
    }
    tap_ok(!bad, "xen-syms: %u option and file errors", i);
    xsyms_run(&r, (const char *[]){ "-i@A", "--xen-syms", x, "--inline",
                                    "--force", NULL });
    tap_ok(r.rc == 1 && xsyms_has(r.err, "has no debug information") &&
           xsyms_has(r.err, "CONFIG_DEBUG_INFO=y"),
           "xen-syms: --inline without DWARF: %s", r.err);
    run_free(&r);
    xsyms_run(&r, (const char *[]){ "--help", NULL });
    tap_ok(!r.rc && xsyms_has(r.out, "--xen-syms ELF") &&
           xsyms_has(r.out, "--inline"), "xen-syms: in --help");
    run_free(&r);
}

void test_xensyms(void)
{
    test_good();
    test_truncated();
    test_corrupt();
    test_extended();
    test_random();
    test_cli();
    test_cli_errors();
    test_xensyms_a2l();
    test_xensyms_real();
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
