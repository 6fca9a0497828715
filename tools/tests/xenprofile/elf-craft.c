/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * elf-craft.c: a small xen-syms-like ELF64 (x86-64, little-endian,
 * ET_EXEC), written field by field from the ELF specification, without
 * the library's reader nor <elf.h>.  Layout: ELF header, .text (int3
 * bytes), build-id note, .symtab, .strtab, .shstrtab, [.debug_info,
 * .debug_line], section headers.
 */
#include <string.h>

#include "elf-craft.h"

#define TEXT_OFF    0x100
#define TEXT_SIZE   0x800

struct sym {
    const char *name;
    unsigned int bind, type, shndx;     /* shndx: 1 .text, 2 .bss */
    uint64_t off, size;                 /* off from CRAFT_TEXT */
};

static const struct sym syms[] = {
    { "common/a.c", 0, 4, 0xfff1, 0, 0 },
    { "helper", 0, 2, 1, 0x100, 0x40 },
    { "dup", 0, 2, 1, 0x200, 0x20 },
    { "table", 0, 1, 2, 0x10000, 0x40 },
    { "common/b.c", 0, 4, 0xfff1, 0, 0 },
    { "dup", 0, 2, 1, 0x300, 0x20 },
    { "label", 0, 0, 1, 0x400, 0 },
    { "", 0, 3, 1, 0, 0 },
    { "do_work", 1, 2, 1, 0x500, 0x80 },
    { "do_work_alias", 1, 2, 1, 0x500, 0 },
    { "weak_fn", 2, 2, 1, 0x600, 0x10 },
    { "undef_fn", 1, 2, 0, 0, 0 },
    { "abs_sym", 1, 0, 0xfff1, 0x123, 0 },
    { "last_fn", 1, 2, 1, 0x700, 0x100 },
    { "data_obj", 1, 1, 2, 0x10040, 8 },
};
#define NR_SYMS     (sizeof(syms) / sizeof(*syms))

static const char *const sec_names[] = {
    "", ".text", ".bss", ".note.gnu.build-id", ".symtab", ".strtab",
    ".shstrtab", ".debug_info", ".debug_line",
};

static void put(uint8_t *p, uint64_t v, unsigned int bytes)
{
    unsigned int i;

    for ( i = 0; i < bytes; i++ )
        p[i] = (v >> (8 * i)) & 0xff;
}

static size_t align8(size_t v)
{
    return (v + 7) & ~(size_t)7;
}

/* Section header i. */
static void shdr(uint8_t *p, uint32_t name, uint32_t type, uint64_t flags,
                 uint64_t addr, uint64_t off, uint64_t size, uint32_t link,
                 uint32_t info, uint64_t entsize)
{
    put(p, name, 4);
    put(p + 4, type, 4);
    put(p + 8, flags, 8);
    put(p + 16, addr, 8);
    put(p + 24, off, 8);
    put(p + 32, size, 8);
    put(p + 40, link, 4);
    put(p + 44, info, 4);
    put(p + 48, entsize ? 8 : 1, 8);
    put(p + 56, entsize, 8);
}

static void ehdr(uint8_t *b, size_t shoff, unsigned int shnum)
{
    memcpy(b, "\177ELF\2\1\1", 7);
    put(b + 16, 2, 2);                  /* ET_EXEC */
    put(b + 18, 62, 2);                 /* EM_X86_64 */
    put(b + 20, 1, 4);
    put(b + 24, CRAFT_TEXT, 8);
    put(b + 40, shoff, 8);
    put(b + 52, 64, 2);
    put(b + 54, 56, 2);
    put(b + 58, 64, 2);
    put(b + 60, shnum, 2);
    put(b + 62, 6, 2);                  /* .shstrtab */
}

/* The symbols and their names from off; returns the end. */
static size_t symbols(uint8_t *b, size_t off, const struct craft_opts *o,
                      struct craft_layout *l)
{
    size_t i, n = 1, str = 1, p;

