/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-flamegraph.c: the flame graph SVG writer, drawn as flamegraph.pl and
 * inferno draw it, so that the same stacks give the same frames.
 *
 * The stacks are walked in sorted order with the bottom frame "all" in
 * front, keeping the path of open frames: a frame shared with the
 * previous stack stays open, the others are closed (and drawn) and the
 * new ones opened at the current x, which then grows by the stack's
 * width.  This is flamegraph.pl's flow(): no tree is built, and the
 * frames come out as they close.  Frames narrower than minwidth px are
 * pruned (with all their children, which are narrower still).  The walk
 * runs twice: once for the height (the deepest drawn frame), once to
 * write.
 *
 * Each frame is <g><title>NAME (N samples, P%)</title><rect x y width
 * height fill fg:x fg:w/><text>label</text></g>, x and width in percent
 * of the frames area, fg:x and fg:w in samples (as inferno), names
 * XML-escaped (bytes that are not valid UTF-8 or XML become '?').
 * The colours are write-flamegraph-colour.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stackset.h"

#define XPAD        10          /* px left and right */
#define FRAME_H     16          /* px per level, rect 1 px less */
#define FONT_SIZE   12
#define FONT_WIDTH  0.59
#define OBUF_SIZE   65536
#define SEARCH_RGB  "rgb(230,0,230)"

/* An open frame of the walk. */
struct open {
    const char *name;
    uint64_t start;
    int64_t delta;
};

struct fg {
    FILE *out;
    bool diff, inverted, draw;          /* draw: the writing pass */
    unsigned int width, height, ypad1, ypad2;   /* px */
    double minwidth_time;
    uint64_t total, time, maxdelta;
    size_t depthmax;
    struct open *path;                  /* path[0] is "all" */
    size_t depth, cap;                  /* open frames, room */
    char *buf;                          /* output buffer */
    size_t len;
    int rc;                             /* first write error */
};

/* Output buffer: flush, room for n bytes, append. */
static void flush(struct fg *g)
{
    if ( g->len && fwrite(g->buf, 1, g->len, g->out) != g->len )
        g->rc = -EIO;
    g->len = 0;
}

static void put(struct fg *g, const char *s, size_t n)
{
    if ( g->len + n > OBUF_SIZE )
        flush(g);
    if ( n > OBUF_SIZE )
    {
        if ( fwrite(s, 1, n, g->out) != n )
            g->rc = -EIO;
        return;
    }
    memcpy(g->buf + g->len, s, n);
    g->len += n;
}

static void put_str(struct fg *g, const char *s)
{
    put(g, s, strlen(s));
}

static void put_u64(struct fg *g, uint64_t v, bool commas)
{
    char tmp[32], *p = tmp + sizeof(tmp);
    unsigned int i = 0;

    do {
        if ( commas && i && !(i % 3) )
            *--p = ',';
        *--p = '0' + v % 10;
        v /= 10;
        i++;
    } while ( v );
    put(g, p, tmp + sizeof(tmp) - p);
}

/* v >= 0 with `places` decimals (1 to 4), rounded. */
static void put_fixed(struct fg *g, double v, unsigned int places)
{
    static const unsigned int scale[] = { 1, 10, 100, 1000, 10000 };
    uint64_t r = (uint64_t)(v * scale[places] + 0.5);
    char tmp[8];
    unsigned int i;

    put_u64(g, r / scale[places], false);
    tmp[0] = '.';
    r %= scale[places];
    for ( i = places; i > 0; i-- )
    {
        tmp[i] = '0' + r % 10;
        r /= 10;
    }
    put(g, tmp, places + 1);
}

