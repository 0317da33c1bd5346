/*
 * faultfs: a FUSE passthrough filesystem for PRISM's tests that delays operations or fails them with
 * an errno, by rule, and can log every operation it serves. It is the independent observer the
 * measurement tests compare PRISM's figures against ("an injected 20 ms open reads 20 ms").
 *
 *   faultfs SOURCE MOUNTPOINT RULES_FILE LOG_FILE|-
 *
 * Runs in the foreground until unmounted (fusermount3 -u MOUNTPOINT). RULES_FILE is read again
 * whenever its modification time or inode changes (a test renames a new file into place), so a test
 * can change the rules while files are in use.
 * One rule a line, the first that matches an operation wins:
 *
 *   OPERATION PATTERN DELAY_MICROSECONDS ERRNO
 *
 * OPERATION is a FUSE operation name (getattr, open, create, read, write, fsync, release, unlink,
 * rename, mkdir, rmdir, readdir, link, statfs, truncate, flush) or '*'; PATTERN is an fnmatch(3)
 * pattern over the path inside the filesystem ("/dir/file"); ERRNO is 0, a number or one of EIO,
 * ENOSPC, EACCES, EROFS, ETIMEDOUT, ENOENT, EDQUOT. The delay comes first, then the error.
 * ERRNO FLIP on a read is silent corruption instead: the read succeeds with the last byte it returns
 * inverted (on any other operation FLIP does nothing). Two more on getattr make the attributes what a
 * network filesystem's client may show: STALE reports one link whatever the file has (an attribute
 * cache that has not seen new hard links, as NFS's actimeo keeps), NOINO an inode number made up from
 * the name (two names of one file differ, as sshfs without -o use_ino).
 * Each served operation is appended to LOG_FILE as "OPERATION PATH\n" (unless LOG_FILE is '-').
 *
 * Built by the tests with: gcc -O2 -Wall faultfs.c $(pkg-config --cflags --libs fuse3)
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define MAX_RULES 64

struct rule {
    char op[32];
    char pattern[PATH_MAX];
    long delay_us;
    int error;
};

static char source[PATH_MAX];
static const char *rules_path;
static FILE *log_file;
static struct rule rules[MAX_RULES];
static int rule_count;
static struct timespec rules_mtime;
static ino_t rules_inode;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The rule's "errors" that succeed with altered results: a read's last byte inverted, getattr's link count
   or inode number as a network client may show them. */
#define FLIP (-1)
#define STALE (-2)
#define NOINO (-3)

static int errno_of(const char *name) {
    if (strcmp(name, "FLIP") == 0) return FLIP;
    if (strcmp(name, "STALE") == 0) return STALE;
    if (strcmp(name, "NOINO") == 0) return NOINO;
    static const struct { const char *name; int value; } names[] = {
        {"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EACCES", EACCES}, {"EROFS", EROFS},
        {"ETIMEDOUT", ETIMEDOUT}, {"ENOENT", ENOENT}, {"EDQUOT", EDQUOT},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) return names[i].value;
    }
    return atoi(name);
}

/* Reads the rules again when the file changed; called with the lock held. */
static void reload_rules(void) {
    struct stat st;
    if (stat(rules_path, &st) != 0) {
        rule_count = 0;
        return;
    }
    /* a new rules file is renamed into place: a new inode, even within one clock tick */
    if (st.st_ino == rules_inode && st.st_mtim.tv_sec == rules_mtime.tv_sec
            && st.st_mtim.tv_nsec == rules_mtime.tv_nsec) return;
    rules_mtime = st.st_mtim;
    rules_inode = st.st_ino;
    FILE *f = fopen(rules_path, "r");
    rule_count = 0;
    if (f == NULL) return;
    char line[PATH_MAX + 128], error[32];
    while (rule_count < MAX_RULES && fgets(line, sizeof line, f) != NULL) {
        struct rule *r = &rules[rule_count];
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%31s %4095s %ld %31s", r->op, r->pattern, &r->delay_us, error) == 4) {
            r->error = errno_of(error);
            rule_count++;
        }
    }
    fclose(f);
}

