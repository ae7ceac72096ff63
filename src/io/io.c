/* io.c: the I/O shim (see io.h). Every data-file syscall of muscles goes
 * through here, behind a failpoint check, and every failure fills one mu_err
 * naming the operation, the path and errno.
 *
 * Invariants: an injected fault takes exactly the code path of the real
 * syscall failing with that errno (errno is set, the syscall is skipped);
 * EINTR is retried for reads and writes only, never for fsync, whose failure
 * is final for the data it covered (see io.h).
 */
#include "io/io.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct io_file {
    int fd;
    char path[]; /* NUL-terminated copy, for messages */
};

/* Evaluates the generic failpoint and, if given, the caller's specific one.
 * Both are always evaluated so that hit counters count every operation.
 * Returns 0 or the errno to inject; MU_FAILPOINT_SHORT is returned as is and
 * callers that cannot do a partial operation turn it into EIO. */
static int io__inject(const char *generic, const char *specific) {
    int generic_errno = MU_FAILPOINT(generic);
    int specific_errno = 0;
    if (specific != NULL) specific_errno = MU_FAILPOINT(specific);
    return specific_errno != 0 ? specific_errno : generic_errno;
}

/* Like io__inject for operations without a partial form. */
static int io__inject_errno(const char *generic, const char *specific) {
    int injected = io__inject(generic, specific);
    return injected == MU_FAILPOINT_SHORT ? EIO : injected;
}

/* The code for a failed operation: the space and memory errors keep their
 * own meaning; anything else (EIO included) gets the operation's code. */
static int io__code(int sys_errno, int op_code) {
    int code = mu_code_from_errno(sys_errno, op_code);
    if (code == MU_EIO) return op_code;
    return code;
}

static int io__open_flags(unsigned flags) {
    int os_flags = O_CLOEXEC;
    bool writable = (flags & (IO_OPEN_WRITE | IO_OPEN_APPEND)) != 0;
    if (writable && (flags & IO_OPEN_READ)) {
        os_flags |= O_RDWR;
    } else if (writable) {
        os_flags |= O_WRONLY;
    } else {
        os_flags |= O_RDONLY;
    }
    if (flags & IO_OPEN_APPEND) os_flags |= O_APPEND;
    if (flags & IO_OPEN_CREATE) os_flags |= O_CREAT;
    if (flags & IO_OPEN_EXCL) os_flags |= O_EXCL;
    if (flags & IO_OPEN_TRUNC) os_flags |= O_TRUNC;
    return os_flags;
}

int io_open(io_file **file_out, const char *path, unsigned flags, const char *failpoint,
            mu_err *err) {
    MU_ASSERT(file_out != NULL);
    MU_ASSERT(path != NULL);
    *file_out = NULL;
    size_t path_bytes = strlen(path) + 1;
    if (path_bytes > IO_PATH_MAX_BYTES) {
        return MU_ERR(err, MU_EINVAL, "open: path longer than %d bytes: %.64s...",
                      IO_PATH_MAX_BYTES - 1, path);
    }
    io_file *file = malloc(sizeof(*file) + path_bytes);
    if (file == NULL) return MU_ERR(err, MU_ENOMEM, "open %s: out of memory", path);
    memcpy(file->path, path, path_bytes);
    int injected = io__inject_errno(IO_FP_OPEN, failpoint);
    int fd;
    if (injected != 0) {
        fd = -1;
        errno = injected;
    } else {
        fd = open(path, io__open_flags(flags), 0644);
    }
    if (fd < 0) {
        int saved = errno;
        free(file);
        return MU_ERR_SYS(err, io__code(saved, MU_EOPEN), saved, "open %s", path);
    }
    file->fd = fd;
    *file_out = file;
    return 0;
}

int io_open_read(io_file **file_out, const char *path, mu_err *err) {
    return io_open(file_out, path, IO_OPEN_READ, NULL, err);
}