/* Length of the valid UTF-8 sequence at p (allowed in XML), or 0. */
static size_t utf8_len(const unsigned char *p)
{
    if ( p[0] < 0x80 )
        return p[0] >= 0x20 && p[0] != 0x7f ? 1 : (p[0] == '\t');
    if ( p[0] >= 0xc2 && p[0] <= 0xdf )
        return (p[1] & 0xc0) == 0x80 ? 2 : 0;
    if ( p[0] >= 0xe0 && p[0] <= 0xef )
    {
        if ( (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
             (p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
             (p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe) )
            return 0;
        return 3;
    }
    if ( p[0] >= 0xf0 && p[0] <= 0xf4 )
    {
        if ( (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
             (p[3] & 0xc0) != 0x80 || (p[0] == 0xf0 && p[1] < 0x90) ||
             (p[0] == 0xf4 && p[1] > 0x8f) )
            return 0;
        return 4;
    }
    return 0;
}

/* The XML entity of c, or NULL. */
static const char *entity(unsigned char c)
{
    switch ( c )
    {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    default:
        return NULL;
    }
}

/* Write at most max characters of s[0..n), XML-escaped; the chars put. */
static size_t put_esc(struct fg *g, const char *s, size_t n, size_t max)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    size_t chars = 0, k;
    const char *e;

    for ( ; p < end && chars < max; chars++ )
    {
        /* s is NUL-terminated: utf8_len() stops at the NUL. */
        k = (e = entity(*p)) ? 1 : utf8_len(p);
        if ( e )
            put_str(g, e);
        else if ( k && k <= (size_t)(end - p) )
            put(g, (const char *)p, k);
        else
            put(g, "?", 1);
        p += k && k <= (size_t)(end - p) ? k : 1;
    }
    return chars;
}

/* Characters (not UTF-8 continuation bytes) in s[0..n). */
static size_t chars(const char *s, size_t n)
{
    size_t c = 0;

    while ( n-- )
        c += ((unsigned char)*s++ & 0xc0) != 0x80;
    return c;
}

/* The displayed name: "all" at the bottom, no "_[k]"-like annotation. */
static size_t display_len(const char *name)
{
    size_t n = strlen(name);

    if ( n >= 4 && name[n - 1] == ']' && name[n - 4] == '_' &&
         name[n - 3] == '[' && strchr("kwij", name[n - 2]) )
        return n - 4;
    return n;
}

/* <title>: "NAME (N samples, P%)", with "; +D%" for a diff. */
static void put_title(struct fg *g, const struct open *f, size_t depth,
                      uint64_t w)
{
    char tmp[32];

    put_str(g, "<g><title>");
    if ( !depth )
        put_str(g, "all");
    else
        put_esc(g, f->name, display_len(f->name), SIZE_MAX);
    put_str(g, " (");
    put_u64(g, w, true);
    put_str(g, " samples, ");
    if ( !depth )
        put_str(g, "100");
    else
        put_fixed(g, 100.0 * w / g->total, 2);
    put_str(g, "%");
    if ( g->diff && depth )
    {
        snprintf(tmp, sizeof(tmp), "; %+.2f%%",
                 100.0 * f->delta / g->total);
        put_str(g, f->delta ? tmp : "; 0.00%");
    }
    put_str(g, ")</title>");
}

/* The whole <g> element of frame f, closed at g->time. */
static void put_frame(struct fg *g, const struct open *f, size_t depth)
{
    uint64_t w = g->time - f->start;
    double x = 100.0 * f->start / g->total, wp = 100.0 * w / g->total;
    unsigned int y = g->inverted ? g->ypad1 + depth * FRAME_H :
                     g->height - g->ypad2 - (depth + 1) * FRAME_H + 1;
    double px = (double)w / g->total * (g->width - 2 * XPAD);
    size_t fit = (size_t)(px / (FONT_SIZE * FONT_WIDTH)), n;
    const char *name = depth ? f->name : "all";
    int rgb[3];
    char tmp[64];

    xenprof_priv_fg_colour(f->name, depth, g->diff, f->delta, g->maxdelta,
                           rgb);
    put_title(g, f, depth, w);
    put_str(g, "<rect x=\"");
    put_fixed(g, x, 4);
    snprintf(tmp, sizeof(tmp), "%%\" y=\"%u\" width=\"", y);
    put_str(g, tmp);
    put_fixed(g, wp, 4);
    snprintf(tmp, sizeof(tmp), "%%\" height=\"%d\" fill=\"rgb(%d,%d,%d)\"",
             FRAME_H - 1, rgb[0], rgb[1], rgb[2]);
    put_str(g, tmp);
    put_str(g, " fg:x=\"");
    put_u64(g, f->start, false);
    put_str(g, "\" fg:w=\"");
    put_u64(g, w, false);
    put_str(g, "\"/><text x=\"");
    put_fixed(g, x + 300.0 / (g->width - 2 * XPAD), 4);
    snprintf(tmp, sizeof(tmp), "%%\" y=\"%u.50\">", y + 10);
    put_str(g, tmp);
    n = display_len(name);
    if ( fit >= 3 && chars(name, n) < fit )
        put_esc(g, name, n, SIZE_MAX);
    else if ( fit >= 3 )
    {
        put_esc(g, name, n, fit - 2);
        put_str(g, "..");
    }
    put_str(g, "</text></g>\n");
}

static bool same(const char *a, const char *b)
{
    return a == b || !strcmp(a, b);
}

/* Close the open frames down to depth keep (drawing them, or not). */
static void close_to(struct fg *g, size_t keep)
{
    const struct open *f;

    while ( g->depth > keep )
    {
        f = &g->path[--g->depth];
        if ( (double)(g->time - f->start) < g->minwidth_time )
            continue;
        if ( g->draw )
            put_frame(g, f, g->depth);
        else if ( g->depth > g->depthmax )
            g->depthmax = g->depth;
    }
}

/* The next stack: close what it does not share, open the rest. */
static int flow(struct fg *g, const struct xenprof_fg_item *it)
{
    size_t n = it->nr_frames, k = 0, i;
    struct open *p;

    while ( k < n && k + 1 < g->depth && same(g->path[k + 1].name,
                                              it->frames[k]) )
        k++;
    close_to(g, k + 1);
    if ( n + 1 > g->cap )
    {
        if ( n >= SIZE_MAX / sizeof(*p) / 2 )
            return -ENOMEM;
        p = realloc(g->path, 2 * (n + 1) * sizeof(*p));
        if ( !p )
            return -ENOMEM;
        g->path = p;
        g->cap = 2 * (n + 1);
    }
    for ( i = k; i < n; i++ )
    {
        p = &g->path[i + 1];
        p->name = it->frames[i];
        p->start = g->time;
        p->delta = i + 1 == n ? it->delta : 0;
    }
    if ( n + 1 > g->depth )
        g->depth = n + 1;
    g->time += it->width;
    return 0;
}

/* One walk over the n stacks; 0, -ENOMEM or -EIO. */
static int walk(struct fg *g, xenprof_fg_get_t get, void *ctx, size_t n)
{
    struct xenprof_fg_item it;
    size_t i;
    int rc = 0;

    g->time = 0;
    g->depth = 1;
    g->path[0].name = "";
    g->path[0].start = 0;
    g->path[0].delta = 0;
    for ( i = 0; i < n && !rc && !g->rc; i++ )
    {
        rc = get(ctx, i, &it);
        if ( !rc && it.nr_frames )
            rc = flow(g, &it);
        else if ( !rc )
            g->time += it.width;
    }
    if ( !rc )
        close_to(g, 0);
    return rc ?: g->rc;
}

/* Sum the widths and find the largest delta; 0, -ENOMEM, -EOVERFLOW. */
static int measure(struct fg *g, xenprof_fg_get_t get, void *ctx, size_t n)
{
    struct xenprof_fg_item it;
    uint64_t ad;
    size_t i;
    int rc;

    g->total = 0;
    g->maxdelta = 1;
    for ( i = 0; i < n; i++ )
    {
        if ( (rc = get(ctx, i, &it)) )
            return rc;
        if ( it.width > UINT64_MAX - g->total )
            return -EOVERFLOW;
        g->total += it.width;
        ad = it.delta < 0 ? -(uint64_t)it.delta : (uint64_t)it.delta;
        if ( ad > g->maxdelta )
            g->maxdelta = ad;
    }
    return 0;
}

/* Check and apply the options; 0 or -EINVAL. */
static int setup(struct fg *g, const struct xenprof_svg_opts *o, bool diff,
                 char *err, size_t errlen)
{
    double minwidth = o && o->minwidth != 0 ? o->minwidth : 0.1;

    g->diff = diff;
    g->inverted = o && o->inverted;
    g->width = o && o->width ? o->width : 1200;
    if ( g->width <= 2 * XPAD || g->width > 1000000 )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "flame graph: bad width %u", g->width);
    if ( !(minwidth >= 0 && minwidth < 1e9) )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "flame graph: bad minwidth %g", minwidth);
    g->ypad1 = (g->inverted ? FONT_SIZE * 4 + 4 : FONT_SIZE * 3) +
               (o && o->subtitle ? FONT_SIZE * 2 : 0);
    g->ypad2 = g->inverted ? FONT_SIZE + 10 : FONT_SIZE * 2 + 10;
    /* As flamegraph.pl: px per sample, then samples per minwidth px. */
    g->minwidth_time = minwidth /
        ((double)(g->width - 2 * XPAD) / (double)g->total);
    return 0;
}