/* Logs the operation, applies the first matching rule's delay, and returns its error (0 for none). */
static int inject(const char *op, const char *path) {
    long delay = 0;
    int error = 0;
    pthread_mutex_lock(&lock);
    if (log_file != NULL) {
        fprintf(log_file, "%s %s\n", op, path);
        fflush(log_file);
    }
    reload_rules();
    for (int i = 0; i < rule_count; i++) {
        if ((strcmp(rules[i].op, "*") == 0 || strcmp(rules[i].op, op) == 0)
                && fnmatch(rules[i].pattern, path, 0) == 0) {
            delay = rules[i].delay_us;
            error = rules[i].error;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    if (delay > 0) {
        struct timespec ts = {delay / 1000000, (delay % 1000000) * 1000};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
    return error;
}

static void real(char *out, const char *path) {
    snprintf(out, PATH_MAX, "%s%s", source, path);
}

#define INJECT(op, path) do { int e_ = inject(op, path); if (e_ > 0) return -e_; } while (0)
#define RESULT(call) ((call) == -1 ? -errno : 0)

/* An inode number from the name (FNV-1a), with the top bit set so it meets no real one. */
static ino_t made_up_inode(const char *path) {
    uint64_t h = 1469598103934665603ULL;
    for (const char *c = path; *c != '\0'; c++) {
        h = (h ^ (unsigned char) *c) * 1099511628211ULL;
    }
    return (ino_t) (h | (1ULL << 62));
}

static int ff_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    int e = inject("getattr", path);
    if (e > 0) return -e;
    int result;
    if (fi != NULL) {
        result = RESULT(fstat((int) fi->fh, st));
    } else {
        char p[PATH_MAX];
        real(p, path);
        result = RESULT(lstat(p, st));
    }
    if (result == 0 && e == STALE) st->st_nlink = 1;
    if (result == 0 && e == NOINO) st->st_ino = made_up_inode(path);
    return result;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags) {
    (void) offset; (void) fi; (void) flags;
    INJECT("readdir", path);
    char p[PATH_MAX];
    real(p, path);
    DIR *d = opendir(p);
    if (d == NULL) return -errno;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st = {0};
        st.st_ino = e->d_ino;
        st.st_mode = (mode_t) (e->d_type << 12);
        if (fill(buf, e->d_name, &st, 0, 0)) break;
    }
    closedir(d);
    return 0;
}

static int ff_mkdir(const char *path, mode_t mode) {
    INJECT("mkdir", path);
    char p[PATH_MAX];
    real(p, path);
    return RESULT(mkdir(p, mode));
}

static int ff_unlink(const char *path) {
    INJECT("unlink", path);
    char p[PATH_MAX];
    real(p, path);
    return RESULT(unlink(p));
}

static int ff_rmdir(const char *path) {
    INJECT("rmdir", path);
    char p[PATH_MAX];
    real(p, path);
    return RESULT(rmdir(p));
}

static int ff_symlink(const char *target, const char *path) {
    INJECT("symlink", path);
    char p[PATH_MAX];
    real(p, path);
    return RESULT(symlink(target, p));
}

static int ff_readlink(const char *path, char *buf, size_t size) {
    INJECT("readlink", path);
    char p[PATH_MAX];
    real(p, path);
    ssize_t n = readlink(p, buf, size - 1);
    if (n == -1) return -errno;
    buf[n] = '\0';
    return 0;
}

static int ff_rename(const char *from, const char *to, unsigned int flags) {
    INJECT("rename", from);
    char a[PATH_MAX], b[PATH_MAX];
    real(a, from);
    real(b, to);
    return RESULT(renameat2(AT_FDCWD, a, AT_FDCWD, b, flags));
}

static int ff_link(const char *from, const char *to) {
    INJECT("link", to);
    char a[PATH_MAX], b[PATH_MAX];
    real(a, from);
    real(b, to);
    return RESULT(link(a, b));
}

static int ff_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    (void) fi;
    INJECT("chmod", path);
    char p[PATH_MAX];
    real(p, path);
    return RESULT(chmod(p, mode));
}

