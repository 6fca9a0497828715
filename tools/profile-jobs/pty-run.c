/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pty-run.c: run a command on a new pseudo-terminal (its stdin, stdout and
 * stderr), as script(1) does, for the tests of what a tool prints only on
 * a terminal (profile-timer.sh: `xl profile record`'s status
 * line; dom0's busybox has no script).  Everything the command writes is
 * copied to OUT, byte for byte; the exit status is the command's (128 + N
 * for a signal N, 127 when it cannot be run).
 *
 * usage: pty-run OUT CMD [ARGS...]
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char buf[4096];
    int master, out, status;
    ssize_t n;
    pid_t pid;

    if ( argc < 3 )
    {
        fprintf(stderr, "usage: pty-run OUT CMD [ARGS...]\n");
        return 2;
    }
    out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if ( out < 0 )
    {
        fprintf(stderr, "pty-run: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    pid = forkpty(&master, NULL, NULL, NULL);
    if ( pid < 0 )
    {
        perror("pty-run: forkpty");
        return 2;
    }
    if ( !pid )
    {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "pty-run: cannot run %s: %s\n", argv[2],
                strerror(errno));
        _exit(127);
    }
    /* Until the last writer is gone (EIO on Linux once the slave closes). */
    while ( (n = read(master, buf, sizeof(buf))) > 0 ||
            (n < 0 && errno == EINTR) )
        if ( n > 0 && write(out, buf, n) != n )
            break;
    close(out);
    if ( waitpid(pid, &status, 0) != pid )
        return 2;
    return WIFEXITED(status) ? WEXITSTATUS(status)
                             : 128 + WTERMSIG(status);
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