    l->symtab = off;
    memset(b + off, 0, 24);             /* symbol 0 */
    for ( i = 0; i < NR_SYMS; i++ )
        if ( !o->no_funcs || syms[i].type == 1 || syms[i].type == 4 )
            n++;
    l->nr_syms = n;
    l->strtab = off + n * 24;
    b[l->strtab] = '\0';
    for ( i = 0, n = 1; i < NR_SYMS; i++ )
    {
        if ( o->no_funcs && syms[i].type != 1 && syms[i].type != 4 )
            continue;
        p = off + n++ * 24;
        put(b + p, syms[i].name[0] ? str : 0, 4);
        b[p + 4] = (syms[i].bind << 4) | syms[i].type;
        if ( !syms[i].bind )
            l->first_global = n;
        b[p + 5] = 0;
        put(b + p + 6, syms[i].shndx, 2);
        put(b + p + 8, syms[i].shndx == 1 || syms[i].shndx == 2 ?
                       CRAFT_TEXT + syms[i].off : syms[i].off, 8);
        put(b + p + 16, syms[i].size, 8);
        if ( syms[i].name[0] )
        {
            strcpy((char *)b + l->strtab + str, syms[i].name);
            str += strlen(syms[i].name) + 1;
        }
    }
    return l->strtab + str;
}

/* The section headers at l->shdrs. */
static void headers(uint8_t *b, const struct craft_opts *o,
                    const struct craft_layout *l, const size_t *name,
                    size_t dbg)
{
    uint8_t *s = b + l->shdrs;
    size_t str_size = l->shstrtab - l->strtab;

    memset(s, 0, 64);
    shdr(s + 64, name[1], 1, 6, CRAFT_TEXT, TEXT_OFF, TEXT_SIZE, 0, 0, 0);
    shdr(s + 128, name[2], 8, 3, CRAFT_TEXT + 0x10000, l->note, 0x100, 0, 0,
         0);
    shdr(s + 192, name[3], 7, 2, CRAFT_TEXT + 0x900, l->note,
         o->no_note ? 0 : 36, 0, 0, 0);
    shdr(s + 256, name[4], 2, 0, 0, l->symtab, l->nr_syms * 24, 5,
         l->first_global, 24);
    shdr(s + 320, name[5], 3, 0, 0, l->strtab, str_size, 0, 0, 0);
    shdr(s + 384, name[6], 3, 0, 0, l->shstrtab, dbg - l->shstrtab, 0, 0,
         0);
    if ( !o->dwarf )
        return;
    shdr(s + 448, name[7], 1, 0, 0, dbg, 4, 0, 0, 0);
    shdr(s + 512, name[8], 1, 0, 0, dbg + 4, 4, 0, 0, 0);
}

size_t craft_elf(uint8_t *b, const struct craft_opts *o,
                 struct craft_layout *l)
{
    size_t off, i, name[9], dbg;

    memset(b, 0, CRAFT_MAX);
    memset(l, 0, sizeof(*l));
    memset(b + TEXT_OFF, 0xcc, TEXT_SIZE);
    l->note = TEXT_OFF + TEXT_SIZE;
    put(b + l->note, 4, 4);             /* "GNU\0" */
    put(b + l->note + 4, 20, 4);
    put(b + l->note + 8, 3, 4);         /* NT_GNU_BUILD_ID */
    memcpy(b + l->note + 12, "GNU", 4);
    for ( i = 0; i < 20; i++ )
        b[l->note + 16 + i] = 0xa0 + i;
    l->symtab_idx = 4;
    off = symbols(b, align8(l->note + 36), o, l);
    l->shstrtab = off;
    for ( i = 0, off = 0; i < 9; i++ )
    {
        name[i] = off;
        strcpy((char *)b + l->shstrtab + off, sec_names[i]);
        off += strlen(sec_names[i]) + 1;
    }
    dbg = l->shstrtab + off;
    l->shnum = o->dwarf ? 9 : 7;
    l->shdrs = align8(dbg + (o->dwarf ? 8 : 0));
    headers(b, o, l, name, dbg);
    ehdr(b, l->shdrs, l->shnum);
    return l->shdrs + l->shnum * 64;
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
