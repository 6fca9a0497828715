/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xenprofile.h: libxenprofile, reading and writing hypervisor profiles.
 *
 * The library depends on the C library only (never on libxenctrl or
 * libxenlight), so that a profile taken on a Xen host can be read
 * anywhere.  It knows:
 *   - the record stream of XEN_SYSCTL_profile_op read (decoded by byte
 *     offsets, little-endian; see XEN_SYSCTL_profile_op in
 *     xen/include/public/sysctl.h);
 *   - the self-contained data file of a profile (xenprofile.data:
 *     samples, symbol table, domains, metadata);
 *   - symbolization against the hypervisor's embedded symbol table;
 *   - the stack set, and writers (folded stacks, flame graph, pprof,
 *     script), atomically into files.
 * The report command, whole, for a program's main(), is in
 * xenprofile-cli.h.
 *
 * Error contract: functions returning int return 0 on success and a
 * negative errno value on failure (-EINVAL bad argument, -ENOMEM, -EIO or
 * another errno from the C library for I/O, -EBADMSG corrupt data); when
 * they take err/errlen they also write a one-line message there (no
 * trailing newline) naming the file and, for corrupt data, the offset.
 * On failure no output object is returned and nothing is leaked.
 */
#ifndef XENPROFILE_H
#define XENPROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define XENPROF_FILE_MAGIC   "XENPROF\0"    /* 8 bytes at offset 0 */
#define XENPROF_FILE_VERSION 1

/* Record stream layout (record version 1), by byte offset. */
#define XENPROF_REC_VERSION        1
#define XENPROF_REC_OFF_SIZE       0        /* uint16 */
#define XENPROF_REC_OFF_TYPE       2        /* uint8 */
#define XENPROF_REC_OFF_FLAGS      3        /* uint8 */
#define XENPROF_REC_OFF_DOMID      4        /* uint16 */
#define XENPROF_REC_OFF_VCPU       6        /* uint16 */
#define XENPROF_REC_OFF_CPU        8        /* uint16 */
#define XENPROF_REC_OFF_MODE       10       /* uint8 */
#define XENPROF_REC_OFF_NR_FRAMES  11       /* uint8 */
#define XENPROF_REC_OFF_TIMESTAMP  16       /* uint64 */
#define XENPROF_REC_HDR_SIZE       24       /* ip[] follows, uint64 each */
#define XENPROF_REC_SAMPLE         1
#define XENPROF_REC_LOST           2        /* samples lost: a count */
#define XENPROF_REC_OFF_LOST_COUNT 24       /* uint64, in a LOST record */
#define XENPROF_REC_LOST_SIZE      32
#define XENPROF_MAX_FRAMES         128      /* 1 + the ABI's MAX_DEPTH */

#define XENPROF_MODE_XEN           0
#define XENPROF_MODE_GUEST_KERNEL  1
#define XENPROF_MODE_GUEST_USER    2

#define XENPROF_F_TRUNCATED        (1u << 0)
#define XENPROF_F_BAD_FRAME        (1u << 1)
#define XENPROF_F_HVM              (1u << 2)
#define XENPROF_F_IDLE             (1u << 3)
/* Xen was off its stacks: ip[0] only. */
#define XENPROF_F_NO_STACK         (1u << 4)

#define XENPROF_DOMID_IDLE         0x7fff

#define XENPROF_SOURCE_TIMER       1
#define XENPROF_SOURCE_PMU         2

/* The PMU source's events, as XEN_SYSCTL_PROFILE_EVENT_* (0: cycles). */
#define XENPROF_EVENT_DEFAULT       0
#define XENPROF_EVENT_CYCLES        1
#define XENPROF_EVENT_INSTRUCTIONS  2
#define XENPROF_EVENT_REF_CYCLES    3
#define XENPROF_EVENT_LLC_MISSES    4
#define XENPROF_EVENT_BRANCH_MISSES 5

/* Per-pCPU status flags, as XEN_SYSCTL_PROFILE_CPU_*. */
#define XENPROF_CPU_SAMPLED        (1u << 0)
#define XENPROF_CPU_RING           (1u << 1)
#define XENPROF_CPU_OFFLINED       (1u << 2)
#define XENPROF_CPU_LEFT_OUT       (1u << 3)
#define XENPROF_CPU_FAILED         (1u << 4)

