/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * data-write.c: xenprof_data_write(), the data file of
 * docs/designs/xenprofile-data.md, written atomically by
 * xenprof_write_file() (write-file.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "private.h"

/* An output file: the running CRC and the first error (-errno). */
struct out {
    FILE *f;
    uint32_t crc;
    int rc;
};

static void put(struct out *o, const void *p, size_t n)
{
    if ( o->rc || !n )
        return;
    errno = 0;
    if ( fwrite(p, 1, n, o->f) != n )
    {
        o->rc = errno ? -errno : -EIO;
        return;
    }
    o->crc = xenprof_priv_crc32(o->crc, p, n);
}

static void put32(struct out *o, uint32_t v)
{
    uint8_t b[4];

    xenprof_put32(b, v);
    put(o, b, sizeof(b));
}

static void put64(struct out *o, uint64_t v)
{
    uint8_t b[8];

    xenprof_put64(b, v);
    put(o, b, sizeof(b));
}

static void put_section(struct out *o, uint32_t type, uint64_t len)
{
    put32(o, type);
    put32(o, 0);                        /* flags */
    put64(o, len);
}

static void put_meta(struct out *o, const struct xenprof_meta *m)
{
    size_t len = xenprof_priv_meta_size(m);
    uint8_t *buf = malloc(len);

    if ( !buf )
    {
        if ( !o->rc )
            o->rc = -ENOMEM;
        return;
    }
    xenprof_priv_meta_encode(m, buf);
    put_section(o, XENPROF_SEC_META, len);
    put(o, buf, len);
    free(buf);
}

/* The section header and table header of count entries of esize. */
static void put_table(struct out *o, uint32_t type, size_t esize,
                      size_t count)
{
    put_section(o, type, XENPROF_TABLE_HDR + (uint64_t)count * esize);
    put32(o, esize);
    put32(o, count);
}

static void put_cpus(struct out *o, const struct xenprof_data *d)
{
    const struct xenprof_cpu *c;
    size_t i;

    put_table(o, XENPROF_SEC_CPUS, XENPROF_CPU_ENT_SIZE, d->nr_cpus);
    for ( i = 0; i < d->nr_cpus; i++ )
    {
        c = &d->cpus[i];
        put32(o, c->cpu);
        put32(o, c->flags);
        put64(o, c->taken);
        put64(o, c->lost);
        put64(o, c->read);
        put64(o, c->cost_min);
        put64(o, c->cost_avg);
        put64(o, c->cost_max);
        put64(o, c->throttled);
    }
}

static void put_symbols(struct out *o, const struct xenprof_data *d)
{
    uint8_t hdr[XENPROF_SYM_ENT_HDR];
    uint64_t len = XENPROF_TABLE_HDR;
    size_t i, n;

    for ( i = 0; i < d->nr_syms; i++ )
        len += XENPROF_SYM_ENT_HDR + strlen(d->syms[i].name);
    put_section(o, XENPROF_SEC_SYMBOLS, len);
    put32(o, XENPROF_SYM_ENT_HDR);
    put32(o, d->nr_syms);
    for ( i = 0; i < d->nr_syms; i++ )
    {
        n = strlen(d->syms[i].name);
        xenprof_put64(hdr, d->syms[i].addr);
        hdr[8] = d->syms[i].type;
        hdr[9] = 0;
        xenprof_put16(hdr + 10, n);
        put(o, hdr, sizeof(hdr));
        put(o, d->syms[i].name, n);
    }
}

static void put_domains(struct out *o, const struct xenprof_data *d)
{
    char name[sizeof(d->doms->name)];
    size_t i;

    put_table(o, XENPROF_SEC_DOMAINS, XENPROF_DOM_ENT_SIZE, d->nr_doms);
    for ( i = 0; i < d->nr_doms; i++ )
    {
        memset(name, 0, sizeof(name));
        memcpy(name, d->doms[i].name,
               strnlen(d->doms[i].name, sizeof(name) - 1));
        put32(o, d->doms[i].domid);
        put32(o, 0);
        put(o, d->doms[i].uuid, sizeof(d->doms[i].uuid));
        put(o, name, sizeof(name));
    }
}

/* Write the whole file to o->f; 0 or -errno. */
static int put_file(struct out *o, const struct xenprof_data *d)
{
    put(o, XENPROF_FILE_MAGIC, 8);
    put32(o, XENPROF_FILE_VERSION);
    put32(o, 0);                        /* reserved */
    put_meta(o, &d->meta);
    put_cpus(o, d);
    put_symbols(o, d);
    put_domains(o, d);
    put_section(o, XENPROF_SEC_RECORDS, d->records_len);
    put(o, d->records, d->records_len);
    put_section(o, XENPROF_SEC_END, 4);
    put32(o, o->crc);
    return o->rc;
}

/* Check that d can be written: 0, or -EINVAL/-EBADMSG with a message. */
static int check_data(const struct xenprof_data *d, const char *path,
                      char *err, size_t errlen)
{
    size_t i;
    int rc;

    if ( d->nr_cpus > UINT32_MAX || d->nr_syms > UINT32_MAX ||
         d->nr_doms > UINT32_MAX )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "%s: too many entries", path);
    for ( i = 0; i < d->nr_syms; i++ )
        if ( !d->syms[i].name || strlen(d->syms[i].name) > UINT16_MAX )
            return xenprof_priv_err(err, errlen, -EINVAL,
                                    "%s: symbol %zu has a bad name",
                                    path, i);
    rc = xenprof_priv_check_records(d->records, d->records_len, 0,
                                    err, errlen);
    return rc ? xenprof_priv_prefix(err, errlen, rc, path) : 0;
}

/* The writer of the data file, for xenprof_write_file(). */
static int fill_data(FILE *f, void *arg, char *err xenprof_unused,
                     size_t errlen xenprof_unused)
{
    struct out o = { .f = f };

    put_file(&o, arg);
    return o.rc;
}

/*
 * The file gets mode 0600, as perf.data does: it holds the host's symbol
 * table and domain names.
 */
int xenprof_data_write(const struct xenprof_data *d, const char *path,
                       char *err, size_t errlen)
{
    int rc;

    if ( !d || !path || !*path )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_data_write: no data or path");
    rc = check_data(d, path, err, errlen);
    if ( rc )
        return rc;
    return xenprof_write_file(path, 0600, fill_data, (void *)d, err,
                              errlen);
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
