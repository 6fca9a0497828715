/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xl_profile.c: `xl profile`, the hypervisor sampling profiler.
 *
 *   xl profile start [-F HZ | -c PERIOD] [-s SRC] [-C CPUS] [-g N] [-b KIB]
 *   xl profile stop [-o FILE.folded] [--data FILE]
 *   xl profile status [--json]
 *   xl profile record [start options] [-o FILE.folded] [--data FILE] -- CMD
 *   xl profile report [options]    (as xenprofile(1): xenprof_report_main())
 *   xl profile discard
 *
 * The samples are gathered through libxenlight and saved with
 * libxenprofile.  `stop` copies the samples out without consuming them,
 * writes the data file, and only then releases them in Xen: if anything
 * fails, the samples stay in Xen and `stop` can simply be run again.
 *
 * Domain names: a domain seen in the samples may be gone when the profile
 * is stopped, so every verb records the names and UUIDs of the domains
 * that exist at that time in XEN_RUN_DIR/xenprofile.domains; `stop` uses
 * it for domains that no longer exist.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <libxl.h>
#include <libxl_utils.h>
#include <libxlutil.h>
#include <xenprofile.h>

#include "xl.h"
#include "xl_parse.h"
#include "xl_utils.h"

#define STATE_FILE XEN_RUN_DIR "/xenprofile.state"
#define DEFAULT_HZ 97
#define DEFAULT_DEPTH 64

/* The state file: start/stop times and the domains seen, by domid. */
struct dom_entry {
    uint32_t domid;
    uint8_t uuid[16];
    char name[64];
};

struct state {
    uint64_t start_ns, stop_ns;
    char spool[256];                /* records drained by `record`, or "" */
    struct dom_entry *doms;
    int nr_doms;
};

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Parse a whole number in [min, max] given to option opt; 0 on success. */
static int parse_num(const char *opt, const char *s, unsigned long long min,
                     unsigned long long max, unsigned long long *out)
{
    char *end;

    errno = 0;
    if (*s >= '0' && *s <= '9') {
        *out = strtoull(s, &end, 10);
        if (!errno && !*end && *out >= min && *out <= max)
            return 0;
    }
    fprintf(stderr, "xl profile: %s: expected a whole number from %llu to "
            "%llu, got '%s'\n", opt, min, max, s);
    return -1;
}

static const char *source_name(int source)
{
    switch (source) {
    case LIBXL_PROFILE_SOURCE_AUTO: return "auto";
    case LIBXL_PROFILE_SOURCE_TIMER: return "timer";
    case LIBXL_PROFILE_SOURCE_PMU: return "pmu";
    }
    return "unknown";
}

/* XEN_PROFILE_REASON_*: why a source was chosen, or could not be. */
static const char *reason_text(int reason)
{
    switch (reason) {
    case 0: return "requested";
    case 1: return "no usable PMU";
    case 2: return "the PMU is in use";
    case 3: return "no PMU source in this build";
    case 4: return "a usable PMU";
    case 5: return "the PMU is in use by vPMU (boot with vpmu=0)";
    case 6: return "the PMU is owned by xenoprof";
    case 7: return "the NMI callback is in use";
    case 8: return "this CPU cannot count that event";
    case 9: return "the PMU raised no overflow NMI";
    }
    return "unknown";
}

/* The reason in status and in the data file: "requested" or "auto: ...". */
static const char *why_text(int reason)
{
    static char buf[96];

    if (!reason)
        return "requested";
    snprintf(buf, sizeof(buf), "auto: %s", reason_text(reason));
    return buf;
}

static const char *const event_names[] = {
    "cycles", "cycles", "instructions", "ref-cycles", "llc-misses",
    "branch-misses",
};

static const char *state_name(int state)
{
    switch (state) {
    case LIBXL_PROFILE_STATE_IDLE: return "idle";
    case LIBXL_PROFILE_STATE_RUNNING: return "running";
    case LIBXL_PROFILE_STATE_STOPPED: return "stopped";
    }
    return "unknown";
}

static struct dom_entry *state_dom(struct state *s, uint32_t domid)
{
    int i;

    for (i = 0; i < s->nr_doms; i++)
        if (s->doms[i].domid == domid)
            return &s->doms[i];
    return NULL;
}

