/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-report-util.c: helpers of the report tests (test-report.h): run
 * the command with its output captured, compare texts, and a small JSON
 * checker written from RFC 8259, independently of the library's writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-report.h"

int run_report(struct run *r, const char *const *args)
{
    static unsigned int nr_out;
    static char abuf[32][TPATH + 16];
    char *argv[32], opath[TPATH], name[32], at;
    const char *path;
    size_t lo, le, len;
    FILE *o, *e;
    int argc;

    memset(r, 0, sizeof(*r));
    snprintf(name, sizeof(name), "out%u", nr_out++);
    tmp_path(opath, name);
    for ( argc = 0; args[argc] && argc < 31; argc++ )
    {
        argv[argc] = (char *)args[argc];
        len = strlen(args[argc]);
        at = len >= 2 && args[argc][len - 2] == '@' ? args[argc][len - 1]
                                                     : 0;
        path = at == 'A' ? report_data_path() :
               at == 'B' ? report_folded_path() : at == 'O' ? opath : NULL;
        if ( !path )
            continue;
        /* "-i@A", "--input=@A": the path replaces the "@A" suffix. */
        snprintf(abuf[argc], sizeof(abuf[argc]), "%.*s%s", (int)(len - 2),
                 args[argc], path);
        argv[argc] = abuf[argc];
    }
    argv[argc] = NULL;
    o = open_memstream(&r->out, &lo);
    e = open_memstream(&r->err, &le);
    if ( !o || !e )
    {
        if ( o )
            fclose(o);
        if ( e )
            fclose(e);
        return -1;
    }
    r->rc = xenprof_report_main(argc, argv, o, e);
    fclose(o);
    fclose(e);
    return 0;
}

void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

/*
 * A small JSON checker (RFC 8259): returns the end of the value at p, or
 * NULL when it is not valid.
 */
static const char *j_value(const char *p, unsigned int depth);

static const char *j_ws(const char *p)
{
    while ( *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' )
        p++;
    return p;
}

/* Bytes of the UTF-8 sequence at p, 0 when invalid. */
static size_t j_utf8(const unsigned char *p)
{
    size_t n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0, i;

    if ( *p >= 0xf5 )
        return 0;
    for ( i = 1; i < n; i++ )
        if ( (p[i] & 0xc0) != 0x80 )
            return 0;
    return n;
}

static const char *j_string(const char *p)
{
    size_t n;

    if ( *p++ != '"' )
        return NULL;
    while ( *p != '"' )
    {
        if ( (unsigned char)*p < 0x20 )
            return NULL;
        if ( *p == '\\' )
        {
            p++;
            if ( *p == 'u' )
            {
                if ( strspn(p + 1, "0123456789abcdefABCDEF") < 4 )
                    return NULL;
                p += 5;
            }
            else if ( *p && strchr("\"\\/bfnrt", *p) )
                p++;
            else
                return NULL;
        }
        else if ( (unsigned char)*p >= 0x80 )
        {
            n = j_utf8((const unsigned char *)p);
            if ( !n )
                return NULL;
            p += n;
        }
        else
            p++;
    }
    return p + 1;
}

static const char *j_number(const char *p)
{
    const char *s;

    p += *p == '-';
    if ( *p == '0' )
        p++;
    else if ( *p >= '1' && *p <= '9' )
        p += strspn(p, "0123456789");
    else
        return NULL;
    if ( *p == '.' )
    {
        s = ++p;
        p += strspn(p, "0123456789");
        if ( p == s )
            return NULL;
    }
    if ( *p == 'e' || *p == 'E' )
    {
        p++;
        p += *p == '+' || *p == '-';
        s = p;
        p += strspn(p, "0123456789");
        if ( p == s )
            return NULL;
    }
    return p;
}

/* Elements of an array or members of an object, after the bracket. */
static const char *j_items(const char *p, char close, unsigned int depth)
{
    p = j_ws(p);
    if ( *p == close )
        return p + 1;
    for ( ; ; )
    {
        if ( close == '}' )
        {
            p = j_string(p);
            p = p ? j_ws(p) : NULL;
            if ( !p || *p++ != ':' )
                return NULL;
        }
        p = j_value(p, depth + 1);
        if ( !p )
            return NULL;
        p = j_ws(p);
        if ( *p == close )
            return p + 1;
        if ( *p++ != ',' )
            return NULL;
        p = j_ws(p);
    }
}

static const char *j_value(const char *p, unsigned int depth)
{
    p = j_ws(p);
    if ( depth > 20000 )
        return NULL;
    if ( *p == '{' )
        return j_items(p + 1, '}', depth);
    if ( *p == '[' )
        return j_items(p + 1, ']', depth);
    if ( *p == '"' )
        return j_string(p);
    if ( !strncmp(p, "true", 4) || !strncmp(p, "null", 4) )
        return p + 4;
    if ( !strncmp(p, "false", 5) )
        return p + 5;
    return j_number(p);
}

bool json_valid(const char *text)
{
    const char *end = text ? j_value(text, 0) : NULL;

    return end && !*j_ws(end);
}

long long json_number(const char *text, const char *from, const char *key)
{
    const char *p = from ? strstr(text, from) : text;

    p = p ? strstr(p, key) : NULL;
    return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

long long json_sum_totals(const char *text, const char *key)
{
    const char *p = strstr(text, key), *end;
    long long sum = 0;

    end = p ? strchr(p, ']') : NULL;
    if ( !end )
        return -1;
    while ( (p = strstr(p, "\"total\": ")) && p < end )
    {
        sum += strtoll(p + 9, NULL, 10);
        p += 9;
    }
    return sum;
}
