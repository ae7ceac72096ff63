/* io_test.c: goal — prove that every io.h operation does what it says on
 * real files in a temporary directory (open modes, full writes, positioned
 * reads with short reads reported, syncs, durable rename/unlink/mkdir/rmdir, whole
 * file reads bounded by the buffer's max, sorted listings, sizes), that each
 * failure names the operation and path with the right MU_E* code, and that
 * injected faults (generic io.* names and the caller's specific name; EIO,
 * ENOSPC, short writes; the Nth call only) take exactly the failure path of
 * the real syscall. Bad inputs: missing files, existing files with EXCL,
 * over-long paths, files in the way of directories, oversized reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io.h"

static char test_dir[256];

static int dir_setup(void **state) {
    (void)state;
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(test_dir, sizeof(test_dir), "%s/io_test.XXXXXX", base);
    if (mkdtemp(test_dir) == NULL) return -1;
    mu_failpoints_configure("", NULL);
    return 0;
}

static int dir_teardown(void **state) {
    (void)state;
    mu_failpoints_configure("", NULL);
    char command[512];
    snprintf(command, sizeof(command), "rm -rf '%s'", test_dir);
    return system(command) == 0 ? 0 : -1;
}

static void path_in(char *out, size_t out_bytes, const char *name) {
    snprintf(out, out_bytes, "%s/%s", test_dir, name);
}

static void write_file(const char *path, const char *text) {
    io_file *f = NULL;
    mu_err err;
    assert_int_equal(io_open(&f, path, IO_OPEN_WRITE | IO_OPEN_CREATE | IO_OPEN_TRUNC, NULL,
                             &err), 0);
    assert_int_equal(io_write_all(f, text, strlen(text), NULL, &err), 0);
    assert_int_equal(io_close(f, &err), 0);
}

static void expect_contents(const char *path, const char *text) {
    mu_buf buf;
    mu_buf_init(&buf, 0);
    mu_err err;
    assert_int_equal(io_read_file(path, &buf, &err), 0);
    assert_int_equal(buf.length_bytes, strlen(text));
    assert_memory_equal(buf.data, text, strlen(text));
    mu_buf_deinit(&buf);
}

static void skip_unless_failpoints(void) {
    if (!mu_failpoints_compiled_in()) skip();
}

/* ---- good paths ---- */

static void test_write_append_and_read_back(void **state) {
    (void)state;
    char path[512];
    path_in(path, sizeof(path), "a.txt");
    mu_err err;
    io_file *f = NULL;
    assert_int_equal(io_open_append(&f, path, IO_OPEN_CREATE, NULL, &err), 0);
    assert_string_equal(io_file_path(f), path);
    assert_int_equal(io_write_all(f, "hello ", 6, NULL, &err), 0);
    assert_int_equal(io_fdatasync(f, NULL, &err), 0);
    assert_int_equal(io_close(f, &err), 0);
    assert_int_equal(io_open_append(&f, path, 0, NULL, &err), 0);
    assert_int_equal(io_write_all(f, "world", 5, NULL, &err), 0);
    assert_int_equal(io_write_all(f, NULL, 0, NULL, &err), 0);
    assert_int_equal(io_fsync(f, NULL, &err), 0);
    uint64_t size = 0;
    assert_int_equal(io_file_size(f, &size, &err), 0);
    assert_int_equal(size, 11);
    assert_int_equal(io_close(f, &err), 0);
    expect_contents(path, "hello world");
    assert_int_equal(io_path_size(path, &size, &err), 0);
    assert_int_equal(size, 11);
    assert_int_equal(io_close(NULL, &err), 0);
}