static struct dom_entry *state_add_dom(struct state *s, uint32_t domid)
{
    struct dom_entry *e = state_dom(s, domid);

    if (e)
        return e;
    s->doms = realloc(s->doms, (s->nr_doms + 1) * sizeof(*s->doms));
    if (!s->doms) {
        perror("xl profile");
        exit(EXIT_FAILURE);
    }
    e = &s->doms[s->nr_doms++];
    memset(e, 0, sizeof(*e));
    e->domid = domid;
    return e;
}

/* Read the state file; a missing file is an empty state. */
static void state_load(struct state *s)
{
    FILE *f = fopen(STATE_FILE, "r");
    char line[256], name[64], uuid[33];
    unsigned long long v;
    unsigned int domid, i;

    memset(s, 0, sizeof(*s));
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "start %llu", &v) == 1)
            s->start_ns = v;
        else if (sscanf(line, "stop %llu", &v) == 1)
            s->stop_ns = v;
        else if (sscanf(line, "spool %255s", s->spool) == 1)
            continue;
        else if (sscanf(line, "dom %u %32s %63s", &domid, uuid, name) >= 2) {
            struct dom_entry *e = state_add_dom(s, domid);

            for (i = 0; i < 16 && uuid[2 * i]; i++)
                sscanf(uuid + 2 * i, "%2hhx", &e->uuid[i]);
            if (strcmp(name, "-"))
                snprintf(e->name, sizeof(e->name), "%s", name);
        }
    }
    fclose(f);
}

/* Write the state file atomically; a failure is only a warning. */
static void state_save(const struct state *s)
{
    char tmp[] = STATE_FILE ".XXXXXX";
    FILE *f;
    int fd, i, j;

    fd = mkstemp(tmp);
    if (fd < 0 || !(f = fdopen(fd, "w"))) {
        fprintf(stderr, "xl profile: warning: cannot write %s: %s\n",
                STATE_FILE, strerror(errno));
        if (fd >= 0) { close(fd); unlink(tmp); }
        return;
    }
    fprintf(f, "start %"PRIu64"\n", s->start_ns);
    if (s->stop_ns)
        fprintf(f, "stop %"PRIu64"\n", s->stop_ns);
    if (s->spool[0])
        fprintf(f, "spool %s\n", s->spool);
    for (i = 0; i < s->nr_doms; i++) {
        fprintf(f, "dom %u ", s->doms[i].domid);
        for (j = 0; j < 16; j++)
            fprintf(f, "%02x", s->doms[i].uuid[j]);
        fprintf(f, " %s\n", s->doms[i].name[0] ? s->doms[i].name : "-");
    }
    if (fclose(f) || rename(tmp, STATE_FILE)) {
        fprintf(stderr, "xl profile: warning: cannot write %s: %s\n",
                STATE_FILE, strerror(errno));
        unlink(tmp);
    }
}

/* Record the names and UUIDs of the domains that exist now. */
static void state_note_domains(struct state *s)
{
    libxl_dominfo *info;
    int nr, i;

    info = libxl_list_domain(ctx, &nr);
    if (!info)
        return;
    for (i = 0; i < nr; i++) {
        struct dom_entry *e = state_add_dom(s, info[i].domid);
        char *name = libxl_domid_to_name(ctx, info[i].domid);

        memcpy(e->uuid, libxl_uuid_bytearray(&info[i].uuid), 16);
        if (name) {
            /* Names go in a space-separated file: keep them one word. */
            char *p;

            for (p = name; *p; p++)
                if (*p == ' ' || *p == '\n')
                    *p = '_';
            snprintf(e->name, sizeof(e->name), "%s", name);
            free(name);
        }
    }
    libxl_dominfo_list_free(info, nr);
}

static void state_free(struct state *s)
{
    free(s->doms);
    memset(s, 0, sizeof(*s));
}

