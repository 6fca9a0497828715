/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-pprof.c: the pprof writer, a gzipped perftools.profiles.Profile
 * (github.com/google/pprof, proto/profile.proto), encoded by hand.
 *
 * Every distinct frame name is one Function.  A Location is a frame name
 * at an address, with one Line naming its Function.  A stack set made from
 * a data file has its raw stacks, with addresses (stackset.h): each is
 * one Sample, and its Xen frames are Locations at their sampled addresses
 * (a return address as it is, not less one) in the Mapping of the
 * hypervisor: filename "xen-syms", the profile's build-id, from its
 * lowest text symbol (so that pprof, given xen-syms, finds a base of 0)
 * to past its highest address, has_functions.  Guest frames are in a
 * Mapping of their own, "[guest.kernel]" or "[guest.user]", at address 0
 * (a guest IP is not kept per stack); the markers ([truncated], the
 * vCPU, ...) have no Mapping.  A set from folded text has no addresses:
 * each stack is one Sample, each name one Location at address 0, and
 * there is no Mapping.  Location ids are leaf first in a Sample, as
 * pprof wants.  The string table is "" then a few fixed strings (sample
 * types, comment, mapping names, build-id), then the function names in
 * id order, so a function's name index is its id plus a constant.  Names
 * are not valid UTF-8 by construction (domain names come from guests), so
 * bytes that break UTF-8 are written as '?'.
 *
 * The Profile message is the whole file: its fields are written as they
 * come into the gzip stream (samples first, interning names on the way,
 * then locations, functions and strings), so memory grows with the
 * distinct frame names and the depth of a stack, not with the output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stackset.h"
#include "write-pprof-pbuf.h"

/* Field numbers of profile.proto. */
#define PROFILE_SAMPLE_TYPE     1
#define PROFILE_SAMPLE          2
#define PROFILE_MAPPING         3
#define PROFILE_LOCATION        4
#define PROFILE_FUNCTION        5
#define PROFILE_STRING_TABLE    6
#define PROFILE_TIME_NANOS      9
#define PROFILE_DURATION_NANOS  10
#define PROFILE_PERIOD_TYPE     11
#define PROFILE_PERIOD          12
#define PROFILE_COMMENT         13
#define VALUE_TYPE_TYPE         1
#define VALUE_TYPE_UNIT         2
#define SAMPLE_LOCATION_ID      1
#define SAMPLE_VALUE            2
#define MAPPING_ID              1
#define MAPPING_START           2
#define MAPPING_LIMIT           3
#define MAPPING_FILENAME        5
#define MAPPING_BUILD_ID        6
#define MAPPING_HAS_FUNCTIONS   7
#define LOCATION_ID             1
#define LOCATION_MAPPING_ID     2
#define LOCATION_ADDRESS        3
#define LOCATION_LINE           4
#define LINE_FUNCTION_ID        1
#define FUNCTION_ID             1
#define FUNCTION_NAME           2

/* The fixed strings: their indices in the string table. */
enum {
    STR_EMPTY,                      /* string_table[0] must be "" */
    STR_SAMPLES,
    STR_COUNT,
    STR_VALUE_TYPE,                 /* "cpu" or "events" */
    STR_VALUE_UNIT,                 /* "nanoseconds" or "count" */
    STR_COMMENT,
    STR_XEN,                        /* the mappings' file names */
    STR_GUEST_KERNEL,
    STR_GUEST_USER,
    STR_BUILD_ID,
    NR_FIXED                        /* the first function name */
};

/* The mappings of a profile from a data file: their ids. */
enum { MAP_NONE, MAP_XEN, MAP_GUEST_KERNEL, MAP_GUEST_USER, NR_MAPS };

/*
 * Ids 1, 2, ... of keys (a frame name of the set, an address): names are
 * interned in the set, so a name is known by its pointer.  Functions are
 * keyed by name (address 0), Locations by name and address.
 */
struct id_ent {
    const char *name;
    uint64_t addr;
    uint64_t hash;
    size_t id;                      /* 0: free slot */
};

struct ids {
    struct id_ent *tab;             /* open addressing, pow2 size */
    size_t size, nr;
};

struct loc {
    size_t fn;                      /* function id */
    uint64_t addr;
    unsigned int map;               /* MAP_* */
};

#define COMMENT_MAX 512

