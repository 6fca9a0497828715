/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * helpers.c: record encoder, temporary folder and file helpers for the
 * unit tests.  The encoder writes byte by byte from the layout of
 * XEN_SYSCTL_profile_op (sysctl.h), independently of the library's decoder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

static char tmpdir[256];

void put_le(uint8_t *p, uint64_t v, unsigned int bytes)
{
    unsigned int i;

    for ( i = 0; i < bytes; i++ )
        p[i] = (v >> (8 * i)) & 0xff;
}

uint64_t get_le(const uint8_t *p, unsigned int bytes)
{
    uint64_t v = 0;
    unsigned int i;

    for ( i = 0; i < bytes; i++ )
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

size_t rec_put(uint8_t *buf, const struct trec *r)
{
    size_t size = 24 + 8 * (size_t)r->nr;
    unsigned int i;

    put_le(buf + 0, size, 2);
    buf[2] = r->type ? r->type : XENPROF_REC_SAMPLE;
    buf[3] = r->flags;
    put_le(buf + 4, r->domid, 2);
    put_le(buf + 6, r->vcpu, 2);
    put_le(buf + 8, r->cpu, 2);
    buf[10] = r->mode;
    buf[11] = r->nr;
    put_le(buf + 12, 0, 4);
    put_le(buf + 16, r->timestamp, 8);
    for ( i = 0; i < r->nr; i++ )
        put_le(buf + 24 + 8 * i, r->ip ? r->ip[i] : 0x1000 + 8 * i, 8);
    return size;
}

const char *tmpdir_get(void)
{
    const char *base = getenv("TMPDIR");

    if ( tmpdir[0] )
        return tmpdir;
    snprintf(tmpdir, sizeof(tmpdir), "%s/xenprofile-test.XXXXXX",
             base && *base ? base : "/tmp");
    if ( !mkdtemp(tmpdir) )
    {
        perror("mkdtemp");
        exit(2);
    }
    return tmpdir;
}

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    chmod(path, 0700);
    return remove(path);
}

void tmpdir_done(void)
{
    if ( tmpdir[0] )
        nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    tmpdir[0] = '\0';
}

char *tmp_path(char *buf, const char *name)
{
    snprintf(buf, TPATH, "%s/%s", tmpdir_get(), name);
    return buf;
}

int file_load(const char *path, uint8_t **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n;

    *buf = NULL;
    if ( !f )
        return -errno;
    if ( fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
         fseek(f, 0, SEEK_SET) )
    {
        fclose(f);
        return -EIO;
    }
    *buf = malloc(n ? n : 1);
    if ( !*buf || fread(*buf, 1, n, f) != (size_t)n )
    {
        free(*buf);
        *buf = NULL;
        fclose(f);
        return -EIO;
    }
    fclose(f);
    *len = n;
    return 0;
}

int file_save(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    int rc = 0;

    if ( !f )
        return -errno;
    if ( len && fwrite(buf, 1, len, f) != len )
        rc = -EIO;
    if ( fclose(f) && !rc )
        rc = -EIO;
    return rc;
}

int dir_count(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int n = 0;

    if ( !d )
        return -1;
    while ( (e = readdir(d)) )
        if ( strcmp(e->d_name, ".") && strcmp(e->d_name, "..") )
            n++;
    closedir(d);
    return n;
}

uint32_t test_crc32(const void *buf, size_t len)
{
    const uint8_t *p = buf;
    uint32_t crc = 0xffffffff;
    unsigned int k;

    while ( len-- )
    {
        crc ^= *p++;
        for ( k = 0; k < 8; k++ )
            crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
    }
    return ~crc;
}

/* Compare with want; on a difference, show the first differing line. */
bool same_text(const char *got, const char *want)
{
    const char *g = got ? got : "", *w = want;
    unsigned int line = 1;

    if ( got && !strcmp(got, want) )
        return true;
    for ( ; *g && *g == *w; g++, w++ )
        line += *g == '\n';
    while ( g > (got ? got : "") && g[-1] != '\n' )
        g--, w--;
    tap_diag("line %u: expected \"%.*s\"", line, (int)strcspn(w, "\n"), w);
    tap_diag("line %u: got      \"%.*s\"", line, (int)strcspn(g, "\n"), g);
    tap_diag("got:\n%s", got ? got : "(nothing)");
    return false;
}

/*
 * Compare with the expected output data/expected/<name> (same_text()),
 * built into the program (mkexpected.sh), so that it runs where it is
 * installed; with TEST_REGEN set in the environment, write got to
 * data/expected/ of the source instead (see data/README).
 */
bool same_expected(const char *got, const char *name)
{
    const struct test_expected *e;
    char path[512];

    if ( getenv("TEST_REGEN") )
    {
        snprintf(path, sizeof(path), "%s/expected/%s", TEST_DATA, name);
        tap_diag("regenerated %s", path);
        return got && !file_save(path, got, strlen(got));
    }
    for ( e = test_expected; e->name; e++ )
        if ( !strcmp(e->name, name) )
            break;
    if ( !e->name )
    {
        tap_diag("no expected output %s in data/expected/ (TEST_REGEN=1 "
                 "writes it)", name);
        return false;
    }
    /* A NUL inside the file would end the text early: not text. */
    return strlen((const char *)e->text) == e->len &&
           same_text(got, (const char *)e->text);
}

/* A stack set parsed from folded text; NULL on failure. */
struct xenprof_stackset *stackset_of_text(const char *text)
{
    struct xenprof_stackset *s = NULL;
    FILE *f = fmemopen((void *)text, strlen(text), "r");

    if ( f && xenprof_stackset_read_folded(f, &s, NULL, NULL, 0) )
        s = NULL;
    if ( f )
        fclose(f);
    return s;
}

/*
 * The folded text of d's samples (guest ones too unless include_guest is
 * 0), as `xl profile stop -o` writes it: the stack set, then the writer.
 */
int data_folded(const struct xenprof_data *d, FILE *out, int include_guest,
                char *err, size_t errlen)
{
    struct xenprof_filter f = { .no_guest = !include_guest };
    struct xenprof_stackset *set;
    int rc;

    if ( !out )
        return -EINVAL;
    rc = xenprof_stackset_from_data(d, &f, NULL, &set, err, errlen);
    if ( rc )
        return rc;
    rc = xenprof_write_folded(set, out);
    xenprof_stackset_free(set);
    return rc;
}

int add_tsample(struct xenprof_data *d, const struct tsample *s,
                uint64_t timestamp)
{
    uint8_t rec[64];
    struct trec r = { .mode = s->mode, .flags = s->flags,
                      .domid = s->domid, .vcpu = s->vcpu, .cpu = s->cpu,
                      .ip = s->ip };
    unsigned int i;
    int rc = 0;

    while ( r.nr < 4 && s->ip[r.nr] )
        r.nr++;
    for ( i = 0; i < s->times && !rc; i++ )
    {
        r.timestamp = timestamp + s->ms * 1000ULL + i;
        rc = xenprof_data_add_records(d, rec, rec_put(rec, &r));
    }
    return rc;
}

int add_nm(struct xenprof_data *d, const char *nm)
{
    unsigned long long addr;
    char type, name[128];
    int n, rc = 0;

    while ( !rc && sscanf(nm, " %llx %c %127s%n", &addr, &type, name,
                          &n) == 3 )
    {
        rc = xenprof_data_add_symbol(d, addr, type, name);
        nm += n;
    }
    return rc;
}
