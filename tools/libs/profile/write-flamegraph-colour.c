/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * write-flamegraph-colour.c: the palette of the flame graph writer.  Xen
 * frames are warm (from a hash of the name, so that a function keeps its
 * colour from one graph to the next), guest frames green and aqua, marker
 * frames ("[truncated]", "[unknown]", ...) grey, the root pale; a
 * differential graph is red where the profile grew and blue where it
 * shrank, as flamegraph.pl colours it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "stackset.h"

/* Three values in [0, 1) from a hash of name. */
static void name_hash(const char *name, double v[3])
{
    uint64_t h = 0xcbf29ce484222325ULL;
    unsigned int i;

    for ( ; *name; name++ )
    {
        h ^= (unsigned char)*name;
        h *= 0x100000001b3ULL;
    }
    for ( i = 0; i < 3; i++ )
    {
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ULL;
        v[i] = (double)(h >> 40) / (double)(1ULL << 24);
    }
}

static bool is_guest(const char *n)
{
    if ( !strncmp(n, "[guest ", 7) )
        return true;
    if ( n[0] != 'd' || n[1] < '0' || n[1] > '9' )
        return false;
    for ( n++; *n >= '0' && *n <= '9'; n++ )
        ;
    if ( *n++ != 'v' || *n < '0' || *n > '9' )
        return false;
    while ( *n >= '0' && *n <= '9' )
        n++;
    return !*n || *n == ' ';
}

static bool is_marker(const char *n)
{
    return !strcmp(n, "[truncated]") || !strcmp(n, "[bad frame]") ||
           !strcmp(n, "[pv entry]") || !strcmp(n, "[no stack]") ||
           !strcmp(n, "[unknown]") || !strcmp(n, "-") || !strcmp(n, "--");
}

static void set_rgb(int rgb[3], double r, double g, double b)
{
    rgb[0] = r;
    rgb[1] = g;
    rgb[2] = b;
}

void xenprof_priv_fg_colour(const char *name, size_t depth, bool diff,
                            int64_t d, uint64_t maxdelta, int rgb[3])
{
    uint64_t ad = d < 0 ? -(uint64_t)d : (uint64_t)d;
    int shade = diff ? 210.0 * (double)(maxdelta - ad) / (double)maxdelta
                     : 0;
    double v[3];

    if ( diff )
    {
        /* Red where b grew, blue where it shrank, as flamegraph.pl. */
        if ( d > 0 )
            set_rgb(rgb, 255, shade, shade);
        else if ( d < 0 )
            set_rgb(rgb, shade, shade, 255);
        else
            set_rgb(rgb, 250, 250, 250);
        return;
    }
    name_hash(name, v);
    if ( !depth )
        set_rgb(rgb, 240, 240, 220);
    else if ( is_marker(name) )
        set_rgb(rgb, 150 + 60 * v[0], 150 + 60 * v[0], 150 + 60 * v[0]);
    else if ( is_guest(name) )
        set_rgb(rgb, 50 + 60 * v[0], 165 + 55 * v[1], 120 + 80 * v[2]);
    else
        set_rgb(rgb, 205 + 50 * v[2], 230 * v[0], 55 * v[1]);
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