int io_open_append(io_file **file_out, const char *path, unsigned extra_flags,
                   const char *failpoint, mu_err *err) {
    MU_ASSERT((extra_flags & ~(unsigned)(IO_OPEN_CREATE | IO_OPEN_EXCL)) == 0);
    return io_open(file_out, path, IO_OPEN_APPEND | extra_flags, failpoint, err);
}

int io_close(io_file *file, mu_err *err) {
    if (file == NULL) return 0;
    MU_ASSERT(file->fd >= 0);
    int rc = 0;
    /* Linux releases the descriptor even when close fails (EINTR included),
     * so it is never retried. */
    if (close(file->fd) != 0) {
        int saved = errno;
        rc = MU_ERR_SYS(err, io__code(saved, MU_EIO), saved, "close %s", file->path);
    }
    free(file);
    return rc;
}

const char *io_file_path(const io_file *file) {
    MU_ASSERT(file != NULL);
    return file->path;
}

/* The write loop shared by io_write_all (offset < 0) and io_pwrite_all. */
static int io__write_loop(io_file *file, const uint8_t *data, size_t length_bytes,
                          int64_t offset, const char *failpoint, mu_err *err) {
    MU_ASSERT(file != NULL);
    MU_ASSERT(data != NULL || length_bytes == 0);
    size_t done_bytes = 0;
    int injected = io__inject(IO_FP_WRITE, failpoint);
    size_t limit_bytes = length_bytes;
    if (injected == MU_FAILPOINT_SHORT) limit_bytes = length_bytes / 2;
    while (done_bytes < limit_bytes) {
        ssize_t n;
        size_t want = limit_bytes - done_bytes;
        if (injected > 0) {
            n = -1;
            errno = injected;
        } else if (offset < 0) {
            n = write(file->fd, data + done_bytes, want);
        } else {
            n = pwrite(file->fd, data + done_bytes, want, (off_t)(offset + (int64_t)done_bytes));
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            return MU_ERR_SYS(err, io__code(saved, MU_EWRITE), saved,
                              "write %s: %zu of %zu bytes written", file->path, done_bytes,
                              length_bytes);
        }
        if (n == 0) break; /* no progress and no error: report as short */
        done_bytes += (size_t)n;
    }
    if (done_bytes < length_bytes) {
        return MU_ERR(err, MU_EWRITE, "write %s: short write, %zu of %zu bytes written",
                      file->path, done_bytes, length_bytes);
    }
    return 0;
}

int io_write_all(io_file *file, const void *data, size_t length_bytes, const char *failpoint,
                 mu_err *err) {
    return io__write_loop(file, data, length_bytes, -1, failpoint, err);
}

int io_pwrite_all(io_file *file, const void *data, size_t length_bytes, uint64_t offset,
                  const char *failpoint, mu_err *err) {
    if (offset > (uint64_t)INT64_MAX - length_bytes) {
        return MU_ERR(err, MU_EINVAL, "write %s: offset %llu out of range", file->path,
                      (unsigned long long)offset);
    }
    return io__write_loop(file, data, length_bytes, (int64_t)offset, failpoint, err);
}

int io_pread_all(io_file *file, void *out, size_t length_bytes, uint64_t offset,
                 const char *failpoint, mu_err *err) {
    MU_ASSERT(file != NULL);
    MU_ASSERT(out != NULL || length_bytes == 0);
    if (offset > (uint64_t)INT64_MAX - length_bytes) {
        return MU_ERR(err, MU_EINVAL, "read %s: offset %llu out of range", file->path,
                      (unsigned long long)offset);
    }
    int injected = io__inject_errno(IO_FP_READ, failpoint);
    size_t done_bytes = 0;
    while (done_bytes < length_bytes) {
        ssize_t n;
        if (injected != 0) {
            n = -1;
            errno = injected;
        } else {
            n = pread(file->fd, (uint8_t *)out + done_bytes, length_bytes - done_bytes,
                      (off_t)(offset + done_bytes));
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            return MU_ERR_SYS(err, io__code(saved, MU_EREAD), saved,
                              "read %s: %zu bytes at offset %llu", file->path, length_bytes,
                              (unsigned long long)offset);
        }
        if (n == 0) {
            return MU_ERR(err, MU_EREAD, "read %s: short read at offset %llu, got %zu of %zu bytes",
                          file->path, (unsigned long long)offset, done_bytes, length_bytes);
        }
        done_bytes += (size_t)n;
    }
    return 0;
}