/* Handle one start option; 0, or -1 after a one-line message. */
static int start_option(int opt, const char *arg, libxl_profile_params *p,
                        libxl_bitmap *cpumap)
{
    unsigned long long v;

    switch (opt) {
    case 'F':
        if (parse_num("-F", arg, 1, 10000, &v)) return -1;
        p->frequency = v;
        return 0;
    case 'c':
        if (parse_num("-c", arg, 1, UINT64_MAX, &v)) return -1;
        p->period = v;
        return 0;
    case 's':
        if (!strcmp(arg, "auto"))
            p->source = LIBXL_PROFILE_SOURCE_AUTO;
        else if (!strcmp(arg, "timer"))
            p->source = LIBXL_PROFILE_SOURCE_TIMER;
        else if (!strcmp(arg, "pmu"))
            p->source = LIBXL_PROFILE_SOURCE_PMU;
        else {
            fprintf(stderr, "xl profile: -s: expected auto, timer or pmu, "
                    "got '%s'\n", arg);
            return -1;
        }
        return 0;
    case 'C':
        libxl_bitmap_dispose(cpumap);
        libxl_bitmap_init(cpumap);
        if (libxl_cpu_bitmap_alloc(ctx, cpumap, 0) ||
            parse_cpurange(arg, cpumap)) {
            fprintf(stderr, "xl profile: -C: expected a pCPU list such as "
                    "0-3,6, got '%s'\n", arg);
            return -1;
        }
        return 0;
    case 'g':
        if (parse_num("-g", arg, 1, 127, &v)) return -1;
        p->max_depth = v;
        return 0;
    case 'b':
        if (parse_num("-b", arg, 16, 65536, &v)) return -1;
        p->ring_kib = v;
        return 0;
    case 'e':
        for (v = 1; v < sizeof(event_names) / sizeof(event_names[0]); v++)
            if (!strcmp(arg, event_names[v])) {
                p->event = v;
                return 0;
            }
        fprintf(stderr, "xl profile: -e: expected cycles, instructions, "
                "ref-cycles, llc-misses or branch-misses, got '%s'\n", arg);
        return -1;
    }
    return -1;
}

/* Explain a failed libxl_profile_start() in one line. */
static void start_error(const char *verb, int rc,
                        const libxl_profile_params *p, int reason)
{
    libxl_profile_status st;
    int e = errno;

    if (rc == ERROR_FAIL && e == EBUSY && reason >= 5 && reason <= 7)
        fprintf(stderr, "xl profile %s: source pmu: %s\n", verb,
                reason_text(reason));
    else if (rc == ERROR_FAIL && e == EBUSY) {
        if (!libxl_profile_get_status(ctx, &st) &&
            st.state == LIBXL_PROFILE_STATE_STOPPED)
            fprintf(stderr, "xl profile %s: a stopped profile with "
                    "unsaved samples exists: save it with `xl profile stop` "
                    "or drop it with `xl profile discard`\n", verb);
        else
            fprintf(stderr, "xl profile %s: the profiler is already "
                    "running (see `xl profile status`)\n", verb);
        libxl_profile_status_dispose(&st);
    } else if (rc == ERROR_NI && reason)
        fprintf(stderr, "xl profile %s: source pmu: %s%s\n", verb,
                reason_text(reason), p->event ? "" : " (use -s timer)");
    else if (rc == ERROR_NI)
        fprintf(stderr, "xl profile %s: this hypervisor has no sampling "
                "profiler (CONFIG_XEN_PROFILER)\n", verb);
    else if (rc == ERROR_INVAL)
        fprintf(stderr, "xl profile %s: Xen refused these parameters "
                "(rate, period, pCPU list or ring size out of range)\n",
                verb);
    else if (rc == ERROR_FAIL && (e == EPERM || e == EACCES))
        fprintf(stderr, "xl profile %s: permission denied (only the "
                "control domain may profile; FLASK: xen2:profile_op)\n",
                verb);
    else
        fprintf(stderr, "xl profile %s: cannot start the profiler\n", verb);
}

