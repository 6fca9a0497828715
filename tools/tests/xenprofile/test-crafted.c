/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-crafted.c: hand-made data files, built byte by byte from the
 * format description (docs/designs/xenprofile-data.md) with a valid
 * checksum, so that each check of the reader is reached on its own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

/* A byte buffer being built. */
struct bb {
    uint8_t b[4096];
    size_t len;
};

static void bb_bytes(struct bb *b, const void *p, size_t n)
{
    memcpy(b->b + b->len, p, n);
    b->len += n;
}

static void bb_le(struct bb *b, uint64_t v, unsigned int bytes)
{
    put_le(b->b + b->len, v, bytes);
    b->len += bytes;
}

static void file_start(struct bb *f)
{
    f->len = 0;
    bb_bytes(f, XENPROF_FILE_MAGIC, 8);
    bb_le(f, 1, 4);
    bb_le(f, 0, 4);
}

static void file_sec(struct bb *f, uint32_t type, const struct bb *p)
{
    bb_le(f, type, 4);
    bb_le(f, 0, 4);
    bb_le(f, p->len, 8);
    bb_bytes(f, p->b, p->len);
}

static void file_end(struct bb *f)
{
    bb_le(f, 0, 4);
    bb_le(f, 0, 4);
    bb_le(f, 4, 8);
    bb_le(f, test_crc32(f->b, f->len), 4);
}

/* A META entry: kind 1 (u64, v) or 2 (string s). */
static void meta_ent(struct bb *p, const char *key, unsigned int kind,
                     uint64_t v, const char *s)
{
    bb_le(p, strlen(key), 2);
    bb_le(p, kind, 1);
    bb_le(p, 0, 1);
    bb_le(p, kind == 1 ? 8 : strlen(s), 4);
    bb_bytes(p, key, strlen(key));
    if ( kind == 1 )
        bb_le(p, v, 8);
    else
        bb_bytes(p, s, strlen(s));
}

static void sym_ent(struct bb *p, uint64_t addr, const char *name,
                    size_t len)
{
    bb_le(p, addr, 8);
    bb_le(p, 'T', 1);
    bb_le(p, 0, 1);
    bb_le(p, len, 2);
    bb_bytes(p, name, len);
}

enum {
    UNKNOWN_SEC, UNKNOWN_KEY, OLD_KEYS, NEW_KEYS, AFTER_END, BAD_CRC, END_8, SYM_COUNT,
    CPU_ESIZE0, CPU_BIGGER, CPU_MISMATCH, CPU_OLD, CPU_NOW, META_TWICE,
    META_LONG,
    META_KIND, META_RANGE, META_PAST, SYM_NUL, SYM_PAST, SYM_EXTRA,
    DOM_NAME, SEC_HUGE, REC_BAD, REC_CUT,
};

/* Add the sections of case id to f; p is an empty payload buffer. */
typedef void build_fn(int id, struct bb *f, struct bb *p);

static void build_meta(int id, struct bb *f, struct bb *p)
{
    switch ( id )
    {
    case UNKNOWN_KEY:
        meta_ent(p, "from_the_future", 1, 7, NULL);
        meta_ent(p, "hostname", 2, 0, "h");
        break;
    case OLD_KEYS:
    case NEW_KEYS:
        meta_ent(p, id == OLD_KEYS ? "tsc_khz" : "timestamp_khz", 1, 3000,
                 NULL);
        meta_ent(p, id == OLD_KEYS ? "start_tsc" : "start_timestamp", 1, 5,
                 NULL);
        meta_ent(p, id == OLD_KEYS ? "stop_tsc" : "stop_timestamp", 1, 9,
                 NULL);
        break;
    case META_LONG:
        meta_ent(p, "hostname", 2, 0, "0123456789012345678901234567890123"
                 "456789012345678901234567890123");
        break;
    case META_KIND:
        meta_ent(p, "hostname", 1, 1, NULL);
        break;
    case META_RANGE:
        meta_ent(p, "nr_host_cpus", 1, 1ULL << 32, NULL);
        break;
    case META_PAST:
        meta_ent(p, "hostname", 2, 0, "h");
        put_le(p->b, 200, 2);
        break;
    case META_TWICE:
        file_sec(f, 1, p);
        break;
    }
    file_sec(f, 1, p);
}

