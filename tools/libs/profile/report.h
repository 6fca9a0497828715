/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * report.h: the report (report.c): its model (report-model.c) and its two
 * renderings, text (report-text.c) and JSON (report-json.c).  Not
 * installed.
 */
#ifndef XENPROFILE_REPORT_H
#define XENPROFILE_REPORT_H

#include "calltree.h"

/*
 * ---------------------------------------------------------------------
 * The report (report.c), as printed by xenprof_report_main().
 * ---------------------------------------------------------------------
 */
#define XENPROF_BY_DOMAIN   (1u << 0)
#define XENPROF_BY_CPU      (1u << 1)

/* Callee nodes below this share of all samples are left out (perf's). */
#define XENPROF_CALLGRAPH_MIN_PERMILLE 5

struct xenprof_report_opts {
    const char *input;                  /* file name shown in the header */
    const char *filter_desc;            /* "" or e.g. "--cpu 0-3" */
    bool by_self;                       /* --sort self */
    size_t top;                         /* rows; 0: all */
    unsigned int by;                    /* XENPROF_BY_* splits shown */
    bool callgraph;
    bool json;
    size_t bad_lines;                   /* malformed folded lines */
};

struct dom_row {
    uint32_t domid;
    uint64_t xen, kernel, user;         /* guest kernel, guest user */
};

struct cpu_row {
    uint64_t xen, idle, guest;
};

struct splits {
    uint64_t all;                       /* samples in the file */
    uint64_t idle;                      /* Xen samples of idle vCPUs */
    struct dom_row *dom;                /* by domid */
    size_t nr_dom;
    struct cpu_row *cpu;                /* indexed by pCPU */
    size_t nr_cpu;
};

struct rep {
    const struct xenprof_data *d;       /* NULL: folded input */
    const struct xenprof_report_opts *o;
    FILE *out;
    struct xenprof_tree *t;
    struct xenprof_func *fn;            /* sorted */
    size_t nr_fn, shown;                /* functions, rows shown */
    uint64_t total;                     /* samples shown */
    struct splits sp;
    double secs;                        /* duration, -1 if unknown */
    uint64_t nlost;                     /* samples lost, all pCPUs */
    uint64_t nthrottled;                /* periods raised, all pCPUs */
    size_t sampled;                     /* pCPUs sampled */
    bool first;                         /* JSON: no comma before */
};

/* 100 * n / total, 0 when total is 0. */
static inline double rep_pct(uint64_t n, uint64_t total)
{
    return total ? 100.0 * (double)n / (double)total : 0.0;
}

/* The name of domain domid in d's table, or "". */
const char *xenprof_priv_rep_dom_name(const struct xenprof_data *d,
                                      uint32_t domid) xenprof_hidden;

/* "timer", "pmu" or "unknown". */
const char *xenprof_priv_rep_source(uint32_t source) xenprof_hidden;

/* The profile's duration in seconds, or -1 when unknown. */
double xenprof_priv_rep_duration(const struct xenprof_meta *m)
    xenprof_hidden;

/* The samples lost on all pCPUs, and the pCPUs sampled in *sampled. */
uint64_t xenprof_priv_rep_lost(const struct xenprof_data *d,
                               size_t *sampled) xenprof_hidden;
/* The times a PMU period was raised (throttled), all pCPUs. */
uint64_t xenprof_priv_rep_throttled(const struct xenprof_data *d)
    xenprof_hidden;

/*
 * Walk the callees of f (call graph threshold applied) with fn.  Returns
 * 0, -ENOMEM or what fn returned.
 */
int xenprof_priv_rep_callees(const struct rep *r,
                             const struct xenprof_func *f,
                             xenprof_tree_visit_t fn, void *arg)
    xenprof_hidden;

/*
 * The rows of the functions shown, for a rendering: row(), then (with
 * --callgraph) callee() for each callee, then row_end().  Returns 0 or
 * the error of the callees' walk.
 */
struct rep_func_ops {
    void (*row)(struct rep *r, const struct xenprof_func *f, size_t i);
    xenprof_tree_visit_t callee;
    void (*row_end)(struct rep *r);
};
int xenprof_priv_rep_each_func(struct rep *r, const struct rep_func_ops *ops)
    xenprof_hidden;

/*
 * Build r's model: the call tree of s and its functions, and with d (NULL
 * for a folded input) the splits of d's samples that pass f, the
 * duration, lost and throttled counts.  r has d, o and out set, the rest
 * zero.  Returns 0, -ENOMEM or -EBADMSG, with a message in err; r is to
 * be freed either way.
 */
int xenprof_priv_rep_build(struct rep *r, const struct xenprof_filter *f,
                           const struct xenprof_stackset *s, char *err,
                           size_t errlen) xenprof_hidden;

/* Free what xenprof_priv_rep_build() made.  Never fails. */
void xenprof_priv_rep_free(struct rep *r) xenprof_hidden;

/*
 * Print the report as text (report-text.c) or as JSON (report-json.c);
 * 0 or -ENOMEM (write errors: see ferror()).
 */
int xenprof_priv_rep_text(struct rep *r) xenprof_hidden;
int xenprof_priv_rep_json(struct rep *r) xenprof_hidden;

/*
 * Print the report of s (the stack set of d's samples that pass f; d NULL
 * for a folded input: no header, no splits) as text or JSON to out.
 * Returns 0, -EIO on a write error, -ENOMEM or -EBADMSG (corrupt
 * records), with a message in err.
 */
int xenprof_priv_report(const struct xenprof_data *d,
                        const struct xenprof_filter *f,
                        const struct xenprof_stackset *s,
                        const struct xenprof_report_opts *o, FILE *out,
                        char *err, size_t errlen) xenprof_hidden;

#endif /* XENPROFILE_REPORT_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
