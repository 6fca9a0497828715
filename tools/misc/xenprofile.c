/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xenprofile: report on a hypervisor profile taken by `xl profile`, on
 * any machine (libxenprofile needs the C library only).  The options and
 * the output are those of `xl profile report`: both call
 * xenprof_report_main(); see xenprofile(1).
 */
#include <stdio.h>

#include <xenprofile-cli.h>

int main(int argc, char **argv)
{
    return xenprof_report_main(argc, argv, stdout, stderr);
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
