/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * symbolize-elf.h: the hypervisor's xen-syms ELF as a symbol source
 * (--xen-syms): its symbol table and build-id (symbolize-elf.c, read with
 * the C library only), and file:line and inlined frames from binutils'
 * addr2line run as a child process (symbolize-addr2line.c).  Not
 * installed.
 */
#ifndef XENPROFILE_ELF_H
#define XENPROFILE_ELF_H

#include <stdbool.h>

#include "private.h"

/* What the library takes from a xen-syms ELF. */
struct xenprof_elf {
    char build_id[128];                 /* hex; "" when it has none */
    bool has_dwarf;                     /* .debug_info and .debug_line */
    struct xenprof_symtab *t;           /* text symbols, with sizes */
    size_t nr_syms;                     /* symbols given to t */
};

/*
 * Read an ELF64 x86-64 little-endian executable: its section headers,
 * .symtab with .strtab (FUNC and NOTYPE symbols of executable sections,
 * local ones named "file#name" after the STT_FILE symbol before them, as
 * the embedded table names them) and its GNU build-id note.  Returns 0;
 * -errno when the file cannot be read; -EINVAL when it is not such an
 * ELF (or has no .symtab); -EBADMSG when it is corrupt or truncated;
 * -ENOMEM.  The message names path and, for corrupt data, the offset.
 */
int xenprof_priv_elf_read(const char *path, struct xenprof_elf **out,
                          char *err, size_t errlen) xenprof_hidden;

/* The same on the bytes buf[0..len), named name in messages. */
int xenprof_priv_elf_parse(const uint8_t *buf, size_t len, const char *name,
                           struct xenprof_elf **out, char *err,
                           size_t errlen) xenprof_hidden;

/* Free e and its table.  NULL is allowed. */
void xenprof_priv_elf_free(struct xenprof_elf *e) xenprof_hidden;

/* One frame of addr2line's answer; NULL/0 for its "??". */
struct xenprof_a2l_frame {
    const char *func;
    const char *file;
    unsigned long line;
};

/*
 * Run `addr2line -a -f -i -e elf` once for the n addresses addrs[] (any
 * order, duplicates allowed): they are written to its standard input
 * while its output is read (poll(), no deadlock), SIGPIPE blocked in the
 * calling thread meanwhile.  The program is $XENPROFILE_ADDR2LINE, or
 * addr2line on PATH.  Returns 0; -ENOENT (or another errno) when it
 * cannot be run; -EIO when it fails, times out or answers in an
 * unexpected form; -ENOMEM.  The message names the program.
 */
int xenprof_priv_a2l_run(const char *elf, const uint64_t *addrs, size_t n,
                         struct xenprof_a2l **out, char *err,
                         size_t errlen) xenprof_hidden;

/*
 * The frames of addr, innermost (inlined) first and the function that
 * holds them last, in *f; their number (0 when addr was not asked).
 */
size_t xenprof_priv_a2l_get(const struct xenprof_a2l *a, uint64_t addr,
                            const struct xenprof_a2l_frame **f)
    xenprof_hidden;

/* NULL is allowed. */
void xenprof_priv_a2l_free(struct xenprof_a2l *a) xenprof_hidden;

/* The marking of an inlined frame's name in stacks. */
#define XENPROF_INLINED_SUFFIX " [inlined]"

#endif /* XENPROFILE_ELF_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