static void test_pwrite_pread(void **state) {
    (void)state;
    char path[512];
    path_in(path, sizeof(path), "p.bin");
    mu_err err;
    io_file *f = NULL;
    assert_int_equal(io_open(&f, path, IO_OPEN_READ | IO_OPEN_WRITE | IO_OPEN_CREATE, NULL,
                             &err), 0);
    assert_int_equal(io_pwrite_all(f, "abcdef", 6, 0, NULL, &err), 0);
    assert_int_equal(io_pwrite_all(f, "XY", 2, 2, NULL, &err), 0);
    char out[6];
    assert_int_equal(io_pread_all(f, out, 6, 0, NULL, &err), 0);
    assert_memory_equal(out, "abXYef", 6);
    assert_int_equal(io_pread_all(f, out, 2, 4, NULL, &err), 0);
    assert_memory_equal(out, "ef", 2);
    assert_int_equal(io_truncate(f, 3, NULL, &err), 0);
    assert_int_equal(io_fsync(f, NULL, &err), 0);
    assert_int_equal(io_close(f, &err), 0);
    expect_contents(path, "abX");
}

static void test_rename_unlink_fsync_dir(void **state) {
    (void)state;
    char from[512], to[512], sub[512], deep[512];
    path_in(from, sizeof(from), "from.txt");
    path_in(to, sizeof(to), "to.txt");
    path_in(sub, sizeof(sub), "sub");
    path_in(deep, sizeof(deep), "sub/x/y");
    mu_err err;
    write_file(from, "1");
    assert_int_equal(io_rename(from, to, IO_RENAME_SYNC_DIR, NULL, &err), 0);
    expect_contents(to, "1");
    assert_int_equal(access(from, F_OK), -1);
    /* Across directories: both parents are synced. */
    assert_int_equal(io_mkdir_p(deep, NULL, &err), 0);
    char moved[600];
    snprintf(moved, sizeof(moved), "%s/moved.txt", deep);
    assert_int_equal(io_rename(to, moved, IO_RENAME_SYNC_DIR | IO_RENAME_NOREPLACE, NULL, &err),
                     0);
    expect_contents(moved, "1");
    assert_int_equal(io_fsync_dir(sub, NULL, &err), 0);
    assert_int_equal(io_unlink(moved, IO_UNLINK_SYNC_DIR, NULL, &err), 0);
    assert_int_equal(access(moved, F_OK), -1);
    assert_int_equal(io_unlink(moved, IO_UNLINK_MISSING_OK, NULL, &err), 0);
}