/* Start a session with p; 0, or -1 after a one-line message. */
static int do_start(const char *verb, libxl_profile_params *p,
                    const libxl_bitmap *cpumap)
{
    libxl_profile_status st;
    struct state s;
    int rc, i, n = 0, reason = 0;

    if (p->frequency && p->period) {
        fprintf(stderr, "xl profile %s: -F and -c exclude each other\n",
                verb);
        return -1;
    }
    if (!p->frequency && !p->period)
        p->frequency = DEFAULT_HZ;

    rc = libxl_profile_start(ctx, p, cpumap, &reason);
    if (rc) {
        start_error(verb, rc, p, reason);
        return -1;
    }

    memset(&s, 0, sizeof(s));
    s.start_ns = now_ns();
    state_note_domains(&s);
    state_save(&s);
    state_free(&s);

    if (libxl_profile_get_status(ctx, &st))
        return 0;
    for (i = 0; i < st.nr_cpus; i++)
        n += !!(st.cpus[i].flags & LIBXL_PROFILE_CPU_SAMPLED);
    printf("profiling %d pCPUs with the %s source (%s), ", n,
           source_name(st.source), why_text(st.reason));
    if (st.source == LIBXL_PROFILE_SOURCE_PMU)
        printf("%s, ", event_names[p->event]);
    if (st.frequency)
        printf("%u Hz", st.frequency);
    else
        printf("period %"PRIu64, st.period);
    printf(", up to %u frames, %u KiB ring per pCPU\n", st.max_depth,
           st.ring_kib);
    fflush(stdout);
    libxl_profile_status_dispose(&st);
    return 0;
}

static int profile_start(int argc, char **argv)
{
    static struct option opts[] = { COMMON_LONG_OPTS };
    libxl_profile_params p = { .max_depth = DEFAULT_DEPTH };
    libxl_bitmap cpumap;
    int opt, ret = EXIT_FAILURE;

    libxl_bitmap_init(&cpumap);
    SWITCH_FOREACH_OPT(opt, "F:c:s:C:g:b:e:", opts, "profile start", 0) {
    default:
        if (start_option(opt, optarg, &p, &cpumap)) goto out;
        break;
    }
    if (optind < argc) {
        fprintf(stderr, "xl profile start: unexpected argument '%s'\n",
                argv[optind]);
        goto out;
    }
    if (!do_start("start", &p, &cpumap))
        ret = EXIT_SUCCESS;

 out:
    libxl_bitmap_dispose(&cpumap);
    return ret;
}

static void print_status_json(const libxl_profile_status *st)
{
    int i;

    printf("{\n  \"state\": \"%s\",\n", state_name(st->state));
    printf("  \"source\": \"%s\",\n  \"reason\": \"%s\",\n",
           source_name(st->source), why_text(st->reason));
    printf("  \"frequency\": %u,\n  \"period\": %"PRIu64",\n",
           st->frequency, st->period);
    printf("  \"max_depth\": %u,\n  \"ring_kib\": %u,\n", st->max_depth,
           st->ring_kib);
    printf("  \"cpus\": [");
    for (i = 0; i < st->nr_cpus; i++) {
        const libxl_profile_cpu *c = &st->cpus[i];

        printf("%s\n    { \"cpu\": %d, \"flags\": %u, \"sampled\": %s, "
               "\"taken\": %"PRIu64", \"lost\": %"PRIu64", \"read\": %"PRIu64
               ", \"pending\": %"PRIu64", \"pending_bytes\": %"PRIu64
               ", \"cost_min\": %"PRIu64", \"cost_avg\": %"PRIu64
               ", \"cost_max\": %"PRIu64" }", i ? "," : "", i, c->flags,
               c->flags & LIBXL_PROFILE_CPU_SAMPLED ? "true" : "false",
               c->taken, c->lost, c->read, c->pending, c->pending_bytes,
               c->cost_min, c->taken ? c->cost_sum / c->taken : 0,
               c->cost_max);
    }
    printf("\n  ]\n}\n");
}

static const char *cpu_state(uint32_t flags)
{
    if (flags & LIBXL_PROFILE_CPU_SAMPLED) return "sampled";
    if (flags & LIBXL_PROFILE_CPU_LEFT_OUT) return "left-out";
    if (flags & LIBXL_PROFILE_CPU_OFFLINED) return "offlined";
    if (flags & LIBXL_PROFILE_CPU_RING) return "stopped";
    return "-";
}

