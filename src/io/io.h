/* io.h: the I/O shim, the only code in muscles that opens, writes, syncs,
 * renames, truncates or deletes data files, so every fault test injects its
 * errors here. Owns nothing but the io_file handles it hands out.
 *
 * Every operation first evaluates a generic failpoint ("io.write", ...) and
 * then, when the caller passes one, a specific name ("wal.fsync"); either can
 * inject an errno (EIO, ENOSPC) that takes exactly the path of the real
 * syscall failing, or MU_FAILPOINT_SHORT, which makes a write store only part
 * of its buffer and report MU_EWRITE. Errors fill mu_err once, naming the
 * operation, the path and the errno. Rules: src/io/README.md.
 */
#ifndef MUSCLES_IO_H
#define MUSCLES_IO_H

#include "base/base.h"

/* Generic failpoint names, evaluated by every call of the operation. */
#define IO_FP_OPEN "io.open"
#define IO_FP_READ "io.read"
#define IO_FP_WRITE "io.write"
#define IO_FP_FDATASYNC "io.fdatasync"
#define IO_FP_FSYNC "io.fsync"
#define IO_FP_FSYNC_DIR "io.fsync_dir"
#define IO_FP_RENAME "io.rename"
#define IO_FP_UNLINK "io.unlink"
#define IO_FP_TRUNCATE "io.truncate"
#define IO_FP_MKDIR "io.mkdir"
#define IO_FP_RMDIR "io.rmdir"

/* Longest path io accepts (including the terminating NUL). */
#define IO_PATH_MAX_BYTES 4096
/* io_list_dir refuses directories with more entries than this. */
#define IO_LIST_DIR_ENTRIES_MAX (1u << 20)

/* An open file: a descriptor plus a copy of its path for messages. */
typedef struct io_file io_file;

enum io_open_flag {
    IO_OPEN_READ = 1u << 0,   /* readable */
    IO_OPEN_WRITE = 1u << 1,  /* writable (pwrite at any offset) */
    IO_OPEN_APPEND = 1u << 2, /* writable, every write goes to the end */
    IO_OPEN_CREATE = 1u << 3, /* create if missing, mode 0644 */
    IO_OPEN_EXCL = 1u << 4,   /* with CREATE: fail with MU_EEXISTS if present */
    IO_OPEN_TRUNC = 1u << 5,  /* truncate to 0 bytes on open */
};

/* Opens path. Failures: MU_ENOT_FOUND, MU_EEXISTS, MU_ENOSPC, else MU_EOPEN. */
int io_open(io_file **file_out, const char *path, unsigned flags, const char *failpoint,
            mu_err *err);
/* io_open(path, IO_OPEN_READ). */
int io_open_read(io_file **file_out, const char *path, mu_err *err);
/* io_open(path, IO_OPEN_APPEND | extra_flags); extra_flags may add CREATE, EXCL. */
int io_open_append(io_file **file_out, const char *path, unsigned extra_flags,
                   const char *failpoint, mu_err *err);
/* Closes and frees file (accepts NULL). The descriptor is released even when
 * close(2) reports an error, which is returned (MU_EIO) for the caller to
 * treat like a failed write: data written since the last sync is suspect. */
int io_close(io_file *file, mu_err *err);
const char *io_file_path(const io_file *file);

/* Writes all length_bytes, looping over partial writes and EINTR. A failure
 * after some bytes were written leaves them in the file; the caller decides
 * (the WAL truncates or abandons the segment). MU_ENOSPC or MU_EWRITE. */
int io_write_all(io_file *file, const void *data, size_t length_bytes, const char *failpoint,
                 mu_err *err);
/* Like io_write_all, at offset (the file offset is not moved). */
int io_pwrite_all(io_file *file, const void *data, size_t length_bytes, uint64_t offset,
                  const char *failpoint, mu_err *err);
/* Reads exactly length_bytes at offset. End of file first is an error
 * (MU_EREAD "short read ... got N of M bytes"), as is any failed read. */
int io_pread_all(io_file *file, void *out, size_t length_bytes, uint64_t offset,
                 const char *failpoint, mu_err *err);

/* Durability. A failure means the data written since the last successful
 * sync may be lost even if a later sync succeeds (Linux reports a write-back
 * error once): never retry on the same descriptor and believe the result.
 * Failures: MU_ENOSPC or MU_EFSYNC. */
int io_fdatasync(io_file *file, const char *failpoint, mu_err *err);
int io_fsync(io_file *file, const char *failpoint, mu_err *err);
/* Opens the directory and fsyncs it, making entries created, renamed or
 * removed in it durable. */
int io_fsync_dir(const char *dir_path, const char *failpoint, mu_err *err);

enum io_rename_flag {
    IO_RENAME_SYNC_DIR = 1u << 0,  /* fsync the parent of to (and of from, if different) */
    IO_RENAME_NOREPLACE = 1u << 1, /* fail with MU_EEXISTS if to exists */
};
int io_rename(const char *from_path, const char *to_path, unsigned flags,
              const char *failpoint, mu_err *err);

enum io_unlink_flag {
    IO_UNLINK_MISSING_OK = 1u << 0, /* a missing path is success */
    IO_UNLINK_SYNC_DIR = 1u << 1,   /* fsync the parent directory afterwards */
};
int io_unlink(const char *path, unsigned flags, const char *failpoint, mu_err *err);

/* Sets the file's size (ftruncate). Not durable until io_fsync. */
int io_truncate(io_file *file, uint64_t length_bytes, const char *failpoint, mu_err *err);

/* Creates path and any missing parents (mode 0755), fsyncing the parent of
 * each directory it creates so the new entries survive a crash. An existing
 * directory is success; an existing non-directory is MU_EEXISTS. */
int io_mkdir_p(const char *path, const char *failpoint, mu_err *err);

/* Removes an empty directory; MU_ENOT_FOUND if missing, MU_EIO otherwise
 * (ENOTEMPTY included). With sync_parent, fsyncs the parent afterwards. */
int io_rmdir(const char *path, bool sync_parent, const char *failpoint, mu_err *err);

/* Removes path and everything under it (files, subdirectories; symlinks are
 * removed, never followed), deepest first, then fsyncs the parent. A missing
 * path is success. Used for tmp_ part directories and obsolete parts. */
int io_remove_tree(const char *path, const char *failpoint, mu_err *err);

/* Appends the whole file to out. Growth past out->max_bytes fails with
 * MU_ETOO_LARGE and leaves out as it was. */
int io_read_file(const char *path, mu_buf *out, mu_err *err);

/* Entries of a directory, "." and ".." excluded, sorted by strcmp. */
typedef struct io_dir_list {
    char **names;
    size_t count;
} io_dir_list;
/* Fills list (which the caller deinits); MU_ENOT_FOUND if dir is missing. */
int io_list_dir(const char *dir_path, io_dir_list *list, mu_err *err);
void io_dir_list_deinit(io_dir_list *list);

int io_file_size(io_file *file, uint64_t *size_out, mu_err *err);
/* Size of the file at path; MU_ENOT_FOUND if it does not exist. */
int io_path_size(const char *path, uint64_t *size_out, mu_err *err);

/* Writes the directory part of path ("." when it has none) into out. */
int io_path_parent(const char *path, char *out, size_t out_bytes, mu_err *err);

#endif /* MUSCLES_IO_H */