static void build_tables(int id, struct bb *f, struct bb *p)
{
    static const uint8_t zeros[72];
    uint8_t ent[60];

    switch ( id )
    {
    case SYM_COUNT:
        bb_le(p, 12, 4);
        bb_le(p, 0xffffffff, 4);
        bb_le(p, 0, 4);
        file_sec(f, 3, p);
        return;
    case CPU_ESIZE0:
    case CPU_BIGGER:
    case CPU_MISMATCH:
        bb_le(p, id == CPU_ESIZE0 ? 0 : id == CPU_BIGGER ? 72 : 56, 4);
        bb_le(p, 1, 4);
        bb_le(p, 3, 4);
        bb_bytes(p, zeros, id == CPU_BIGGER ? 68 : 60);
        file_sec(f, 2, p);
        return;
    case CPU_OLD:
    case CPU_NOW:
        /* An entry of an older xl (56 bytes), and of this one (64). */
        memset(ent, 0, sizeof(ent));
        put_le(ent + 4, 7, 8);          /* taken */
        put_le(ent + 52, 5, 8);         /* throttled, in 64 only */
        bb_le(p, id == CPU_OLD ? 56 : 64, 4);
        bb_le(p, 1, 4);
        bb_le(p, 3, 4);
        bb_bytes(p, ent, id == CPU_OLD ? 52 : 60);
        file_sec(f, 2, p);
        return;
    case DOM_NAME:
        bb_le(p, 88, 4);
        bb_le(p, 1, 4);
        bb_bytes(p, zeros, 24);
        memset(p->b + p->len, 'x', 64);
        p->len += 64;
        file_sec(f, 4, p);
        return;
    }
    bb_le(p, 12, 4);
    bb_le(p, 1, 4);
    sym_ent(p, 0x1000, id == SYM_NUL ? "a\0b" : "abc", 3);
    if ( id == SYM_PAST )
        put_le(p->b + p->len - 5, 4, 2);
    if ( id == SYM_EXTRA )
        bb_le(p, 0, 1);
    file_sec(f, 3, p);
}

static void build_records(int id, struct bb *f, struct bb *p)
{
    p->len += rec_put(p->b + p->len, &(struct trec){ .nr = 1 });
    if ( id == REC_BAD )
    {
        p->len += rec_put(p->b + p->len, &(struct trec){ .nr = 1 });
        put_le(p->b + 32, 12, 2);
    }
    else
        p->len -= 8;
    file_sec(f, 5, p);
}

static void build_other(int id, struct bb *f, struct bb *p)
{
    if ( id == SEC_HUGE )
    {
        bb_le(f, 2, 4);
        bb_le(f, 0, 4);
        bb_le(f, 1ULL << 62, 8);
    }
    else if ( id == UNKNOWN_SEC )
    {
        bb_bytes(p, "hello", 5);
        file_sec(f, 99, p);
    }
}

