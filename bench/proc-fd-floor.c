/*
 * The floor holdwatch's /proc walk is measured against: the same readdir + readlink walk of
 * /proc/<pid>/fd, single-threaded, in plain C. Timed inside the program so process start-up is not
 * counted (the warm in-process poll it is compared with pays none either).
 *
 * usage: proc-fd-floor <dir-prefix> <runs> [fd|answer]
 *   fd      (the default) the fd links only: misses a process that holds the dir only by mmap, exe, cwd
 *           or root, so it gives a smaller answer than holdwatch's.
 *   answer  the same answer as holdwatch's walk: also each process's cwd, root and exe links and its
 *           maps, and for each process holding something its stat and command line (a holder row
 *           names its process). What a C poller would pay to say what holdwatch says.
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

static char maps[1 << 20];

/* Reads a whole small /proc file into buf; the bytes read, 0 when it is gone or denied. */
static size_t read_small(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "re");
    if (!f) return 0;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n;
}

/* cwd, root, exe and the maps: does any of them lie under the prefix? */
static int holds_otherwise(const char *pid, const char *prefix, size_t prefix_len) {
    int holds = 0;
    const char *links[] = {"cwd", "root", "exe"};
    for (int i = 0; i < 3; i++) {
        char link[300], target[4096];
        snprintf(link, sizeof link, "/proc/%s/%s", pid, links[i]);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n < 0) continue;
        target[n] = '\0';
        if (is_under(target, prefix, prefix_len)) holds = 1;
    }
    char path[300];
    snprintf(path, sizeof path, "/proc/%s/maps", pid);
    if (read_small(path, maps, sizeof maps) && strstr(maps, prefix)) holds = 1;
    return holds;
}

/* What a holder row says of its process: its stat line and command line. */
static void read_process_facts(const char *pid) {
    char path[300], buf[8192];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    read_small(path, buf, sizeof buf);
    snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
    read_small(path, buf, sizeof buf);
}

static long walk_once(const char *prefix, int record, int answer) {
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
        if (answer) {
            if (holds_otherwise(p->d_name, prefix, prefix_len)) holds = 1;
            if (holds) read_process_facts(p->d_name);
        }
        if (record && holds && held_count < MAX_PIDS) held_pids[held_count++] = atoi(p->d_name);
    }
    closedir(proc);
    return links;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "fd") != 0 && strcmp(argv[3], "answer") != 0)) {
        fprintf(stderr, "usage: %s <dir-prefix> <runs> [fd|answer]\n", argv[0]);
        return 2;
    }
    int runs = atoi(argv[2]);
    int answer = argc == 4 && strcmp(argv[3], "answer") == 0;
    for (int i = 0; i < runs; i++) {
        double start = clock_ms(CLOCK_MONOTONIC), cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        long links = walk_once(argv[1], i == 0, answer);
        double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
        printf("run %.3f %ld %.3f\n", clock_ms(CLOCK_MONOTONIC) - start, links, cpu);
    }
    printf("pids");
    for (int i = 0; i < held_count; i++) printf(" %d", held_pids[i]);
    printf("\n");
    return 0;
}