struct pprof {
    const struct xenprof_stackset *s;
    struct ids fns;                 /* functions, by name */
    const char **names;             /* by function id - 1 */
    struct ids lids;                /* locations, by name and address */
    struct loc *locs;               /* by location id - 1 */
    uint64_t xen_start, xen_limit;  /* of MAP_XEN */
    bool has_maps;
    uint64_t *ids;                  /* location ids of one sample */
    size_t nr_ids;
    struct xenprof_pb msg;          /* the message being built */
    struct xenprof_pb sub;          /* a message embedded in msg */
    bool oom;
    bool has_value;                 /* a second value (cpu or events) */
    uint64_t period;                /* ns (timer) or events (PMU) */
    const char *fixed[NR_FIXED];
    struct xenprof_gz *z;
};

static uint64_t hash_key(const char *name, uint64_t addr)
{
    uint64_t h = (uint64_t)(uintptr_t)name * 0x9e3779b97f4a7c15ULL;

    h ^= addr + (h >> 29);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}

/* Double the table (or create it); false when out of memory. */
static bool ids_grow(struct ids *t)
{
    size_t size = t->size ? t->size * 2 : 256, i, j;
    struct id_ent *tab;

    if ( size > SIZE_MAX / sizeof(*tab) )
        return false;
    tab = calloc(size, sizeof(*tab));
    if ( !tab )
        return false;
    for ( i = 0; i < t->size; i++ )
    {
        if ( !t->tab[i].id )
            continue;
        j = t->tab[i].hash & (size - 1);
        while ( tab[j].id )
            j = (j + 1) & (size - 1);
        tab[j] = t->tab[i];
    }
    free(t->tab);
    t->tab = tab;
    t->size = size;
    return true;
}

/*
 * The id of (name, addr), given one (t->nr + 1) when new, which *added
 * says; 0 when out of memory.
 */
static size_t ids_get(struct ids *t, const char *name, uint64_t addr,
                      bool *added)
{
    uint64_t h = hash_key(name, addr);
    struct id_ent *e;
    size_t i;

    *added = false;
    if ( (t->nr + 1) * 2 > t->size && !ids_grow(t) )
        return 0;
    i = h & (t->size - 1);
    while ( t->tab[i].id &&
            (t->tab[i].name != name || t->tab[i].addr != addr) )
        i = (i + 1) & (t->size - 1);
    e = &t->tab[i];
    if ( !e->id )
    {
        e->name = name;
        e->addr = addr;
        e->hash = h;
        e->id = ++t->nr;
        *added = true;
    }
    return e->id;
}

/* The id of the Function of name; 0 when out of memory. */
static size_t name_id(struct pprof *pp, const char *name)
{
    bool added;
    size_t id = ids_get(&pp->fns, name, 0, &added);

    if ( added && xenprof_priv_reserve((void **)&pp->names, id - 1, 1,
                                       sizeof(*pp->names)) )
        return 0;
    if ( added )
        pp->names[id - 1] = name;
    return id;
}

/* The mapping of frame name at addr. */
static unsigned int map_of(const struct pprof *pp, const char *name,
                           uint64_t addr)
{
    if ( !pp->has_maps )
        return MAP_NONE;
    if ( addr )
        return MAP_XEN;
    if ( !strcmp(name, "[guest kernel]") )
        return MAP_GUEST_KERNEL;
    if ( !strcmp(name, "[guest user]") )
        return MAP_GUEST_USER;
    return MAP_NONE;
}

/* The id of the Location of name at addr; 0 when out of memory. */
static size_t loc_id(struct pprof *pp, const char *name, uint64_t addr)
{
    bool added;
    size_t id = ids_get(&pp->lids, name, addr, &added), fn;
    struct loc *l;

    if ( !added )
        return id;
    fn = id ? name_id(pp, name) : 0;
    if ( !fn || xenprof_priv_reserve((void **)&pp->locs, id - 1, 1,
                                     sizeof(*pp->locs)) )
        return 0;
    l = &pp->locs[id - 1];
    l->fn = fn;
    l->addr = addr;
    l->map = map_of(pp, name, addr);
    if ( l->map == MAP_XEN && addr < pp->xen_start )
        pp->xen_start = addr;
    if ( l->map == MAP_XEN && addr >= pp->xen_limit )
        pp->xen_limit = addr + 1;
    return id;
}

/* count * period, as a non-negative int64. */
static uint64_t scaled(uint64_t count, uint64_t period)
{
    if ( period && count > INT64_MAX / period )
        return INT64_MAX;
    return count * period;
}

/*
 * Encode a Sample of count samples of stack i of the set, its frames at
 * addrs (NULL: address 0), and write it.
 */
