/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xl_profile.c: `xl profile`, the hypervisor sampling profiler.
 *
 *   xl profile start [-F HZ | -c PERIOD] [-s SRC] [-C CPUS] [-g N] [-b KIB]
 *   xl profile stop [-o FILE.folded] [--data FILE]
 *   xl profile status [--json]
 *   xl profile record [start options] [-o FILE.folded] [--data FILE]
 *                     [--duration SECONDS | -- CMD]
 *   xl profile report [options]    (as xenprofile(1): xenprof_report_main())
 *   xl profile discard
 *
 * The samples are gathered through libxenlight and saved with
 * libxenprofile.  `stop` copies the samples out without consuming them,
 * writes the data file, and only then releases them in Xen: if anything
 * fails, the samples stay in Xen and `stop` can simply be run again.
 *
 * xl_profile_state.c keeps the state between verbs (times, spool, domain
 * names), xl_profile_record.c runs `record` and xl_profile_save.c saves
 * profiles.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>
#include <libxlutil.h>
#include <xenprofile-cli.h>

#include "xl.h"
#include "xl_parse.h"
#include "xl_utils.h"
#include "xl_profile.h"

#define DEFAULT_HZ 97

/* Parse a whole number in [min, max] given to option opt; 0 on success. */
int parse_num(const char *opt, const char *s, unsigned long long min,
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

/*
 * A numeric start option (-F -c -g -b): 0, -1 after a one-line message, or
 * 1 when opt is not one.  What the running hypervisor accepts is checked
 * against its limits at start (check_limits()).
 */
static int num_option(int opt, const char *arg, libxl_profile_params *p)
{
    unsigned long long v, min = 1, max;
    char name[3] = { '-', opt, 0 };

    switch (opt) {
    case 'F': max = UINT32_MAX; break;
    case 'c': max = UINT64_MAX; break;
    case 'g': max = UINT32_MAX; break;
    case 'b': max = UINT32_MAX; break;
    default:
        return 1;
    }
    if (parse_num(name, arg, min, max, &v))
        return -1;
    if (opt == 'F')
        p->frequency = v;
    else if (opt == 'c')
        p->period = v;
    else if (opt == 'g')
        p->max_depth = v;
    else
        p->ring_kib = v;
    return 0;
}

/* Handle one start option; 0, or -1 after a one-line message. */
int profile_start_option(int opt, const char *arg, libxl_profile_params *p,
                         libxl_bitmap *cpumap)
{
    unsigned long long v;
    int rc = num_option(opt, arg, p);

    if (rc <= 0)
        return rc;
    switch (opt) {
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
                        const libxl_profile_params *p,
                        libxl_profile_reason reason)
{
    libxl_profile_status st;
    int e = errno;

    if (rc == ERROR_FAIL && e == EBUSY &&
        (reason == LIBXL_PROFILE_REASON_VPMU ||
         reason == LIBXL_PROFILE_REASON_PMU_BUSY))
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
    } else if (rc == ERROR_NI && e == ENODEV)
        fprintf(stderr, "xl profile %s: source pmu: %s%s\n", verb,
                reason_text(reason), p->event ? "" : " (use -s timer)");
    else if (rc == ERROR_NI)
        fprintf(stderr, "xl profile %s: this hypervisor has no sampling "
                "profiler (CONFIG_XEN_PROFILER)\n", verb);
    else if (rc == ERROR_INVAL)
        fprintf(stderr, "xl profile %s: Xen refused these parameters "
                "(rate, period, pCPU list or ring size out of range)\n",
                verb);
    else if (rc == ERROR_FAIL && e == E2BIG) {
        libxl_profile_limits l;
        unsigned long long kib = 0;

        if (!libxl_profile_get_limits(ctx, &l))
            kib = l.total_kib_max;
        libxl_profile_limits_dispose(&l);
        fprintf(stderr, "xl profile %s: the rings would take more than "
                "Xen allows now (%llu KiB in all): use a smaller -b or "
                "fewer pCPUs (-C)\n", verb, kib);
    }
    else if (rc == ERROR_FAIL && e == EAGAIN)
        fprintf(stderr, "xl profile %s: pCPUs went offline or came online "
                "while the profiler started: nothing was started, try "
                "again\n", verb);
    else if (rc == ERROR_FAIL && e == EIO)
        fprintf(stderr, "xl profile %s: no pCPU could be started (the "
                "counters could not be programmed; see `xl dmesg`)\n", verb);
    else if (rc == ERROR_NOMEM)
        fprintf(stderr, "xl profile %s: Xen has not enough memory for the "
                "rings: use a smaller -b or fewer pCPUs (-C)\n", verb);
    else if (rc == ERROR_FAIL && (e == EPERM || e == EACCES))
        fprintf(stderr, "xl profile %s: permission denied (only the "
                "control domain may profile; FLASK: xen2:profile_op)\n",
                verb);
    else
        fprintf(stderr, "xl profile %s: cannot start the profiler\n", verb);
}

/*
 * Are p's depth, ring size, frequency and period within what this
 * hypervisor accepts (its limits)?  0, or -1 after a one-line message.
 * When its limits cannot be had, Xen's own checks decide.  The PMU's
 * largest period depends on the counter: Xen checks it.
 */
static int check_limits(const char *verb, const libxl_profile_params *p)
{
    libxl_profile_limits l;
    unsigned int hz_max;
    int rc = 0;

    if (libxl_profile_get_limits(ctx, &l))
        return 0;
    /* The named source's highest frequency; AUTO's is Xen's to check. */
    hz_max = p->source == LIBXL_PROFILE_SOURCE_TIMER ? l.timer_hz_max :
             p->source == LIBXL_PROFILE_SOURCE_PMU ? l.pmu_hz_max : 0;
    if (p->ring_kib &&
        (p->ring_kib < l.ring_kib_min || p->ring_kib > l.ring_kib_max)) {
        fprintf(stderr, "xl profile %s: -b: expected %u to %u KiB per pCPU, "
                "got %u\n", verb, l.ring_kib_min, l.ring_kib_max,
                p->ring_kib);
        rc = -1;
    } else if (p->max_depth > l.max_depth) {
        fprintf(stderr, "xl profile %s: -g: expected at most %u frames, "
                "got %u\n", verb, l.max_depth, p->max_depth);
        rc = -1;
    } else if (hz_max && p->frequency > hz_max) {
        fprintf(stderr, "xl profile %s: -F: the %s samples at most %u "
                "times a second, got %u\n", verb,
                p->source == LIBXL_PROFILE_SOURCE_TIMER ? "timer" : "PMU",
                hz_max, p->frequency);
        rc = -1;
    } else if (p->source == LIBXL_PROFILE_SOURCE_TIMER && p->period &&
               (p->period < l.timer_period_min ||
                p->period > l.timer_period_max)) {
        fprintf(stderr, "xl profile %s: -c: expected %"PRIu64" to %"PRIu64
                " ns for the timer, got %"PRIu64"\n", verb,
                l.timer_period_min, l.timer_period_max, p->period);
        rc = -1;
    } else if (p->source == LIBXL_PROFILE_SOURCE_PMU && p->period &&
               p->period < l.pmu_period_min) {
        fprintf(stderr, "xl profile %s: -c: expected at least %"PRIu64
                " events for the PMU, got %"PRIu64"\n", verb,
                l.pmu_period_min, p->period);
        rc = -1;
    }
    libxl_profile_limits_dispose(&l);
    return rc;
}

/* Start a session with p; 0, or -1 after a one-line message. */
int profile_do_start(const char *verb, libxl_profile_params *p,
                     const libxl_bitmap *cpumap)
{
    libxl_profile_status st;
    struct state s;
    libxl_profile_reason reason = LIBXL_PROFILE_REASON_NONE;
    int rc, i, n = 0;

    if (p->frequency && p->period) {
        fprintf(stderr, "xl profile %s: -F and -c exclude each other\n",
                verb);
        return -1;
    }
    if (p->period && p->source == LIBXL_PROFILE_SOURCE_AUTO) {
        fprintf(stderr, "xl profile %s: -c needs -s timer (a period in ns) "
                "or -s pmu (in events)\n", verb);
        return -1;
    }
    if (!p->frequency && !p->period)
        p->frequency = DEFAULT_HZ;
    if (check_limits(verb, p))
        return -1;

    rc = libxl_profile_start(ctx, p, cpumap, &reason);
    if (rc) {
        start_error(verb, rc, p, reason);
        return -1;
    }

    memset(&s, 0, sizeof(s));
    s.start_ns = now_ns();
    s.event = p->event;
    state_note_domains(&s);
    state_save(&s);
    state_free(&s);

    if (libxl_profile_get_status(ctx, &st))
        return 0;
    for (i = 0; i < st.num_cpus; i++) {
        n += !!(st.cpus[i].flags & LIBXL_PROFILE_CPU_SAMPLED);
        if (st.cpus[i].flags & LIBXL_PROFILE_CPU_FAILED)
            fprintf(stderr, "xl profile %s: warning: pCPU %d could not be "
                    "started and is not sampled (see `xl profile "
                    "status`)\n", verb, i);
    }
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
    libxl_profile_params p;
    libxl_bitmap cpumap;
    int opt, ret = EXIT_FAILURE;

    libxl_profile_params_init(&p);
    p.max_depth = DEFAULT_DEPTH;
    libxl_bitmap_init(&cpumap);
    SWITCH_FOREACH_OPT(opt, "F:c:s:C:g:b:e:", opts, "profile start", 0) {
    default:
        if (profile_start_option(opt, optarg, &p, &cpumap)) goto out;
        break;
    }
    if (optind < argc) {
        fprintf(stderr, "xl profile start: unexpected argument '%s'\n",
                argv[optind]);
        goto out;
    }
    if (!profile_do_start("start", &p, &cpumap))
        ret = EXIT_SUCCESS;

 out:
    libxl_bitmap_dispose(&cpumap);
    libxl_profile_params_dispose(&p);
    return ret;
}

/* The running hypervisor's version ("4.22.0"), or "?". */
static const char *xen_version(char *buf, size_t len)
{
    const libxl_version_info *vi = libxl_get_version_info(ctx);

    if (!vi)
        return "?";
    snprintf(buf, len, "%d.%d%s", vi->xen_version_major,
             vi->xen_version_minor,
             vi->xen_version_extra ? vi->xen_version_extra : "");
    return buf;
}

/* The status as JSON: libxl's generated encoding of the type. */
static int print_status_json(libxl_profile_status *st)
{
    char *json = libxl_profile_status_to_json(ctx, st);

    if (!json) {
        fprintf(stderr, "xl profile status: cannot encode the status\n");
        return -1;
    }
    printf("%s\n", json);
    free(json);
    return 0;
}

static const char *cpu_state(uint32_t flags)
{
    if (flags & LIBXL_PROFILE_CPU_SAMPLED) return "sampled";
    if (flags & LIBXL_PROFILE_CPU_FAILED) return "failed";
    if (flags & LIBXL_PROFILE_CPU_LEFT_OUT) return "left-out";
    if (flags & LIBXL_PROFILE_CPU_OFFLINED) return "offlined";
    if (flags & LIBXL_PROFILE_CPU_RING) return "stopped";
    return "-";
}

static void print_status(const libxl_profile_status *st)
{
    char ver[64];
    int i;

    printf("xen     : %s\n", xen_version(ver, sizeof(ver)));
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
    printf("%5s %-9s %10s %8s %10s %10s %8s %9s %9s %9s %8s %9s\n", "pCPU",
           "state", "taken", "lost", "read", "pending", "KiB", "cost_min",
           "cost_avg", "cost_max", "no_stack", "throttled");
    for (i = 0; i < st->num_cpus; i++) {
        const libxl_profile_cpu *c = &st->cpus[i];

        if (!c->flags)
            continue;
        printf("%5d %-9s %10"PRIu64" %8"PRIu64" %10"PRIu64" %10"PRIu64
               " %8"PRIu64" %9"PRIu64" %9"PRIu64" %9"PRIu64" %8"PRIu64
               " %9"PRIu64"\n",
               i, cpu_state(c->flags), c->taken, c->lost, c->read,
               c->pending, (c->pending_bytes + 1023) / 1024, c->cost_min,
               c->taken ? c->cost_sum / c->taken : 0, c->cost_max,
               c->no_stack, c->throttled);
    }
    printf("(cost: timestamp ticks spent per sample, TSC on x86, the "
           "generic timer\n on Arm; no_stack: samples in the PV "
           "entry/exit path, on the guest's\n stack pointer: their IP "
           "only; throttled: PMU overflows faster than\n Xen's maximum "
           "rate, each of which doubled the period)\n");
}

static int profile_status(int argc, char **argv)
{
    static struct option opts[] = { {"json", 0, 0, 'j'}, COMMON_LONG_OPTS };
    libxl_profile_status st;
    struct state s;
    int opt, json = 0, rc = 0;

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
        if (state_note_domains(&s))
            state_save(&s);
        state_free(&s);
    }
    if (json)
        rc = print_status_json(&st);
    else
        print_status(&st);
    libxl_profile_status_dispose(&st);
    return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

int profile_output_option(int opt, const char *arg, const char **data_path,
                          const char **folded)
{
    if (opt == 'o')
        *folded = arg;
    else if (opt == 'd')
        *data_path = arg;
    else
        return 0;
    return 1;
}

static int profile_stop(int argc, char **argv)
{
    static struct option opts[] = { {"data", 1, 0, 'd'}, COMMON_LONG_OPTS };
    const char *data_path = "xenprofile.data", *folded = NULL;
    int opt;

    SWITCH_FOREACH_OPT(opt, "o:d:", opts, "profile stop", 0) {
    default:
        profile_output_option(opt, optarg, &data_path, &folded);
        break;
    }
    if (optind < argc) {
        fprintf(stderr, "xl profile stop: unexpected argument '%s'\n",
                argv[optind]);
        return EXIT_FAILURE;
    }
    return save_profile("stop", data_path, folded, NULL, NULL, 0) ?
           EXIT_FAILURE : EXIT_SUCCESS;
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

/*
 * Print the usage of one verb: its section of the options text of "xl
 * help profile" (the line that starts with the verb and the indented
 * lines after it).  Returns false when there is none.
 */
static bool verb_help(const char *verb)
{
    const struct cmd_spec *cmd = cmdtable_lookup("profile");
    const char *p = cmd ? cmd->cmd_option : NULL, *eol;
    size_t len = strlen(verb);
    bool in = false, found = false;

    for (; p && *p; p = *eol ? eol + 1 : eol) {
        eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        if (*p != ' ')
            in = !strncmp(p, verb, len) && (p[len] == ' ' || p + len == eol);
        if (!in)
            continue;
        printf("%s%.*s\n", found ? "" : "Usage: xl profile ",
               (int)(eol - p), p);
        found = true;
    }
    return found;
}

/* Does argv ask for help (-h or --help before any "--")? */
static bool wants_help(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return true;
    return false;
}

int main_profile(int argc, char **argv)
{
    unsigned int i;

    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        help("profile");
        return argc < 2 ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
        if (strcmp(argv[1], verbs[i].verb))
            continue;
        /* report has a help of its own (xenprofile's). */
        if (verbs[i].fn != profile_report && wants_help(argc - 1, argv + 1))
            return verb_help(verbs[i].verb) ? EXIT_SUCCESS : EXIT_FAILURE;
        return verbs[i].fn(argc - 1, argv + 1);
    }

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
