/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xl_profile_state.c: the state `xl profile` keeps between verbs in
 * XEN_RUN_DIR/xenprofile.state, and the names of the profiler's sources,
 * states and reasons.
 *
 * Domain names: a domain seen in the samples may be gone when the profile
 * is stopped, so every verb notes the names and UUIDs of the domains that
 * exist at that time; `stop` uses them for domains that no longer exist.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libxl.h>
#include <libxl_utils.h>
#include <xenprofile.h>

#include "xl.h"
#include "xl_utils.h"
#include "xl_profile.h"

uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* libxl's names of its enumerations (libxl_types.idl), or "unknown". */
const char *source_name(int source)
{
    const char *name = libxl_profile_source_to_string(source);

    return name ? name : "unknown";
}

/* XEN_SYSCTL_PROFILE_REASON_*: why a source was chosen, or could not be. */
const char *reason_text(int reason)
{
    switch (reason) {
    case LIBXL_PROFILE_REASON_NONE: return "no session";
    case LIBXL_PROFILE_REASON_REQUESTED: return "requested";
    case LIBXL_PROFILE_REASON_NO_PMU: return "no usable PMU";
    case LIBXL_PROFILE_REASON_PMU_BUSY: return "the PMU is in use";
    case LIBXL_PROFILE_REASON_NO_PMU_SRC: return "no PMU source in this build";
    case LIBXL_PROFILE_REASON_PMU_OK: return "a usable PMU";
    case LIBXL_PROFILE_REASON_VPMU: return "the PMU is in use by vPMU (boot with vpmu=0)";
    case LIBXL_PROFILE_REASON_NO_EVENT: return "this CPU cannot count that event";
    case LIBXL_PROFILE_REASON_NO_NMI: return "the PMU raised no overflow NMI";
    }
    return "unknown";
}

/* The reason in status and in the data file: "requested" or "auto: ...". */
const char *why_text(int reason)
{
    static char buf[96];

    if (reason == LIBXL_PROFILE_REASON_NONE ||
        reason == LIBXL_PROFILE_REASON_REQUESTED)
        return reason_text(reason);
    snprintf(buf, sizeof(buf), "auto: %s", reason_text(reason));
    return buf;
}

const char *const event_names[XL_PROFILE_NR_EVENTS] = {
    "cycles", "cycles", "instructions", "ref-cycles", "llc-misses",
    "branch-misses",
};

const char *state_name(int state)
{
    const char *name = libxl_profile_state_to_string(state);

    return name ? name : "unknown";
}

struct dom_entry *state_dom(struct state *s, uint32_t domid)
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
    s->doms = xrealloc(s->doms, (s->nr_doms + 1) * sizeof(*s->doms));
    e = &s->doms[s->nr_doms++];
    memset(e, 0, sizeof(*e));
    e->domid = domid;
    return e;
}

/* Read the state file; a missing file is an empty state. */
void state_load(struct state *s)
{
    FILE *f = fopen(STATE_FILE, "r");
    char line[512], name[64], uuid[33];
    unsigned long long v;
    unsigned int domid, i;

    memset(s, 0, sizeof(*s));
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        if (!strncmp(line, "spool ", 6)) {
            /* The rest of the line: a path may hold blanks. */
            size_t n = strcspn(line + 6, "\n");

            if (n < sizeof(s->spool)) {
                memcpy(s->spool, line + 6, n);
                s->spool[n] = '\0';
            }
        } else if (sscanf(line, "start %llu", &v) == 1)
            s->start_ns = v;
        else if (sscanf(line, "stop %llu", &v) == 1)
            s->stop_ns = v;
        else if (sscanf(line, "event %llu", &v) == 1)
            s->event = v < XL_PROFILE_NR_EVENTS ? v : 0;
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

/* The writer of the state file (xenprof_fill_t). */
static int fill_state(FILE *f, void *arg, char *err, size_t errlen)
{
    const struct state *s = arg;
    int i, j;

    fprintf(f, "start %"PRIu64"\n", s->start_ns);
    if (s->stop_ns)
        fprintf(f, "stop %"PRIu64"\n", s->stop_ns);
    if (s->event)
        fprintf(f, "event %u\n", s->event);
    if (s->spool[0])
        fprintf(f, "spool %s\n", s->spool);
    for (i = 0; i < s->nr_doms; i++) {
        fprintf(f, "dom %u ", s->doms[i].domid);
        for (j = 0; j < 16; j++)
            fprintf(f, "%02x", s->doms[i].uuid[j]);
        fprintf(f, " %s\n", s->doms[i].name[0] ? s->doms[i].name : "-");
    }
    return 0;
}

/* Write the state file atomically: 0, or -1 after a warning. */
int state_save(const struct state *s)
{
    char err[512];

    if (xenprof_write_file(STATE_FILE, 0600, fill_state, (void *)s, err,
                           sizeof(err))) {
        fprintf(stderr, "xl profile: warning: %s\n", err);
        return -1;
    }
    return 0;
}

/*
 * The name and UUID noted for domid (xenprof_domain_lookup_t): 0, or -1
 * when the domain was never seen alive.
 */
int state_lookup_domain(void *arg, uint32_t domid, char name[64],
                        uint8_t uuid[16])
{
    const struct dom_entry *e = state_dom(arg, domid);

    if (!e)
        return -1;
    snprintf(name, 64, "%s", e->name);
    memcpy(uuid, e->uuid, 16);
    return 0;
}

/* Record the names and UUIDs of the domains that exist now. */
bool state_note_domains(struct state *s)
{
    libxl_dominfo *info;
    struct dom_entry was;
    bool changed = false;
    int nr, i, before;

    info = libxl_list_domain(ctx, &nr);
    if (!info)
        return false;
    for (i = 0; i < nr; i++) {
        struct dom_entry *e;
        char *name = libxl_domid_to_name(ctx, info[i].domid);

        before = s->nr_doms;
        e = state_add_dom(s, info[i].domid);
        was = *e;
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
        changed = changed || s->nr_doms != before ||
                  memcmp(&was, e, sizeof(was));
    }
    libxl_dominfo_list_free(info, nr);
    return changed;
}

void state_free(struct state *s)
{
    free(s->doms);
    memset(s, 0, sizeof(*s));
}

/*
 * Local variables:
 * mode: C
 * c-basic-offset: 4
 * indent-tabs-mode: nil
 * End:
 */