static void put_sample(struct pprof *pp, size_t i, const uint64_t *addrs,
                       uint64_t count)
{
    const char *const *frames;
    uint64_t values[2], total;
    size_t n, j;

    xenprof_stackset_get(pp->s, i, &frames, &n, &total);
    if ( n > pp->nr_ids )
    {
        if ( xenprof_priv_reserve((void **)&pp->ids, pp->nr_ids,
                                  n - pp->nr_ids, sizeof(*pp->ids)) )
        {
            pp->oom = true;
            return;
        }
        pp->nr_ids = n;
    }
    for ( j = 0; j < n; j++ )
    {
        pp->ids[j] = loc_id(pp, frames[n - 1 - j],
                            addrs ? addrs[n - 1 - j] : 0);
        if ( !pp->ids[j] )
        {
            pp->oom = true;
            return;
        }
    }
    values[0] = scaled(count, 1);
    values[1] = scaled(count, pp->period);
    xenprof_priv_pb_reset(&pp->msg);
    xenprof_priv_pb_packed(&pp->msg, SAMPLE_LOCATION_ID, pp->ids, n);
    xenprof_priv_pb_packed(&pp->msg, SAMPLE_VALUE, values,
                           pp->has_value ? 2 : 1);
    pp->oom = pp->msg.oom;
    if ( !pp->oom )
        xenprof_priv_gz_field(pp->z, PROFILE_SAMPLE, &pp->msg);
}

/* Write a ValueType message (type and unit: string indices). */
static void put_value_type(struct pprof *pp, unsigned int field,
                           uint64_t type, uint64_t unit)
{
    xenprof_priv_pb_reset(&pp->msg);
    xenprof_priv_pb_uint(&pp->msg, VALUE_TYPE_TYPE, type);
    xenprof_priv_pb_uint(&pp->msg, VALUE_TYPE_UNIT, unit);
    pp->oom = pp->oom || pp->msg.oom;
    if ( !pp->oom )
        xenprof_priv_gz_field(pp->z, field, &pp->msg);
}

/* Write Location id (locs[id - 1]). */
static void put_location(struct pprof *pp, size_t id)
{
    const struct loc *l = &pp->locs[id - 1];

    xenprof_priv_pb_reset(&pp->sub);
    xenprof_priv_pb_uint(&pp->sub, LINE_FUNCTION_ID, l->fn);
    xenprof_priv_pb_reset(&pp->msg);
    xenprof_priv_pb_uint(&pp->msg, LOCATION_ID, id);
    if ( l->map )
        xenprof_priv_pb_uint(&pp->msg, LOCATION_MAPPING_ID, l->map);
    if ( l->addr )
        xenprof_priv_pb_uint(&pp->msg, LOCATION_ADDRESS, l->addr);
    xenprof_priv_pb_bytes(&pp->msg, LOCATION_LINE, pp->sub.p, pp->sub.len);
    pp->oom = pp->oom || pp->sub.oom || pp->msg.oom;
    if ( !pp->oom )
        xenprof_priv_gz_field(pp->z, PROFILE_LOCATION, &pp->msg);
}

/* Write Mapping id (MAP_*) of a profile from a data file. */
static void put_mapping(struct pprof *pp, unsigned int id)
{
    static const unsigned int file[NR_MAPS] = {
        [MAP_XEN] = STR_XEN, [MAP_GUEST_KERNEL] = STR_GUEST_KERNEL,
        [MAP_GUEST_USER] = STR_GUEST_USER };

    xenprof_priv_pb_reset(&pp->msg);
    xenprof_priv_pb_uint(&pp->msg, MAPPING_ID, id);
    if ( id == MAP_XEN && pp->xen_limit > pp->xen_start )
    {
        xenprof_priv_pb_uint(&pp->msg, MAPPING_START, pp->xen_start);
        xenprof_priv_pb_uint(&pp->msg, MAPPING_LIMIT, pp->xen_limit);
    }
    xenprof_priv_pb_uint(&pp->msg, MAPPING_FILENAME, file[id]);
    if ( id == MAP_XEN && pp->fixed[STR_BUILD_ID][0] )
        xenprof_priv_pb_uint(&pp->msg, MAPPING_BUILD_ID, STR_BUILD_ID);
    xenprof_priv_pb_uint(&pp->msg, MAPPING_HAS_FUNCTIONS, 1);
    pp->oom = pp->oom || pp->msg.oom;
    if ( !pp->oom )
        xenprof_priv_gz_field(pp->z, PROFILE_MAPPING, &pp->msg);
}

