/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * stackset-parse.c: read folded text ("frame;frame;... COUNT" per line, as
 * written by stackcollapse-*.pl, inferno-collapse-*, this library) and the
 * differential form ("stack COUNT_A COUNT_B", difffolded.pl) into stack
 * sets.
 *
 * A line is trimmed of white space at both ends (CRLF and trailing spaces
 * are fine).  Its count is the last field after a space or a tab: a whole
 * number up to UINT64_MAX.  A fractional count ("31.23", as flamegraph.pl
 * accepts) is rounded to the nearest whole number (halves up), so that
 * the sum stays close.  The stack is the text before the count, frames
 * split on ';'; frame names may contain spaces.  Blank lines and comment
 * lines starting with "# " are skipped silently (as inferno does).  Any
 * other line is malformed (no count, a negative or non-numeric count, a
 * count past UINT64_MAX, an empty stack, a NUL byte): it is skipped and
 * counted, and the first one is described in err.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "stackset.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
           c == '\v' || c == '\f';
}

/*
 * Parse the number p[0..n) into *v: digits, then optionally '.' and
 * digits (rounded).  Returns 0 or -EINVAL.
 */
static int parse_count(const char *p, size_t n, uint64_t *v)
{
    size_t i;
    unsigned int d;
    uint64_t x = 0;

    for ( i = 0; i < n && p[i] >= '0' && p[i] <= '9'; i++ )
    {
        d = p[i] - '0';
        if ( x > (UINT64_MAX - d) / 10 )
            return -EINVAL;
        x = x * 10 + d;
    }
    if ( !i )
        return -EINVAL;
    if ( i < n )
    {
        const size_t dot = i;

        if ( p[i] != '.' )
            return -EINVAL;
        for ( i++; i < n; i++ )
            if ( p[i] < '0' || p[i] > '9' )
                return -EINVAL;
        if ( dot + 1 < n && p[dot + 1] >= '5' )
        {
            if ( x == UINT64_MAX )
                return -EINVAL;
            x++;
        }
    }
    *v = x;
    return 0;
}

/*
 * Take the last field of line[0..*len) as a count: *len becomes the
 * length of what is left, trimmed.  0 or -EINVAL.
 */
static int take_count(const char *line, size_t *len, uint64_t *v)
{
    size_t n = *len, i = n;

    while ( i && line[i - 1] != ' ' && line[i - 1] != '\t' )
        i--;
    if ( !i || parse_count(line + i, n - i, v) )
        return -EINVAL;
    while ( i && is_space(line[i - 1]) )
        i--;
    *len = i;
    return 0;
}

/*
 * Parse one line line[0..len) (without its newline) with ncounts 1 or 2
 * counts (counts[0] is the first column).  Returns 1 and sets *stack and
 * *stack_len for a valid line, 0 for a line to skip silently, or -EINVAL
 * and sets *why for a malformed line.
 */
static int parse_line(const char *line, size_t len, unsigned int ncounts,
                      const char **stack, size_t *stack_len,
                      uint64_t counts[2], const char **why)
{
    size_t n = len;
    unsigned int i;

    if ( memchr(line, '\0', len) )
        return *why = "NUL byte", -EINVAL;
    while ( n && is_space(line[n - 1]) )
        n--;
    while ( n && is_space(*line) )
        line++, n--;
    if ( !n || (line[0] == '#' && (n == 1 || line[1] == ' ')) )
        return 0;
    for ( i = ncounts; i-- > 0; )
        if ( take_count(line, &n, &counts[i]) )
            return *why = ncounts > 1 ? "expected two counts" :
                          "no valid count", -EINVAL;
    if ( !n )
        return *why = "empty stack", -EINVAL;
    *stack = line;
    *stack_len = n;
    return 1;
}

/* Would adding counts overflow a set?  Sets may be NULL. */
static bool overflows(struct xenprof_stackset *const sets[2],
                      const uint64_t counts[2])
{
    unsigned int i;

    for ( i = 0; i < 2; i++ )
        if ( sets[i] &&
             counts[i] > UINT64_MAX - xenprof_stackset_total(sets[i]) )
            return true;
    return false;
}

/*
 * Add a valid line to the sets: one set (sets[1] NULL) takes counts[0],
 * whatever it is; two sets take their non-zero count.
 */
static int add_line(struct xenprof_stackset *const sets[2],
                    const char *stack, size_t len, const uint64_t counts[2])
{
    unsigned int i;
    int rc = 0;

    for ( i = 0; i < 2 && !rc; i++ )
        if ( sets[i] && (!sets[1] || counts[i]) )
            rc = xenprof_priv_ss_add_text(sets[i], stack, len, counts[i]);
    return rc;
}

/* The input is read in blocks of this size (or of the longest line). */
#define READ_BLOCK (1u << 20)

struct reader {
    size_t lineno, good, bad;
    char *buf;                      /* the block being parsed */
    size_t cap, have;
};

/* Note a malformed line (the first one in err). */
static void bad_line(struct reader *r, const char *why, char *err,
                     size_t errlen)
{
    if ( !r->bad++ )
        xenprof_priv_err(err, errlen, 0, "line %zu: malformed, %s "
                         "(skipped)", r->lineno, why);
}