static void test_mkdir_p(void **state) {
    (void)state;
    char deep[512];
    path_in(deep, sizeof(deep), "m/n//o/");
    mu_err err;
    assert_int_equal(io_mkdir_p(deep, NULL, &err), 0);
    struct stat st;
    char check[512];
    path_in(check, sizeof(check), "m/n/o");
    assert_int_equal(stat(check, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(io_mkdir_p(deep, NULL, &err), 0); /* existing: fine */
    assert_int_equal(io_mkdir_p(test_dir, NULL, &err), 0);
}

static void test_rmdir(void **state) {
    (void)state;
    char dir[512], file[600];
    path_in(dir, sizeof(dir), "gone");
    snprintf(file, sizeof(file), "%s/f", dir);
    mu_err err;
    assert_int_equal(io_mkdir_p(dir, NULL, &err), 0);
    write_file(file, "x");
    assert_int_equal(io_rmdir(dir, false, NULL, &err), MU_EIO); /* not empty */
    assert_int_equal(err.sys_errno, ENOTEMPTY);
    assert_int_equal(io_unlink(file, 0, NULL, &err), 0);
    assert_int_equal(io_rmdir(dir, true, NULL, &err), 0);
    assert_int_equal(access(dir, F_OK), -1);
    assert_int_equal(io_rmdir(dir, false, NULL, &err), MU_ENOT_FOUND);
    if (!mu_failpoints_compiled_in()) return;
    assert_int_equal(io_mkdir_p(dir, NULL, &err), 0);
    assert_int_equal(mu_failpoints_configure("io.rmdir=error:EIO", &err), 0);
    assert_int_equal(io_rmdir(dir, false, NULL, &err), MU_EIO);
    assert_int_equal(access(dir, F_OK), 0);
    mu_failpoints_configure("", NULL);
}

static void test_remove_tree(void **state) {
    (void)state;
    char root[512], sub[600], file[700], link[700];
    path_in(root, sizeof(root), "tree");
    snprintf(sub, sizeof(sub), "%s/a/b", root);
    mu_err err;
    assert_int_equal(io_mkdir_p(sub, NULL, &err), 0);
    snprintf(file, sizeof(file), "%s/f", sub);
    write_file(file, "x");
    snprintf(file, sizeof(file), "%s/g", root);
    write_file(file, "y");
    /* A symlink to a file outside the tree is removed, its target kept. */
    snprintf(link, sizeof(link), "%s/a/outside", root);
    char target[512];
    path_in(target, sizeof(target), "keep.txt");
    write_file(target, "keep");
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(io_remove_tree(root, NULL, &err), 0);
    assert_int_equal(access(root, F_OK), -1);
    assert_int_equal(access(target, F_OK), 0);
    assert_int_equal(io_remove_tree(root, NULL, &err), 0); /* missing: fine */
    if (!mu_failpoints_compiled_in()) return;
    assert_int_equal(io_mkdir_p(sub, NULL, &err), 0);
    assert_int_equal(mu_failpoints_configure("io.rmdir=error:EIO", &err), 0);
    assert_int_equal(io_remove_tree(root, NULL, &err), MU_EIO);
    mu_failpoints_configure("", NULL);
    assert_int_equal(io_remove_tree(root, NULL, &err), 0);
    assert_int_equal(access(root, F_OK), -1);
}

static void test_read_file_bounds(void **state) {
    (void)state;
    char path[512];
    path_in(path, sizeof(path), "r.txt");
    write_file(path, "0123456789");
    mu_err err;
    mu_buf buf;
    mu_buf_init(&buf, 10); /* exactly the file size fits */
    assert_int_equal(io_read_file(path, &buf, &err), 0);
    assert_int_equal(buf.length_bytes, 10);
    mu_buf_deinit(&buf);
    mu_buf_init(&buf, 12);
    assert_int_equal(mu_buf_append(&buf, "ab", 2, &err), 0);
    assert_int_equal(io_read_file(path, &buf, &err), 0); /* appends */
    assert_int_equal(buf.length_bytes, 12);
    assert_memory_equal(buf.data, "ab0123456789", 12);
    mu_buf_deinit(&buf);
    char empty[512];
    path_in(empty, sizeof(empty), "empty.txt");
    write_file(empty, "");
    mu_buf_init(&buf, 0);
    assert_int_equal(io_read_file(empty, &buf, &err), 0);
    assert_int_equal(buf.length_bytes, 0);
    mu_buf_deinit(&buf);
}

static void test_list_dir_sorted(void **state) {
    (void)state;
    char dir[512];
    path_in(dir, sizeof(dir), "list");
    mu_err err;
    assert_int_equal(io_mkdir_p(dir, NULL, &err), 0);
    const char *names[] = {"c", "a", "b10", "b2"};
    for (size_t i = 0; i < 4; i++) {
        char p[600];
        snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
        write_file(p, "x");
    }
    io_dir_list list;
    assert_int_equal(io_list_dir(dir, &list, &err), 0);
    assert_int_equal(list.count, 4);
    assert_string_equal(list.names[0], "a");
    assert_string_equal(list.names[1], "b10");
    assert_string_equal(list.names[2], "b2");
    assert_string_equal(list.names[3], "c");
    io_dir_list_deinit(&list);
    io_dir_list_deinit(&list); /* idempotent */
}

static void test_path_parent(void **state) {
    (void)state;
    char out[64];
    mu_err err;
    assert_int_equal(io_path_parent("a/b/c", out, sizeof(out), &err), 0);
    assert_string_equal(out, "a/b");
    assert_int_equal(io_path_parent("a/b/", out, sizeof(out), &err), 0);
    assert_string_equal(out, "a");
    assert_int_equal(io_path_parent("file", out, sizeof(out), &err), 0);
    assert_string_equal(out, ".");
    assert_int_equal(io_path_parent("/top", out, sizeof(out), &err), 0);
    assert_string_equal(out, "/");
    assert_int_equal(io_path_parent("//x//y", out, sizeof(out), &err), 0);
    assert_string_equal(out, "//x");
    assert_int_equal(io_path_parent("abcdef/g", out, 4, &err), MU_EINVAL);
}

/* ---- bad inputs ---- */

static void test_open_errors(void **state) {
    (void)state;
    char path[512];
    path_in(path, sizeof(path), "missing/none.txt");
    mu_err err;
    io_file *f = (io_file *)&err; /* must be reset to NULL on failure */
    assert_int_equal(io_open_read(&f, path, &err), MU_ENOT_FOUND);
    assert_null(f);
    assert_non_null(strstr(err.message, "open "));
    assert_non_null(strstr(err.message, path));
    assert_int_equal(err.sys_errno, ENOENT);
    char existing[512];
    path_in(existing, sizeof(existing), "exists.txt");
    write_file(existing, "x");
    assert_int_equal(io_open(&f, existing, IO_OPEN_WRITE | IO_OPEN_CREATE | IO_OPEN_EXCL, NULL,
                             &err), MU_EEXISTS);
    char *long_path = malloc(IO_PATH_MAX_BYTES + 10);
    memset(long_path, 'a', IO_PATH_MAX_BYTES + 9);
    long_path[IO_PATH_MAX_BYTES + 9] = '\0';
    assert_int_equal(io_open_read(&f, long_path, &err), MU_EINVAL);
    assert_int_equal(io_mkdir_p(long_path, NULL, &err), MU_EINVAL);
    free(long_path);
    assert_int_equal(io_open_read(&f, test_dir, &err), 0); /* a directory opens read-only */
    char byte;
    assert_int_equal(io_pread_all(f, &byte, 1, 0, NULL, &err), MU_EREAD);
    assert_int_equal(err.sys_errno, EISDIR);
    io_close(f, NULL);
}

static void test_short_read_reported(void **state) {
    (void)state;
    char path[512];
    path_in(path, sizeof(path), "short.txt");
    write_file(path, "abc");
    mu_err err;
    io_file *f = NULL;
    assert_int_equal(io_open_read(&f, path, &err), 0);
    char out[8];
    assert_int_equal(io_pread_all(f, out, 5, 0, NULL, &err), MU_EREAD);
    assert_non_null(strstr(err.message, "short read"));
    assert_non_null(strstr(err.message, "got 3 of 5 bytes"));
    assert_int_equal(io_pread_all(f, out, 1, 3, NULL, &err), MU_EREAD);
    assert_int_equal(io_pread_all(f, out, 1, UINT64_MAX, NULL, &err), MU_EINVAL);
    /* Writing to a read-only descriptor is a write error naming the file. */
    assert_int_equal(io_write_all(f, "x", 1, NULL, &err), MU_EWRITE);
    assert_int_equal(err.sys_errno, EBADF);
    assert_non_null(strstr(err.message, path));
    assert_int_equal(io_truncate(f, 0, NULL, &err), MU_EWRITE);
    io_close(f, NULL);
}

static void test_namespace_errors(void **state) {
    (void)state;
    char a[512], b[512], missing[512];
    path_in(a, sizeof(a), "na.txt");
    path_in(b, sizeof(b), "nb.txt");
    path_in(missing, sizeof(missing), "nothing-here");
    write_file(a, "a");
    write_file(b, "b");
    mu_err err;
    assert_int_equal(io_rename(a, b, IO_RENAME_NOREPLACE, NULL, &err), MU_EEXISTS);
    expect_contents(b, "b");
    assert_int_equal(io_rename(missing, b, 0, NULL, &err), MU_ENOT_FOUND);
    assert_non_null(strstr(err.message, "rename"));
    assert_int_equal(io_unlink(missing, 0, NULL, &err), MU_ENOT_FOUND);
    assert_int_equal(io_fsync_dir(missing, NULL, &err), MU_ENOT_FOUND);
    char through_file[600];
    snprintf(through_file, sizeof(through_file), "%s/sub", a);
    assert_int_equal(io_mkdir_p(a, NULL, &err), MU_EEXISTS);
    assert_non_null(strstr(err.message, "not a directory"));
    assert_int_not_equal(io_mkdir_p(through_file, NULL, &err), 0);
    assert_int_equal(io_mkdir_p("", NULL, &err), MU_EINVAL);
    io_dir_list list;
    assert_int_equal(io_list_dir(missing, &list, &err), MU_ENOT_FOUND);
    assert_int_equal(list.count, 0);
    uint64_t size = 7;
    assert_int_equal(io_path_size(missing, &size, &err), MU_ENOT_FOUND);
    mu_buf buf;
    mu_buf_init(&buf, 0);
    assert_int_equal(io_read_file(missing, &buf, &err), MU_ENOT_FOUND);
    mu_buf_deinit(&buf);
}

static void test_read_file_too_large(void **state) {
    (void)state;
    char path[512];
    path_in(path, sizeof(path), "big.txt");
    write_file(path, "0123456789");
    mu_err err;
    mu_buf buf;
    mu_buf_init(&buf, 9);
    assert_int_equal(mu_buf_append(&buf, "z", 1, &err), 0);
    assert_int_equal(io_read_file(path, &buf, &err), MU_ETOO_LARGE);
    assert_non_null(strstr(err.message, path));
    assert_int_equal(buf.length_bytes, 1); /* left as it was */
    mu_buf_deinit(&buf);
}

/* ---- injected faults ---- */

static void test_fault_write_errno(void **state) {
    (void)state;
    skip_unless_failpoints();
    char path[512];
    path_in(path, sizeof(path), "fw.txt");
    mu_err err;
    io_file *f = NULL;
    assert_int_equal(io_open_append(&f, path, IO_OPEN_CREATE, NULL, &err), 0);
    assert_int_equal(mu_failpoints_configure("io.write=error:EIO", &err), 0);
    assert_int_equal(io_write_all(f, "abc", 3, NULL, &err), MU_EWRITE);
    assert_int_equal(err.sys_errno, EIO);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "Input/output error"));
    assert_int_equal(mu_failpoints_configure("io.write=error:ENOSPC", &err), 0);
    assert_int_equal(io_pwrite_all(f, "abc", 3, 0, NULL, &err), MU_ENOSPC);
    assert_int_equal(err.sys_errno, ENOSPC);
    mu_failpoints_configure("", NULL);
    uint64_t size = 1;
    assert_int_equal(io_file_size(f, &size, &err), 0);
    assert_int_equal(size, 0); /* nothing reached the file */
    io_close(f, NULL);
}