/* fdatasync (data_only) or fsync of an open descriptor, never retried. */
static int io__sync_fd(int fd, const char *path, bool data_only, const char *generic,
                       const char *failpoint, mu_err *err) {
    int injected = io__inject_errno(generic, failpoint);
    int rc;
    if (injected != 0) {
        rc = -1;
        errno = injected;
    } else {
        rc = data_only ? fdatasync(fd) : fsync(fd);
    }
    if (rc != 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EFSYNC), saved, "%s %s",
                          data_only ? "fdatasync" : "fsync", path);
    }
    return 0;
}

int io_fdatasync(io_file *file, const char *failpoint, mu_err *err) {
    MU_ASSERT(file != NULL);
    return io__sync_fd(file->fd, file->path, true, IO_FP_FDATASYNC, failpoint, err);
}

int io_fsync(io_file *file, const char *failpoint, mu_err *err) {
    MU_ASSERT(file != NULL);
    return io__sync_fd(file->fd, file->path, false, IO_FP_FSYNC, failpoint, err);
}

int io_fsync_dir(const char *dir_path, const char *failpoint, mu_err *err) {
    MU_ASSERT(dir_path != NULL);
    int fd = open(dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EOPEN), saved, "open directory %s for fsync",
                          dir_path);
    }
    int rc = io__sync_fd(fd, dir_path, false, IO_FP_FSYNC_DIR, failpoint, err);
    close(fd); /* read-only descriptor: nothing to lose on a failed close */
    return rc;
}

int io_path_parent(const char *path, char *out, size_t out_bytes, mu_err *err) {
    MU_ASSERT(path != NULL);
    MU_ASSERT(out != NULL);
    size_t length = strlen(path);
    while (length > 1 && path[length - 1] == '/') length--; /* "a/b/" names a/b */
    while (length > 0 && path[length - 1] != '/') length--;
    while (length > 1 && path[length - 1] == '/') length--;
    if (length == 0) {
        if (out_bytes < 2) return MU_ERR(err, MU_EINVAL, "parent of %s: buffer too small", path);
        memcpy(out, ".", 2);
        return 0;
    }
    if (length + 1 > out_bytes) {
        return MU_ERR(err, MU_EINVAL, "parent of %s: longer than %zu bytes", path, out_bytes);
    }
    memcpy(out, path, length);
    out[length] = '\0';
    return 0;
}

static int io__sync_parent(const char *path, const char *failpoint, mu_err *err) {
    char parent[IO_PATH_MAX_BYTES];
    int rc = io_path_parent(path, parent, sizeof(parent), err);
    if (rc != 0) return rc;
    return io_fsync_dir(parent, failpoint, err);
}

static int io__rename_syscall(const char *from_path, const char *to_path, unsigned flags) {
    if (flags & IO_RENAME_NOREPLACE) {
        return renameat2(AT_FDCWD, from_path, AT_FDCWD, to_path, RENAME_NOREPLACE);
    }
    return rename(from_path, to_path);
}

