/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * report.c: the report of a profile: its model
 * (report-model.c), rendered as text (report-text.c) or JSON
 * (report-json.c).
 */
#include <errno.h>

#include "report.h"

int xenprof_priv_report(const struct xenprof_data *d,
                        const struct xenprof_filter *f,
                        const struct xenprof_stackset *s,
                        const struct xenprof_report_opts *o, FILE *out,
                        char *err, size_t errlen)
{
    struct rep r = { .d = d, .o = o, .out = out };
    int rc = xenprof_priv_rep_build(&r, f, s, err, errlen);

    if ( !rc )
    {
        rc = o->json ? xenprof_priv_rep_json(&r)
                     : xenprof_priv_rep_text(&r);
        if ( rc )
            xenprof_priv_err(err, errlen, rc, "report: out of memory");
    }
    if ( !rc && (fflush(out) || ferror(out)) )
        rc = xenprof_priv_err(err, errlen, -EIO, "report: write error");
    xenprof_priv_rep_free(&r);
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