static void print_status(const libxl_profile_status *st)
{
    int i;

    printf("state   : %s\n", state_name(st->state));
    if (st->state == LIBXL_PROFILE_STATE_IDLE)
        return;
    printf("source  : %s (%s)\n", source_name(st->source),
           why_text(st->reason));
    if (st->frequency)
        printf("rate    : %u Hz per pCPU\n", st->frequency);
    printf("period  : %"PRIu64" %s\n", st->period,
           st->source == LIBXL_PROFILE_SOURCE_PMU ? "events" : "ns");
    printf("depth   : up to %u Xen frames\n", st->max_depth);
    printf("ring    : %u KiB per pCPU\n", st->ring_kib);
    printf("%5s %-9s %10s %8s %10s %10s %8s %9s %9s %9s\n", "pCPU", "state",
           "taken", "lost", "read", "pending", "KiB", "cost_min", "cost_avg",
           "cost_max");
    for (i = 0; i < st->nr_cpus; i++) {
        const libxl_profile_cpu *c = &st->cpus[i];

        if (!c->flags)
            continue;
        printf("%5d %-9s %10"PRIu64" %8"PRIu64" %10"PRIu64" %10"PRIu64
               " %8"PRIu64" %9"PRIu64" %9"PRIu64" %9"PRIu64"\n", i,
               cpu_state(c->flags), c->taken, c->lost, c->read, c->pending,
               (c->pending_bytes + 1023) / 1024, c->cost_min,
               c->taken ? c->cost_sum / c->taken : 0, c->cost_max);
    }
    printf("(cost: TSC ticks spent per sample)\n");
}

static int profile_status(int argc, char **argv)
{
    static struct option opts[] = { {"json", 0, 0, 'j'}, COMMON_LONG_OPTS };
    libxl_profile_status st;
    struct state s;
    int opt, json = 0;

    SWITCH_FOREACH_OPT(opt, "j", opts, "profile status", 0) {
    case 'j':
        json = 1;
        break;
    }
    if (optind < argc) {
        fprintf(stderr, "xl profile status: unexpected argument '%s'\n",
                argv[optind]);
        return EXIT_FAILURE;
    }
    if (libxl_profile_get_status(ctx, &st)) {
        fprintf(stderr, "xl profile status: cannot get the profiler's "
                "status (is this hypervisor built with it?)\n");
        return EXIT_FAILURE;
    }
    if (st.state == LIBXL_PROFILE_STATE_RUNNING) {
        state_load(&s);
        state_note_domains(&s);
        state_save(&s);
        state_free(&s);
    }
    if (json)
        print_status_json(&st);
    else
        print_status(&st);
    libxl_profile_status_dispose(&st);
    return EXIT_SUCCESS;
}

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
 * into its spool file, and those still in Xen, copied without consuming
 * them) to data_path and, if asked, folded, and only then release them in
 * Xen and remove the spool.  Returns 0, or -1 after a one-line message;
 * the samples are then kept (in Xen and in the spool).
 */
