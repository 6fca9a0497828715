/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * mkseeds.c: the seed corpus of the harnesses, written into DIR/data,
 * DIR/records, DIR/folded and DIR/elf: small synthetic profiles (synth.h)
 * as data files, their record streams, folded text (plain and
 * differential), and crafted xen-syms ELF files (elf-craft.h).
 * `make seeds` (and fuzz, regress) runs it at build time: no corpus
 * is kept in the tree, and the same seeds give the same files.
 *
 * usage: mkseeds DIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elf-craft.h"
#include "synth.h"

static const char *dir;

/* Make DIR/sub; exits on failure. */
static void subdir(const char *sub)
{
    char path[512];

    snprintf(path, sizeof(path), "%s/%s", dir, sub);
    if ( mkdir(path, 0755) && errno != EEXIST )
    {
        perror(path);
        exit(1);
    }
}

/* Write buf to DIR/sub/name; exits on failure. */
static void save(const char *sub, const char *name, const void *buf,
                 size_t len)
{
    char path[512];
    FILE *f;

    subdir(sub);
    snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
    f = fopen(path, "wb");
    if ( !f || (len && fwrite(buf, 1, len, f) != len) || fclose(f) )
    {
        perror(path);
        exit(1);
    }
}

/* One synthetic profile: its data file, records and folded text. */
static void profile(const char *name, uint64_t seed, size_t samples,
                    unsigned int guest_permille)
{
    struct synth_opts o = { .seed = seed, .nr_samples = samples,
                            .nr_stacks = 12, .nr_syms = 60,
                            .min_depth = 2, .max_depth = 8,
                            .guest_permille = guest_permille };
    struct xenprof_data *d = synth_profile(&o);
    char path[512], err[256], *text = NULL;
    struct xenprof_stackset *set = NULL;
    size_t len = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s/data/%s.xpd", dir, name);
    subdir("data");
    if ( !d || xenprof_data_write(d, path, err, sizeof(err)) ||
         chmod(path, 0644) )
    {
        fprintf(stderr, "mkseeds: %s: %s\n", path, d ? err : "no memory");
        exit(1);
    }
    save("records", name, d->records, d->records_len);
    f = open_memstream(&text, &len);
    if ( !f || xenprof_stackset_from_data(d, NULL, NULL, &set, err,
                                          sizeof(err)) ||
         xenprof_write_folded(set, f) || fclose(f) )
        exit(1);
    xenprof_stackset_free(set);
    if ( len )
        save("folded", name, text, len);
    free(text);
    xenprof_data_free(d);
}

/* The crafted ELF and two variants. */
static void elves(void)
{
    static uint8_t buf[CRAFT_MAX];
    struct craft_opts o = { 0 };
    struct craft_layout l;

    save("elf", "crafted.elf", buf, craft_elf(buf, &o, &l));
    o.dwarf = o.no_note = true;
    save("elf", "dwarf-nonote.elf", buf, craft_elf(buf, &o, &l));
    o = (struct craft_opts){ .no_funcs = true };
    save("elf", "nofuncs.elf", buf, craft_elf(buf, &o, &l));
}

int main(int argc, char **argv)
{
    static const char plain[] =
        "idle_loop;do_softirq;[truncated] 3\r\n"
        "[bad frame];x.c#handle 1\n"
        "# a comment\n"
        "\n"
        "d1v0 web;[guest kernel] 18446744073709551615\n"
        "main;a;b 1\nmain;a;b 2\nno count\n;; 1\nmain 0\n";
    static const char diff[] =
        "main;a;b 1 2\nmain;a 5 0\nmain 0 7\nbad 1\nmain;c 3 3\n";

    if ( argc != 2 )
    {
        fprintf(stderr, "usage: mkseeds DIR\n");
        return 2;
    }
    dir = argv[1];
    profile("xen", 1, 40, 0);
    profile("mixed", 2, 40, 400);
    profile("empty", 3, 0, 0);
    save("folded", "plain", plain, sizeof(plain) - 1);
    save("folded", "diff", diff, sizeof(diff) - 1);
    elves();
    return 0;
}
