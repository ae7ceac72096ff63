/* base_test_util.h: helpers shared by the base unit tests, header-only so
 * every test stays one executable built from one source file.
 *
 * test_run_child runs a function in a forked child with stderr sent to a
 * pipe, and returns the child's wait status and what it wrote. It is how the
 * tests check paths that must end the process (assertions, crash points).
 */
#ifndef MUSCLES_BASE_TEST_UTIL_H
#define MUSCLES_BASE_TEST_UTIL_H

#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

typedef void (*test_child_fn)(void *arg);

/* Runs fn(arg) in a child process; its stderr (up to out_bytes - 1 bytes,
 * NUL-terminated) lands in out. Returns the status from waitpid, or -1. */
static inline int test_run_child(test_child_fn fn, void *arg, char *out, size_t out_bytes) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        fn(arg);
        _exit(0);
    }
    close(fds[1]);
    size_t used = 0;
    for (;;) {
        char scratch[4096];
        ssize_t n = read(fds[0], scratch, sizeof(scratch));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        size_t keep = (size_t)n;
        if (keep > out_bytes - 1 - used) keep = out_bytes - 1 - used;
        memcpy(out + used, scratch, keep);
        used += keep;
    }
    out[used] = '\0';
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return status;
}

#endif /* MUSCLES_BASE_TEST_UTIL_H */
