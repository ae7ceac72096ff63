/* part_publish.c: the namespace side of parts: publishing a finished tmp
 * directory under its final name with one rename, removing part
 * directories without ever leaving a half-deleted part under its own name,
 * and the small path and synced-file helpers the writer uses. Crash
 * safety: every file of a part is fsynced and the tmp directory too
 * before part_publish renames it (part_writer_finish), so after a crash
 * either the tmp_ directory exists (startup deletes it) or the whole part.
 */
#include "storage/part/part_int.h"

#include <stdio.h>
#include <string.h>

int part__path_join(char *out, const char *dir, const char *name, mu_err *err) {
    int n = snprintf(out, IO_PATH_MAX_BYTES, "%s/%s", dir, name);
    if (n < 0 || n >= IO_PATH_MAX_BYTES)
        return MU_ERR(err, MU_EINVAL, "path %.100s.../%.100s is longer than %d bytes", dir, name,
                      IO_PATH_MAX_BYTES - 1);
    return 0;
}

void part__path_base(const char *path, char *out, size_t out_bytes) {
    MU_ASSERT(out_bytes > 0);
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/') end--;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/') start--;
    size_t n = MU_MIN(end - start, out_bytes - 1);
    memcpy(out, path + start, n);
    out[n] = '\0';
}

int part__file_write_synced(const char *path, const void *data, size_t length_bytes,
                            mu_err *err) {
    io_file *file = NULL;
    int rc = io_open(&file, path, IO_OPEN_WRITE | IO_OPEN_CREATE | IO_OPEN_EXCL, PART_FP_OPEN,
                     err);
    if (rc != 0) return rc;
    rc = io_write_all(file, data, length_bytes, PART_FP_WRITE, err);
    if (rc == 0) rc = io_fsync(file, PART_FP_FSYNC, err);
    int close_rc = io_close(file, rc == 0 ? err : NULL);
    return rc != 0 ? rc : close_rc;
}

int part_publish(const char *tmp_dir, const char *final_dir, mu_err *err) {
    MU_ASSERT(tmp_dir != NULL && final_dir != NULL);
    char path[IO_PATH_MAX_BYTES], final_parent[IO_PATH_MAX_BYTES], tmp_parent[IO_PATH_MAX_BYTES];
    uint64_t size = 0;
    int rc = part__path_join(path, tmp_dir, PART_MANIFEST_FILE, err);
    if (rc == 0) rc = io_path_size(path, &size, err);
    if (rc == MU_ENOT_FOUND)
        rc = MU_ERR(err, MU_EINVAL, "publish %s: no manifest, not a finished part", tmp_dir);
    if (rc == 0) rc = io_path_parent(final_dir, final_parent, sizeof(final_parent), err);
    if (rc == 0) rc = io_path_parent(tmp_dir, tmp_parent, sizeof(tmp_parent), err);
    if (rc != 0) return rc;
    MU_CRASHPOINT(PART_CP_BEFORE_RENAME);
    rc = io_rename(tmp_dir, final_dir, IO_RENAME_NOREPLACE, PART_FP_RENAME, err);
    if (rc != 0) return rc;
    /* From here the part is complete under its final name; the fsync
     * makes the new name durable. */
    MU_CRASHPOINT(PART_CP_AFTER_RENAME);
    rc = io_fsync_dir(final_parent, PART_FP_FSYNC_DIR, err);
    if (rc == 0 && strcmp(final_parent, tmp_parent) != 0)
        rc = io_fsync_dir(tmp_parent, PART_FP_FSYNC_DIR, err);
    return rc;
}

/* Unlinks every entry of dir (one level; "idx" is emptied and removed). */
static int publish_remove_entries(const char *dir, unsigned depth, mu_err *err) {
    io_dir_list list;
    int rc = io_list_dir(dir, &list, err);
    if (rc != 0) return rc;
    for (size_t i = 0; rc == 0 && i < list.count; i++) {
        char path[IO_PATH_MAX_BYTES];
        rc = part__path_join(path, dir, list.names[i], err);
        if (rc != 0) break;
        if (depth == 0 && strcmp(list.names[i], PART_INDEX_DIR) == 0) {
            rc = publish_remove_entries(path, depth + 1, err);
            if (rc == 0) rc = io_rmdir(path, false, PART_FP_UNLINK, err);
        } else {
            rc = io_unlink(path, IO_UNLINK_MISSING_OK, PART_FP_UNLINK, err);
        }
    }
    io_dir_list_deinit(&list);
    return rc;
}

int part_dir_remove(const char *dir, mu_err *err) {
    MU_ASSERT(dir != NULL);
    char base[IO_PATH_MAX_BYTES], parent[IO_PATH_MAX_BYTES], doomed[IO_PATH_MAX_BYTES];
    part__path_base(dir, base, sizeof(base));
    const char *work = dir;
    int rc = 0;
    if (strncmp(base, "tmp_", 4) != 0) {
        char name[IO_PATH_MAX_BYTES];
        snprintf(name, sizeof(name), "tmp_delete_%.*s", IO_PATH_MAX_BYTES - 16, base);
        rc = io_path_parent(dir, parent, sizeof(parent), err);
        if (rc == 0) rc = part__path_join(doomed, parent, name, err);
        if (rc == 0)
            rc = io_rename(dir, doomed, IO_RENAME_SYNC_DIR | IO_RENAME_NOREPLACE, PART_FP_RENAME,
                           err);
        if (rc != 0) return rc;
        work = doomed;
    }
    rc = publish_remove_entries(work, 0, err);
    if (rc == 0) rc = io_rmdir(work, true, PART_FP_UNLINK, err);
    return rc;
}
