/* yaml_test.c: goal: prove that muscles.yaml is read as documented
 * (src/config/yaml.c): a mapping of sections of scalar settings overrides the
 * defaults; empty files, empty documents and empty sections change nothing;
 * and every malformed file is MU_ECONFIG naming the file and line (and
 * column for syntax errors): unknown sections and settings (listing the
 * known ones), duplicates, sequences, mappings and aliases where a scalar is
 * expected, scalars where a section is expected, a non-mapping document, two
 * documents, bad values, undecodable bytes, oversized, missing and
 * unreadable files. After a failure the settings are left freed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <sys/stat.h>

#include "config_test_util.h"

/* Loads yaml, expects MU_ECONFIG and every needle in the message, where
 * "@" in a needle stands for the temporary file's path. */
static void check_refused(const char *yaml, const char *const *needles, size_t count)
{
    cfg_settings s;
    mu_err err;
    char *path = NULL;
    int rc = cfgt_load_text(yaml, NULL, &s, &err, &path);
    if (rc != MU_ECONFIG) {
        print_error("accepted or wrong code %d for:\n%s\n", rc, yaml);
    }
    assert_int_equal(rc, MU_ECONFIG);
    assert_int_equal(err.code, MU_ECONFIG);
    cfgt_assert_freed(&s);
    for (size_t i = 0; i < count; i++) {
        char needle[600];
        const char *at = strchr(needles[i], '@');
        if (at != NULL) {
            snprintf(needle, sizeof needle, "%.*s%s%s", (int)(at - needles[i]), needles[i],
                     path, at + 1);
        } else {
            snprintf(needle, sizeof needle, "%s", needles[i]);
        }
        CFGT_ASSERT_CONTAINS(err.message, needle);
    }
    free(path);
}

#define REFUSED(yaml, ...)                                              \
    do {                                                                \
        static const char *const needles_[] = {__VA_ARGS__};            \
        check_refused((yaml), needles_, MU_ARRAY_LEN(needles_));        \
    } while (0)

static void test_overrides(void **state)
{
    static const char yaml[] =
        "# a comment\n"
        "node:\n"
        "  mode: all\n"
        "http:\n"
        "  listen_host: '::1'\n"
        "  port: \"9000\"\n"
        "  max_body_bytes: 2GiB\n"
        "  keep_alive_timeout_ms: 0\n"
        "storage: {data_dir: /var/lib/muscles, wal_dir: \"\"}\n"
        "wal:\n"
        "  segment_bytes: &size 128MiB\n" /* an anchor on a scalar is harmless */
        "log:\n"
        "  level: debug\n";
    cfg_settings s;
    mu_err err;
    assert_int_equal(cfgt_load_text(yaml, NULL, &s, &err, NULL), 0);
    assert_string_equal(s.node_mode, "all");
    assert_string_equal(s.http_listen_host, "::1");
    assert_int_equal(s.http_port, 9000);
    assert_int_equal(s.http_max_body_bytes, UINT64_C(2) << 30);
    assert_int_equal(s.http_keep_alive_timeout_ms, 0);
    assert_string_equal(s.storage_data_dir, "/var/lib/muscles");
    assert_string_equal(s.storage_wal_dir, "");
    assert_int_equal(s.wal_segment_bytes, UINT64_C(128) << 20);
    assert_string_equal(s.log_level, "debug");
    /* Untouched settings keep their defaults. */
    assert_int_equal(s.http_max_connections, 1024);
    assert_int_equal(s.http_max_header_bytes, 64 * 1024);
    cfg_free(&s);
}

static void test_empty_inputs_mean_defaults(void **state)
{
    static const char *const files[] = {
        "",        "\n\n",      "# only a comment\n", "---\n",         "--- # c\n...\n",
        "{}\n",    "http:\n",   "http: {}\n",         "http:\n# port: 1\nwal:\n",
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(files); i++) {
        cfg_settings s;
        mu_err err;
        int rc = cfgt_load_text(files[i], NULL, &s, &err, NULL);
        if (rc != 0) {
            print_error("refused [%s]: %s\n", files[i], err.message);
        }
        assert_int_equal(rc, 0);
        cfgt_assert_defaults(&s);
        cfg_free(&s);
    }
}