static const struct crafted {
    int id;
    build_fn *fn;
    const char *desc;
    int rc;
    const char *msg;                /* in the message on failure */
} cases[] = {
    { UNKNOWN_SEC, build_other, "an unknown section is skipped", 0, NULL },
    { UNKNOWN_KEY, build_meta, "an unknown META key is skipped", 0, NULL },
    { OLD_KEYS, build_meta, "META keys of older files: tsc_khz, start_tsc, "
      "stop_tsc", 0, NULL },
    { NEW_KEYS, build_meta, "META keys timestamp_khz, start_timestamp, "
      "stop_timestamp", 0, NULL },
    { AFTER_END, build_other, "data after END", -EBADMSG,
      "offset 36: data after" },
    { BAD_CRC, build_other, "a wrong checksum", -EBADMSG,
      "offset 32: checksum" },
    { END_8, build_other, "an END of 8 bytes", -EBADMSG,
      "END section of 8" },
    { SYM_COUNT, build_tables, "a symbol count beyond the section",
      -EBADMSG, "offset 36: 4294967295 entries do not fit" },
    { CPU_ESIZE0, build_tables, "a CPUS entry size of 0", -EBADMSG,
      "entry size 0" },
    { CPU_BIGGER, build_tables, "CPUS entries larger than known", 0, NULL },
    { CPU_OLD, build_tables, "CPUS entries of 56 bytes (no throttled)", 0,
      NULL },
    { CPU_NOW, build_tables, "CPUS entries of 64 bytes (throttled)", 0,
      NULL },
    { CPU_MISMATCH, build_tables, "a CPUS size not matching", -EBADMSG,
      "not match" },
    { META_TWICE, build_meta, "a second META section", -EBADMSG,
      "second META" },
    { META_LONG, build_meta, "a META string too long", -EBADMSG,
      "bad string" },
    { META_KIND, build_meta, "a META string stored as integer", -EBADMSG,
      "wrong kind" },
    { META_RANGE, build_meta, "a META uint32 out of range", -EBADMSG,
      "out of range" },
    { META_PAST, build_meta, "a META entry past its section", -EBADMSG,
      "offset 32: META entry past" },
    { SYM_NUL, build_tables, "a symbol name with a NUL", -EBADMSG, "NUL" },
    { SYM_PAST, build_tables, "a symbol name past the section", -EBADMSG,
      "past the section" },
    { SYM_EXTRA, build_tables, "bytes after the last symbol", -EBADMSG,
      "after the last" },
    { DOM_NAME, build_tables, "an unterminated domain name", -EBADMSG,
      "not terminated" },
    { SEC_HUGE, build_other, "a section length of 2^62", -EBADMSG,
      "offset 16: section" },
    { REC_BAD, build_records, "a corrupt record, named by file offset",
      -EBADMSG, "record at offset 64: size 12" },
    { REC_CUT, build_records, "a record cut by its section", -EBADMSG,
      "record at offset 32: size 32 goes past" },
};

static void build(const struct crafted *c, struct bb *f)
{
    struct bb p = { .len = 0 };

    file_start(f);
    c->fn(c->id, f, &p);
    if ( c->id == END_8 )
    {
        bb_le(f, 0, 4);
        bb_le(f, 0, 4);
        bb_le(f, 8, 8);
        bb_le(f, test_crc32(f->b, f->len), 8);
        return;
    }
    file_end(f);
    if ( c->id == AFTER_END )
        bb_le(f, 0, 1);
    if ( c->id == BAD_CRC )
        f->b[f->len - 1] ^= 0x80;
}

/* The profile read for the cases that must succeed, checked. */
static bool good(int id, const struct xenprof_data *d)
{
    if ( id == UNKNOWN_KEY )
        return !strcmp(d->meta.hostname, "h") && !d->meta.timestamp_khz;
    if ( id == OLD_KEYS || id == NEW_KEYS )
        return d->meta.timestamp_khz == 3000 &&
               d->meta.start_timestamp == 5 && d->meta.stop_timestamp == 9;
    if ( id == CPU_BIGGER )
        return d->nr_cpus == 1 && d->cpus[0].cpu == 3;
    if ( id == CPU_OLD || id == CPU_NOW )
        return d->nr_cpus == 1 && d->cpus[0].cpu == 3 &&
               d->cpus[0].taken == 7 &&
               d->cpus[0].throttled == (id == CPU_NOW ? 5 : 0);
    return d->nr_syms == 0 && d->records_len == 0;
}

void test_crafted(void)
{
    static struct bb f;
    struct xenprof_data *d;
    char path[TPATH], err[256];
    size_t i;
    int rc;

    tmp_path(path, "crafted.data");
    for ( i = 0; i < sizeof(cases) / sizeof(cases[0]); i++ )
    {
        build(&cases[i], &f);
        file_save(path, f.b, f.len);
        err[0] = '\0';
        d = NULL;
        rc = xenprof_data_read(path, &d, err, sizeof(err));
        if ( !cases[i].rc )
            tap_ok(!rc && d && good(cases[i].id, d),
                   "crafted: %s (rc %d, \"%s\")", cases[i].desc, rc, err);
        else
            tap_ok(rc == cases[i].rc && !d && strstr(err, cases[i].msg),
                   "crafted: %s gives %d (rc %d, \"%s\")", cases[i].desc,
                   cases[i].rc, rc, err);
        xenprof_data_free(d);
    }
    remove(path);
}