/* Write Function id, named names[id - 1]. */
static void put_function(struct pprof *pp, size_t id)
{
    xenprof_priv_pb_reset(&pp->msg);
    xenprof_priv_pb_uint(&pp->msg, FUNCTION_ID, id);
    xenprof_priv_pb_uint(&pp->msg, FUNCTION_NAME, NR_FIXED + id - 1);
    pp->oom = pp->msg.oom;
    if ( !pp->oom )
        xenprof_priv_gz_field(pp->z, PROFILE_FUNCTION, &pp->msg);
}

/* Length of the valid UTF-8 sequence at p[0..n), or 0 if it is not. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
    size_t len, i;
    unsigned char lo = 0x80, hi = 0xbf;

    if ( p[0] < 0x80 )
        return 1;
    if ( p[0] < 0xc2 || p[0] > 0xf4 )
        return 0;
    len = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
    /* Overlong forms, surrogates and code points past U+10FFFF. */
    if ( p[0] == 0xe0 )
        lo = 0xa0;
    else if ( p[0] == 0xed )
        hi = 0x9f;
    else if ( p[0] == 0xf0 )
        lo = 0x90;
    else if ( p[0] == 0xf4 )
        hi = 0x8f;
    if ( n < len || p[1] < lo || p[1] > hi )
        return 0;
    for ( i = 2; i < len; i++ )
        if ( p[i] < 0x80 || p[i] > 0xbf )
            return 0;
    return len;
}

/* Write a string_table entry: str, with '?' for bytes that break UTF-8. */
static void put_string(struct pprof *pp, const char *str)
{
    const unsigned char *p = (const unsigned char *)str;
    size_t n = strlen(str), len;

    xenprof_priv_pb_reset(&pp->msg);
    while ( n )
    {
        len = utf8_seq(p, n);
        if ( len )
            xenprof_priv_pb_raw(&pp->msg, p, len);
        else
            xenprof_priv_pb_raw(&pp->msg, "?", 1);
        len = len ? len : 1;
        p += len;
        n -= len;
    }
    pp->oom = pp->oom || pp->msg.oom;
    if ( !pp->oom )
        xenprof_priv_gz_field(pp->z, PROFILE_STRING_TABLE, &pp->msg);
}

/*
 * The second value and the comment, from the profile's metadata: events
 * for the PMU source, CPU time otherwise (the period in ns, or 1 s / the
 * frequency).  No second value when the period is unknown.
 */
static void set_meta(struct pprof *pp, const struct xenprof_data *d,
                     char *comment)
{
    const struct xenprof_meta *m = &d->meta;
    bool pmu = m->source == XENPROF_SOURCE_PMU;

    pp->period = xenprof_priv_period(m);
    pp->has_value = pp->period != 0;
    pp->fixed[STR_VALUE_TYPE] = pmu ? "events" : "cpu";
    pp->fixed[STR_VALUE_UNIT] = pmu ? "count" : "nanoseconds";
    snprintf(comment, COMMENT_MAX,
             "Xen %s on %s, %s source%s%s%s, period %" PRIu64 " %s",
             m->xen_version[0] ? m->xen_version : "?",
             m->hostname[0] ? m->hostname : "?",
             pmu ? "PMU" : m->source == XENPROF_SOURCE_TIMER ? "timer" : "?",
             m->source_reason[0] ? " (" : "", m->source_reason,
             m->source_reason[0] ? ")" : "", pp->period,
             pmu ? "events" : "ns");
    pp->fixed[STR_COMMENT] = comment;
}

/* The Profile fields after the samples: tables, times, period. */
static void put_tail(struct pprof *pp, const struct xenprof_data *d)
{
    const struct xenprof_meta *m = d ? &d->meta : NULL;
    uint64_t comment = STR_COMMENT;
    size_t i;

    for ( i = 1; pp->has_maps && i < NR_MAPS && !pp->oom; i++ )
        put_mapping(pp, i);
    for ( i = 1; i <= pp->lids.nr && !pp->oom; i++ )
        put_location(pp, i);
    for ( i = 1; i <= pp->fns.nr && !pp->oom; i++ )
        put_function(pp, i);
    for ( i = 0; i < NR_FIXED && !pp->oom; i++ )
        put_string(pp, pp->fixed[i]);
    for ( i = 0; i < pp->fns.nr && !pp->oom; i++ )
        put_string(pp, pp->names[i]);
    if ( !m || pp->oom )
        return;
    xenprof_priv_pb_reset(&pp->msg);
    xenprof_priv_pb_uint(&pp->msg, PROFILE_TIME_NANOS,
                         scaled(m->start_time_ns, 1));
    if ( m->stop_time_ns > m->start_time_ns )
        xenprof_priv_pb_uint(&pp->msg, PROFILE_DURATION_NANOS,
                             scaled(m->stop_time_ns - m->start_time_ns, 1));
    xenprof_priv_pb_uint(&pp->msg, PROFILE_PERIOD, scaled(pp->period, 1));
    xenprof_priv_pb_packed(&pp->msg, PROFILE_COMMENT, &comment, 1);
    pp->oom = pp->msg.oom;
    if ( !pp->oom )
        xenprof_priv_gz_write(pp->z, pp->msg.p, pp->msg.len);
    if ( pp->has_value )
        put_value_type(pp, PROFILE_PERIOD_TYPE, STR_VALUE_TYPE,
                       STR_VALUE_UNIT);
}

