/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xl_profile_save.c: save a profile: `xl profile stop` copies the samples
 * out without consuming them, writes the data file (and folded stacks)
 * with libxenprofile, and only then releases them in Xen: if anything
 * fails, the samples stay in Xen and `stop` can simply be run again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <libxl.h>
#include <libxl_utils.h>
#include <xenprofile.h>

#include "xl.h"
#include "xl_utils.h"
#include "xl_profile.h"

/* Fill d's metadata and per-pCPU counters. */
static int fill_meta(struct xenprof_data *d, const libxl_profile_status *st,
                     const struct state *s)
{
    struct xenprof_meta *m = &d->meta;
    const libxl_version_info *vi = libxl_get_version_info(ctx);
    libxl_physinfo phys;
    struct utsname u;
    int i;

    libxl_physinfo_init(&phys);
    if (!vi || libxl_get_physinfo(ctx, &phys)) {
        fprintf(stderr, "xl profile stop: cannot get Xen's version or "
                "physical information\n");
        libxl_physinfo_dispose(&phys);
        return -1;
    }
    snprintf(m->xen_version, sizeof(m->xen_version), "%d.%d%s",
             vi->xen_version_major, vi->xen_version_minor,
             vi->xen_version_extra ? vi->xen_version_extra : "");
    snprintf(m->build_id, sizeof(m->build_id), "%s",
             vi->build_id ? vi->build_id : "");
    /* Xen's architecture: its first capability, "xen-3.0-<arch>". */
    if (vi->capabilities && !strncmp(vi->capabilities, "xen-3.0-", 8))
        snprintf(m->arch, sizeof(m->arch), "%.*s",
                 (int)strcspn(vi->capabilities + 8, " "),
                 vi->capabilities + 8);
    if (!uname(&u))
        snprintf(m->hostname, sizeof(m->hostname), "%.*s",
                 (int)sizeof(m->hostname) - 1, u.nodename);
    /* The timestamps' frequency (the TSC's on x86, CNTFRQ on Arm). */
    m->timestamp_khz = st->timestamp_khz;
    m->nr_host_cpus = phys.nr_cpus;
    libxl_physinfo_dispose(&phys);
    m->source = st->source;
    snprintf(m->source_reason, sizeof(m->source_reason), "%s",
             why_text(st->reason));
    m->frequency = st->frequency;
    m->max_depth = st->max_depth;
    m->period = st->period;
    m->start_time_ns = s->start_ns;
    m->stop_time_ns = s->stop_ns;
    m->start_timestamp = st->start_timestamp;
    m->stop_timestamp = st->stop_timestamp;
    m->record_version = st->record_version;
    m->event = s->event;

    for (i = 0; i < st->num_cpus; i++) {
        const libxl_profile_cpu *c = &st->cpus[i];
        struct xenprof_cpu e = {
            .cpu = i, .flags = c->flags, .taken = c->taken, .lost = c->lost,
            .read = c->read + c->pending, .cost_min = c->cost_min,
            .cost_avg = c->taken ? c->cost_sum / c->taken : 0,
            .cost_max = c->cost_max, .throttled = c->throttled,
        };

        if ((c->flags & LIBXL_PROFILE_CPU_RING) && xenprof_data_add_cpu(d, &e))
            return -1;
    }
    return 0;
}

/* Add Xen's symbol table and the domains the samples name to d. */
static int fill_tables(struct xenprof_data *d, struct state *s)
{
    libxl_profile_symbol *syms;
    char err[256];
    int nr, i;

    if (libxl_profile_symbols(ctx, &syms, &nr)) {
        fprintf(stderr, "xl profile stop: cannot read Xen's symbol table\n");
        return -1;
    }
    for (i = 0; i < nr; i++)
        if (xenprof_data_add_symbol(d, syms[i].address, syms[i].type,
                                    syms[i].name))
            break;
    libxl_profile_symbols_free(syms, nr);
    if (i < nr)
        return -1;
    if (xenprof_data_add_domains(d, state_lookup_domain, s, err,
                                 sizeof(err))) {
        fprintf(stderr, "xl profile stop: %s\n", err);
        return -1;
    }
    return 0;
}

/* The folded-stack writer (xenprof_fill_t) of a profile. */
static int fill_folded(FILE *f, void *arg, char *err, size_t errlen)
{
    struct xenprof_stackset *set;
    int rc = xenprof_stackset_from_data(arg, NULL, NULL, &set, err, errlen);

    if (!rc)
        rc = xenprof_write_folded(set, f);
    xenprof_stackset_free(set);
    return rc;
}

/*
 * Stop the session if it runs, and get its status.  0; 1 when no profile
 * is there to save; -1 on failure (a message printed).
 */
static int stop_session(const char *verb, struct state *s,
                        libxl_profile_status *st)
{
    int rc = libxl_profile_get_status(ctx, st);

    if (!rc && st->state == LIBXL_PROFILE_STATE_RUNNING) {
        state_note_domains(s);
        rc = libxl_profile_stop(ctx);
        s->stop_ns = now_ns();
        state_save(s);
    }
    if (!rc && st->state == LIBXL_PROFILE_STATE_IDLE) {
        fprintf(stderr, "xl profile %s: no profile is running (start one "
                "with `xl profile start`)\n", verb);
        return 1;
    }
    libxl_profile_status_dispose(st);
    if (rc || libxl_profile_get_status(ctx, st)) {
        fprintf(stderr, "xl profile %s: cannot stop the profiler\n", verb);
        return -1;
    }
    return 0;
}

