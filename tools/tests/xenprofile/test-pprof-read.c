/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-pprof-read.c: a pprof reader for the unit tests, written from
 * RFC 1951/1952 (stored blocks only: what the writer makes) and from
 * profile.proto, independently of the library's encoder (test-pprof.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-pprof.h"

/* A protocol buffer being read. */
struct pbr {
    const uint8_t *p, *end;
    bool bad;
};

static uint64_t rd_varint(struct pbr *r)
{
    uint64_t v = 0;
    unsigned int shift;

    for ( shift = 0; shift < 64 && r->p < r->end; shift += 7 )
    {
        v |= (uint64_t)(*r->p & 0x7f) << shift;
        if ( !(*r->p++ & 0x80) )
            return v;
    }
    r->bad = true;
    return 0;
}

/*
 * The next field: its number, and either its varint (*v) or its bytes
 * (*sub).  False at the end or on malformed input (r->bad).
 */
static bool rd_field(struct pbr *r, unsigned int *field, uint64_t *v,
                     struct pbr *sub)
{
    uint64_t key, len;

    if ( r->bad || r->p >= r->end )
        return false;
    key = rd_varint(r);
    *field = key >> 3;
    sub->p = sub->end = NULL;
    sub->bad = false;
    if ( (key & 7) == 0 )
        *v = rd_varint(r);
    else if ( (key & 7) == 2 )
    {
        len = rd_varint(r);
        if ( len > (uint64_t)(r->end - r->p) )
            r->bad = true;
        else
        {
            sub->p = r->p;
            sub->end = r->p + len;
            r->p += len;
        }
    }
    else
        r->bad = true;
    return !r->bad;
}

/* Set (*a)[n] = v, growing *a; false when out of memory. */
static bool push(uint64_t **a, size_t n, uint64_t v)
{
    uint64_t *p = realloc(*a, (n + 1) * sizeof(*p));

    if ( !p )
        return false;
    p[n] = v;
    *a = p;
    return true;
}

/*
 * Append the values of a repeated varint field, packed (sub) or not (v),
 * to *a (*n values, at most max).
 */
static void rd_repeated(struct pbr *sub, uint64_t v, uint64_t **a,
                        size_t *n, size_t max, bool *bad)
{
    do {
        if ( sub->p )
            v = rd_varint(sub);
        if ( *n >= max || !push(a, *n, v) )
        {
            *bad = true;
            return;
        }
        ++*n;
    } while ( sub->p && sub->p < sub->end && !sub->bad );
    *bad = *bad || sub->bad;
}

/* Repeated varints into a fixed array of MAXV. */
static void rd_small(struct pbr *sub, uint64_t v, uint64_t *a, size_t *n,
                     bool *bad)
{
    uint64_t *tmp = NULL;
    size_t k = 0;

    rd_repeated(sub, v, &tmp, &k, MAXV - *n, bad);
    if ( !*bad )
    {
        memcpy(a + *n, tmp, k * sizeof(*tmp));
        *n += k;
    }
    free(tmp);
}

/* A message of varint fields 1 and 2 (ValueType, Function, Line). */
static void rd_pair(struct pbr m, uint64_t *f1, uint64_t *f2, bool *bad)
{
    struct pbr sub;
    unsigned int field;
    uint64_t v = 0;

    *f1 = *f2 = 0;
    while ( rd_field(&m, &field, &v, &sub) )
        if ( field == 1 && !sub.p )
            *f1 = v;
        else if ( field == 2 && !sub.p )
            *f2 = v;
    *bad = *bad || m.bad;
}

static void rd_sample(struct dprof *d, struct pbr m)
{
    struct dsample *s;
    struct pbr sub;
    unsigned int field;
    uint64_t v = 0;

    s = realloc(d->smp, (d->nsmp + 1) * sizeof(*s));
    if ( !s )
    {
        d->bad = true;
        return;
    }
    d->smp = s;
    s = &d->smp[d->nsmp++];
    memset(s, 0, sizeof(*s));
    while ( rd_field(&m, &field, &v, &sub) )
        if ( field == 1 )
            rd_repeated(&sub, v, &s->loc, &s->nloc, SIZE_MAX, &d->bad);
        else if ( field == 2 )
            rd_small(&sub, v, s->val, &s->nval, &d->bad);
    d->bad = d->bad || m.bad;
}

/*
 * Location: id, mapping id, address, and the function of its one line
 * (0: not one line).
 */
static void rd_location(struct dprof *d, struct pbr m)
{
    struct pbr sub;
    unsigned int field, lines = 0;
    uint64_t v = 0, id = 0, fn = 0, line, map = 0, addr = 0;

    while ( rd_field(&m, &field, &v, &sub) )
        if ( field == 1 && !sub.p )
            id = v;
        else if ( field == 2 && !sub.p )
            map = v;
        else if ( field == 3 && !sub.p )
            addr = v;
        else if ( field == 4 && sub.p && !lines++ )
            rd_pair(sub, &fn, &line, &d->bad);
        else
            d->bad = true;
    d->bad = d->bad || m.bad || !push(&d->loc_id, d->nloc, id) ||
             !push(&d->loc_fn, d->nloc, lines == 1 ? fn : 0) ||
             !push(&d->loc_map, d->nloc, map) ||
             !push(&d->loc_addr, d->nloc, addr);
    d->nloc += !d->bad;
}

