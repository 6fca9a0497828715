/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbolize-elf.c: the symbol table and build-id of a xen-syms ELF
 * (--xen-syms), read with the C library only.
 *
 * Only what is needed is read (pread): the ELF header, the section
 * headers and their names, .symtab and its string table, and the SHT_NOTE
 * sections; never the code nor the DWARF, which can be large.  Every
 * offset, size and index is checked against the file before use, so that
 * a corrupt or truncated file gives a message naming the offset, never a
 * crash.  Extended section numbering (e_shnum 0, e_shstrndx SHN_XINDEX)
 * is followed.
 *
 * The kept symbols are those nm(1) would show as text ('T', 't', 'W'):
 * FUNC, NOTYPE and IFUNC symbols of an allocated executable section; not
 * OBJECT symbols, absolute or undefined ones.  A local symbol is named
 * "file#name" after the STT_FILE symbol before it, as Xen's embedded table
 * names static functions, so that the display names (symbolize.c) are the
 * same as with the embedded table.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize-elf.h"

#define EHDR_SIZE       64
#define SHDR_SIZE       64
#define SYM_SIZE        24
#define EM_X86_64       62
#define EM_AARCH64      183
#define SHT_SYMTAB      2
#define SHT_STRTAB      3
#define SHT_NOTE        7
#define SHT_NOBITS      8
#define SHF_ALLOC       0x2
#define SHF_EXECINSTR   0x4
#define SHN_XINDEX      0xffff
#define STT_NOTYPE      0
#define STT_FUNC        2
#define STT_FILE        4
#define STT_GNU_IFUNC   10
#define NT_GNU_BUILD_ID 3
#define MAX_BUILD_ID    63              /* bytes: hex fits build_id[128] */

/* The file (fd) or the bytes (mem) being read, and where errors go. */
struct rd {
    const char *name;
    int fd;                             /* -1: mem */
    const uint8_t *mem;
    uint64_t size;
    char *err;
    size_t errlen;
    uint8_t *sh;                        /* section headers */
    uint64_t shoff;
    unsigned int shnum;
    char *shstr;                        /* section names; NULL: none */
    uint64_t shstr_len;
};

/* A kept symbol while the table is built. */
struct ksym {
    uint64_t addr, size;
    char type;
    const char *name, *file;            /* into the string table */
};

/* A message "name: offset 0x...: ..." for corrupt data; -EBADMSG. */
static int bad(const struct rd *r, uint64_t off, const char *what)
{
    return xenprof_priv_err(r->err, r->errlen, -EBADMSG,
                            "%s: offset 0x%" PRIx64 ": %s", r->name, off,
                            what);
}

/* Read len bytes at off into a new buffer *p; 0 or -errno. */
static int get(struct rd *r, uint64_t off, uint64_t len, const char *what,
               uint8_t **p)
{
    size_t done = 0;
    ssize_t n;
    char msg[128];

    *p = NULL;
    if ( off > r->size || len > r->size - off )
    {
        snprintf(msg, sizeof(msg),
                 "%s (%" PRIu64 " bytes) past the end of the file "
                 "(%" PRIu64 " bytes)", what, len, r->size);
        return bad(r, off, msg);
    }
    *p = malloc(len ? len : 1);
    if ( !*p )
        return xenprof_priv_err(r->err, r->errlen, -ENOMEM,
                                "%s: out of memory", r->name);
    if ( r->fd < 0 )
        memcpy(*p, r->mem + off, len);
    while ( r->fd >= 0 && done < len )
    {
        n = pread(r->fd, *p + done, len - done, off + done);
        if ( n > 0 )
        {
            done += n;
            continue;
        }
        if ( n < 0 && errno == EINTR )
            continue;
        free(*p);
        *p = NULL;
        if ( !n )
            return bad(r, off + done, "file shrank while read");
        return xenprof_priv_err(r->err, r->errlen, -errno,
                                "%s: cannot read: %s", r->name,
                                strerror(errno));
    }
    return 0;
}

/* Section header i (i < r->shnum). */
static const uint8_t *shdr(const struct rd *r, unsigned int i)
{
    return r->sh + (size_t)i * SHDR_SIZE;
}

/* File offset of field off of section header i, for messages. */
static uint64_t shdr_off(const struct rd *r, unsigned int i,
                         unsigned int off)
{
    return r->shoff + (uint64_t)i * SHDR_SIZE + off;
}

/* The name of section i, or "" when the file names no sections. */
static const char *sec_name(const struct rd *r, unsigned int i)
{
    uint32_t off = xenprof_get32(shdr(r, i));

    return r->shstr && off < r->shstr_len ? r->shstr + off : "";
}

