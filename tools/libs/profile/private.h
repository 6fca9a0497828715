/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * private.h: helpers shared by the files of libxenprofile (not installed).
 *
 * Byte order helpers read and write little-endian integers one byte at a
 * time, so they work on any host and at any alignment.  The data file
 * layout constants are described in docs/designs/xenprofile-data.md.
 */
#ifndef XENPROFILE_PRIVATE_H
#define XENPROFILE_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xenprofile.h"
#include "xenprofile-cli.h"

/* Internal functions are not exported from the shared library. */
#define xenprof_hidden __attribute__((visibility("hidden")))
#define xenprof_unused __attribute__((unused))

/* Data file layout, version 1 (docs/designs/xenprofile-data.md). */
#define XENPROF_HDR_SIZE        16      /* magic, version, reserved */
#define XENPROF_SEC_HDR_SIZE    16      /* type, flags, length */
#define XENPROF_SEC_END         0
#define XENPROF_SEC_META        1
#define XENPROF_SEC_CPUS        2
#define XENPROF_SEC_SYMBOLS     3
#define XENPROF_SEC_DOMAINS     4
#define XENPROF_SEC_RECORDS     5
#define XENPROF_END_SIZE        4       /* crc32 */
#define XENPROF_META_ENT_HDR    8       /* key_len, kind, pad, value_len */
#define XENPROF_META_U64        1
#define XENPROF_META_STR        2
#define XENPROF_CPU_ENT_SIZE    64      /* written; throttled since 64 */
#define XENPROF_CPU_ENT_MIN     56      /* read: no throttled before */
#define XENPROF_SYM_ENT_HDR     12      /* addr, type, pad, name_len */
#define XENPROF_DOM_ENT_SIZE    88      /* domid, pad, uuid, name[64] */
#define XENPROF_TABLE_HDR       8       /* entry_size or pad, count */

static inline uint16_t xenprof_get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t xenprof_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) |
           ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t xenprof_get64(const uint8_t *p)
{
    return (uint64_t)xenprof_get32(p) | ((uint64_t)xenprof_get32(p + 4) << 32);
}

static inline void xenprof_put16(uint8_t *p, uint16_t v)
{
    p[0] = v & 0xff;
    p[1] = v >> 8;
}

static inline void xenprof_put32(uint8_t *p, uint32_t v)
{
    xenprof_put16(p, v & 0xffff);
    xenprof_put16(p + 2, v >> 16);
}

static inline void xenprof_put64(uint8_t *p, uint64_t v)
{
    xenprof_put32(p, v & 0xffffffffu);
    xenprof_put32(p + 4, v >> 32);
}

/*
 * Format a one-line message into err[0..errlen) (nothing when err is NULL
 * or errlen is 0), and return rc, so that callers can write
 * `return xenprof_priv_err(...)`.  Never fails.
 */
int xenprof_priv_err(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5))) xenprof_hidden;

/*
 * Make room for `add` more elements of `size` bytes in the array *p that
 * holds n elements now.  Arrays grown only by this function have an
 * implicit capacity (a power of two, at least 16, or 0 when n is 0), so
 * that the public structs need no capacity field.  Returns 0, or -ENOMEM
 * with *p unchanged.
 */
int xenprof_priv_reserve(void **p, size_t n, size_t add, size_t size)
    xenprof_hidden;

/*
 * xenprof_priv_reserve() for the typed array arr of n elements: 0, or
 * -ENOMEM with arr unchanged.
 */
#define XENPROF_RESERVE(arr, n, add) ({                                  \
    void *p_ = (arr);                                                   \
    int rc_ = xenprof_priv_reserve(&p_, (n), (add), sizeof(*(arr)));    \
                                                                        \
    if ( !rc_ )                                                         \
        (arr) = p_;                                                     \
    rc_; })

/* That implicit capacity, for n elements.  Never fails. */
size_t xenprof_priv_capacity(size_t n) xenprof_hidden;

/*
 * Print text s without its control characters (each as '?'), and with
 * no_semicolon without ';' either (as '_', as in folded stacks).
 */