/* Mapping: the varint fields the writer uses (1-3, 5-7). */
static void rd_mapping(struct dprof *d, struct pbr m)
{
    struct dmap *p = realloc(d->map, (d->nmap + 1) * sizeof(*p)), *e;
    struct pbr sub;
    unsigned int field;
    uint64_t v = 0;

    if ( !p )
    {
        d->bad = true;
        return;
    }
    d->map = p;
    e = memset(&p[d->nmap], 0, sizeof(*e));
    while ( rd_field(&m, &field, &v, &sub) )
        if ( sub.p )
            d->bad = true;
        else if ( field == 1 )
            e->id = v;
        else if ( field == 2 )
            e->start = v;
        else if ( field == 3 )
            e->limit = v;
        else if ( field == 5 )
            e->file = v;
        else if ( field == 6 )
            e->build_id = v;
        else if ( field == 7 )
            e->has_functions = v;
        else
            d->bad = true;
    d->bad = d->bad || m.bad;
    d->nmap += !d->bad;
}

static void rd_string(struct dprof *d, struct pbr sub)
{
    char **s = realloc(d->str, (d->nstr + 1) * sizeof(*s));

    if ( !s || !sub.p ||
         !(s[d->nstr] = strndup((const char *)sub.p, sub.end - sub.p)) )
    {
        d->bad = true;
        if ( s )
            d->str = s;
        return;
    }
    d->str = s;
    d->nstr++;
}

static void rd_profile(struct dprof *d, const uint8_t *buf, size_t len)
{
    struct pbr r = { buf, buf + len, false }, sub;
    unsigned int field;
    uint64_t v = 0, a, b;

    while ( rd_field(&r, &field, &v, &sub) && !d->bad )
        switch ( field )
        {
        case 1:
            rd_pair(sub, &a, &b, &d->bad);
            d->st_type[d->nst % MAXV] = a;
            d->st_unit[d->nst++ % MAXV] = b;
            break;
        case 2: rd_sample(d, sub); break;
        case 3: rd_mapping(d, sub); break;
        case 4: rd_location(d, sub); break;
        case 5:
            rd_pair(sub, &a, &b, &d->bad);
            d->bad = d->bad || !push(&d->fn_id, d->nfn, a) ||
                     !push(&d->fn_name, d->nfn, b);
            d->nfn += !d->bad;
            break;
        case 6: rd_string(d, sub); break;
        case 9: d->time = v; break;
        case 10: d->dur = v; break;
        case 11: rd_pair(sub, &d->pt_type, &d->pt_unit, &d->bad); break;
        case 12: d->period = v; break;
        case 13: rd_small(&sub, v, d->comment, &d->ncomment, &d->bad); break;
        default:
            snprintf(d->why, sizeof(d->why), "unexpected field %u", field);
            d->bad = true;
        }
    if ( r.bad || d->nst > MAXV )
        d->bad = true;
    if ( d->bad && !d->why[0] )
        snprintf(d->why, sizeof(d->why), "malformed protobuf");
}

void pprof_dprof_free(struct dprof *d)
{
    size_t i;

    for ( i = 0; i < d->nstr; i++ )
        free(d->str[i]);
    for ( i = 0; i < d->nsmp; i++ )
        free(d->smp[i].loc);
    free(d->str);
    free(d->smp);
    free(d->loc_id);
    free(d->loc_fn);
    free(d->loc_map);
    free(d->loc_addr);
    free(d->map);
    free(d->fn_id);
    free(d->fn_name);
}

/*
 * gunzip a member made of stored blocks only: the payload (malloc()ed)
 * and its number of blocks, or NULL with why set.
 */