/* Check the ELF header h: 0, -EINVAL (not for us) or -EBADMSG. */
static int check_ehdr(struct rd *r, const uint8_t *h)
{
    const char *why = NULL;

    if ( memcmp(h, "\177ELF", 4) )
        why = "not an ELF file";
    else if ( h[4] != 2 )
        why = "not a 64-bit ELF file";
    else if ( h[5] != 1 )
        why = "not a little-endian ELF file";
    else if ( xenprof_get16(h + 18) != EM_X86_64 &&
              xenprof_get16(h + 18) != EM_AARCH64 )
        why = "not an x86-64 or AArch64 ELF file";
    else if ( xenprof_get16(h + 16) != 2 && xenprof_get16(h + 16) != 3 )
        why = "not an executable (ELF type not EXEC or DYN)";
    else if ( !xenprof_get64(h + 40) )
        why = "no section headers";
    if ( why )
        return xenprof_priv_err(r->err, r->errlen, -EINVAL, "%s: %s",
                                r->name, why);
    if ( h[6] != 1 )
        return bad(r, 6, "unknown ELF version");
    if ( xenprof_get16(h + 58) != SHDR_SIZE )
        return bad(r, 58, "section header size is not 64");
    return 0;
}

/* Read the section headers, with extended numbering; 0 or -errno. */
static int read_shdrs(struct rd *r, const uint8_t *h, unsigned int *strndx)
{
    uint64_t num = xenprof_get16(h + 60);
    uint8_t *first;
    int rc;

    r->shoff = xenprof_get64(h + 40);
    *strndx = xenprof_get16(h + 62);
    rc = get(r, r->shoff, SHDR_SIZE, "section header 0", &first);
    if ( rc )
        return rc;
    if ( !num )
        num = xenprof_get64(first + 32);
    if ( *strndx == SHN_XINDEX )
        *strndx = xenprof_get32(first + 40);
    free(first);
    if ( !num || num > r->size / SHDR_SIZE )
        return bad(r, 60, "bad number of section headers");
    r->shnum = num;
    if ( *strndx >= r->shnum )
        return bad(r, 62, "section name table index out of range");
    return get(r, r->shoff, num * SHDR_SIZE, "section headers", &r->sh);
}

/*
 * Read the contents of section i (type type, or any when 0) into *p, and
 * its size into *len; 0 or -errno.
 */
static int read_sec(struct rd *r, unsigned int i, uint32_t type,
                    uint8_t **p, uint64_t *len)
{
    const uint8_t *s = shdr(r, i);
    char what[64];

    *p = NULL;
    if ( type && xenprof_get32(s + 4) != type )
        return bad(r, shdr_off(r, i, 4), "section of the wrong type");
    if ( xenprof_get32(s + 4) == SHT_NOBITS )
        return bad(r, shdr_off(r, i, 4), "section without contents");
    *len = xenprof_get64(s + 32);
    snprintf(what, sizeof(what), "section %u", i);
    return get(r, xenprof_get64(s + 24), *len, what, p);
}

/* Read a string table section, checked to end with NUL; 0 or -errno. */
static int read_strtab(struct rd *r, unsigned int i, char **p,
                       uint64_t *len)
{
    uint8_t *b;
    int rc = read_sec(r, i, SHT_STRTAB, &b, len);

    if ( rc )
        return rc;
    if ( !*len || b[*len - 1] )
    {
        free(b);
        return bad(r, xenprof_get64(shdr(r, i) + 24),
                   "string table not terminated by NUL");
    }
    *p = (char *)b;
    return 0;
}

/*
 * The GNU build-id of the notes n[0..len) (at file offset base) into e,
 * the first one found; 0 or -EBADMSG.
 */
static int scan_notes(struct rd *r, const uint8_t *n, uint64_t len,
                      uint64_t base, struct xenprof_elf *e)
{
    uint64_t off = 0, namesz, descsz, desc;
    unsigned int i;

    while ( len - off >= 12 )
    {
        namesz = xenprof_get32(n + off);
        descsz = xenprof_get32(n + off + 4);
        desc = off + 12 + ((namesz + 3) & ~3ULL);
        if ( desc > len || ((descsz + 3) & ~3ULL) > len - desc )
            return bad(r, base + off, "note larger than its section");
        if ( namesz == 4 && !memcmp(n + off + 12, "GNU", 4) &&
             xenprof_get32(n + off + 8) == NT_GNU_BUILD_ID &&
             !e->build_id[0] )
        {
            if ( !descsz || descsz > MAX_BUILD_ID )
                return bad(r, base + off, "bad build-id note size");
            for ( i = 0; i < descsz; i++ )
                snprintf(e->build_id + 2 * i, 3, "%02x", n[desc + i]);
        }
        off = desc + ((descsz + 3) & ~3ULL);
    }
    return 0;
}