static void test_fault_short_write(void **state) {
    (void)state;
    skip_unless_failpoints();
    char path[512];
    path_in(path, sizeof(path), "fs.txt");
    mu_err err;
    io_file *f = NULL;
    assert_int_equal(io_open_append(&f, path, IO_OPEN_CREATE, NULL, &err), 0);
    assert_int_equal(mu_failpoints_configure("io.write=error:SHORT", &err), 0);
    assert_int_equal(io_write_all(f, "abcdefgh", 8, NULL, &err), MU_EWRITE);
    assert_non_null(strstr(err.message, "short write, 4 of 8 bytes"));
    mu_failpoints_configure("", NULL);
    io_close(f, NULL);
    expect_contents(path, "abcd"); /* the first half really was written */
}

static void test_fault_specific_name(void **state) {
    (void)state;
    skip_unless_failpoints();
    char path[512];
    path_in(path, sizeof(path), "spec.txt");
    mu_err err;
    io_file *f = NULL;
    assert_int_equal(io_open_append(&f, path, IO_OPEN_CREATE, NULL, &err), 0);
    assert_int_equal(mu_failpoints_configure("test.fsync=error:EIO", &err), 0);
    assert_int_equal(io_fdatasync(f, NULL, &err), 0);            /* other callers: fine */
    assert_int_equal(io_fdatasync(f, "other.fsync", &err), 0);
    assert_int_equal(io_fdatasync(f, "test.fsync", &err), MU_EFSYNC);
    assert_non_null(strstr(err.message, "fdatasync"));
    assert_non_null(strstr(err.message, path));
    assert_int_equal(io_fsync(f, "test.fsync", &err), MU_EFSYNC);
    assert_int_equal(mu_failpoint_hits("test.fsync"), 2);
    mu_failpoints_configure("", NULL);
    io_close(f, NULL);
}