static void test_unknown_section(void **state)
{
    REFUSED("http:\n  port: 80\nhtp:\n  port: 81\n", "config file @:3: unknown section \"htp\"",
            "known sections: node, log, http, server, storage, wal");
    REFUSED("HTTP:\n  port: 80\n", "@:1: unknown section \"HTTP\"");
    REFUSED("http.port: 80\n", "@:1: unknown section \"http.port\"");
}

static void test_unknown_setting(void **state)
{
    REFUSED("http:\n  port: 80\n  prot: 81\n", "config file @:3: unknown setting \"http.prot\"",
            "known settings of section http: listen_host, port, max_connections, "
            "max_header_bytes, max_body_bytes, keep_alive_timeout_ms, request_timeout_ms");
    /* A setting of another section is unknown here. */
    REFUSED("wal:\n  data_dir: /x\n", "@:2: unknown setting \"wal.data_dir\"",
            "known settings of section wal: segment_bytes, token_window");
    REFUSED("http:\n  Port: 80\n", "@:2: unknown setting \"http.Port\"");
}

static void test_duplicates(void **state)
{
    REFUSED("http:\n  port: 80\n  port: 81\n",
            "config file @:3: duplicate setting http.port (first at line 2)");
    REFUSED("http:\n  port: 80\nwal: {}\nhttp:\n  max_connections: 2\n",
            "config file @:4: duplicate section http (first at line 1)");
}

static void test_wrong_shapes(void **state)
{
    REFUSED("- node\n- http\n",
            "@:1: the top level must be a mapping of sections, found a sequence");
    REFUSED("hello\n", "@:1: the top level must be a mapping of sections, found the scalar "
                       "\"hello\"");
    REFUSED("http: 8080\n",
            "@:1: section http must be a mapping of settings, found the scalar \"8080\"");
    REFUSED("http: ~\n", "section http must be a mapping of settings, found the scalar \"~\"");
    REFUSED("http:\n  - port\n", "@:2: section http must be a mapping of settings, found a "
                                 "sequence");
    REFUSED("http:\n  port: [1, 2]\n",
            "@:2: setting http.port expects a single value, found a sequence");
    REFUSED("http:\n  port:\n    value: 1\n",
            "@:3: setting http.port expects a single value, found a mapping");
    REFUSED("http:\n  port: &p 8000\n  max_connections: *p\n",
            "@:3: setting http.max_connections expects a single value, found an alias");
    REFUSED("? [a, b]\n: 1\n", "@:1: a section name must be a scalar, found a sequence");
    REFUSED("http:\n  ? {a: 1}\n  : 1\n",
            "@:2: a setting name of section http must be a scalar, found a mapping");
    REFUSED("http:\n  port: 80\n---\nwal: {}\n", "@:3: a second YAML document");
}

static void test_bad_values(void **state)
{
    REFUSED("http:\n  port: notaport\n",
            "setting http.port (@:2): \"notaport\" is not an unsigned integer; allowed: "
            "1..65535");
    REFUSED("http:\n\n  port:\n", "setting http.port (@:3): \"\" is not an unsigned integer");
    REFUSED("http:\n  port: \" 80\"\n", "setting http.port (@:2): \" 80\" is not an unsigned");
    REFUSED("http:\n  port: 65536\n", "\"65536\" is out of range; allowed: 1..65535");
    REFUSED("http:\n  port: 0x50\n", "\"0x50\" is not an unsigned integer");
    REFUSED("http:\n  max_body_bytes: 1MB\n", "setting http.max_body_bytes (@:2): \"1MB\" has "
                                              "an unknown unit");
    REFUSED("node:\n  mode: All\n", "setting node.mode (@:2): \"All\" is not one of the "
                                    "allowed words; allowed: all|data|query|ingest");
    REFUSED("storage:\n  data_dir: \"\"\n", "setting storage.data_dir (@:2): \"\" is empty");
    REFUSED("http:\n  listen_host: \"a\\0b\"\n", "setting http.listen_host (@:2)",
            "contains a NUL byte");
}

