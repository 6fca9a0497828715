/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xl_profile.h: what the files of `xl profile` share (xl_profile.c: the
 * verbs; xl_profile_state.c: the state file and names; xl_profile_save.c:
 * saving a profile).
 */
#ifndef XL_PROFILE_H
#define XL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include <libxl.h>

/*
 * State kept by xl between verbs: start/stop times, the PMU event, the
 * spool of `record`, and the names and UUIDs of the domains seen while
 * they existed.
 */
#define STATE_FILE XEN_RUN_DIR "/xenprofile.state"

/* The longest path the state file holds, its NUL included. */
#define STATE_PATH_MAX 256

struct dom_entry {
    uint32_t domid;
    uint8_t uuid[16];
    char name[64];
};

struct state {
    uint64_t start_ns, stop_ns;
    unsigned int event;             /* XEN_SYSCTL_PROFILE_EVENT_* at start */
    char spool[STATE_PATH_MAX];     /* absolute path of the records
                                       drained by `record`, or "" */
    struct dom_entry *doms;
    int nr_doms;
};

/* Unix time in ns. */
uint64_t now_ns(void);

/*
 * Read the state file (missing: empty), write it atomically (0, or -1
 * after a warning), free it.
 */
void state_load(struct state *s);
int state_save(const struct state *s);
void state_free(struct state *s);
/* The entry of domid, or NULL. */
struct dom_entry *state_dom(struct state *s, uint32_t domid);
/*
 * Record the names and UUIDs of the domains that exist now; true when
 * that changed s (a new domain, a new name or UUID for a domid).
 */
bool state_note_domains(struct state *s);
/* The noted name and UUID of domid (a xenprof_domain_lookup_t on s). */
int state_lookup_domain(void *s, uint32_t domid, char name[64],
                        uint8_t uuid[16]);

/* Names of LIBXL_PROFILE_SOURCE_*, _STATE_*, _REASON_* for people. */
const char *source_name(int source);
const char *state_name(int state);
const char *reason_text(int reason);
/* "requested" or "auto: <reason>" (a static buffer). */
const char *why_text(int reason);
/* The number of XEN_SYSCTL_PROFILE_EVENT_* values (0: cycles). */
#define XL_PROFILE_NR_EVENTS 6
/* Their names, for people. */
extern const char *const event_names[XL_PROFILE_NR_EVENTS];

/*
 * A whole number in [min, max] given to option opt (e.g. "-F"): 0, or -1
 * after a one-line message.
 */
int parse_num(const char *opt, const char *s, unsigned long long min,
              unsigned long long max, unsigned long long *out);

/* Frames per sample when -g is not given. */
#define DEFAULT_DEPTH 64

/*
 * The start options (-F -c -s -C -g -b -e) of start and record: handle
 * one (0, or -1 after a one-line message); start the profile they
 * describe (0, or -1 after a message naming verb).
 */
int profile_start_option(int opt, const char *arg, libxl_profile_params *p,
                         libxl_bitmap *cpumap);
int profile_do_start(const char *verb, libxl_profile_params *p,
                     const libxl_bitmap *cpumap);

/*
 * The output options of stop and record: -o FILE.folded, --data FILE.
 * 1 when opt is one of them (stored), else 0.
 */
int profile_output_option(int opt, const char *arg, const char **data_path,
                          const char **folded);

/* `xl profile record` (xl_profile_record.c): an exit status. */
int profile_record(int argc, char **argv);

/*
 * Stop the session if it runs and save every sample to data_path (and
 * folded, if not NULL) before releasing them in Xen: those of the spool
 * (its path, "" for none, NULL for the one the state file names),
 * pre[0..pre_len) (records already consumed from Xen, if any) and those in
 * Xen.  0, or -1 after a one-line message; the samples in Xen and in the
 * spool are then kept.
 */
int save_profile(const char *verb, const char *data_path,
                 const char *folded, const char *spool, const void *pre,
                 size_t pre_len);

/*
 * The length of the whole records at the start of records[0..len): all of
 * it unless a write was cut short in a record (records corrupt in another
 * way are left to the decoder).
 */
size_t whole_records(const void *records, size_t len);

#endif /* XL_PROFILE_H */
