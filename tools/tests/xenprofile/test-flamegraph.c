/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-flamegraph.c: the flame graph SVG writers.  The SVG is read back
 * by a small parser (frames as (depth, name, fg:x, fg:w), tags balanced,
 * text escaped); test-fg-corpus.c compares them with inferno's.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "test-flamegraph.h"

void fg_frames_free(struct frames *fs)
{
    size_t i;

    for ( i = 0; i < fs->n; i++ )
        free(fs->f[i].name);
    free(fs->f);
    memset(fs, 0, sizeof(*fs));
}

/* Unescape the XML text s[0..n) into a new string. */
static char *unescape(const char *s, size_t n)
{
    static const char *const ent[][2] = {
        { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" },
        { "&quot;", "\"" }, { "&apos;", "'" },
    };
    char *out = malloc(n + 1), *o = out;
    const char *end = s + n;
    size_t k;

    while ( out && s < end )
    {
        for ( k = 0; *s == '&' && k < 5; k++ )
            if ( !strncmp(s, ent[k][0], strlen(ent[k][0])) )
                break;
        if ( *s == '&' && k < 5 )
        {
            *o++ = ent[k][1][0];
            s += strlen(ent[k][0]);
        }
        else
            *o++ = *s++;
    }
    if ( out )
        *o = '\0';
    return out;
}

/* The value of attribute name in tag[0..end), or NULL. */
static const char *attr(const char *tag, const char *end, const char *name)
{
    char key[32];
    const char *p;

    snprintf(key, sizeof(key), " %s=\"", name);
    p = strstr(tag, key);
    return p && p < end ? p + strlen(key) : NULL;
}

/* Read one <title>...</title><rect .../> at *p; false when malformed. */
static bool read_frame(const char **p, struct frame *f)
{
    const char *t = *p + strlen("<title>"), *te = strstr(t, "</title>");
    const char *r = te ? strstr(te, "<rect ") : NULL;
    const char *re = r ? strstr(r, "/>") : NULL;
    const char *y, *x, *w, *fill;
    char *cut;

    if ( !re )
        return false;
    y = attr(r, re, "y");
    x = attr(r, re, "fg:x");
    w = attr(r, re, "fg:w");
    fill = attr(r, re, "fill");
    f->name = unescape(t, te - t);
    if ( !y || !x || !w || !f->name || !(cut = strrchr(f->name, '(')) ||
         cut == f->name || cut[-1] != ' ' )
        return false;
    cut[-1] = '\0';
    f->y = strtol(y, NULL, 10);
    f->x = strtoull(x, NULL, 10);
    f->w = strtoull(w, NULL, 10);
    if ( !fill || sscanf(fill, "rgb(%d,%d,%d)", &f->rgb[0], &f->rgb[1],
                         &f->rgb[2]) != 3 )
        f->rgb[0] = f->rgb[1] = f->rgb[2] = -1;
    *p = re;
    return true;
}

/*
 * Every frame of svg; depth from y: the root ("all") is the lowest frame
 * (the highest with inverted), frames 16 px apart.
 */
struct frames fg_frames(const char *svg, bool inverted)
{
    struct frames fs = { 0 };
    const char *p = svg;
    long yroot = inverted ? 1L << 30 : -1;
    size_t i;
    void *q;

    while ( p && (p = strstr(p, "<title>")) && !fs.bad )
    {
        q = realloc(fs.f, (fs.n + 1) * sizeof(*fs.f));
        if ( !q )
            break;
        fs.f = q;
        memset(&fs.f[fs.n], 0, sizeof(*fs.f));
        fs.bad = !read_frame(&p, &fs.f[fs.n++]);
    }
    for ( i = 0; i < fs.n; i++ )
        if ( inverted ? fs.f[i].y < yroot : fs.f[i].y > yroot )
            yroot = fs.f[i].y;
    for ( i = 0; i < fs.n && !fs.bad; i++ )
    {
        fs.f[i].depth = (inverted ? fs.f[i].y - yroot : yroot - fs.f[i].y);
        fs.bad = fs.f[i].depth % 16 != 0;
        fs.f[i].depth /= 16;
    }
    fs.bad = fs.bad || !fs.n;
    return fs;
}

static int cmp_frame(const void *a, const void *b)
{
    const struct frame *x = a, *y = b;

    if ( x->depth != y->depth )
        return x->depth < y->depth ? -1 : 1;
    if ( x->x != y->x )
        return x->x < y->x ? -1 : 1;
    if ( x->w != y->w )
        return x->w < y->w ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Same (depth, name, start, width) sets?  Shows the first difference. */
bool fg_same(struct frames *want, struct frames *got)
{
    size_t i;

    if ( want->bad || got->bad )
        return tap_diag("unparsable SVG frames"), false;
    qsort(want->f, want->n, sizeof(*want->f), cmp_frame);
    qsort(got->f, got->n, sizeof(*got->f), cmp_frame);
    for ( i = 0; i < want->n && i < got->n; i++ )
        if ( cmp_frame(&want->f[i], &got->f[i]) )
            break;
    if ( i == want->n && i == got->n )
        return true;
    if ( i < want->n )
        tap_diag("expected frame depth %ld \"%s\" x %llu w %llu",
                 want->f[i].depth, want->f[i].name,
                 (unsigned long long)want->f[i].x,
                 (unsigned long long)want->f[i].w);
    if ( i < got->n )
        tap_diag("got      frame depth %ld \"%s\" x %llu w %llu",
                 got->f[i].depth, got->f[i].name,
                 (unsigned long long)got->f[i].x,
                 (unsigned long long)got->f[i].w);
    tap_diag("%zu frames expected, %zu drawn", want->n, got->n);
    return false;
}

/* The frame named name at depth, or NULL. */
const struct frame *fg_find(const struct frames *fs, long depth,
                            const char *name)
{
    size_t i;

    for ( i = 0; i < fs->n; i++ )
        if ( fs->f[i].depth == depth && !strcmp(fs->f[i].name, name) )
            return &fs->f[i];
    return NULL;
}

/* Skip the markup construct at *p starting with open up to close. */
static bool skip(const char **p, const char *open, const char *close)
{
    const char *e;

    if ( strncmp(*p, open, strlen(open)) )
        return false;
    e = strstr(*p, close);
    *p = e ? e + strlen(close) : *p + strlen(*p);
    return true;
}

/* Is the text s[0..n) clean: entities known, no control bytes? */
static bool clean_text(const char *s, size_t n)
{
    static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;",
                                       "&apos;" };
    size_t i, k;

    for ( i = 0; i < n; i++ )
    {
        if ( (unsigned char)s[i] < 0x20 && s[i] != '\n' && s[i] != '\t' )
            return false;
        if ( s[i] != '&' )
            continue;
        for ( k = 0; k < 5; k++ )
            if ( !strncmp(s + i, ent[k], strlen(ent[k])) )
                break;
        if ( k == 5 )
            return false;
    }
    return true;
}

/* Tags balanced, one root, attributes quoted, text clean?  Why not. */
bool fg_well_formed(const char *s, const char **why)
{
    const char *stack[64], *p = s, *lt, *q;
    size_t depth = 0, roots = 0, n;

    for ( *why = "ok"; (lt = strchr(p, '<')); )
    {
        if ( !clean_text(p, lt - p) )
            return *why = "bad text", false;
        p = lt;
        if ( skip(&p, "<?", "?>") || skip(&p, "<!--", "-->") ||
             skip(&p, "<![CDATA[", "]]>") )
            continue;
        n = strcspn(p + 1 + (p[1] == '/'), " \t\n/>");
        for ( q = p + 1; *q && *q != '>'; q++ )
            if ( *q == '"' && !(q = strchr(q + 1, '"')) )
                return *why = "unterminated attribute", false;
        lt = strchr(p + 1, '<');
        if ( !*q || !clean_text(p, q - p) || (lt && lt < q) )
            return *why = "bad tag", false;
        if ( p[1] == '/' )
        {
            if ( !depth-- || strncmp(stack[depth] + 1, p + 2, n) ||
                 strcspn(stack[depth] + 1, " \t\n/>") != n )
                return *why = "unbalanced end tag", false;
        }
        else if ( q[-1] != '/' )
        {
            if ( depth == 64 )
                return *why = "too deep", false;
            roots += !depth;
            stack[depth++] = p;
        }
        p = q + 1;
    }
    if ( depth || roots != 1 || !clean_text(p, strlen(p)) )
        return *why = "unclosed tags or text after the root", false;
    return true;
}

/* Write a flame graph (diff when a) of b into *svg; the writer's rc. */
int fg_draw(const struct xenprof_stackset *a,
            const struct xenprof_stackset *b,
            const struct xenprof_svg_opts *o, char **svg)
{
    size_t len;
    FILE *f = open_memstream(svg, &len);
    char err[160] = "";
    int rc;

    if ( !f )
        return -errno;
    if ( a )
        rc = xenprof_write_flamegraph_diff(a, b, f, o, err, sizeof(err));
    else
        rc = xenprof_write_flamegraph(b, f, o, err, sizeof(err));
    fclose(f);
    if ( rc && rc != -ENODATA && rc != -EINVAL )
        tap_diag("writer: %d \"%s\"", rc, err);
    return rc;
}

/* A stack set from folded text (diff: the b set, a in *a). */
struct xenprof_stackset *fg_set_of(const char *text, size_t len,
                                   struct xenprof_stackset **a,
                                   size_t *bad)
{
    FILE *f = fmemopen((void *)text, len ? len : strlen(text), "r");
    struct xenprof_stackset *s = NULL;

    if ( !f )
        return NULL;
    if ( a )
        xenprof_stackset_read_diff_folded(f, a, &s, bad, NULL, 0);
    else
        xenprof_stackset_read_folded(f, &s, bad, NULL, 0);
    fclose(f);
    return s;
}


/* Names that need escaping, bad bytes, an annotation. */
static void escaping(void)
{
    static const char in[] =
        "main;a<b>;x&y 5\n"
        "main;q\"uote's 3\n"
        "main;bad\xff\x01z;caf\xc3\xa9 2\n"
        "main;java_[j] 1\n";
    struct xenprof_stackset *s = fg_set_of(in, 0, NULL, NULL);
    char *svg = NULL;
    const char *why = "no SVG";
    int rc = s ? fg_draw(NULL, s, NULL, &svg) : -ENOMEM;
    struct frames fs = fg_frames(rc ? "" : svg, false);
    bool ok = !rc && fg_well_formed(svg, &why);

    tap_ok(ok, "flamegraph: well-formed SVG, tags balanced (%s)", why);
    tap_ok(!fg_well_formed("<svg><g></svg>", &why) &&
           !fg_well_formed("<svg>a & b</svg>", &why) &&
           !fg_well_formed("<svg><t a=\"<\"/></svg>", &why) &&
           !fg_well_formed("<svg/><svg/>", &why) &&
           fg_well_formed("<?x?><svg><![CDATA[<&]]><g a=\"1\"/></svg>",
                          &why),
           "flamegraph: the checker itself rejects bad XML");
    tap_ok(!rc && strstr(svg, ">a&lt;b&gt; (") &&
           strstr(svg, ">x&amp;y (") && strstr(svg, ">q&quot;uote's (") &&
           strstr(svg, ">caf\xc3\xa9 (") && strstr(svg, ">bad??z (") &&
           !strchr(svg, '\xff'),
           "flamegraph: names XML-escaped, bad bytes as '?', UTF-8 kept");
    tap_ok(!fs.bad && fs.n == 8 && fg_find(&fs, 1, "main") &&
           fg_find(&fs, 2, "java") && fg_find(&fs, 3, "caf\xc3\xa9") &&
           fg_find(&fs, 0, "all") && fg_find(&fs, 0, "all")->w == 11,
           "flamegraph: 8 frames read back, annotation _[j] dropped");
    fg_frames_free(&fs);
    free(svg);
    xenprof_stackset_free(s);
}

static void titles(void)
{
    struct xenprof_stackset *s = fg_set_of("m;a 1000\nm;b 234\n", 0, NULL,
                                           NULL);
    struct xenprof_svg_opts o = { .title = "Xen <on> host1",
                                  .subtitle = "pCPU 1 & 2", .width = 800 };
    char *svg = NULL, *svg2 = NULL;
    int rc = s ? fg_draw(NULL, s, NULL, &svg) : -ENOMEM;

    tap_ok(!rc && strstr(svg, "<title>all (1,234 samples, 100%)</title>") &&
           strstr(svg, "<title>a (1,000 samples, 81.04%)</title>") &&
           strstr(svg, "<title>m (1,234 samples, 100.00%)</title>"),
           "flamegraph: tooltips NAME (N samples, P%%)");
    tap_ok(!rc && strstr(svg, ">Flame Graph</text>") &&
           strstr(svg, "width=\"1200\"") && strstr(svg, "width=\"1180\" "
                                                    "total_samples=\"1234\""),
           "flamegraph: default title and width (1200, frames 1180)");
    rc = rc ?: fg_draw(NULL, s, &o, &svg2);
    tap_ok(!rc && strstr(svg2, ">Xen &lt;on&gt; host1</text>") &&
           strstr(svg2, ">pCPU 1 &amp; 2</text>") &&
           strstr(svg2, "width=\"800\"") && strstr(svg2, "width=\"780\""),
           "flamegraph: title, subtitle (escaped) and width");
    tap_ok(!rc && strstr(svg, "function zoom(") &&
           strstr(svg, "function search(") && strstr(svg, "onload=\"init") &&
           !strstr(svg, "http:/" "/www.w3.org/Graphics") &&
           !strstr(svg, "src=\""),
           "flamegraph: embedded JavaScript (zoom, search), nothing loaded");
    free(svg);
    free(svg2);
    xenprof_stackset_free(s);
}

static void pruning(void)
{
    struct xenprof_stackset *s = fg_set_of("big;b 100000\nsmall;s 1\n", 0,
                                           NULL, NULL);
    struct xenprof_svg_opts o = { .minwidth = 0.001 };
    char *svg = NULL, *svg2 = NULL;
    int rc = s ? fg_draw(NULL, s, NULL, &svg) : -ENOMEM;
    struct frames a = fg_frames(rc ? "" : svg, false), b;

    rc = rc ?: fg_draw(NULL, s, &o, &svg2);
    b = fg_frames(rc ? "" : svg2, false);
    tap_ok(!a.bad && a.n == 3 && !fg_find(&a, 1, "small") &&
           !b.bad && b.n == 5 && fg_find(&b, 2, "s"),
           "flamegraph: frames under 0.1 px pruned, minwidth 0.001 keeps "
           "them (%zu, %zu frames)", a.n, b.n);
    tap_ok(!rc && strstr(svg, ">big</text>") && strstr(svg2, "></text>"),
           "flamegraph: labels where they fit, none on narrow frames");
    fg_frames_free(&a);
    fg_frames_free(&b);
    free(svg);
    free(svg2);
    xenprof_stackset_free(s);
}

static void inverted(void)
{
    struct xenprof_stackset *s = fg_set_of("m;a;b 3\nm;c 1\n", 0, NULL,
                                           NULL);
    struct xenprof_svg_opts o = { .inverted = 1 };
    char *svg = NULL, *svg2 = NULL;
    int rc = s ? fg_draw(NULL, s, NULL, &svg) : -ENOMEM;
    struct frames up = fg_frames(rc ? "" : svg, false), down;
    const struct frame *r, *b;

    rc = rc ?: fg_draw(NULL, s, &o, &svg2);
    down = fg_frames(rc ? "" : svg2, true);
    r = fg_find(&up, 0, "all");
    b = fg_find(&up, 3, "b");
    tap_ok(r && b && r->y == 3 * 16 + 36 + 1 && b->y == r->y - 3 * 16 &&
           strstr(svg, "height=\"134\""),
           "flamegraph: root at the bottom, 16 px per level");
    r = fg_find(&down, 0, "all");
    b = fg_find(&down, 3, "b");
    tap_ok(r && b && r->y == 52 && b->y == 52 + 3 * 16 &&
           fg_same(&up, &down) && strstr(svg2, "inverted: true"),
           "flamegraph: inverted, root at the top, same frames");
    fg_frames_free(&up);
    fg_frames_free(&down);
    free(svg);
    free(svg2);
    xenprof_stackset_free(s);
}

static bool warm(const struct frame *f)
{
    return f && f->rgb[0] >= 205 && f->rgb[2] <= 55;
}

static bool green(const struct frame *f)
{
    return f && f->rgb[1] > f->rgb[0] && f->rgb[1] >= 165;
}

static bool grey(const struct frame *f)
{
    return f && f->rgb[0] == f->rgb[1] && f->rgb[1] == f->rgb[2];
}

static void colours(void)
{
    static const char in[] =
        "main_loop;do_work 5\n"
        "[truncated];main_loop 1\n"
        "[bad frame];main_loop 1\n"
        "d1v0 web;[guest kernel] 2\n"
        "d12v3;[guest user] 2\n"
        "[unknown] 1\n";
    struct xenprof_stackset *s = fg_set_of(in, 0, NULL, NULL);
    char *svg = NULL, *svg2 = NULL;
    int rc = s ? fg_draw(NULL, s, NULL, &svg) : -ENOMEM;
    struct frames fs = fg_frames(rc ? "" : svg, false);

    tap_ok(warm(fg_find(&fs, 1, "main_loop")) &&
           warm(fg_find(&fs, 2, "do_work")),
           "flamegraph: Xen frames warm");
    tap_ok(green(fg_find(&fs, 1, "d1v0 web")) &&
           green(fg_find(&fs, 2, "[guest kernel]")) &&
           green(fg_find(&fs, 1, "d12v3")) &&
           green(fg_find(&fs, 2, "[guest user]")),
           "flamegraph: guest frames green");
    tap_ok(grey(fg_find(&fs, 1, "[truncated]")) &&
           grey(fg_find(&fs, 1, "[bad frame]")) &&
           grey(fg_find(&fs, 1, "[unknown]")),
           "flamegraph: marker frames grey");
    rc = rc ?: fg_draw(NULL, s, NULL, &svg2);
    tap_ok(!rc && !strcmp(svg, svg2), "flamegraph: deterministic output");
    fg_frames_free(&fs);
    free(svg);
    free(svg2);
    xenprof_stackset_free(s);
}

static void diff(void)
{
    struct xenprof_stackset *a = NULL;
    struct xenprof_stackset *b = fg_set_of("m;x 10 20\nm;y 5 0\nm;z 0 5\n",
                                           0, &a, NULL);
    char *svg = NULL;
    int rc = b ? fg_draw(a, b, NULL, &svg) : -ENOMEM;
    struct frames fs = fg_frames(rc ? "" : svg, false);
    const struct frame *x = fg_find(&fs, 2, "x"), *z = fg_find(&fs, 2, "z");
    const struct frame *m = fg_find(&fs, 1, "m");

    tap_ok(!rc && fs.n == 4 && x && x->w == 20 && z && z->w == 5 &&
           m && m->w == 25 && !fg_find(&fs, 2, "y"),
           "flamegraph diff: sized by b, a stack gone in b not drawn");
    tap_ok(!rc && strstr(svg, "<title>x (20 samples, 80.00%; +40.00%)") &&
           strstr(svg, "<title>m (25 samples, 100.00%; 0.00%)") &&
           strstr(svg, "<title>all (25 samples, 100%)"),
           "flamegraph diff: tooltips show the delta");
    tap_ok(x && x->rgb[0] == 255 && x->rgb[1] == 0 && z &&
           z->rgb[0] == 255 && z->rgb[1] == 105 && m &&
           m->rgb[0] == m->rgb[2],
           "flamegraph diff: red by the growth, neutral when unchanged");
    fg_frames_free(&fs);
    free(svg);
    xenprof_stackset_free(a);
    xenprof_stackset_free(b);
    b = fg_set_of("m;x 20 10\nm;z 5 5\n", 0, &a, NULL);
    rc = b ? fg_draw(a, b, NULL, &svg) : -ENOMEM;
    fs = fg_frames(rc ? "" : svg, false);
    x = fg_find(&fs, 2, "x");
    tap_ok(x && x->rgb[2] == 255 && x->rgb[0] == 0 &&
           strstr(svg, "; -66.67%)"),
           "flamegraph diff: blue where b shrank");
    fg_frames_free(&fs);
    free(svg);
    xenprof_stackset_free(a);
    xenprof_stackset_free(b);
}

static void errors(void)
{
    struct xenprof_stackset *s = fg_set_of("a;b 0\n", 0, NULL, NULL);
    struct xenprof_stackset *t = fg_set_of("a;b 1\n", 0, NULL, NULL);
    struct xenprof_svg_opts narrow = { .width = 20 }, neg = { .minwidth = -1 };
    FILE *full = fopen("/dev/full", "w");
    char *svg = NULL;
    int rc = s ? fg_draw(NULL, s, NULL, &svg) : -ENOMEM;

    tap_ok(rc == -ENODATA, "flamegraph: no samples give -ENODATA (%d)", rc);
    free(svg);
    svg = NULL;
    rc = s ? fg_draw(s, s, NULL, &svg) : -ENOMEM;
    tap_ok(rc == -ENODATA, "flamegraph diff: no samples give -ENODATA");
    free(svg);
    svg = NULL;
    rc = t ? fg_draw(NULL, t, &narrow, &svg) : -ENOMEM;
    free(svg);
    svg = NULL;
    tap_ok(rc == -EINVAL && t && fg_draw(NULL, t, &neg, &svg) == -EINVAL &&
           xenprof_write_flamegraph(NULL, stdout, NULL, NULL, 0) == -EINVAL &&
           xenprof_write_flamegraph_diff(t, NULL, stdout, NULL, NULL,
                                         0) == -EINVAL,
           "flamegraph: bad options or NULL arguments give -EINVAL");
    if ( full && t )
        tap_ok(xenprof_write_flamegraph(t, full, NULL, NULL, 0) == -EIO,
               "flamegraph: a write error gives -EIO");
    else
        tap_skip("no /dev/full", "flamegraph: a write error gives -EIO");
    if ( full )
        fclose(full);
    free(svg);
    xenprof_stackset_free(s);
    xenprof_stackset_free(t);
}

void test_flamegraph(void)
{
    escaping();
    titles();
    pruning();
    inverted();
    colours();
    diff();
    errors();
    test_fg_corpus();
}