/* Write the whole profile into pp->z. */
static void put_profile(struct pprof *pp, const struct xenprof_data *d)
{
    size_t i, n = xenprof_stackset_size(pp->s), stack, nr_frames;
    size_t nr_raw = xenprof_priv_ss_nr_raw(pp->s);
    const char *const *frames;
    const uint64_t *addrs;
    uint64_t count;

    put_value_type(pp, PROFILE_SAMPLE_TYPE, STR_SAMPLES, STR_COUNT);
    if ( pp->has_value )
        put_value_type(pp, PROFILE_SAMPLE_TYPE, STR_VALUE_TYPE,
                       STR_VALUE_UNIT);
    pp->has_maps = nr_raw != 0;
    for ( i = 0; i < nr_raw && !pp->oom; i++ )
    {
        xenprof_priv_ss_raw(pp->s, i, &stack, &addrs, &count);
        put_sample(pp, stack, addrs, count);
    }
    for ( i = 0; !nr_raw && i < n && !pp->oom; i++ )
    {
        xenprof_stackset_get(pp->s, i, &frames, &nr_frames, &count);
        put_sample(pp, i, NULL, count);
    }
    put_tail(pp, d);
}

static void pprof_free(struct pprof *pp)
{
    free(pp->fns.tab);
    free(pp->names);
    free(pp->lids.tab);
    free(pp->locs);
    free(pp->ids);
    xenprof_priv_pb_free(&pp->msg);
    xenprof_priv_pb_free(&pp->sub);
    free(pp->z);
}

/*
 * The lowest text symbol of d (the start of the Xen image, so that pprof
 * computes a base of 0 for xen-syms), or UINT64_MAX.
 */
static uint64_t text_start(const struct xenprof_data *d)
{
    uint64_t start = UINT64_MAX;
    size_t i;

    for ( i = 0; i < d->nr_syms; i++ )
        if ( (d->syms[i].type == 'T' || d->syms[i].type == 't') &&
             d->syms[i].addr && d->syms[i].addr < start )
            start = d->syms[i].addr;
    return start;
}

/* Also -EINVAL when s or out is NULL. */
int xenprof_write_pprof(const struct xenprof_stackset *s,
                        const struct xenprof_data *d, FILE *out,
                        char *err, size_t errlen)
{
    struct pprof pp = { .s = s };
    char comment[COMMENT_MAX];
    int rc;

    if ( !s || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "xenprof_write_pprof: no stacks or output");
    pp.fixed[STR_EMPTY] = "";
    pp.fixed[STR_SAMPLES] = "samples";
    pp.fixed[STR_COUNT] = "count";
    pp.fixed[STR_VALUE_TYPE] = pp.fixed[STR_VALUE_UNIT] = "";
    pp.fixed[STR_COMMENT] = "";
    pp.fixed[STR_XEN] = "xen-syms";
    pp.fixed[STR_GUEST_KERNEL] = "[guest.kernel]";
    pp.fixed[STR_GUEST_USER] = "[guest.user]";
    pp.fixed[STR_BUILD_ID] = d ? d->meta.build_id : "";
    pp.xen_start = UINT64_MAX;
    if ( d )
        pp.xen_start = text_start(d);
    if ( d )
        set_meta(&pp, d, comment);
    pp.z = malloc(sizeof(*pp.z));
    if ( !pp.z )
    {
        pprof_free(&pp);
        return xenprof_priv_err(err, errlen, -ENOMEM,
                                "pprof output: out of memory");
    }
    xenprof_priv_gz_start(pp.z, out);
    put_profile(&pp, d);
    /* Out of memory: no gzip trailer, so that no reader takes it whole. */
    if ( pp.oom )
        rc = xenprof_priv_err(err, errlen, -ENOMEM,
                              "pprof output: out of memory");
    else if ( (rc = xenprof_priv_gz_finish(pp.z)) )
        xenprof_priv_err(err, errlen, rc, "pprof output: write error");
    pprof_free(&pp);
    return rc;
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
