/*
 * The baseline for bench/metadata-vs-mdtest-calls.sh: mdtest's per-file calls, made as a C program that holds
 * its directories open would make them, relative to a directory descriptor (the kernel resolves one name), each
 * timed with clock_gettime(CLOCK_MONOTONIC) as PRISM times its calls; names are formatted before the clock starts.
 *   create: openat(dirfd, name, O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC) + write + close   (create_files' "create")
 *   stat:   statx(dirfd, name, AT_SYMLINK_NOFOLLOW)                                   (list_files' "stat")
 *   rename: renameat(from_fd, name, to_fd, name)                                      (move_files' "rename")
 *   unlink: unlinkat(dirfd, name, 0)                                                  (delete_files' "unlink")
 * Usage: metadata_at DIR FILES FILE_SIZE   (DIR must exist and be empty)
 * Prints one line per operation: "<op> <count> <sum of latencies in ns> <median latency in ns>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long *lat;

static int by_value(const void *a, const void *b) {
    long long x = *(const long long *) a, y = *(const long long *) b;
    return x < y ? -1 : x > y;
}

/* prints "<op> <count> <sum> <median>" of the first n latencies in lat */
static void report(const char *op, long n) {
    long long sum = 0;
    for (long i = 0; i < n; i++) sum += lat[i];
    qsort(lat, n, sizeof *lat, by_value);
    printf("%s %ld %lld %lld\n", op, n, sum, lat[n / 2]);
}

static void die(const char *what, const char *name) {
    fprintf(stderr, "metadata_at: %s(\"%s\"): %s\n", what, name, strerror(errno));
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: metadata_at DIR FILES FILE_SIZE\n");
        return 2;
    }
    long files = atol(argv[2]);
    size_t size = (size_t) atol(argv[3]);
    char *block = malloc(size > 0 ? size : 1);
    memset(block, 0xAB, size);
    int dir = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) die("open", argv[1]);
    if (mkdirat(dir, "from", 0755) != 0) die("mkdirat", "from");
    if (mkdirat(dir, "to", 0755) != 0) die("mkdirat", "to");
    int from = openat(dir, "from", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int to = openat(dir, "to", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (from < 0 || to < 0) die("openat", "from/to");
    char name[64];
    lat = malloc(sizeof *lat * (files > 0 ? files : 1));

    for (long i = 0; i < files; i++) {
        snprintf(name, sizeof name, "file-%ld.dat", i);
        long long t0 = now_ns();
        int fd = openat(from, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) die("openat", name);
        if (write(fd, block, size) != (ssize_t) size) die("write", name);
        if (close(fd) != 0) die("close", name);
        lat[i] = now_ns() - t0;
    }
    report("create", files);

    struct statx stx;
    for (long i = 0; i < files; i++) {
        snprintf(name, sizeof name, "file-%ld.dat", i);
        long long t0 = now_ns();
        if (statx(from, name, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) != 0) die("statx", name);
        lat[i] = now_ns() - t0;
    }
    report("stat", files);

    for (long i = 0; i < files; i++) {
        snprintf(name, sizeof name, "file-%ld.dat", i);
        long long t0 = now_ns();
        if (renameat(from, name, to, name) != 0) die("renameat", name);
        lat[i] = now_ns() - t0;
    }
    report("rename", files);

    for (long i = 0; i < files; i++) {
        snprintf(name, sizeof name, "file-%ld.dat", i);
        long long t0 = now_ns();
        if (unlinkat(to, name, 0) != 0) die("unlinkat", name);
        lat[i] = now_ns() - t0;
    }
    report("unlink", files);
    unlinkat(dir, "from", AT_REMOVEDIR);
    unlinkat(dir, "to", AT_REMOVEDIR);
    free(block);
    return 0;
}
