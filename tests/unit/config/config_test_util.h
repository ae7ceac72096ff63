/* config_test_util.h: helpers shared by the unit tests of src/config:
 * temporary YAML files, loading them, comparing whole settings structs
 * (generated from settings.def, so a new setting is compared without
 * touching the tests), substring checks on error messages, and capture of
 * stderr to see the warnings of unknown MUSCLES_* variables.
 * Include after <cmocka.h>.
 */
#ifndef MUSCLES_CONFIG_TEST_UTIL_H
#define MUSCLES_CONFIG_TEST_UTIL_H

#include "config/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fails with both strings shown when needle is not inside haystack. */
#define CFGT_ASSERT_CONTAINS(haystack, needle) cfgt_assert_contains((haystack), (needle))

static inline void cfgt_assert_contains(const char *haystack, const char *needle)
{
    if (strstr(haystack, needle) == NULL) {
        print_error("expected to find\n  [%s]\nin\n  [%s]\n", needle, haystack);
        fail();
    }
}

/* Writes length_bytes of content to a new temporary file; returns its
 * malloc'd path (the caller unlinks and frees it). */
static inline char *cfgt_file_write(const char *content, size_t length_bytes)
{
    const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    char *path = NULL;
    assert_true(asprintf(&path, "%s/muscles_cfg_XXXXXX", dir) > 0);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t done = 0;
    while (done < length_bytes) {
        ssize_t n = write(fd, content + done, length_bytes - done);
        assert_true(n > 0);
        done += (size_t)n;
    }
    assert_int_equal(close(fd), 0);
    return path;
}

/* Loads YAML text (written to a temporary file) and envp; *path_out, if
 * not NULL, receives the file's path, which the caller frees. */
static inline int cfgt_load_text(const char *yaml, char *const *envp, cfg_settings *s,
                                 mu_err *err, char **path_out)
{
    char *path = cfgt_file_write(yaml, strlen(yaml));
    mu_err_clear(err);
    int rc = cfg_load(s, path, envp, err);
    unlink(path);
    if (path_out != NULL) {
        *path_out = path;
    } else {
        free(path);
    }
    return rc;
}

/* Checks every field of a against b. */
static inline void cfgt_assert_same(const cfg_settings *a, const cfg_settings *b)
{
#define CFGT_SAME_U64(x, y) assert_int_equal((x), (y))
#define CFGT_SAME_BYTES(x, y) assert_int_equal((x), (y))
#define CFGT_SAME_BOOL(x, y) assert_int_equal((int)(x), (int)(y))
#define CFGT_SAME_STRING(x, y) assert_string_equal((x), (y))
#define CFGT_SAME_ENUM(x, y) assert_string_equal((x), (y))
#define S(section, name, type, default_text, constraint, meaning) \
    CFGT_SAME_##type(a->section##_##name, b->section##_##name);
#include "config/settings.def"
#undef S
}

/* Checks that s holds exactly the built-in defaults. */
static inline void cfgt_assert_defaults(const cfg_settings *s)
{
    cfg_settings defaults;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(cfg_defaults(&defaults, &err), 0);
    cfgt_assert_same(s, &defaults);
    cfg_free(&defaults);
}

/* Checks that a failed load left no string behind (*out freed). */
static inline void cfgt_assert_freed(const cfg_settings *s)
{
#define CFGT_FREED_U64(x)
#define CFGT_FREED_BYTES(x)
#define CFGT_FREED_BOOL(x)
#define CFGT_FREED_STRING(x) assert_null(x)
#define CFGT_FREED_ENUM(x) assert_null(x)
#define S(section, name, type, default_text, constraint, meaning) \
    CFGT_FREED_##type(s->section##_##name);
#include "config/settings.def"
#undef S
}

/* Redirects stderr (fd 2) into a temporary file until cfgt_capture_end,
 * which returns what was written (malloc'd, NUL-terminated). */
typedef struct cfgt_capture {
    int saved_fd;
    FILE *file;
} cfgt_capture;

static inline void cfgt_capture_begin(cfgt_capture *c)
{
    fflush(stderr);
    c->file = tmpfile();
    assert_non_null(c->file);
    c->saved_fd = dup(2);
    assert_true(c->saved_fd >= 0);
    assert_true(dup2(fileno(c->file), 2) >= 0);
}

static inline char *cfgt_capture_end(cfgt_capture *c)
{
    fflush(stderr);
    assert_true(dup2(c->saved_fd, 2) >= 0);
    close(c->saved_fd);
    assert_int_equal(fseek(c->file, 0, SEEK_END), 0);
    long size = ftell(c->file);
    assert_true(size >= 0);
    char *text = calloc(1, (size_t)size + 1);
    assert_non_null(text);
    rewind(c->file);
    size_t got = fread(text, 1, (size_t)size, c->file);
    assert_int_equal(got, (size_t)size);
    fclose(c->file);
    return text;
}

#endif /* MUSCLES_CONFIG_TEST_UTIL_H */
