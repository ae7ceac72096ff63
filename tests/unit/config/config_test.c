/* config_test.c: goal: prove the public contract of config.h
 * (src/config/config.c): the table lookups, the defaults, the precedence
 * default < YAML < MUSCLES_<SECTION>_<NAME>, that bad environment values are
 * MU_ECONFIG naming the variable while unknown MUSCLES_* variables (typos,
 * Kubernetes service links) only log a warning, the derived wal/parts
 * directories, and that muscles.yaml.example in the source tree is byte for
 * byte what cfg_render_example produces and loads as exactly the defaults.
 * `config_test --write-example` regenerates that file instead of testing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "config_test_util.h"

#ifndef MUSCLES_SOURCE_DIR_DEFAULT
#define MUSCLES_SOURCE_DIR_DEFAULT "."
#endif

/* The source tree, from the environment that muscles_unit_test sets. */
static char *example_path(void)
{
    const char *dir = getenv("MUSCLES_SOURCE_DIR");
    char *path = NULL;
    assert_true(asprintf(&path, "%s/muscles.yaml.example",
                         dir != NULL ? dir : MUSCLES_SOURCE_DIR_DEFAULT) > 0);
    return path;
}

/* The table holds exactly the rows of settings.def. */
static const size_t settings_def_rows = 0
#define S(section, name, type, default_text, constraint, meaning) +1
#include "config/settings.def"
#undef S
    ;