static int save_profile(const char *verb, const char *data_path,
                        const char *folded)
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
    if (!d || xenprof_data_add_records(d, buf, len) ||
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

static int profile_stop(int argc, char **argv)
{
    static struct option opts[] = { {"data", 1, 0, 'd'}, COMMON_LONG_OPTS };
    const char *data_path = "xenprofile.data", *folded = NULL;
    int opt;

    SWITCH_FOREACH_OPT(opt, "o:d:", opts, "profile stop", 0) {
    case 'o':
        folded = optarg;
        break;
    case 'd':
        data_path = optarg;
        break;
    }
    if (optind < argc) {
        fprintf(stderr, "xl profile stop: unexpected argument '%s'\n",
                argv[optind]);
        return EXIT_FAILURE;
    }
    return save_profile("stop", data_path, folded) ?
           EXIT_FAILURE : EXIT_SUCCESS;
}

/* Append all records drained from Xen (consumed) to the spool fd. */
static int drain_to_spool(int fd)
{
    void *buf = NULL;
    size_t len = 0;
    int rc = libxl_profile_read_all(ctx, 0, &buf, &len);

    /* Even on failure, buf holds consumed records: keep them. */
    if (len && write(fd, buf, len) != (ssize_t)len)
        rc = -1;
    if (len && fsync(fd))
        rc = -1;
    free(buf);
    return rc;
}

/* Run argv, draining the rings into fd every second; its wait status. */
static int run_command(char **argv, int fd, int *status)
{
    void (*old)(int) = signal(SIGINT, SIG_IGN);
    pid_t pid = fork();
    int rc = 0;

    if (pid < 0) {
        perror("xl profile record: fork");
        signal(SIGINT, old);
        return -1;
    }
    if (!pid) {
        signal(SIGINT, SIG_DFL);
        execvp(argv[0], argv);
        fprintf(stderr, "xl profile record: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, status, WNOHANG) != pid) {
        sleep(1);
        if (drain_to_spool(fd) && !rc) {
            fprintf(stderr, "xl profile record: warning: cannot drain the "
                    "samples now; they stay in Xen\n");
            rc = 1;
        }
    }
    signal(SIGINT, old);
    return 0;
}

/*
 * record: start, run a command, stop and save, as `perf record`.  While
 * the command runs the rings are drained every second into a spool file
 * beside the data file (named in the state file), so that a long command
 * does not fill them; `stop` (here or run again by hand, should anything
 * fail) saves the spool's samples with the rest.  Exit status: the
 * command's, or 1 when the profile could not be taken or saved.
 */
static int profile_record(int argc, char **argv)
{
    static struct option opts[] = { {"data", 1, 0, 'd'}, COMMON_LONG_OPTS };
    libxl_profile_params p = { .max_depth = DEFAULT_DEPTH };
    const char *data_path = "xenprofile.data", *folded = NULL;
    libxl_bitmap cpumap;
    struct state s;
    int opt, fd = -1, status = 0, ret = EXIT_FAILURE;

    libxl_bitmap_init(&cpumap);
    SWITCH_FOREACH_OPT(opt, "F:c:s:C:g:b:e:o:d:", opts, "profile record", 1) {
    case 'o':
        folded = optarg;
        break;
    case 'd':
        data_path = optarg;
        break;
    default:
        if (start_option(opt, optarg, &p, &cpumap)) goto out;
        break;
    }
    if (do_start("record", &p, &cpumap))
        goto out;

    state_load(&s);
    snprintf(s.spool, sizeof(s.spool), "%s.spool.%d", data_path,
             (int)getpid());
    fd = open(s.spool, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        fprintf(stderr, "xl profile record: warning: cannot create %s: %s; "
                "samples will only be read at the end\n", s.spool,
                strerror(errno));
    else
        state_save(&s);
    state_free(&s);

    if (!run_command(argv + optind, fd, &status) &&
        !save_profile("record", data_path, folded))
        ret = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILURE;

 out:
    if (fd >= 0)
        close(fd);
    libxl_bitmap_dispose(&cpumap);
    return ret;
}

static int profile_discard(int argc, char **argv)
{
    static struct option opts[] = { COMMON_LONG_OPTS };
    struct state s;
    int opt;

    SWITCH_FOREACH_OPT(opt, "", opts, "profile discard", 0) {
        /* No options. */
    }
    if (libxl_profile_stop(ctx) && errno == ENODATA) {
        fprintf(stderr, "xl profile discard: no profile to discard\n");
        return EXIT_FAILURE;
    }
    if (libxl_profile_release(ctx)) {
        fprintf(stderr, "xl profile discard: cannot release the samples\n");
        return EXIT_FAILURE;
    }
    state_load(&s);
    if (s.spool[0])
        unlink(s.spool);
    state_free(&s);
    unlink(STATE_FILE);
    return EXIT_SUCCESS;
}

/*
 * report: the offline reader, shared with the xenprofile command: same
 * options, same output (xenprof_report_main() in libxenprofile).
 */
static int profile_report(int argc, char **argv)
{
    char *name = "xl profile report";

    argv[0] = name;
    return xenprof_report_main(argc, argv, stdout, stderr);
}

static const struct {
    const char *verb;
    int (*fn)(int argc, char **argv);
} verbs[] = {
    { "start", profile_start },
    { "stop", profile_stop },
    { "status", profile_status },
    { "discard", profile_discard },
    { "record", profile_record },
    { "report", profile_report },
};

int main_profile(int argc, char **argv)
{
    unsigned int i;

    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        help("profile");
        return argc < 2 ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
        if (!strcmp(argv[1], verbs[i].verb))
            return verbs[i].fn(argc - 1, argv + 1);

    fprintf(stderr, "xl profile: unknown verb '%s' (expected start, stop, "
            "status, record, report or discard)\n", argv[1]);
    return EXIT_FAILURE;
}

/*
 * Local variables:
 * mode: C
 * c-basic-offset: 4
 * indent-tabs-mode: nil
 * End:
 */