int io_rename(const char *from_path, const char *to_path, unsigned flags,
              const char *failpoint, mu_err *err) {
    MU_ASSERT(from_path != NULL);
    MU_ASSERT(to_path != NULL);
    int injected = io__inject_errno(IO_FP_RENAME, failpoint);
    int rc;
    if (injected != 0) {
        rc = -1;
        errno = injected;
    } else {
        rc = io__rename_syscall(from_path, to_path, flags);
    }
    if (rc != 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EIO), saved, "rename %s to %s", from_path,
                          to_path);
    }
    if ((flags & IO_RENAME_SYNC_DIR) == 0) return 0;
    char from_parent[IO_PATH_MAX_BYTES];
    char to_parent[IO_PATH_MAX_BYTES];
    rc = io_path_parent(from_path, from_parent, sizeof(from_parent), err);
    if (rc == 0) rc = io_path_parent(to_path, to_parent, sizeof(to_parent), err);
    if (rc == 0) rc = io_fsync_dir(to_parent, failpoint, err);
    if (rc == 0 && strcmp(from_parent, to_parent) != 0) {
        rc = io_fsync_dir(from_parent, failpoint, err);
    }
    return rc;
}

int io_unlink(const char *path, unsigned flags, const char *failpoint, mu_err *err) {
    MU_ASSERT(path != NULL);
    int injected = io__inject_errno(IO_FP_UNLINK, failpoint);
    int rc;
    if (injected != 0) {
        rc = -1;
        errno = injected;
    } else {
        rc = unlink(path);
    }
    if (rc != 0 && !(errno == ENOENT && (flags & IO_UNLINK_MISSING_OK))) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EIO), saved, "unlink %s", path);
    }
    if (flags & IO_UNLINK_SYNC_DIR) return io__sync_parent(path, failpoint, err);
    return 0;
}

int io_truncate(io_file *file, uint64_t length_bytes, const char *failpoint, mu_err *err) {
    MU_ASSERT(file != NULL);
    if (length_bytes > (uint64_t)INT64_MAX) {
        return MU_ERR(err, MU_EINVAL, "truncate %s: length %llu out of range", file->path,
                      (unsigned long long)length_bytes);
    }
    int injected = io__inject_errno(IO_FP_TRUNCATE, failpoint);
    int rc;
    if (injected != 0) {
        rc = -1;
        errno = injected;
    } else {
        do {
            rc = ftruncate(file->fd, (off_t)length_bytes);
        } while (rc != 0 && errno == EINTR);
    }
    if (rc != 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EWRITE), saved, "truncate %s to %llu bytes",
                          file->path, (unsigned long long)length_bytes);
    }
    return 0;
}

/* Creates one directory level; *created tells whether it was new. */
static int io__mkdir_one(const char *path, const char *failpoint, bool *created, mu_err *err) {
    *created = false;
    int injected = io__inject_errno(IO_FP_MKDIR, failpoint);
    int rc;
    if (injected != 0) {
        rc = -1;
        errno = injected;
    } else {
        rc = mkdir(path, 0755);
    }
    if (rc == 0) {
        *created = true;
        return 0;
    }
    int saved = errno;
    if (saved == EEXIST) {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
        return MU_ERR(err, MU_EEXISTS, "mkdir %s: exists and is not a directory", path);
    }
    return MU_ERR_SYS(err, io__code(saved, MU_EIO), saved, "mkdir %s", path);
}

int io_mkdir_p(const char *path, const char *failpoint, mu_err *err) {
    MU_ASSERT(path != NULL);
    size_t length = strlen(path);
    if (length == 0) return MU_ERR(err, MU_EINVAL, "mkdir: empty path");
    if (length + 1 > IO_PATH_MAX_BYTES) {
        return MU_ERR(err, MU_EINVAL, "mkdir: path longer than %d bytes", IO_PATH_MAX_BYTES - 1);
    }
    char prefix[IO_PATH_MAX_BYTES];
    memcpy(prefix, path, length + 1);
    /* Walk each '/' (and the end) after the first character, creating the
     * prefix up to it. A bounded loop: at most length iterations. */
    for (size_t i = 1; i <= length; i++) {
        if (prefix[i] != '/' && prefix[i] != '\0') continue;
        if (prefix[i - 1] == '/') continue; /* "a//b" */
        char saved_char = prefix[i];
        prefix[i] = '\0';
        bool created = false;
        int rc = io__mkdir_one(prefix, failpoint, &created, err);
        if (rc == 0 && created) rc = io__sync_parent(prefix, failpoint, err);
        prefix[i] = saved_char;
        if (rc != 0) return rc;
    }
    return 0;
}

