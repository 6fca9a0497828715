/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-data.c: a profile in memory (xenprof_data_new/add_*) and the data
 * file round trip: every field written is read back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static void fill_str(char *dst, size_t size, const char *s)
{
    memset(dst, 0, size);
    strncpy(dst, s, size - 1);
}

/* The metadata of the sample profile: every field distinct. */
static void sample_meta(struct xenprof_meta *m)
{
    memset(m, 0, sizeof(*m));
    fill_str(m->xen_version, sizeof(m->xen_version), "4.22.0");
    memset(m->build_id, 'b', sizeof(m->build_id) - 1);   /* longest */
    fill_str(m->hostname, sizeof(m->hostname), "host-\x01\xff;x y");
    m->timestamp_khz = 2899998;
    m->nr_host_cpus = 64;
    m->source = XENPROF_SOURCE_PMU;
    fill_str(m->source_reason, sizeof(m->source_reason),
             "asked for by name");
    m->frequency = 997;
    m->max_depth = 127;
    m->period = 0xfedcba9876543210ULL;
    m->start_time_ns = 1700000000123456789ULL;
    m->stop_time_ns = 1700000009123456789ULL;
    m->start_timestamp = 0x1111111111111111ULL;
    m->stop_timestamp = 0xffffffffffffffffULL;
}

struct xenprof_data *sample_profile(void)
{
    static const uint8_t uuid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                      12, 13, 14, 15, 16 };
    static const uint64_t ip[] = { 0xffff82d040201000ULL,
                                   0xffff82d040202004ULL };
    struct xenprof_data *d = xenprof_data_new();
    struct xenprof_cpu c = { 0 };
    uint8_t rec[256];
    size_t len = 0;
    unsigned int i;
    int rc = 0;

    if ( !d )
        return NULL;
    sample_meta(&d->meta);
    for ( i = 0; i < 3; i++ )
    {
        c.cpu = i * 2;
        c.flags = XENPROF_CPU_SAMPLED | (i << 1);
        c.taken = 1000 + i;
        c.lost = i;
        c.read = 990 + i;
        c.cost_min = 100 + i;
        c.cost_avg = 200 + i;
        c.cost_max = UINT64_MAX - i;
        c.throttled = 3 * i;
        rc |= xenprof_data_add_cpu(d, &c);
    }
    rc |= xenprof_data_add_symbol(d, 0xffff82d040201000ULL, 'T', "do_x");
    rc |= xenprof_data_add_symbol(d, 0xffff82d040202000ULL, 't',
                                  "common/sched/core.c#schedule");
    rc |= xenprof_data_add_symbol(d, 0xffff82d040300000ULL, 'D', "");
    rc |= xenprof_data_add_domain(d, 0, "Domain-0", uuid);
    rc |= xenprof_data_add_domain(d, 5, "", NULL);
    len += rec_put(rec + len, &(struct trec){ .nr = 2, .ip = ip });
    len += rec_put(rec + len, &(struct trec){ .type = 77, .nr = 1 });
    len += rec_put(rec + len, &(struct trec){ .nr = 1, .domid = 5,
                                              .mode = 2, .cpu = 4 });
    rc |= xenprof_data_add_records(d, rec, len);
    if ( rc )
    {
        xenprof_data_free(d);
        return NULL;
    }
    return d;
}

#define DIFF(cond, what) \
    do { if ( cond ) { snprintf(why, 128, "%s", what); return false; } \
    } while ( 0 )

static bool same_meta(const struct xenprof_meta *a,
                      const struct xenprof_meta *b, char *why)
{
    DIFF(strcmp(a->xen_version, b->xen_version), "xen_version");
    DIFF(strcmp(a->build_id, b->build_id), "build_id");
    DIFF(strcmp(a->hostname, b->hostname), "hostname");
    DIFF(a->timestamp_khz != b->timestamp_khz, "timestamp_khz");
    DIFF(a->nr_host_cpus != b->nr_host_cpus, "nr_host_cpus");
    DIFF(a->source != b->source, "source");
    DIFF(strcmp(a->source_reason, b->source_reason), "source_reason");
    DIFF(a->frequency != b->frequency, "frequency");
    DIFF(a->max_depth != b->max_depth, "max_depth");
    DIFF(a->period != b->period, "period");
    DIFF(a->start_time_ns != b->start_time_ns, "start_time_ns");
    DIFF(a->stop_time_ns != b->stop_time_ns, "stop_time_ns");
    DIFF(a->start_timestamp != b->start_timestamp, "start_timestamp");
    DIFF(a->stop_timestamp != b->stop_timestamp, "stop_timestamp");
    return true;
}

