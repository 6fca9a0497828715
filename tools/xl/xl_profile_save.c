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
    if (!uname(&u))
        snprintf(m->hostname, sizeof(m->hostname), "%.*s",
                 (int)sizeof(m->hostname) - 1, u.nodename);
    m->tsc_khz = phys.cpu_khz;
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
    m->start_tsc = st->start_tsc;
    m->stop_tsc = st->stop_tsc;
    m->record_version = st->record_version;

    for (i = 0; i < st->nr_cpus; i++) {
        const libxl_profile_cpu *c = &st->cpus[i];
        struct xenprof_cpu e = {
            .cpu = i, .flags = c->flags, .taken = c->taken, .lost = c->lost,
            .read = c->read + c->pending, .cost_min = c->cost_min,
            .cost_avg = c->taken ? c->cost_sum / c->taken : 0,
            .cost_max = c->cost_max,
        };

        if ((c->flags & LIBXL_PROFILE_CPU_RING) && xenprof_data_add_cpu(d, &e))
            return -1;
    }
    return 0;
}

/* Add the symbol table and the domains seen in the records to d. */
static int fill_tables(struct xenprof_data *d, struct state *s)
{
    libxl_profile_symbol *syms;
    struct xenprof_sample smp;
    char err[256];
    size_t off = 0;
    int nr, i, r;

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

    while ((r = xenprof_decode_next(d->records, d->records_len, &off, &smp,
                                    err, sizeof(err))) > 0) {
        struct dom_entry *e;

        if (smp.domid == XENPROF_DOMID_IDLE)
            continue;
        for (i = 0; i < (int)d->nr_doms; i++)
            if (d->doms[i].domid == smp.domid)
                break;
        if (i < (int)d->nr_doms)
            continue;
        e = state_dom(s, smp.domid);
        if (xenprof_data_add_domain(d, smp.domid, e ? e->name : "",
                                    e ? e->uuid : (const uint8_t[16]){0}))
            return -1;
    }
    if (r < 0) {
        fprintf(stderr, "xl profile stop: %s\n", err);
        return -1;
    }
    return 0;
}

/* Write folded stacks to path atomically. */
static int write_folded(const struct xenprof_data *d, const char *path)
{
    struct xenprof_folded_opts fo = { .include_guest = 1 };
    char *tmp = NULL, err[256] = "";
    FILE *f = NULL;
    int rc = -1;

    xasprintf(&tmp, "%s.tmp.%d", path, (int)getpid());
    f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, sizeof(err), "%s", strerror(errno));
        goto out;
    }
    if (xenprof_write_folded(d, f, &fo, err, sizeof(err)))
        goto out;
    if (fclose(f)) {
        f = NULL;
        snprintf(err, sizeof(err), "%s", strerror(errno));
        goto out;
    }
    f = NULL;
    if (rename(tmp, path)) {
        snprintf(err, sizeof(err), "%s", strerror(errno));
        goto out;
    }
    rc = 0;

 out:
    if (f)
        fclose(f);
    if (rc) {
        fprintf(stderr, "xl profile stop: cannot write %s: %s\n", path, err);
        if (tmp)
            unlink(tmp);
    }
    free(tmp);
    return rc;
}

/*
 * Stop the session if it runs, save every sample (those `record` drained
 * into its spool file, pre[0..pre_len) that it drained but could not
 * write there, and those still in Xen, copied without consuming them) to
 * data_path and, if asked, folded, and only then release them in Xen and
 * remove the spool.  Returns 0, or -1 after a one-line message; the
 * samples in Xen and in the spool are then kept.
 */
int save_profile(const char *verb, const char *data_path,
                 const char *folded, const void *pre, size_t pre_len)
{
    void *spool = NULL;
    int spool_len = 0;
    struct xenprof_data *d = NULL;
    libxl_profile_status st = { 0 };
    struct xenprof_sample smp;
    struct state s;
    char err[512];
    void *buf = NULL;
    size_t len = 0, n = 0, off = 0;
    uint64_t lost = 0;
    int i, rc, ret = -1;

    state_load(&s);
    rc = libxl_profile_get_status(ctx, &st);
    if (!rc && st.state == LIBXL_PROFILE_STATE_RUNNING) {
        state_note_domains(&s);
        rc = libxl_profile_stop(ctx);
        s.stop_ns = now_ns();
        state_save(&s);
    }
    if (!rc && st.state == LIBXL_PROFILE_STATE_IDLE) {
        fprintf(stderr, "xl profile %s: no profile is running (start one "
                "with `xl profile start`)\n", verb);
        goto out;
    }
    libxl_profile_status_dispose(&st);
    if (rc || libxl_profile_get_status(ctx, &st)) {
        fprintf(stderr, "xl profile %s: cannot stop the profiler\n", verb);
        goto out;
    }

    /* Copy the samples out; they stay in Xen until the file is written. */
    if (libxl_profile_read_all(ctx, 1, &buf, &len)) {
        fprintf(stderr, "xl profile %s: cannot read the samples\n", verb);
        goto keep;
    }
    d = xenprof_data_new();
    if (s.spool[0] && (libxl_read_file_contents(ctx, s.spool, &spool,
                                                &spool_len) ||
                       xenprof_data_add_records(d, spool, spool_len))) {
        fprintf(stderr, "xl profile %s: cannot read the samples drained "
                "earlier from %s\n", verb, s.spool);
        goto keep;
    }
    if (!d || xenprof_data_add_records(d, pre, pre_len) ||
        xenprof_data_add_records(d, buf, len) ||
        fill_meta(d, &st, &s) || fill_tables(d, &s))
        goto keep;
    if (xenprof_data_write(d, data_path, err, sizeof(err))) {
        fprintf(stderr, "xl profile %s: %s\n", verb, err);
        goto keep;
    }
    if (folded && write_folded(d, folded))
        goto keep;

    if (libxl_profile_release(ctx)) {
        fprintf(stderr, "xl profile %s: saved, but cannot release the "
                "samples in Xen\n", verb);
        goto out;
    }
    unlink(STATE_FILE);
    if (s.spool[0])
        unlink(s.spool);

    while (xenprof_decode_next(d->records, d->records_len, &off, &smp,
                               err, sizeof(err)) > 0)
        n++;
    for (i = 0; i < st.nr_cpus; i++)
        lost += st.cpus[i].lost;
    printf("%zu samples (%"PRIu64" lost) saved in %s", n, lost, data_path);
    if (folded)
        printf(", folded stacks in %s", folded);
    printf("\n");
    ret = 0;
    goto out;

 keep:
    fprintf(stderr, "xl profile %s: the samples are kept in Xen: fix the "
            "problem and run `xl profile stop` again (or drop them with "
            "`xl profile discard`)\n", verb);
 out:
    xenprof_data_free(d);
    free(buf);
    free(spool);
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