void xenprof_priv_put_text(FILE *out, const char *s, bool no_semicolon)
    xenprof_hidden;

/*
 * The period of a profile's samples: ns of CPU time for the timer source
 * (1 s / the frequency when it was started by frequency), events for the
 * PMU; 0 when unknown.
 */
uint64_t xenprof_priv_period(const struct xenprof_meta *m) xenprof_hidden;

/*
 * xenprof_decode_next(), with `base` added to the offsets named in error
 * messages (the position of buf in a file).  Same return values.
 */
int xenprof_priv_decode(const uint8_t *buf, size_t len, size_t *off,
                        struct xenprof_sample *s, size_t base,
                        char *err, size_t errlen) xenprof_hidden;

/*
 * xenprof_priv_decode() that also returns LOST records: 1 for a sample, 2
 * for a LOST record (s->cpu and s->timestamp set, *lost its count), 0 at the
 * end, or -EBADMSG.
 */
int xenprof_priv_decode_any(const uint8_t *buf, size_t len, size_t *off,
                            struct xenprof_sample *s, uint64_t *lost,
                            size_t base, char *err, size_t errlen)
    xenprof_hidden;

/*
 * Check a whole record stream: 0, or -EBADMSG with a message naming the
 * offset (plus base) of the first corrupt record.
 */
int xenprof_priv_check_records(const uint8_t *buf, size_t len, size_t base,
                               char *err, size_t errlen) xenprof_hidden;

/*
 * Prefix the message in err with "path: " (cut to errlen), and return rc.
 * Never fails.
 */
int xenprof_priv_prefix(char *err, size_t errlen, int rc, const char *path)
    xenprof_hidden;

/* The META section: its payload size, and its encoding into buf. */
size_t xenprof_priv_meta_size(const struct xenprof_meta *m) xenprof_hidden;
void xenprof_priv_meta_encode(const struct xenprof_meta *m, uint8_t *buf)
    xenprof_hidden;

/*
 * Decode the META payload p[0..len), at file offset base, into m (unknown
 * keys skipped).  Returns 0 or -EBADMSG with a message naming the offset.
 */
int xenprof_priv_meta_decode(const uint8_t *p, size_t len, size_t base,
                             struct xenprof_meta *m, char *err,
                             size_t errlen) xenprof_hidden;

/* CRC-32 (IEEE 802.3, as zlib): crc32(0, buf, len) starts a new sum. */
uint32_t xenprof_priv_crc32(uint32_t crc, const void *buf, size_t len)
    xenprof_hidden;

/*
 * Stack aggregation (stackset-count.c): distinct sample stacks and their
 * counts.  A key is the words [head, ip0, ip1, ...]; see stackset-count.c
 * for the head.
 */
struct xenprof_stack {
    uint64_t *key;
    size_t nkey;
    uint64_t hash;
    uint64_t count;
};

struct xenprof_stacks {
    struct xenprof_stack *tab;          /* open addressing, pow2 size */
    size_t size, used;
};

/* Fields of a stack key's head word. */
#define XENPROF_KEY_MODE(h)     ((unsigned int)((h) & 0xff))
#define XENPROF_KEY_FLAGS(h)    ((unsigned int)(((h) >> 8) & 0xff))
#define XENPROF_KEY_DOMID(h)    ((unsigned int)(((h) >> 16) & 0xffff))
#define XENPROF_KEY_VCPU(h)     ((unsigned int)(((h) >> 32) & 0xffff))

/*
 * Count one sample: Xen samples by (walk flags, frames), guest samples by
 * (mode, domid, vcpu).  Returns 0 or -ENOMEM (st unchanged).
 */
int xenprof_priv_stacks_add(struct xenprof_stacks *st,
                            const struct xenprof_sample *s) xenprof_hidden;

/* Free everything st owns and make it empty.  Never fails. */
void xenprof_priv_stacks_free(struct xenprof_stacks *st) xenprof_hidden;