static void test_table(void **state)
{
    assert_int_equal(cfg_setting_count(), settings_def_rows);
    for (size_t i = 0; i < cfg_setting_count(); i++) {
        const cfg_setting_info *info = cfg_setting_at(i);
        char key[128];
        snprintf(key, sizeof key, "%s.%s", info->section, info->name);
        assert_string_equal(info->key, key);
        assert_ptr_equal(cfg_setting_find(key), info);
        assert_true(strncmp(info->env_name, "MUSCLES_", 8) == 0);
        for (const char *p = info->env_name; *p != '\0'; p++) {
            assert_true((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_');
        }
    }
    const cfg_setting_info *port = cfg_setting_find("http.port");
    assert_non_null(port);
    assert_string_equal(port->env_name, "MUSCLES_HTTP_PORT");
    assert_int_equal(port->type, CFG_U64);
    assert_string_equal(port->constraint, "1..65535");
    assert_string_equal(cfg_setting_find("http.keep_alive_timeout_ms")->env_name,
                        "MUSCLES_HTTP_KEEP_ALIVE_TIMEOUT_MS");
    static const char *const unknown[] = {"http.prot", "http", "", "port", "HTTP.PORT",
                                          "http.port.x", ".port", "http."};
    for (size_t i = 0; i < MU_ARRAY_LEN(unknown); i++) {
        assert_null(cfg_setting_find(unknown[i]));
    }
}

static void test_defaults(void **state)
{
    cfg_settings s;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(cfg_defaults(&s, &err), 0);
    assert_string_equal(s.node_mode, "all");
    assert_string_equal(s.log_level, "info");
    assert_string_equal(s.http_listen_host, "127.0.0.1");
    assert_int_equal(s.http_port, 8123);
    assert_int_equal(s.http_max_connections, 1024);
    assert_int_equal(s.http_max_header_bytes, 64 * 1024);
    assert_int_equal(s.http_max_body_bytes, UINT64_C(1) << 30);
    assert_int_equal(s.http_keep_alive_timeout_ms, 10000);
    assert_int_equal(s.http_request_timeout_ms, 30000);
    assert_int_equal(s.server_shutdown_timeout_ms, 30000);
    assert_string_equal(s.storage_data_dir, "./data");
    assert_string_equal(s.storage_wal_dir, "");
    assert_string_equal(s.storage_parts_dir, "");
    assert_int_equal(s.wal_segment_bytes, UINT64_C(64) << 20);
    assert_int_equal(s.wal_token_window, 10000);
    cfg_free(&s);
    cfgt_assert_freed(&s);
    cfg_free(&s); /* twice, and NULL, are harmless */
    cfg_free(NULL);
    assert_int_equal(cfg_load(&s, NULL, NULL, &err), 0);
    cfgt_assert_defaults(&s);
    cfg_free(&s);
}

static void test_env_overrides(void **state)
{
    char *envp[] = {"PATH=/usr/bin", "MUSCLES_HTTP_PORT=9000", "MUSCLES_NODE_MODE=data",
                    "MUSCLES_STORAGE_WAL_DIR=/fast/wal", "MUSCLES_HTTP_MAX_BODY_BYTES=2GiB",
                    "MUSCLES_HTTP_PORT=9999", /* getenv(3) takes the first */
                    "muscles_http_max_connections=5", "MUSCLES_HTTP_MAX_CONNECTIONS", NULL};
    cfg_settings s;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(cfg_load(&s, NULL, envp, &err), 0);
    assert_int_equal(s.http_port, 9000);
    assert_string_equal(s.node_mode, "data");
    assert_string_equal(s.storage_wal_dir, "/fast/wal");
    assert_int_equal(s.http_max_body_bytes, UINT64_C(2) << 30);
    assert_int_equal(s.http_max_connections, 1024); /* lower case and no '=' are ignored */
    cfg_free(&s);
    char *empty[] = {"MUSCLES_STORAGE_DATA_DIR=/d", "MUSCLES_STORAGE_PARTS_DIR=", NULL};
    assert_int_equal(cfg_load(&s, NULL, empty, &err), 0);
    assert_string_equal(s.storage_data_dir, "/d");
    assert_string_equal(s.storage_parts_dir, "");
    cfg_free(&s);
}

static void test_env_bad_values(void **state)
{
    static const struct {
        const char *entry;
        const char *message;
    } cases[] = {
        {"MUSCLES_HTTP_PORT=notaport", "setting http.port (MUSCLES_HTTP_PORT): \"notaport\" is "
                                       "not an unsigned integer; allowed: 1..65535"},
        {"MUSCLES_HTTP_PORT=", "setting http.port (MUSCLES_HTTP_PORT): \"\" is not an unsigned "
                               "integer; allowed: 1..65535"},
        {"MUSCLES_HTTP_PORT=65536", "setting http.port (MUSCLES_HTTP_PORT): \"65536\" is out "
                                    "of range; allowed: 1..65535"},
        {"MUSCLES_WAL_SEGMENT_BYTES=64MB", "setting wal.segment_bytes "
                                           "(MUSCLES_WAL_SEGMENT_BYTES): \"64MB\" has an "
                                           "unknown unit"},
        {"MUSCLES_LOG_LEVEL=verbose", "setting log.level (MUSCLES_LOG_LEVEL): \"verbose\" is "
                                      "not one of the allowed words; allowed: "
                                      "debug|info|warn|error"},
        {"MUSCLES_HTTP_LISTEN_HOST=", "setting http.listen_host (MUSCLES_HTTP_LISTEN_HOST): "
                                      "\"\" is empty; allowed: any non-empty text"},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        char *envp[] = {(char *)cases[i].entry, NULL};
        cfg_settings s;
        mu_err err;
        mu_err_clear(&err);
        assert_int_equal(cfg_load(&s, NULL, envp, &err), MU_ECONFIG);
        CFGT_ASSERT_CONTAINS(err.message, cases[i].message);
        cfgt_assert_freed(&s);
    }
}

static void test_env_overrides_yaml(void **state)
{
    static const char yaml[] = "http:\n  port: 9000\n  listen_host: 0.0.0.0\n"
                               "wal:\n  segment_bytes: 1GiB\n";
    char *envp[] = {"MUSCLES_HTTP_PORT=9001", "MUSCLES_WAL_SEGMENT_BYTES=128MiB", NULL};
    cfg_settings s;
    mu_err err;
    assert_int_equal(cfgt_load_text(yaml, envp, &s, &err, NULL), 0);
    assert_int_equal(s.http_port, 9001);
    assert_string_equal(s.http_listen_host, "0.0.0.0");
    assert_int_equal(s.wal_segment_bytes, UINT64_C(128) << 20);
    cfg_free(&s);
    /* A bad variable fails even when the file holds a good value. */
    char *bad[] = {"MUSCLES_HTTP_PORT=0", NULL};
    assert_int_equal(cfgt_load_text(yaml, bad, &s, &err, NULL), MU_ECONFIG);
    CFGT_ASSERT_CONTAINS(err.message, "(MUSCLES_HTTP_PORT): \"0\" is out of range");
    cfgt_assert_freed(&s);
    /* And a bad file value fails even when a variable would override it. */
    char *good[] = {"MUSCLES_HTTP_PORT=80", NULL};
    char *path = NULL;
    assert_int_equal(cfgt_load_text("http:\n  port: 0\n", good, &s, &err, &path), MU_ECONFIG);
    char origin[600];
    snprintf(origin, sizeof origin, "setting http.port (%s:2)", path);
    CFGT_ASSERT_CONTAINS(err.message, origin);
    free(path);
}

/* Loads envp and returns what was logged to stderr meanwhile (malloc'd). */
static char *load_env_capturing(char **envp, cfg_settings *s)
{
    mu_err err;
    mu_err_clear(&err);
    cfgt_capture capture;
    cfgt_capture_begin(&capture);
    int rc = cfg_load(s, NULL, envp, &err);
    char *logged = cfgt_capture_end(&capture);
    assert_int_equal(rc, 0);
    return logged;
}

static void test_env_unknown_only_warns(void **state)
{
    char *envp[] = {"MUSCLES_HTTP_PROT=1", "MUSCLES_=x", "MUSCLES_HTTP_PORT=8200", NULL};
    cfg_settings s;
    char *logged = load_env_capturing(envp, &s);
    assert_int_equal(s.http_port, 8200);
    CFGT_ASSERT_CONTAINS(logged, "level=warn");
    CFGT_ASSERT_CONTAINS(logged, "event=config.env_unknown");
    CFGT_ASSERT_CONTAINS(logged, "MUSCLES_HTTP_PROT");
    CFGT_ASSERT_CONTAINS(logged, "variable=\"MUSCLES_\"");
    assert_null(strstr(logged, "MUSCLES_HTTP_PORT"));
    free(logged);
    cfg_free(&s);
}

/* Kubernetes service links for a Service named "muscles" must not stop the
 * server, and their values must not leak into the settings or the log. */
static void test_env_kubernetes_service_links(void **state)
{
    char *envp[] = {"MUSCLES_PORT=tcp://10.0.0.1:8123",
                    "MUSCLES_SERVICE_HOST=10.0.0.1",
                    "MUSCLES_SERVICE_PORT=8123",
                    "MUSCLES_SERVICE_PORT_HTTP=8123",
                    "MUSCLES_PORT_8123_TCP=tcp://10.0.0.1:8123",
                    "MUSCLES_PORT_8123_TCP_ADDR=10.0.0.1",
                    NULL};
    cfg_settings s;
    char *logged = load_env_capturing(envp, &s);
    cfgt_assert_defaults(&s);
    CFGT_ASSERT_CONTAINS(logged, "variable=\"MUSCLES_PORT\"");
    CFGT_ASSERT_CONTAINS(logged, "variable=\"MUSCLES_SERVICE_HOST\"");
    CFGT_ASSERT_CONTAINS(logged, "variable=\"MUSCLES_PORT_8123_TCP_ADDR\"");
    assert_null(strstr(logged, "10.0.0.1"));
    assert_null(strstr(logged, "level=error"));
    free(logged);
    cfg_free(&s);
}

static void test_env_reserved_names_are_silent(void **state)
{
    char *envp[] = {"MUSCLES_CONFIG=/etc/muscles.yaml", "MUSCLES_FAILPOINTS=wal.fsync=error",
                    "MUSCLES_BIN=/usr/bin/muscles", "MUSCLES_FAILPOINTS_BUILD=ON",
                    "MUSCLES_SOURCE_DIR=/src", "MUSCLESX=1", "HOME=/root", NULL};
    cfg_settings s;
    char *logged = load_env_capturing(envp, &s);
    cfgt_assert_defaults(&s);
    assert_string_equal(logged, "");
    free(logged);
    cfg_free(&s);
}

static void check_dirs(const char *data_dir, const char *wal_dir, const char *parts_dir,
                       const char *wal_expected, const char *parts_expected)
{
    cfg_settings s;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(cfg_defaults(&s, &err), 0);
    free(s.storage_data_dir);
    free(s.storage_wal_dir);
    free(s.storage_parts_dir);
    s.storage_data_dir = strdup(data_dir);
    s.storage_wal_dir = strdup(wal_dir);
    s.storage_parts_dir = strdup(parts_dir);
    char *wal = cfg_wal_dir(&s);
    char *parts = cfg_parts_dir(&s);
    assert_string_equal(wal, wal_expected);
    assert_string_equal(parts, parts_expected);
    free(wal);
    free(parts);
    cfg_free(&s);
}

static void test_dirs(void **state)
{
    check_dirs("./data", "", "", "./data/wal", "./data/parts");
    check_dirs("/var/lib/muscles/", "", "", "/var/lib/muscles/wal", "/var/lib/muscles/parts");
    check_dirs("/var/lib/muscles//", "", "", "/var/lib/muscles/wal", "/var/lib/muscles/parts");
    check_dirs("/", "", "", "/wal", "/parts");
    check_dirs("data", "/fast/wal", "/big/parts", "/fast/wal", "/big/parts");
    check_dirs("data", "", "/big/parts", "data/wal", "/big/parts");
}

static int render(mu_buf *b)
{
    mu_err err;
    mu_err_clear(&err);
    mu_buf_init(b, 0);
    return cfg_render_example(b, &err);
}

static void test_render_shape(void **state)
{
    mu_buf b;
    assert_int_equal(render(&b), 0);
    assert_int_equal(mu_buf_append_u8(&b, 0, NULL), 0);
    const char *text = (const char *)b.data;
    CFGT_ASSERT_CONTAINS(text, "MUSCLES_<SECTION>_<NAME>");
    CFGT_ASSERT_CONTAINS(text, "\nhttp:\n  # Address the HTTP interface listens on");
    CFGT_ASSERT_CONTAINS(text, "  # env: MUSCLES_HTTP_PORT; allowed: 1..65535\n  port: 8123\n");
    CFGT_ASSERT_CONTAINS(text, "  # env: MUSCLES_STORAGE_WAL_DIR; allowed: any text\n"
                               "  wal_dir: \"\"\n");
    CFGT_ASSERT_CONTAINS(text, "  segment_bytes: 64MiB\n");
    for (size_t i = 0; i < cfg_setting_count(); i++) {
        char line[128];
        snprintf(line, sizeof line, "  # env: %s", cfg_setting_at(i)->env_name);
        CFGT_ASSERT_CONTAINS(text, line); /* "; allowed: ..." or its own line */
    }
    /* Every line fits in 78 columns and has no trailing space. */
    size_t column = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '\n') {
            assert_true(p == text || p[-1] != ' ');
            column = 0;
        } else {
            column++;
            assert_true(column <= 78);
        }
    }
    mu_buf_deinit(&b);
}