/* Fail the Nth write only (N = 1..4 of 4), as the fault suite does. */
static void test_fault_nth_write_loop(void **state) {
    (void)state;
    skip_unless_failpoints();
    for (int n = 1; n <= 4; n++) {
        char path[512];
        path_in(path, sizeof(path), "nth.txt");
        char spec[64];
        snprintf(spec, sizeof(spec), "io.write=error:EIO@%dx1", n);
        mu_err err;
        io_file *f = NULL;
        assert_int_equal(io_open(&f, path, IO_OPEN_WRITE | IO_OPEN_CREATE | IO_OPEN_TRUNC, NULL,
                                 &err), 0);
        assert_int_equal(mu_failpoints_configure(spec, &err), 0);
        for (int i = 1; i <= 4; i++) {
            int rc = io_write_all(f, "x", 1, NULL, &err);
            assert_int_equal(rc, i == n ? MU_EWRITE : 0);
        }
        mu_failpoints_configure("", NULL);
        uint64_t size = 0;
        assert_int_equal(io_file_size(f, &size, &err), 0);
        assert_int_equal(size, 3);
        io_close(f, NULL);
    }
}

static void test_fault_other_operations(void **state) {
    (void)state;
    skip_unless_failpoints();
    char a[512], b[512], d[512];
    path_in(a, sizeof(a), "fa.txt");
    path_in(b, sizeof(b), "fb.txt");
    path_in(d, sizeof(d), "fdir/x");
    write_file(a, "a");
    mu_err err;
    assert_int_equal(mu_failpoints_configure("io.rename=error:EIO,io.unlink=error:ENOSPC,"
                                             "io.mkdir=error,io.open=error:ENOSPC,"
                                             "io.fsync_dir=error,io.read=error", &err), 0);
    assert_int_equal(io_rename(a, b, 0, NULL, &err), MU_EIO);
    assert_int_equal(access(a, F_OK), 0); /* not renamed */
    assert_int_equal(io_unlink(a, 0, NULL, &err), MU_ENOSPC);
    assert_int_equal(access(a, F_OK), 0);
    assert_int_equal(io_mkdir_p(d, NULL, &err), MU_EIO);
    io_file *f = NULL;
    assert_int_equal(io_open_read(&f, a, &err), MU_ENOSPC);
    assert_null(f);
    assert_int_equal(io_fsync_dir(test_dir, NULL, &err), MU_EFSYNC);
    mu_buf buf;
    mu_buf_init(&buf, 0);
    assert_int_equal(mu_failpoints_configure("io.read=error", &err), 0);
    assert_int_equal(io_read_file(a, &buf, &err), MU_EREAD);
    assert_int_equal(buf.length_bytes, 0);
    mu_buf_deinit(&buf);
    assert_int_equal(mu_failpoints_configure("io.truncate=error:SHORT", &err), 0);
    assert_int_equal(io_open(&f, a, IO_OPEN_WRITE, NULL, &err), 0);
    assert_int_equal(io_truncate(f, 0, NULL, &err), MU_EWRITE); /* SHORT acts as EIO */
    assert_int_equal(err.sys_errno, EIO);
    io_close(f, NULL);
    mu_failpoints_configure("", NULL);
    expect_contents(a, "a");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write_append_and_read_back, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_pwrite_pread, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_rename_unlink_fsync_dir, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_mkdir_p, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_rmdir, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_remove_tree, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_read_file_bounds, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_list_dir_sorted, dir_setup, dir_teardown),
        cmocka_unit_test(test_path_parent),
        cmocka_unit_test_setup_teardown(test_open_errors, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_short_read_reported, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_namespace_errors, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_read_file_too_large, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_fault_write_errno, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_fault_short_write, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_fault_specific_name, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_fault_nth_write_loop, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_fault_other_operations, dir_setup, dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
