#define _GNU_SOURCE
#include "CSpawn.h"

#include <signal.h>
#include <spawn.h>

int splitter_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                   int input, int output, int error) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    // A server ignores SIGPIPE and its threads may block signals: the child starts clean.
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if ((result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)) == 0 &&
        (result = posix_spawnattr_setsigdefault(&attributes, &all)) == 0 &&
        (result = posix_spawnattr_setsigmask(&attributes, &none)) == 0 &&
        (result = posix_spawn_file_actions_adddup2(&actions, input, 0)) == 0 &&
        (result = posix_spawn_file_actions_adddup2(&actions, output, 1)) == 0 &&
        (result = posix_spawn_file_actions_adddup2(&actions, error, 2)) == 0 &&
        (directory == NULL || (result = posix_spawn_file_actions_addchdir_np(&actions, directory)) == 0) &&
        // Descriptors another thread opened without close-on-exec (a pipe, a socket) stay here.
#ifdef __APPLE__
        (result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                                            POSIX_SPAWN_CLOEXEC_DEFAULT)) == 0) {
#else
        (result = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) == 0) {
#endif
        result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}