bool same_data(const struct xenprof_data *a, const struct xenprof_data *b,
               char *why)
{
    size_t i;

    if ( !same_meta(&a->meta, &b->meta, why) )
        return false;
    DIFF(a->nr_cpus != b->nr_cpus, "nr_cpus");
    for ( i = 0; i < a->nr_cpus; i++ )
        DIFF(memcmp(&a->cpus[i], &b->cpus[i], sizeof(a->cpus[i])), "cpu");
    DIFF(a->nr_syms != b->nr_syms, "nr_syms");
    for ( i = 0; i < a->nr_syms; i++ )
        DIFF(a->syms[i].addr != b->syms[i].addr ||
             a->syms[i].type != b->syms[i].type ||
             strcmp(a->syms[i].name, b->syms[i].name), "symbol");
    DIFF(a->nr_doms != b->nr_doms, "nr_doms");
    for ( i = 0; i < a->nr_doms; i++ )
        DIFF(a->doms[i].domid != b->doms[i].domid ||
             strcmp(a->doms[i].name, b->doms[i].name) ||
             memcmp(a->doms[i].uuid, b->doms[i].uuid, 16), "domain");
    DIFF(a->records_len != b->records_len ||
         (a->records_len &&
          memcmp(a->records, b->records, a->records_len)), "records");
    return true;
}

static void add_calls(void)
{
    struct xenprof_data *d = xenprof_data_new();
    char long_name[100];
    int rc1, rc2, rc3, rc4;
    unsigned int i;

    memset(long_name, 'n', sizeof(long_name) - 1);
    long_name[sizeof(long_name) - 1] = '\0';
    rc1 = xenprof_data_add_domain(d, 9, long_name, NULL);
    rc2 = xenprof_data_add_domain(d, 10, NULL, NULL);
    tap_ok(!rc1 && !rc2 && d->nr_doms == 2 &&
           strlen(d->doms[0].name) == 63 && !d->doms[1].name[0] &&
           !d->doms[0].uuid[0],
           "data: domain names cut to 63 bytes, NULL name is \"\"");
    rc1 = xenprof_data_add_symbol(d, 1, 'T', NULL);
    rc2 = xenprof_data_add_records(d, NULL, 0);
    rc3 = xenprof_data_add_records(d, NULL, 8);
    rc4 = xenprof_data_add_cpu(d, NULL);
    tap_ok(rc1 == -EINVAL && !rc2 && rc3 == -EINVAL && rc4 == -EINVAL &&
           d->nr_syms == 0 && d->records_len == 0 && d->nr_cpus == 0,
           "data: bad arguments give -EINVAL and change nothing");
    for ( i = 0, rc1 = 0; i < 1000; i++ )
        rc1 |= xenprof_data_add_symbol(d, i, 't', "s");
    tap_ok(!rc1 && d->nr_syms == 1000 && d->syms[999].addr == 999,
           "data: 1000 symbols appended in order");
    xenprof_data_free(d);
    xenprof_data_free(NULL);
}

static void round_trip(void)
{
    struct xenprof_data *d = sample_profile(), *r = NULL;
    char path[TPATH], why[128] = "", err[256] = "";
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;

    tmp_path(path, "rt.data");
    rc = xenprof_data_write(d, path, err, sizeof(err));
    tap_ok(!rc && dir_count(tmpdir_get()) == 1,
           "file: write succeeds and leaves no temporary file (%s)", err);
    rc = xenprof_data_read(path, &r, err, sizeof(err));
    tap_ok(!rc && r && same_data(d, r, why),
           "file: round trip of meta, cpus, symbols, domains, records "
           "(rc %d, differs in %s)", rc, why);
    tap_ok(!file_load(path, &buf, &len) &&
           memmem(buf, len, "start_timestamp", 15) &&
           !memmem(buf, len, "tsc_khz", 7),
           "file: META names the timestamps so, not the older tsc keys");
    free(buf);
    tap_ok(r && r->nr_doms == 2 && !memcmp(r->doms[0].uuid + 14,
                                           "\x0f\x10", 2) &&
           r->syms && r->syms[2].type == 'D' && !r->syms[2].name[0],
           "file: uuid, data symbol and empty name survive");
    if ( r )
        tap_ok(!xenprof_data_add_symbol(r, 42, 'T', "after_read") &&
               r->nr_syms == 4, "file: a profile read can still grow");
    xenprof_data_free(r);
    xenprof_data_free(d);
    remove(path);
}

static void empty_round_trip(void)
{
    struct xenprof_data *d = xenprof_data_new(), *r = NULL;
    char path[TPATH], why[128] = "", err[256] = "";
    int rc1, rc2;

    tmp_path(path, "empty.data");
    rc1 = xenprof_data_write(d, path, err, sizeof(err));
    rc2 = xenprof_data_read(path, &r, err, sizeof(err));
    tap_ok(!rc1 && !rc2 && r && same_data(d, r, why) && !r->records,
           "file: an empty profile round-trips (%s)", err);
    xenprof_data_free(r);
    xenprof_data_free(d);
    remove(path);
}

void test_data(void)
{
    add_calls();
    round_trip();
    empty_round_trip();
}