/* A <text> element: id, x, y, then the escaped text. */
static void put_text(struct fg *g, const char *id, const char *cls,
                     double x, size_t y, const char *text)
{
    char tmp[160];

    snprintf(tmp, sizeof(tmp), "<text id=\"%s\"%s%s%s x=\"%g\" y=\"%zu\">",
             id, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "",
             x, y);
    put_str(g, tmp);
    put_esc(g, text, strlen(text), SIZE_MAX);
    put_str(g, "</text>\n");
}

static void put_header(struct fg *g, const struct xenprof_svg_opts *o)
{
    size_t details = g->inverted ? g->ypad1 - 12 : g->height - 17;
    char tmp[512];

    snprintf(tmp, sizeof(tmp),
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg version=\"1.1\" width=\"%u\" height=\"%u\" "
             "onload=\"init(evt)\" viewBox=\"0 0 %u %u\" "
             "xmlns=\"http://www.w3.org/2000/svg\" "
             "xmlns:fg=\"urn:xenprofile:flamegraph\">\n"
             "<!-- Flame graph written by libxenprofile. -->\n"
             "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" "
             "x1=\"0\" x2=\"0\"><stop stop-color=\"#eeeeee\" offset=\"5%%\"/>"
             "<stop stop-color=\"#eeeeb0\" offset=\"95%%\"/>"
             "</linearGradient></defs>\n<style type=\"text/css\"><![CDATA[\n",
             g->width, g->height, g->width, g->height);
    put_str(g, tmp);
    put_str(g, xenprof_priv_fg_css);
    put_str(g, "]]></style>\n<script type=\"text/ecmascript\"><![CDATA[\n");
    snprintf(tmp, sizeof(tmp),
             "var fg_conf = { inverted: %s, fontsize: %d, fontwidth: %g, "
             "nametype: \"Function:\", searchcolor: \"%s\" };\n",
             g->inverted ? "true" : "false", FONT_SIZE, FONT_WIDTH,
             SEARCH_RGB);
    put_str(g, xenprof_priv_fg_js);
    put_str(g, tmp);
    snprintf(tmp, sizeof(tmp), "]]></script>\n<rect x=\"0\" y=\"0\" "
             "width=\"100%%\" height=\"%u\" fill=\"url(#background)\"/>\n",
             g->height);
    put_str(g, tmp);
    put_text(g, "title", NULL, g->width / 2.0, FONT_SIZE * 2,
             o && o->title ? o->title : "Flame Graph");
    if ( o && o->subtitle )
        put_text(g, "subtitle", NULL, g->width / 2.0, FONT_SIZE * 4,
                 o->subtitle);
    put_text(g, "details", NULL, XPAD, details, " ");
    put_text(g, "unzoom", "hide", XPAD, FONT_SIZE * 2, "Reset Zoom");
    put_text(g, "search", NULL, g->width - XPAD, FONT_SIZE * 2, "Search");
    put_text(g, "matched", NULL, g->width - XPAD, details, " ");
    snprintf(tmp, sizeof(tmp), "<svg id=\"frames\" x=\"%d\" width=\"%u\" "
             "total_samples=\"%" PRIu64 "\">\n", XPAD, g->width - 2 * XPAD,
             g->total);
    put_str(g, tmp);
}