int io_rmdir(const char *path, bool sync_parent, const char *failpoint, mu_err *err) {
    MU_ASSERT(path != NULL);
    int injected = io__inject_errno(IO_FP_RMDIR, failpoint);
    int rc;
    if (injected != 0) {
        rc = -1;
        errno = injected;
    } else {
        rc = rmdir(path);
    }
    if (rc != 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EIO), saved, "rmdir %s", path);
    }
    return sync_parent ? io__sync_parent(path, failpoint, err) : 0;
}

/* nftw has no context argument: the walk's state is per thread. */
static _Thread_local struct {
    const char *failpoint;
    mu_err *err;
    int rc;
} io__remove_state;

static int io__remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    int rc = type == FTW_DP ? io_rmdir(path, false, io__remove_state.failpoint,
                                       io__remove_state.err)
                            : io_unlink(path, 0, io__remove_state.failpoint, io__remove_state.err);
    io__remove_state.rc = rc;
    return rc == 0 ? 0 : 1; /* non-zero stops the walk */
}

int io_remove_tree(const char *path, const char *failpoint, mu_err *err) {
    MU_ASSERT(path != NULL);
    struct stat st;
    if (lstat(path, &st) != 0) {
        int saved = errno;
        if (saved == ENOENT) return 0;
        return MU_ERR_SYS(err, io__code(saved, MU_EIO), saved, "stat %s", path);
    }
    io__remove_state.failpoint = failpoint;
    io__remove_state.err = err;
    io__remove_state.rc = 0;
    int walk = nftw(path, io__remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (io__remove_state.rc != 0) return io__remove_state.rc;
    if (walk != 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EIO), saved, "remove %s", path);
    }
    return io__sync_parent(path, failpoint, err);
}

/* Room left in out before its capacity or its max_bytes, whichever is less. */
static size_t io__buf_room(const mu_buf *out) {
    size_t limit = out->max_bytes == 0 ? SIZE_MAX : out->max_bytes;
    size_t end = MU_MIN(out->capacity_bytes, limit);
    return end > out->length_bytes ? end - out->length_bytes : 0;
}

/* Reads fd to its end into out, at most out->max_bytes in total. When the
 * reserved room is used up, a one-byte probe tells end of file from growth,
 * so a file of exactly max_bytes still fits. */
static int io__read_to_end(int fd, const char *path, mu_buf *out, mu_err *err) {
    size_t start_bytes = out->length_bytes;
    int injected = io__inject_errno(IO_FP_READ, NULL);
    int rc = 0;
    for (;;) {
        uint8_t probe[1];
        size_t room = io__buf_room(out);
        uint8_t *target = room > 0 ? out->data + out->length_bytes : probe;
        ssize_t n;
        if (injected != 0) {
            n = -1;
            errno = injected;
        } else {
            n = read(fd, target, room > 0 ? room : sizeof(probe));
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            rc = MU_ERR_SYS(err, io__code(saved, MU_EREAD), saved, "read %s", path);
            goto fail;
        }
        if (n == 0) return 0;
        if (target == probe) {
            rc = mu_buf_append(out, probe, 1, err);
            if (rc != 0) {
                mu_err_prefix(err, "read %s", path);
                goto fail;
            }
        } else {
            out->length_bytes += (size_t)n;
        }
    }
fail:
    out->length_bytes = start_bytes;
    return rc;
}