/* Regenerate with `config_test --write-example` after editing settings.def. */
static void test_example_file_is_current(void **state)
{
    mu_buf b;
    assert_int_equal(render(&b), 0);
    char *path = example_path();
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        print_error("cannot open %s; run config_test --write-example\n", path);
        fail();
    }
    char *content = malloc(b.length_bytes + 2);
    assert_non_null(content);
    size_t got = fread(content, 1, b.length_bytes + 1, f);
    fclose(f);
    if (got != b.length_bytes || memcmp(content, b.data, got) != 0) {
        print_error("%s differs from cfg_render_example(); run config_test --write-example\n",
                    path);
        fail();
    }
    free(content);
    cfg_settings s;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(cfg_load(&s, path, NULL, &err), 0);
    cfgt_assert_defaults(&s);
    cfg_free(&s);
    free(path);
    mu_buf_deinit(&b);
}

/* Generator mode: writes the rendered example into the source tree. */
static int write_example(void)
{
    mu_buf b;
    if (render(&b) != 0) {
        fprintf(stderr, "cfg_render_example failed\n");
        return 1;
    }
    char *path = example_path();
    FILE *f = fopen(path, "wb");
    int failed = f == NULL || fwrite(b.data, 1, b.length_bytes, f) != b.length_bytes;
    failed |= f != NULL && fclose(f) != 0;
    fprintf(stderr, "%s %s\n", failed ? "failed to write" : "wrote", path);
    free(path);
    mu_buf_deinit(&b);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--write-example") == 0) {
        return write_example();
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_env_overrides),
        cmocka_unit_test(test_env_bad_values),
        cmocka_unit_test(test_env_overrides_yaml),
        cmocka_unit_test(test_env_unknown_only_warns),
        cmocka_unit_test(test_env_kubernetes_service_links),
        cmocka_unit_test(test_env_reserved_names_are_silent),
        cmocka_unit_test(test_dirs),
        cmocka_unit_test(test_render_shape),
        cmocka_unit_test(test_example_file_is_current),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