/*
 * xenprof_symtab_new() with sizes[i] the size of syms[i] (sizes NULL: no
 * sizes, as the embedded table): a function then ends at addr + size
 * (size 0: at the next symbol).  NULL when out of memory.
 */
struct xenprof_symtab *xenprof_priv_symtab_new(
    const struct xenprof_symbol *syms, const uint64_t *sizes, size_t n)
    xenprof_hidden;

/*
 * xenprof_symtab_lookup(), also giving the function's start address in
 * *start (when start is not NULL and a name is returned).
 */
const char *xenprof_priv_symtab_find(const struct xenprof_symtab *t,
                                     uint64_t addr, uint64_t *start)
    xenprof_hidden;

/*
 * Where Xen frames get their names when not from the profile's embedded
 * table (--xen-syms, symbolize-elf.h): a symbol table, and addr2line's
 * answers for file:line and inlined frames.
 */
struct xenprof_a2l;
struct xenprof_symsrc {
    const struct xenprof_symtab *t;     /* NULL: the embedded table */
    const struct xenprof_a2l *a2l;      /* NULL: no file:line, no inline */
    int inline_frames;                  /* expand inlined frames */
    const char *path;                   /* of the ELF, or NULL */
};

/*
 * ---------------------------------------------------------------------
 * Inside the library only (not exported; the unit tests use them).
 * ---------------------------------------------------------------------
 */
int xenprof_data_add_domain(struct xenprof_data *d, uint32_t domid,
                            const char *name, const uint8_t uuid[16])
    xenprof_hidden;

/* The entry of domid in d's domain table (the first), or NULL. */
const struct xenprof_domain *xenprof_priv_domain(const struct xenprof_data *d,
                                                 uint32_t domid)
    xenprof_hidden;

/*
 * Symbol table for lookups: text symbols ('T', 't', 'W', 'w') sorted by
 * address.  Display names drop the embedded table's "file#" prefix of
 * static symbols unless two symbols then share a name.  Returns NULL when
 * out of memory.
 */
struct xenprof_symtab;
struct xenprof_symtab *xenprof_symtab_new(const struct xenprof_symbol *syms,
                                          size_t n) xenprof_hidden;
void xenprof_symtab_free(struct xenprof_symtab *t) xenprof_hidden;

/*
 * The display name of the function containing addr, or NULL when addr is
 * below the first text symbol or past the end of text.  The name is owned
 * by t.  Return addresses (frames i > 0) are looked up at addr - 1 by the
 * callers, so that a call as the last instruction of a function is not
 * attributed to the next one.
 */
const char *xenprof_symtab_lookup(const struct xenprof_symtab *t,
                                  uint64_t addr) xenprof_hidden;

/* Does sample s of d pass f?  1 or 0. */
int xenprof_filter_match(const struct xenprof_data *d,
                         const struct xenprof_filter *f,
                         const struct xenprof_sample *s) xenprof_hidden;

/* The sum of the stack set's counts. */
uint64_t xenprof_stackset_total(const struct xenprof_stackset *s)
    xenprof_hidden;

/*
 * Differential profiles (the report command's --diff): a is "before", b
 * is "after".  The diff folded text has lines "stack count_a count_b"
 * (difffolded.pl); this reads one into a and b.
 */
int xenprof_stackset_read_diff_folded(FILE *in, struct xenprof_stackset **a,
                                      struct xenprof_stackset **b,
                                      size_t *bad_lines, char *err,
                                      size_t errlen) xenprof_hidden;

/*
 * Write a and b as diff folded text, or as an SVG sized by b and coloured
 * red (grew) / blue (shrank) by the difference.
 */
int xenprof_write_diff_folded(const struct xenprof_stackset *a,
                              const struct xenprof_stackset *b, FILE *out)
    xenprof_hidden;
int xenprof_write_flamegraph_diff(const struct xenprof_stackset *a,
                                  const struct xenprof_stackset *b,
                                  FILE *out,
                                  const struct xenprof_svg_opts *o,
                                  char *err, size_t errlen) xenprof_hidden;

#endif /* XENPROFILE_PRIVATE_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