/* A spool's write may be cut short by a full disk or a killed xl. */
size_t whole_records(const void *records, size_t len)
{
    const uint8_t *buf = records;
    size_t off = 0, size;

    while (len - off >= XENPROF_REC_HDR_SIZE) {
        size = buf[off + XENPROF_REC_OFF_SIZE] |
               (buf[off + XENPROF_REC_OFF_SIZE + 1] << 8);
        if (size < XENPROF_REC_HDR_SIZE || size % 8)
            return len;
        if (size > len - off)
            break;
        off += size;
    }
    return off;
}

/*
 * Add the records of the spool at path (if any) to d; an incomplete last
 * record is cut off with a warning.  0, or -1 after a message.
 */
static int add_spool(const char *verb, struct xenprof_data *d,
                     const char *path)
{
    void *buf = NULL;
    int len = 0, rc = -1;
    size_t whole;

    if (!path[0])
        return 0;
    if (libxl_read_file_contents(ctx, path, &buf, &len))
        goto out;
    whole = whole_records(buf, len);
    if (whole < (size_t)len)
        fprintf(stderr, "xl profile %s: warning: %s ends in %zu bytes of "
                "an incomplete record (a write into it was cut short): "
                "that record is left out\n", verb, path, (size_t)len - whole);
    rc = xenprof_data_add_records(d, buf, whole);
 out:
    if (rc)
        fprintf(stderr, "xl profile %s: cannot read the samples drained "
                "earlier from %s\n", verb, path);
    free(buf);
    return rc ? -1 : 0;
}

/*
 * A profile of every sample: the spool's, pre[0..pre_len) and those in
 * Xen (copied out, not consumed), with its tables.  NULL on failure (a
 * message printed).
 */
static struct xenprof_data *gather(const char *verb, struct state *s,
                                   const libxl_profile_status *st,
                                   const void *pre, size_t pre_len)
{
    struct xenprof_data *d = xenprof_data_new();
    void *buf = NULL;
    size_t len = 0;
    int rc = -1;

    if (!d || libxl_profile_read_all(ctx, true, &buf, &len)) {
        fprintf(stderr, "xl profile %s: cannot read the samples\n", verb);
        goto out;
    }
    if (add_spool(verb, d, s->spool))
        goto out;
    rc = xenprof_data_add_records(d, pre, pre_len) ||
         xenprof_data_add_records(d, buf, len) ||
         fill_meta(d, st, s) || fill_tables(d, s);
 out:
    free(buf);
    if (rc)
        xenprof_data_free(d);
    return rc ? NULL : d;
}

/* Write the data file and the folded stacks; 0 or -1 (a message). */
static int write_files(const char *verb, const struct xenprof_data *d,
                       const char *data_path, const char *folded)
{
    char err[512];

    if (xenprof_data_write(d, data_path, err, sizeof(err)) ||
        (folded && xenprof_write_file(folded, 0666, fill_folded, (void *)d,
                                      err, sizeof(err)))) {
        fprintf(stderr, "xl profile %s: %s\n", verb, err);
        return -1;
    }
    return 0;
}

/* Say what was saved. */
static void print_saved(const struct xenprof_data *d, const char *data_path,
                        const char *folded)
{
    uint64_t n = 0, lost = 0;

    xenprof_data_count(d, &n, &lost, NULL, 0);
    printf("%"PRIu64" samples (%"PRIu64" lost) saved in %s", n, lost,
           data_path);
    if (folded)
        printf(", folded stacks in %s", folded);
    printf("\n");
}

/*
 * Stop the session if it runs, save every sample (those `record` drained
 * into its spool file, spool or, when NULL, the one the state file names;
 * pre[0..pre_len) that it drained but could not write there; and those
 * still in Xen, copied without consuming them) to
 * data_path and, if asked, folded, and only then release them in Xen and
 * remove the spool.  Returns 0, or -1 after a one-line message; the
 * samples in Xen and in the spool are then kept.
 */
int save_profile(const char *verb, const char *data_path,
                 const char *folded, const char *spool, const void *pre,
                 size_t pre_len)
{
    libxl_profile_status st;
    struct xenprof_data *d = NULL;
    struct state s;
    int rc, ret = -1;

    libxl_profile_status_init(&st);
    state_load(&s);
    /* The state file may have lost it to a verb run meanwhile. */
    if (spool)
        snprintf(s.spool, sizeof(s.spool), "%s", spool);
    rc = stop_session(verb, &s, &st);
    if (rc)
        goto out;
    d = gather(verb, &s, &st, pre, pre_len);
    if (!d || write_files(verb, d, data_path, folded)) {
        fprintf(stderr, "xl profile %s: the samples are kept in Xen: fix "
                "the problem and run `xl profile stop` again (or drop them "
                "with `xl profile discard`)\n", verb);
        goto out;
    }
    if (libxl_profile_release(ctx)) {
        fprintf(stderr, "xl profile %s: saved, but cannot release the "
                "samples in Xen\n", verb);
        goto out;
    }
    unlink(STATE_FILE);
    if (s.spool[0])
        unlink(s.spool);
    print_saved(d, data_path, folded);
    ret = 0;
 out:
    xenprof_data_free(d);
    libxl_profile_status_dispose(&st);
    state_free(&s);
    return ret;
}

/*
 * Local variables:
 * mode: C
 * c-basic-offset: 4
 * indent-tabs-mode: nil
 * End:
 */