/* One decoded sample; ip points into the record stream (not copied). */
struct xenprof_sample {
    uint64_t timestamp;
    uint32_t cpu;
    uint32_t domid;
    uint32_t vcpu;
    uint8_t mode;                   /* XENPROF_MODE_* */
    uint8_t flags;                  /* XENPROF_F_* */
    uint8_t nr_frames;              /* 1..XENPROF_MAX_FRAMES */
    const uint8_t *ip;              /* nr_frames little-endian uint64 */
};

/* Frame i of a sample (0 = interrupted IP, then return addresses). */
uint64_t xenprof_sample_ip(const struct xenprof_sample *s, unsigned int i);

/*
 * Decode the record at *off of buf[0..len).  Returns 1 and advances *off
 * past it when a sample was decoded, 0 at the end of buf, or -EBADMSG
 * (with a message naming the offset) when the record is corrupt: size not
 * a multiple of 8 or below the header, beyond len, nr_frames not 1..128
 * or not matching size, a LOST record not of its size.  LOST records
 * (xenprof_data_count() sums them) and records of unknown type are
 * skipped.
 */
int xenprof_decode_next(const uint8_t *buf, size_t len, size_t *off,
                        struct xenprof_sample *s, char *err, size_t errlen);

struct xenprof_symbol {
    uint64_t addr;
    char type;                      /* nm(1) letter */
    char *name;                     /* owned by the containing object */
};

struct xenprof_domain {
    uint32_t domid;
    char name[64];                  /* NUL-terminated, may be "" */
    uint8_t uuid[16];
};

struct xenprof_cpu {
    uint32_t cpu;
    uint32_t flags;                 /* XENPROF_CPU_* */
    uint64_t taken, lost, read;
    uint64_t cost_min, cost_avg, cost_max;  /* timestamp ticks */
    uint64_t throttled;             /* PMU overflows faster than Xen's
                                       maximum rate: period raised */
};

struct xenprof_meta {
    char xen_version[64];           /* "4.22.0" */
    char build_id[128];             /* hex, "" if unknown */
    char hostname[64];
    uint64_t timestamp_khz;
    uint32_t nr_host_cpus;          /* pCPUs of the host */
    uint32_t source;                /* XENPROF_SOURCE_* in use */
    char source_reason[128];        /* why that source, for people */
    uint32_t frequency;             /* Hz asked for, 0 if period */
    uint32_t max_depth;
    uint64_t period;                /* ns (timer) / events (pmu) */
    uint64_t start_time_ns;         /* Unix time, ns */
    uint64_t stop_time_ns;
    uint64_t start_timestamp, stop_timestamp;
    uint32_t record_version;        /* of the records; 0 (unknown): 1 */
    uint32_t event;                 /* XENPROF_EVENT_* of the PMU source */
    char arch[16];                  /* Xen's: "x86_64", "aarch64"; "" unknown */
};

/* A whole profile, as saved in a data file. */
struct xenprof_data {
    struct xenprof_meta meta;
    struct xenprof_cpu *cpus;       /* per sampled pCPU */
    size_t nr_cpus;
    struct xenprof_symbol *syms;    /* the embedded table, any order */
    size_t nr_syms;
    struct xenprof_domain *doms;    /* every domain seen in the samples */
    size_t nr_doms;
    uint8_t *records;               /* record stream, all pCPUs */
    size_t records_len;
};

/*
 * ---------------------------------------------------------------------
 * 1. The profile: what a toolstack gathers from Xen, in memory and in
 *    the data file.
 * ---------------------------------------------------------------------
 */

/* Allocate an empty profile (all zero); NULL when out of memory. */
struct xenprof_data *xenprof_data_new(void);

/* Free a profile and everything it owns.  NULL is allowed. */
void xenprof_data_free(struct xenprof_data *d);

/*
 * Append to a profile; the data is copied.  Return 0 or -ENOMEM (the
 * profile is then unchanged).
 */
int xenprof_data_add_records(struct xenprof_data *d, const void *buf,
                             size_t len);
int xenprof_data_add_symbol(struct xenprof_data *d, uint64_t addr,
                            char type, const char *name);
int xenprof_data_add_cpu(struct xenprof_data *d,
                         const struct xenprof_cpu *cpu);