/* The build-id and DWARF presence of the file into e; 0 or -errno. */
static int scan_sections(struct rd *r, struct xenprof_elf *e)
{
    unsigned int i, dwarf = 0;
    const char *name;
    uint8_t *n;
    uint64_t len;
    int rc;

    for ( i = 1; i < r->shnum; i++ )
    {
        name = sec_name(r, i);
        if ( xenprof_get32(shdr(r, i) + 4) != SHT_NOBITS &&
             xenprof_get64(shdr(r, i) + 32) &&
             (!strcmp(name, ".debug_info") || !strcmp(name, ".debug_line")) )
            dwarf |= name[7] == 'i' ? 1 : 2;
        if ( xenprof_get32(shdr(r, i) + 4) != SHT_NOTE )
            continue;
        rc = read_sec(r, i, SHT_NOTE, &n, &len);
        if ( !rc )
            rc = scan_notes(r, n, len, xenprof_get64(shdr(r, i) + 24), e);
        free(n);
        if ( rc )
            return rc;
    }
    e->has_dwarf = dwarf == 3;
    return 0;
}

/* The index of the symbol table section, checked; 0 or -errno. */
static int find_symtab(struct rd *r, unsigned int *idx)
{
    const uint8_t *s;
    unsigned int i;

    for ( i = 1; i < r->shnum; i++ )
        if ( xenprof_get32(shdr(r, i) + 4) == SHT_SYMTAB )
            break;
    if ( i >= r->shnum )
        return xenprof_priv_err(r->err, r->errlen, -EINVAL,
                                "%s: no symbol table (.symtab): stripped?",
                                r->name);
    s = shdr(r, i);
    if ( xenprof_get64(s + 56) != SYM_SIZE ||
         xenprof_get64(s + 32) % SYM_SIZE )
        return bad(r, shdr_off(r, i, 56), "bad symbol table entry size");
    if ( !xenprof_get32(s + 40) || xenprof_get32(s + 40) >= r->shnum )
        return bad(r, shdr_off(r, i, 40),
                   "symbol table's string table index out of range");
    *idx = i;
    return 0;
}

/* The nm(1) letter of symbol p if it is kept, else 0. */
static char sym_letter(const struct rd *r, const uint8_t *p)
{
    unsigned int type = p[4] & 0xf, bind = p[4] >> 4;
    unsigned int shndx = xenprof_get16(p + 6);
    uint64_t flags;

    if ( type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC )
        return 0;
    if ( !shndx || shndx >= r->shnum )
        return 0;
    flags = xenprof_get64(shdr(r, shndx) + 8);
    if ( !(flags & SHF_ALLOC) || !(flags & SHF_EXECINSTR) )
        return 0;
    return bind == 0 ? 't' : bind == 1 || bind == 10 ? 'T' :
           bind == 2 ? 'W' : 0;
}

/*
 * The kept symbols of sym[0..nsym) (names in str[0..slen)) into k, *m of
 * them, and the bytes their names need in *pool; 0 or -EBADMSG.
 */
static int collect(struct rd *r, const uint8_t *sym, uint64_t nsym,
                   uint64_t symoff, const char *str, uint64_t slen,
                   struct ksym *k, size_t *m, size_t *pool)
{
    const char *file = NULL, *name;
    const uint8_t *p;
    uint64_t i;
    char type;

    for ( i = 1, *m = 0, *pool = 0; i < nsym; i++ )
    {
        p = sym + i * SYM_SIZE;
        if ( xenprof_get32(p) >= slen )
            return bad(r, symoff + i * SYM_SIZE,
                       "symbol name out of the string table");
        name = str + xenprof_get32(p);
        if ( (p[4] & 0xf) == STT_FILE )
            file = *name ? name : NULL;
        type = sym_letter(r, p);
        if ( !type || !*name )
            continue;
        k[*m].addr = xenprof_get64(p + 8);
        k[*m].size = xenprof_get64(p + 16);
        k[*m].type = type;
        k[*m].name = name;
        k[*m].file = type == 't' ? file : NULL;
        *pool += strlen(name) + 1 + (k[*m].file ? strlen(file) + 1 : 0);
        (*m)++;
    }
    return 0;
}

/* The symbol table of k[0..m) into e; 0 or -ENOMEM. */
static int make_table(const struct ksym *k, size_t m, size_t pool,
                      struct xenprof_elf *e)
{
    struct xenprof_symbol *s = malloc((m ? m : 1) * sizeof(*s));
    uint64_t *sizes = malloc((m ? m : 1) * sizeof(*sizes));
    char *names = malloc(pool ? pool : 1), *p = names;
    size_t i;