/* Measure, lay out, write: see stackset.h. */
static int draw(struct fg *g, xenprof_fg_get_t get, void *ctx, size_t n,
                const struct xenprof_svg_opts *o, char *err, size_t errlen)
{
    int rc = measure(g, get, ctx, n);

    if ( !rc && !g->total )
        return xenprof_priv_err(err, errlen, -ENODATA,
                                "flame graph: no samples to draw");
    rc = rc ?: setup(g, o, g->diff, err, errlen);
    rc = rc ?: walk(g, get, ctx, n);
    if ( rc )
        return rc;
    g->height = (g->depthmax + 1) * FRAME_H + g->ypad1 + g->ypad2;
    g->draw = true;
    put_header(g, o);
    rc = walk(g, get, ctx, n);
    if ( !rc )
        put_str(g, "</svg>\n</svg>\n");
    flush(g);
    if ( !rc && (g->rc || fflush(g->out) || ferror(g->out)) )
        rc = -EIO;
    return rc;
}

int xenprof_priv_flamegraph(xenprof_fg_get_t get, void *ctx, size_t n,
                            bool diff, FILE *out,
                            const struct xenprof_svg_opts *o,
                            char *err, size_t errlen)
{
    struct fg g = { .out = out, .diff = diff };
    int rc = -ENOMEM;

    g.buf = malloc(OBUF_SIZE);
    g.path = malloc(64 * sizeof(*g.path));
    g.cap = 64;
    if ( g.buf && g.path )
        rc = draw(&g, get, ctx, n, o, err, errlen);
    free(g.buf);
    free(g.path);
    if ( rc == -ENOMEM )
        xenprof_priv_err(err, errlen, rc, "flame graph: out of memory");
    else if ( rc == -EIO )
        xenprof_priv_err(err, errlen, rc, "flame graph: write error");
    else if ( rc == -EOVERFLOW )
        xenprof_priv_err(err, errlen, rc, "flame graph: too many samples");
    return rc;
}

static int get_set(void *ctx, size_t i, struct xenprof_fg_item *it)
{
    uint64_t count;

    xenprof_stackset_get(ctx, i, &it->frames, &it->nr_frames, &count);
    it->width = count;
    it->delta = 0;
    return 0;
}

/* Also -EINVAL when s or out is NULL or an option is out of range. */
int xenprof_write_flamegraph(const struct xenprof_stackset *s, FILE *out,
                             const struct xenprof_svg_opts *o,
                             char *err, size_t errlen)
{
    if ( !s || !out )
        return xenprof_priv_err(err, errlen, -EINVAL,
                                "flame graph: no stacks or no output");
    return xenprof_priv_flamegraph(get_set, (void *)s,
                                   xenprof_stackset_size(s), false, out, o,
                                   err, errlen);
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
