/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * elf-craft.h: a small xen-syms-like ELF64 built byte by byte, for the
 * tests of --xen-syms (test-xensyms.c) and the seeds of the ELF fuzz
 * harness (tools/fuzz/xenprofile/mkseeds.c).  Independent of the library.
 */
#ifndef XENPROFILE_ELF_CRAFT_H
#define XENPROFILE_ELF_CRAFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CRAFT_TEXT      0xffff82d040200000ULL   /* .text, 0x800 bytes */
#define CRAFT_MAX       8192                    /* bytes of any variant */
#define CRAFT_BUILD_ID  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3"

/*
 * The symbols, at CRAFT_TEXT + (size):
 *   FILE common/a.c; local FUNC helper 0x100 (0x40), dup 0x200 (0x20),
 *   local OBJECT table (.bss); FILE common/b.c; local FUNC dup 0x300
 *   (0x20), local NOTYPE label 0x400 (0), a SECTION symbol; global FUNC
 *   do_work 0x500 (0x80) and its alias do_work_alias (0), weak FUNC
 *   weak_fn 0x600 (0x10), undefined FUNC undef_fn, absolute NOTYPE
 *   abs_sym, global FUNC last_fn 0x700 (0x100), global OBJECT data_obj.
 */
struct craft_opts {
    bool no_note;                   /* no build-id note */
    bool dwarf;                     /* .debug_info and .debug_line */
    bool no_funcs;                  /* only the OBJECT and FILE symbols */
};

/* Where the parts went, for the corruption tests. */
struct craft_layout {
    size_t note, symtab, strtab, shstrtab, shdrs;   /* file offsets */
    unsigned int nr_syms, shnum;
    unsigned int first_global;                      /* symbol index */
    unsigned int symtab_idx;                        /* section index */
};

/* Build the ELF into buf (CRAFT_MAX bytes); returns its length. */
size_t craft_elf(uint8_t *buf, const struct craft_opts *o,
                 struct craft_layout *l);

#endif /* XENPROFILE_ELF_CRAFT_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