static uint8_t *gunzip(const uint8_t *g, size_t n, size_t *len,
                       unsigned int *blocks, char *why)
{
    static const uint8_t hdr[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
    uint8_t *out = NULL, *p;
    size_t off = 10, blen;
    bool final = false;

    *len = 0;
    *blocks = 0;
    if ( n < 10 || memcmp(g, hdr, 10) )
        return strcpy(why, "bad gzip header"), NULL;
    while ( !final )
    {
        if ( off + 5 > n || (g[off] & ~1) )
            return free(out), strcpy(why, "not a stored block"), NULL;
        final = g[off] & 1;
        blen = get_le(g + off + 1, 2);
        if ( get_le(g + off + 3, 2) != (~blen & 0xffff) ||
             off + 5 + blen > n )
            return free(out), strcpy(why, "bad block length"), NULL;
        if ( !(p = realloc(out, *len + blen + 1)) )
            return free(out), strcpy(why, "out of memory"), NULL;
        out = p;
        memcpy(out + *len, g + off + 5, blen);
        *len += blen;
        off += 5 + blen;
        ++*blocks;
    }
    if ( off + 8 != n )
        return free(out), strcpy(why, "bad trailer size"), NULL;
    if ( get_le(g + off, 4) != test_crc32(out, *len) ||
         get_le(g + off + 4, 4) != (*len & 0xffffffff) )
        return free(out), strcpy(why, "bad CRC-32 or ISIZE"), NULL;
    return out;
}

int pprof_run(const struct xenprof_stackset *s, const struct xenprof_data *d,
              struct dprof *dp, unsigned int *blocks, uint8_t **raw,
              size_t *rawlen)
{
    char err[256] = "";
    uint8_t *gz = NULL, *pb;
    size_t gzlen = 0, len;
    FILE *f = open_memstream((char **)&gz, &gzlen);
    int rc;

    memset(dp, 0, sizeof(*dp));
    if ( !f )
        return -errno;
    rc = xenprof_write_pprof(s, d, f, err, sizeof(err));
    fclose(f);
    if ( rc )
    {
        tap_diag("xenprof_write_pprof: %d %s", rc, err);
        free(gz);
        return rc;
    }
    pb = gunzip(gz, gzlen, &len, blocks, dp->why);
    if ( pb )
        rd_profile(dp, pb, len);
    else
        dp->bad = true;
    if ( dp->bad )
        tap_diag("pprof output: %s", dp->why);
    free(pb);
    if ( raw )
    {
        *raw = gz;
        *rawlen = gzlen;
    }
    else
        free(gz);
    return dp->bad ? -EBADMSG : 0;
}

/* The string at index i, or NULL. */
const char *pprof_str(const struct dprof *d, uint64_t i)
{
    return i < d->nstr ? d->str[i] : NULL;
}

const struct dmap *pprof_map(const struct dprof *d, uint64_t id)
{
    size_t i;

    for ( i = 0; i < d->nmap; i++ )
        if ( d->map[i].id == id )
            return &d->map[i];
    return NULL;
}

/* The name of the function of location id, or NULL. */
static const char *loc_name(const struct dprof *d, uint64_t id)
{
    size_t i, j;

    for ( i = 0; i < d->nloc && d->loc_id[i] != id; i++ )
        ;
    if ( i == d->nloc )
        return NULL;
    for ( j = 0; j < d->nfn && d->fn_id[j] != d->loc_fn[i]; j++ )
        ;
    return j < d->nfn ? pprof_str(d, d->fn_name[j]) : NULL;
}

/* Are ids[0..n) non-zero and distinct? */
bool pprof_distinct_ids(const uint64_t *ids, size_t n)
{
    size_t i, j;

    for ( i = 0; i < n; i++ )
        for ( j = 0; j <= i; j++ )
            if ( !ids[i] || (j < i && ids[i] == ids[j]) )
                return false;
    return true;
}

int pprof_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The samples as folded text (root first, value[0] as the count, lines
 * sorted); NULL when a location or a function is missing.
 */
char *pprof_folded(const struct dprof *d)
{
    char **lines = calloc(d->nsmp + 1, sizeof(*lines)), *all = NULL;
    size_t i, j, len, n = 0;
    bool missing = false;
    const char *name;
    FILE *f;

    for ( ; lines && n < d->nsmp; n++ )
    {
        if ( !(f = open_memstream(&lines[n], &len)) )
            break;
        for ( j = d->smp[n].nloc; j-- > 0; )
        {
            name = loc_name(d, d->smp[n].loc[j]);
            missing = missing || !name;
            fprintf(f, "%s%s", j + 1 < d->smp[n].nloc ? ";" : "",
                    name ? name : "?");
        }
        fprintf(f, " %" PRIu64 "\n", d->smp[n].nval ? d->smp[n].val[0] : 0);
        fclose(f);
    }
    if ( lines && n == d->nsmp && !missing )
    {
        qsort(lines, n, sizeof(*lines), pprof_cmp_str);
        f = open_memstream(&all, &len);
        for ( i = 0; f && i < n; i = j )
        {
            /* Samples of the same names (other addresses): one line. */
            size_t stack = strrchr(lines[i], ' ') - lines[i];
            uint64_t count = strtoull(lines[i] + stack + 1, NULL, 10);

            for ( j = i + 1; j < n && !strncmp(lines[j], lines[i], stack + 1) &&
                             !strchr(lines[j] + stack + 1, ' '); j++ )
                count += strtoull(lines[j] + stack + 1, NULL, 10);
            fprintf(f, "%.*s %" PRIu64 "\n", (int)stack, lines[i], count);
        }
        if ( f )
            fclose(f);
    }
    for ( i = 0; i < n; i++ )
        free(lines[i]);
    free(lines);
    return all;
}