int io_read_file(const char *path, mu_buf *out, mu_err *err) {
    MU_ASSERT(path != NULL);
    MU_ASSERT(out != NULL);
    io_file *file = NULL;
    int rc = io_open_read(&file, path, err);
    if (rc != 0) return rc;
    uint64_t size_bytes = 0;
    rc = io_file_size(file, &size_bytes, err);
    if (rc != 0) goto fail;
    /* One reservation for the expected size keeps large reads to one copy;
     * the limit check happens in mu_buf_reserve. */
    if (size_bytes > 0) {
        rc = size_bytes < SIZE_MAX ? mu_buf_reserve(out, (size_t)size_bytes, err)
                                   : MU_ERR(err, MU_ETOO_LARGE, "file too large");
        if (rc != 0) {
            mu_err_prefix(err, "read %s (%llu bytes)", path, (unsigned long long)size_bytes);
            goto fail;
        }
    }
    rc = io__read_to_end(file->fd, path, out, err);
fail:
    io_close(file, NULL); /* opened read-only: a close error cannot lose data */
    return rc;
}

static int io__compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends a copy of name to list, growing its array geometrically. */
static int io__dir_list_push(io_dir_list *list, size_t *capacity, const char *name,
                             const char *dir_path, mu_err *err) {
    if (list->count == *capacity) {
        size_t grown = *capacity == 0 ? 16 : *capacity * 2;
        char **names = realloc(list->names, grown * sizeof(*names));
        if (names == NULL) return MU_ERR(err, MU_ENOMEM, "list %s: out of memory", dir_path);
        list->names = names;
        *capacity = grown;
    }
    char *copy = strdup(name);
    if (copy == NULL) return MU_ERR(err, MU_ENOMEM, "list %s: out of memory", dir_path);
    list->names[list->count++] = copy;
    return 0;
}

int io_list_dir(const char *dir_path, io_dir_list *list, mu_err *err) {
    MU_ASSERT(dir_path != NULL);
    MU_ASSERT(list != NULL);
    list->names = NULL;
    list->count = 0;
    DIR *dir = opendir(dir_path);
    if (dir == NULL) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EOPEN), saved, "open directory %s", dir_path);
    }
    size_t capacity = 0;
    int rc = 0;
    for (;;) {
        errno = 0;
        struct dirent *entry = readdir(dir);
        if (entry == NULL) {
            if (errno != 0) {
                int saved = errno;
                rc = MU_ERR_SYS(err, io__code(saved, MU_EREAD), saved, "read directory %s",
                                dir_path);
            }
            break;
        }
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        if (list->count >= IO_LIST_DIR_ENTRIES_MAX) {
            rc = MU_ERR(err, MU_ETOO_LARGE, "list %s: more than %u entries", dir_path,
                        IO_LIST_DIR_ENTRIES_MAX);
            break;
        }
        rc = io__dir_list_push(list, &capacity, entry->d_name, dir_path, err);
        if (rc != 0) break;
    }
    closedir(dir);
    if (rc != 0) {
        io_dir_list_deinit(list);
        return rc;
    }
    if (list->count > 1) qsort(list->names, list->count, sizeof(char *), io__compare_names);
    return 0;
}

void io_dir_list_deinit(io_dir_list *list) {
    if (list == NULL) return;
    for (size_t i = 0; i < list->count; i++) free(list->names[i]);
    free(list->names);
    list->names = NULL;
    list->count = 0;
}

int io_file_size(io_file *file, uint64_t *size_out, mu_err *err) {
    MU_ASSERT(file != NULL);
    MU_ASSERT(size_out != NULL);
    struct stat st;
    if (fstat(file->fd, &st) != 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EREAD), saved, "stat %s", file->path);
    }
    *size_out = (uint64_t)st.st_size;
    return 0;
}

int io_path_size(const char *path, uint64_t *size_out, mu_err *err) {
    MU_ASSERT(path != NULL);
    MU_ASSERT(size_out != NULL);
    struct stat st;
    if (stat(path, &st) != 0) {
        int saved = errno;
        return MU_ERR_SYS(err, io__code(saved, MU_EREAD), saved, "stat %s", path);
    }
    *size_out = (uint64_t)st.st_size;
    return 0;
}