/*
 * What a toolstack knows of domain domid: fill name (a NUL-terminated
 * string of at most 63 bytes) and uuid and return 0, or return nonzero
 * when the domain is unknown.
 */
typedef int xenprof_domain_lookup_t(void *arg, uint32_t domid,
                                    char name[64], uint8_t uuid[16]);

/*
 * Add to the domain table every domain the samples name (the running
 * vCPU's domain; not the idle domain) that it does not have yet, with the
 * name and UUID lookup gives (an empty name and a zero UUID when lookup
 * fails or is NULL).  Returns 0, -ENOMEM or -EBADMSG (corrupt records).
 */
int xenprof_data_add_domains(struct xenprof_data *d,
                             xenprof_domain_lookup_t *lookup, void *arg,
                             char *err, size_t errlen);

/*
 * The samples of d's records, and the samples lost: the per-pCPU counts
 * of its table, or when that has none, the LOST records of the stream.
 * Returns 0 or -EBADMSG.
 */
int xenprof_data_count(const struct xenprof_data *d, uint64_t *samples,
                       uint64_t *lost, char *err, size_t errlen);

/*
 * Write d to path atomically (xenprof_write_file(), mode 0600).  On
 * failure path is untouched.
 */
int xenprof_data_write(const struct xenprof_data *d, const char *path,
                       char *err, size_t errlen);

/*
 * Read a data file.  Every record is validated (xenprof_decode_next); a
 * truncated or corrupt file fails with -EBADMSG and a message naming the
 * offset, a file of another format or a newer version with -EINVAL.
 */
int xenprof_data_read(const char *path, struct xenprof_data **d,
                      char *err, size_t errlen);

/*
 * ---------------------------------------------------------------------
 * 2. The stack set: the profile's samples symbolized, as distinct stacks
 *    with their sample counts, the input of every writer below.  Frames
 *    are strings, root first, exactly the frames of the folded format:
 *      - Xen samples: the Xen function names, root to leaf (ip[last] ...
 *        ip[0]); an address no symbol covers is "[unknown]";
 *      - a walk cut by max_depth starts with the frame "[truncated]",
 *        one cut by a bad frame pointer with "[bad frame]" (where the
 *        missing callers would be), never silently shortened;
 *      - guest samples: "d<domid>v<vcpu> <name>;[guest kernel]" or
 *        "...;[guest user]" (name from the domain table; "d<domid>v<vcpu>"
 *        alone when the domain is unknown or has no name).
 *    It is built from a data file (with a filter) or parsed from any
 *    folded file.
 * ---------------------------------------------------------------------
 */
struct xenprof_stackset;

/* Which samples of a data file to keep.  Zeroed: keep everything. */
struct xenprof_filter {
    const uint8_t *cpus;            /* bitmap of pCPUs to keep; NULL: all */
    size_t nr_cpu_bits;             /* bits in cpus */
    int has_domid;                  /* keep only samples of domid: */
    uint32_t domid;                 /*   the running vCPU's domain */
    int has_time;                   /* keep only samples taken within */
    uint64_t time_from_ns;          /*   [from, to) ns after the profile */
    uint64_t time_to_ns;            /*   started (from timestamps) */
    int no_guest;                   /* drop guest-mode samples */
};

/*
 * Where function names come from.  Callers of this library pass NULL,
 * the profile's embedded symbol table; the report command
 * (xenprof_report_main(), --xen-syms) builds other sources inside the
 * library, which is why the functions below take one.
 */
struct xenprof_symsrc;

/*
 * Build the stack set of d's samples that pass f (NULL: all), with names
 * from names.  Returns 0, -EINVAL (no d or out), -ENOMEM, -EBADMSG.
 */
int xenprof_stackset_from_data(const struct xenprof_data *d,
                               const struct xenprof_filter *f,
                               const struct xenprof_symsrc *names,
                               struct xenprof_stackset **out,
                               char *err, size_t errlen);

/*
 * Parse folded text ("frame;frame;... COUNT" per line; COUNT a whole
 * number, or a fraction rounded to one as flamegraph.pl's input may
 * have; CRLF accepted; identical stacks merged).  Malformed lines are
 * skipped and counted in *bad_lines (may be NULL).  Returns 0; -ENODATA
 * when no valid line was found (empty input is an error, not an empty
 * profile); -EIO on a read error; -ENOMEM.
 */