static void test_syntax_errors(void **state)
{
    REFUSED("http:\n  port: 80\n bad: 1\n", "config file @:3:", "YAML syntax error");
    REFUSED("http:\n  listen_host: \"unterminated\n", "config file @:3:1: YAML syntax error: "
            "found unexpected end of stream (while scanning a quoted scalar at line 2)");
    REFUSED("http:\n\tport: 80\n", "config file @:2:1: YAML syntax error",
            "YAML does not allow tabs for indentation");
    REFUSED("http: {port: 80\n", "config file @:2:", "YAML syntax error");
    REFUSED("http:\n  port: 80: 81\n", "config file @:2:",
            "mapping values are not allowed in this context");
    /* Invalid UTF-8 and raw control bytes are refused by libyaml's reader. */
    REFUSED("http:\n  listen_host: \xff\xfe\n", "config file @:2: cannot decode byte 21");
    REFUSED("http:\n  port: 1\n  listen_host: a\x01\n", "config file @:3: cannot decode");
}

static void test_missing_and_unreadable_files(void **state)
{
    cfg_settings s;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(cfg_load(&s, "/nonexistent/muscles.yaml", NULL, &err), MU_ECONFIG);
    assert_int_equal(err.sys_errno, ENOENT);
    CFGT_ASSERT_CONTAINS(err.message, "/nonexistent/muscles.yaml");
    CFGT_ASSERT_CONTAINS(err.message, strerror(ENOENT));
    cfgt_assert_freed(&s);

    const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    mu_err_clear(&err);
    assert_int_equal(cfg_load(&s, dir, NULL, &err), MU_ECONFIG);
    assert_int_equal(err.sys_errno, EISDIR);
    CFGT_ASSERT_CONTAINS(err.message, dir);
    CFGT_ASSERT_CONTAINS(err.message, strerror(EISDIR));
    cfgt_assert_freed(&s);

    if (geteuid() != 0) { /* root reads a mode-000 file anyway */
        char *path = cfgt_file_write("http: {}\n", 9);
        assert_int_equal(chmod(path, 0), 0);
        mu_err_clear(&err);
        assert_int_equal(cfg_load(&s, path, NULL, &err), MU_ECONFIG);
        assert_int_equal(err.sys_errno, EACCES);
        CFGT_ASSERT_CONTAINS(err.message, path);
        CFGT_ASSERT_CONTAINS(err.message, strerror(EACCES));
        unlink(path);
        free(path);
    }
}

static void test_oversized_file(void **state)
{
    size_t size = 1024 * 1024 + 1;
    char *content = malloc(size);
    assert_non_null(content);
    memset(content, '#', size);
    content[size - 1] = '\n';
    char *path = cfgt_file_write(content, size);
    cfg_settings s;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(cfg_load(&s, path, NULL, &err), MU_ECONFIG);
    CFGT_ASSERT_CONTAINS(err.message, path);
    CFGT_ASSERT_CONTAINS(err.message, "is larger than 1048576 bytes");
    cfgt_assert_freed(&s);
    unlink(path);
    free(path);
    /* Exactly the limit is still read. */
    content[size - 2] = '\n';
    path = cfgt_file_write(content, size - 1);
    assert_int_equal(cfg_load(&s, path, NULL, &err), 0);
    cfgt_assert_defaults(&s);
    cfg_free(&s);
    unlink(path);
    free(path);
    free(content);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_empty_inputs_mean_defaults),
        cmocka_unit_test(test_unknown_section),
        cmocka_unit_test(test_unknown_setting),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_wrong_shapes),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_missing_and_unreadable_files),
        cmocka_unit_test(test_oversized_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
