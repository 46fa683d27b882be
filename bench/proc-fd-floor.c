/*
 * The floor holdwatch's /proc walk is measured against: the same readdir + readlink walk of
 * /proc/<pid>/fd, single-threaded, in plain C. Timed inside the program so process start-up is not
 * counted (the warm in-process poll it is compared with pays none either).
 *
 * usage: proc-fd-floor <dir-prefix> <runs>
 * prints: one "run <wall ms> <links> <cpu ms>" line per run, then "pids <pid> <pid> ..." holding fds
 * under the prefix. CPU time is printed too: on a busy machine it says what the walk itself costs.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PIDS 65536

static int held_pids[MAX_PIDS];
static int held_count;

static double clock_ms(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Under the prefix on a separator boundary, as holdwatch matches ("<dir>-other" is not under "<dir>"). */
static int is_under(const char *path, const char *prefix, size_t prefix_len) {
    if (strncmp(path, prefix, prefix_len) != 0) return 0;
    return path[prefix_len] == '\0' || path[prefix_len] == '/';
}

static long walk_once(const char *prefix, int record) {
    size_t prefix_len = strlen(prefix);
    long links = 0;
    DIR *proc = opendir("/proc");
    if (!proc) return -1;
    struct dirent *p;
    while ((p = readdir(proc)) != NULL) {
        if (p->d_name[0] < '0' || p->d_name[0] > '9') continue;
        char fd_dir[300];
        snprintf(fd_dir, sizeof fd_dir, "/proc/%s/fd", p->d_name);
        DIR *fds = opendir(fd_dir);
        if (!fds) continue; /* exited, or denied */
        int holds = 0;
        struct dirent *f;
        while ((f = readdir(fds)) != NULL) {
            if (f->d_name[0] == '.') continue;
            char link[600], target[4096];
            snprintf(link, sizeof link, "%s/%s", fd_dir, f->d_name);
            ssize_t n = readlink(link, target, sizeof target - 1);
            if (n < 0) continue;
            target[n] = '\0';
            links++;
            if (!holds && is_under(target, prefix, prefix_len)) holds = 1;
        }
        closedir(fds);
        if (record && holds && held_count < MAX_PIDS) held_pids[held_count++] = atoi(p->d_name);
    }
    closedir(proc);
    return links;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <dir-prefix> <runs>\n", argv[0]);
        return 2;
    }
    int runs = atoi(argv[2]);
    for (int i = 0; i < runs; i++) {
        double start = clock_ms(CLOCK_MONOTONIC), cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        long links = walk_once(argv[1], i == 0);
        double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
        printf("run %.3f %ld %.3f\n", clock_ms(CLOCK_MONOTONIC) - start, links, cpu);
    }
    printf("pids");
    for (int i = 0; i < held_count; i++) printf(" %d", held_pids[i]);
    printf("\n");
    return 0;
}