static int ff_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    INJECT("truncate", path);
    if (fi != NULL) return RESULT(ftruncate((int) fi->fh, size));
    char p[PATH_MAX];
    real(p, path);
    return RESULT(truncate(p, size));
}

static int ff_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    (void) fi;
    INJECT("utimens", path);
    char p[PATH_MAX];
    real(p, path);
    return RESULT(utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW));
}

static int ff_open(const char *path, struct fuse_file_info *fi) {
    INJECT("open", path);
    char p[PATH_MAX];
    real(p, path);
    int fd = open(p, fi->flags & ~O_DIRECT);
    if (fd == -1) return -errno;
    fi->fh = (uint64_t) fd;
    return 0;
}

static int ff_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    INJECT("create", path);
    char p[PATH_MAX];
    real(p, path);
    int fd = open(p, (fi->flags & ~O_DIRECT) | O_CREAT, mode);
    if (fd == -1) return -errno;
    fi->fh = (uint64_t) fd;
    return 0;
}

static int ff_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    int e = inject("read", path);
    if (e > 0) return -e;
    ssize_t n = pread((int) fi->fh, buf, size, offset);
    if (n == -1) return -errno;
    if (e == FLIP && n > 0) buf[n - 1] = (char) ~buf[n - 1];
    return (int) n;
}

static int ff_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    INJECT("write", path);
    ssize_t n = pwrite((int) fi->fh, buf, size, offset);
    return n == -1 ? -errno : (int) n;
}

static int ff_statfs(const char *path, struct statvfs *st) {
    INJECT("statfs", path);
    char p[PATH_MAX];
    real(p, path);
    return RESULT(statvfs(p, st));
}

static int ff_flush(const char *path, struct fuse_file_info *fi) {
    INJECT("flush", path);
    int fd = dup((int) fi->fh);
    return fd == -1 ? -errno : RESULT(close(fd));
}

static int ff_release(const char *path, struct fuse_file_info *fi) {
    inject("release", path); /* the kernel ignores release's result: log and delay only */
    close((int) fi->fh);
    return 0;
}

static int ff_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    INJECT("fsync", path);
    return RESULT(datasync ? fdatasync((int) fi->fh) : fsync((int) fi->fh));
}

static int ff_flock(const char *path, struct fuse_file_info *fi, int op) {
    INJECT("flock", path);
    return RESULT(flock((int) fi->fh, op));
}

static void *ff_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void) conn;
    cfg->use_ino = 1;          /* inode numbers of the source: links keep their identity */
    cfg->entry_timeout = 1.0;  /* the kernel caches names and attributes for a second, as NFS does */
    cfg->attr_timeout = 1.0;
    cfg->negative_timeout = 0;
    return NULL;
}

static const struct fuse_operations operations = {
    .getattr = ff_getattr, .readdir = ff_readdir, .mkdir = ff_mkdir, .unlink = ff_unlink,
    .rmdir = ff_rmdir, .symlink = ff_symlink, .readlink = ff_readlink, .rename = ff_rename,
    .link = ff_link, .chmod = ff_chmod, .truncate = ff_truncate, .utimens = ff_utimens,
    .open = ff_open, .create = ff_create, .read = ff_read, .write = ff_write, .statfs = ff_statfs,
    .flush = ff_flush, .release = ff_release, .fsync = ff_fsync, .flock = ff_flock, .init = ff_init,
};

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: faultfs SOURCE MOUNTPOINT RULES_FILE LOG_FILE|-\n");
        return 2;
    }
    if (realpath(argv[1], source) == NULL) {
        perror(argv[1]);
        return 2;
    }
    rules_path = argv[3];
    if (strcmp(argv[4], "-") != 0 && (log_file = fopen(argv[4], "a")) == NULL) {
        perror(argv[4]);
        return 2;
    }
    char *fuse_argv[] = {argv[0], "-f", "-o", "fsname=faultfs,subtype=faultfs", argv[2], NULL};
    return fuse_main(5, fuse_argv, &operations, NULL);
}
