#ifndef CSPAWN_H
#define CSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (both ending in NULL) in `directory` (NULL: this one),
/// with `input`, `output` and `error` as its standard streams, every other descriptor closed,
/// every signal at its default and none blocked. Returns 0 and sets `pid`, or an errno value.
/// posix_spawn with glibc's `_np` file actions (closefrom since glibc 2.34: Debian 12, Ubuntu 22.04), which
/// Swift's Glibc module does not show.
int splitter_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                   int input, int output, int error);

#endif