/* Parse the line line[0..len) into sets; 0 or -ENOMEM. */
static int one_line(struct reader *r, const char *line, size_t len,
                    unsigned int ncounts,
                    struct xenprof_stackset *const sets[2], char *err,
                    size_t errlen)
{
    uint64_t counts[2] = { 0, 0 };
    const char *why = NULL, *stack;
    size_t stack_len;
    int rc;

    r->lineno++;
    rc = parse_line(line, len, ncounts, &stack, &stack_len, counts, &why);
    if ( rc < 0 || (rc > 0 && overflows(sets, counts)) )
    {
        bad_line(r, rc < 0 ? why : "count overflow", err, errlen);
        return 0;
    }
    if ( !rc )
        return 0;
    r->good++;
    return add_line(sets, stack, stack_len, counts);
}

/*
 * Read every line of in into sets, a block at a time, each line parsed
 * where it lies in the block; 0, -ENOMEM or -EIO.
 */
static int read_lines(FILE *in, unsigned int ncounts,
                      struct xenprof_stackset *const sets[2],
                      struct reader *r, char *err, size_t errlen)
{
    char *p, *end, *nl, *buf;
    size_t got;
    int rc = 0;

    for ( ; ; )
    {
        if ( r->have == r->cap )
        {
            /* A line longer than the block: a bigger one. */
            if ( r->cap > SIZE_MAX / 2 ||
                 !(buf = realloc(r->buf, r->cap ? 2 * r->cap : READ_BLOCK)) )
                return -ENOMEM;
            r->buf = buf;
            r->cap = r->cap ? 2 * r->cap : READ_BLOCK;
        }
        got = fread(r->buf + r->have, 1, r->cap - r->have, in);
        if ( !got )
            break;
        p = r->buf;
        end = r->buf + r->have + got;
        while ( !rc && (nl = memchr(p, '\n', end - p)) )
        {
            rc = one_line(r, p, nl - p, ncounts, sets, err, errlen);
            p = nl + 1;
        }
        if ( rc )
            return rc;
        r->have = end - p;
        memmove(r->buf, p, r->have);
    }
    if ( ferror(in) )
        return -EIO;
    /* The last line, without a newline. */
    return r->have ? one_line(r, r->buf, r->have, ncounts, sets, err, errlen)
                   : 0;
}

/* The reader of both forms; sets[1] NULL for plain folded text. */
static int read_folded(FILE *in, unsigned int ncounts,
                       struct xenprof_stackset *sets[2], size_t *bad_lines,
                       char *err, size_t errlen)
{
    struct reader r = { 0 };
    unsigned int i;
    int rc = 0;

    if ( err && errlen )
        err[0] = '\0';
    for ( i = 0; i < ncounts; i++ )
        if ( !(sets[i] = xenprof_priv_ss_new()) )
            rc = -ENOMEM;
    if ( !rc )
        rc = read_lines(in, ncounts, sets, &r, err, errlen);
    for ( i = 0; i < ncounts && !rc; i++ )
        rc = xenprof_priv_ss_finish(sets[i]);
    free(r.buf);
    if ( bad_lines )
        *bad_lines = r.bad;
    if ( rc == -EIO )
        xenprof_priv_err(err, errlen, rc, "line %zu: read error",
                         r.lineno + 1);
    else if ( rc == -ENOMEM )
        xenprof_priv_err(err, errlen, rc, "folded input: out of memory");
    else if ( !r.good )
        rc = xenprof_priv_err(err, errlen, -ENODATA,
                              "no valid folded line (%zu lines, %zu "
                              "malformed)", r.lineno, r.bad);
    return rc;
}

/*
 * Also -EINVAL when in or out is NULL.  On success err (if given) holds
 * the description of the first malformed line, or "".
 */
int xenprof_stackset_read_folded(FILE *in, struct xenprof_stackset **out,
                                 size_t *bad_lines, char *err,
                                 size_t errlen)
{
    struct xenprof_stackset *sets[2] = { NULL, NULL };
    int rc;

    if ( bad_lines )
        *bad_lines = 0;
    if ( !in || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "folded input: no input or no output");
    *out = NULL;
    rc = read_folded(in, 1, sets, bad_lines, err, errlen);
    if ( rc )
        xenprof_stackset_free(sets[0]);
    else
        *out = sets[0];
    return rc;
}

/*
 * Lines "stack COUNT_A COUNT_B": a stack goes into each set where its
 * count is not 0.  Same contract as xenprof_stackset_read_folded() (a
 * line with one count is malformed); a and b are both set or both NULL.
 */
int xenprof_stackset_read_diff_folded(FILE *in, struct xenprof_stackset **a,
                                      struct xenprof_stackset **b,
                                      size_t *bad_lines, char *err,
                                      size_t errlen)
{
    struct xenprof_stackset *sets[2] = { NULL, NULL };
    int rc;

    if ( bad_lines )
        *bad_lines = 0;
    if ( !in || !a || !b )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "diff input: no input or no output");
    *a = *b = NULL;
    rc = read_folded(in, 2, sets, bad_lines, err, errlen);
    if ( rc )
    {
        xenprof_stackset_free(sets[0]);
        xenprof_stackset_free(sets[1]);
        return rc;
    }
    *a = sets[0];
    *b = sets[1];
    return 0;
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
