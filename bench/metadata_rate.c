/*
 * The baseline for bench/metadata-vs-c.sh: the same metadata calls PRISM's NATIVE access makes,
 * from C, each timed with clock_gettime(CLOCK_MONOTONIC) as PRISM times its calls.
 *   create: openat(O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC) + write + close   (create_files' "create")
 *   stat:   statx(AT_SYMLINK_NOFOLLOW)                                  (list_files' "stat")
 *   rename: renameat into a second directory                            (move_files' "rename")
 *   unlink: unlinkat                                                    (delete_files' "unlink")
 * Usage: metadata_rate DIR FILES FILE_SIZE   (DIR must exist and be empty)
 * Prints one line per operation: "<op> <count> <sum of latencies in ns>".
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

static void die(const char *what, const char *path) {
    fprintf(stderr, "metadata_rate: %s(\"%s\"): %s\n", what, path, strerror(errno));
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: metadata_rate DIR FILES FILE_SIZE\n");
        return 2;
    }
    const char *dir = argv[1];
    long files = atol(argv[2]);
    size_t size = (size_t) atol(argv[3]);
    char *block = malloc(size > 0 ? size : 1);
    memset(block, 0xAB, size);
    char from[4096], to[4096], a[4096], b[4096];
    snprintf(a, sizeof a, "%s/from", dir);
    snprintf(b, sizeof b, "%s/to", dir);
    if (mkdir(a, 0755) != 0) die("mkdir", a);
    if (mkdir(b, 0755) != 0) die("mkdir", b);

    long long sum = 0;
    for (long i = 0; i < files; i++) {
        snprintf(from, sizeof from, "%s/file-%ld.dat", a, i);
        long long t0 = now_ns();
        int fd = openat(AT_FDCWD, from, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) die("openat", from);
        if (write(fd, block, size) != (ssize_t) size) die("write", from);
        if (close(fd) != 0) die("close", from);
        sum += now_ns() - t0;
    }
    printf("create %ld %lld\n", files, sum);

    struct statx stx;
    sum = 0;
    for (long i = 0; i < files; i++) {
        snprintf(from, sizeof from, "%s/file-%ld.dat", a, i);
        long long t0 = now_ns();
        if (statx(AT_FDCWD, from, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) != 0) die("statx", from);
        sum += now_ns() - t0;
    }
    printf("stat %ld %lld\n", files, sum);

    sum = 0;
    for (long i = 0; i < files; i++) {
        snprintf(from, sizeof from, "%s/file-%ld.dat", a, i);
        snprintf(to, sizeof to, "%s/file-%ld.dat", b, i);
        long long t0 = now_ns();
        if (renameat(AT_FDCWD, from, AT_FDCWD, to) != 0) die("renameat", from);
        sum += now_ns() - t0;
    }
    printf("rename %ld %lld\n", files, sum);

    sum = 0;
    for (long i = 0; i < files; i++) {
        snprintf(to, sizeof to, "%s/file-%ld.dat", b, i);
        long long t0 = now_ns();
        if (unlinkat(AT_FDCWD, to, 0) != 0) die("unlinkat", to);
        sum += now_ns() - t0;
    }
    printf("unlink %ld %lld\n", files, sum);
    rmdir(a);
    rmdir(b);
    free(block);
    return 0;
}