    for ( i = 0; s && sizes && names && i < m; i++ )
    {
        s[i].addr = k[i].addr;
        s[i].type = k[i].type;
        s[i].name = p;
        sizes[i] = k[i].size;
        if ( k[i].file )
            p += sprintf(p, "%s#", k[i].file);
        p = stpcpy(p, k[i].name) + 1;
    }
    if ( s && sizes && names && m )
        e->t = xenprof_priv_symtab_new(s, sizes, m);
    e->nr_syms = m;
    free(s);
    free(sizes);
    free(names);
    return e->t ? 0 : -ENOMEM;
}

/* Read the symbols of the file into e->t; 0 or -errno. */
static int read_symbols(struct rd *r, struct xenprof_elf *e)
{
    unsigned int idx = 0;
    uint8_t *sym = NULL;
    char *str = NULL;
    struct ksym *k = NULL;
    uint64_t len = 0, slen = 0;
    size_t m = 0, pool = 0;
    int rc = find_symtab(r, &idx);

    rc = rc ?: read_sec(r, idx, SHT_SYMTAB, &sym, &len);
    rc = rc ?: read_strtab(r, xenprof_get32(shdr(r, idx) + 40), &str,
                           &slen);
    if ( !rc && !(k = malloc((len / SYM_SIZE + 1) * sizeof(*k))) )
        rc = -ENOMEM;
    rc = rc ?: collect(r, sym, len / SYM_SIZE,
                       xenprof_get64(shdr(r, idx) + 24), str, slen, k,
                       &m, &pool);
    if ( !rc && !m )
        rc = xenprof_priv_err(r->err, r->errlen, -EINVAL,
                              "%s: no function symbols in .symtab",
                              r->name);
    rc = rc ?: make_table(k, m, pool, e);
    if ( rc == -ENOMEM )
        xenprof_priv_err(r->err, r->errlen, rc, "%s: out of memory",
                         r->name);
    free(k);
    free(str);
    free(sym);
    return rc;
}

/* Parse what r reads into *out; 0 or -errno. */
static int parse(struct rd *r, struct xenprof_elf **out)
{
    struct xenprof_elf *e = calloc(1, sizeof(*e));
    unsigned int strndx;
    uint8_t *h = NULL;
    int rc = e ? 0 : -ENOMEM;

    if ( rc )
        xenprof_priv_err(r->err, r->errlen, rc, "%s: out of memory",
                         r->name);
    rc = rc ?: get(r, 0, r->size < EHDR_SIZE ? r->size : EHDR_SIZE,
                   "ELF header", &h);
    if ( !rc && r->size < EHDR_SIZE )
        rc = r->size >= 4 && !memcmp(h, "\177ELF", 4) ?
             bad(r, r->size, "ELF header truncated") :
             xenprof_priv_err(r->err, r->errlen, -EINVAL,
                              "%s: not an ELF file", r->name);
    rc = rc ?: check_ehdr(r, h);
    rc = rc ?: read_shdrs(r, h, &strndx);
    if ( !rc && strndx )
        rc = read_strtab(r, strndx, &r->shstr, &r->shstr_len);
    rc = rc ?: scan_sections(r, e);
    rc = rc ?: read_symbols(r, e);
    free(h);
    free(r->sh);
    free(r->shstr);
    if ( rc )
    {
        xenprof_priv_elf_free(e);
        return rc;
    }
    *out = e;
    return 0;
}

int xenprof_priv_elf_parse(const uint8_t *buf, size_t len, const char *name,
                           struct xenprof_elf **out, char *err,
                           size_t errlen)
{
    struct rd r = { .name = name, .fd = -1, .mem = buf, .size = len,
                    .err = err, .errlen = errlen };

    *out = NULL;
    if ( !buf && len )
        return xenprof_priv_err(err, errlen, -EINVAL, "%s: no data", name);
    return parse(&r, out);
}

int xenprof_priv_elf_read(const char *path, struct xenprof_elf **out,
                          char *err, size_t errlen)
{
    struct rd r = { .name = path, .err = err, .errlen = errlen };
    struct stat st;
    int rc;

    *out = NULL;
    r.fd = open(path, O_RDONLY | O_CLOEXEC);
    if ( r.fd < 0 )
        return xenprof_priv_err(err, errlen, -errno, "cannot open %s: %s",
                                path, strerror(errno));
    if ( fstat(r.fd, &st) )
        rc = xenprof_priv_err(err, errlen, -errno, "%s: %s", path,
                              strerror(errno));
    else if ( !S_ISREG(st.st_mode) )
        rc = xenprof_priv_err(err, errlen, -EINVAL,
                              "%s: not a regular file", path);
    else
    {
        r.size = st.st_size;
        rc = parse(&r, out);
    }
    close(r.fd);
    return rc;
}

void xenprof_priv_elf_free(struct xenprof_elf *e)
{
    if ( !e )
        return;
    xenprof_symtab_free(e->t);
    free(e);
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