int xenprof_stackset_read_folded(FILE *in, struct xenprof_stackset **out,
                                 size_t *bad_lines, char *err,
                                 size_t errlen);

void xenprof_stackset_free(struct xenprof_stackset *s);

/* The number of distinct stacks. */
size_t xenprof_stackset_size(const struct xenprof_stackset *s);

/*
 * Stack i (0 <= i < size), in sorted (bytewise folded line) order: its
 * frames, root first, and its count.  Valid until the set is freed.
 */
void xenprof_stackset_get(const struct xenprof_stackset *s, size_t i,
                          const char *const **frames, size_t *nr_frames,
                          uint64_t *count);

/*
 * ---------------------------------------------------------------------
 * 3. Writers.  Each writes to a stream; xenprof_write_file() puts any of
 *    them in a file atomically.
 * ---------------------------------------------------------------------
 */

/*
 * Folded stacks, the input of flamegraph.pl and inferno: "root;...;leaf
 * COUNT\n", one line per distinct stack, sorted.  0 or -EIO.
 */
int xenprof_write_folded(const struct xenprof_stackset *s, FILE *out);

/* Flame graph SVG options.  Zeroed: the defaults. */
struct xenprof_svg_opts {
    const char *title;              /* NULL: "Flame Graph" */
    const char *subtitle;           /* NULL: none */
    unsigned int width;             /* image width in px; 0: 1200 */
    double minwidth;                /* hide frames narrower (px); 0: 0.1 */
    int inverted;                   /* icicle graph: roots at the top */
};

/*
 * Write an interactive flame graph (a standalone SVG with its own
 * JavaScript: search, click to zoom, reset, tooltips with counts and
 * percentages).  Colours tell Xen, guest and marker frames apart.
 * Returns 0, -ENODATA for an empty set, -EIO, -ENOMEM.
 */
int xenprof_write_flamegraph(const struct xenprof_stackset *s, FILE *out,
                             const struct xenprof_svg_opts *o,
                             char *err, size_t errlen);

/*
 * pprof: a gzipped profile.proto with sample type "samples/count" (and
 * "cpu/nanoseconds" or "events/count" when d is given, from the sampling
 * period), functions by name.  A set made from a data file gives a sample
 * per distinct stack of addresses, Xen frames at their addresses in a
 * "xen-syms" mapping with d's build-id, guest frames in mappings of their
 * own; a set from folded text, a location per frame name and no mapping.
 * d may be NULL (folded input).  Returns 0, -EIO, -ENOMEM.
 */
int xenprof_write_pprof(const struct xenprof_stackset *s,
                        const struct xenprof_data *d, FILE *out,
                        char *err, size_t errlen);

/*
 * Every sample as `perf script` prints a profile recorded with call graphs
 * (write-script.c; what stackcollapse-perf.pl, speedscope and the Firefox
 * Profiler read): a header line (domain as the command, domid/vcpu,
 * [pCPU], time, period, event), its frames leaf first, named from names
 * (NULL: the embedded table), an empty line.  f NULL keeps every sample.
 * Returns 0, -EINVAL (no d or out), -ENOMEM, -EBADMSG on corrupt records,
 * -EIO on a write error.
 */
int xenprof_write_script(const struct xenprof_data *d,
                         const struct xenprof_filter *f,
                         const struct xenprof_symsrc *names, FILE *out,
                         char *err, size_t errlen);

/*
 * A writer for xenprof_write_file(): write to f, return 0 or a negative
 * errno value (with a message in err, or none for a plain I/O error).
 */
typedef int xenprof_fill_t(FILE *f, void *arg, char *err, size_t errlen);

/*
 * Write path atomically: a temporary file beside it (created with mode,
 * less the umask) filled by fill(f, arg), flushed, fsync'ed and renamed
 * over path, then the folder synced.  On failure path is left as it was
 * and the temporary file removed.  Returns 0, -EINVAL, or the errno of
 * the step that failed (named in err).
 */
int xenprof_write_file(const char *path, unsigned int mode,
                       xenprof_fill_t *fill, void *arg, char *err,
                       size_t errlen);

#endif /* XENPROFILE_H */
