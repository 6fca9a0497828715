/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * test-xensyms.h: shared by the tests of --xen-syms: the ELF reader and
 * the command (test-xensyms.c), addr2line, a gcc-built program and the
 * real xen-syms (test-xensyms-a2l.c).
 */
#ifndef XENPROFILE_TEST_XENSYMS_H
#define XENPROFILE_TEST_XENSYMS_H

#include "../../libs/profile/symbolize-elf.h"
#include "test-report.h"

/* One sample frame list for xsyms_data_file(); 0 ends a list. */
struct xs_sample {
    uint8_t mode;
    uint64_t ip[8];
};

/*
 * Write a data file of the samples (domain 1, vCPU 0) with build-id id
 * and the embedded table {TEXT "emb_fn"} to <tmpdir>/name; its path in
 * path (TPATH bytes).  Returns 0 or -1.
 */
int xsyms_data_file(char *path, const char *name, const char *id,
                    const struct xs_sample *s, size_t n);

/* Does text contain want?  (With a diagnostic when not.) */
bool xsyms_has(const char *text, const char *want);

/* Run the report with args (NULL-terminated, after argv[0]). */
int xsyms_run(struct run *r, const char *const *args);

void test_xensyms(void);
void test_xensyms_a2l(void);
void test_xensyms_real(void);

#endif /* XENPROFILE_TEST_XENSYMS_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
