/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * xenprofile-cli.h: the report command of libxenprofile, whole, for a
 * program's main(): its options, its input, the report and the writers
 * (docs/man/xenprofile.1.pod).
 */
#ifndef XENPROFILE_CLI_H
#define XENPROFILE_CLI_H

#include <stdio.h>

/*
 * Run the command on argv (argv[0] is the command name used in
 * messages), writing to out and errout.  Returns the process exit
 * status: 0, 1 on any error (a one-line message on errout), 2 on bad
 * usage.
 */
int xenprof_report_main(int argc, char **argv, FILE *out, FILE *errout);

#endif /* XENPROFILE_CLI_H */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
