/* value_test.c: goal: prove that cfg__value_set (src/config/value.c)
 * accepts exactly the documented grammar of each setting type and refuses
 * everything else with the full message "setting K (ORIGIN): "V" PROBLEM;
 * allowed: A", leaving the field untouched. Covers U64 and BYTES at their
 * boundaries (min, max, max+1, 0, 2^64, leading zero, sign, spaces, hex,
 * units, unit overflow), BOOL words in any case, ENUM exact words, STRING
 * with and without "nonempty", NUL bytes, and the constraint checker that
 * guards settings.def. Bad inputs outnumber good ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "config/config_int.h"
#include "config_test_util.h"

#define SENTINEL UINT64_C(0xfeedfacecafebeef)

typedef struct good_number {
    const char *text;
    uint64_t value;
} good_number;

typedef struct bad_value {
    const char *text;
    const char *problem;
} bad_value;

static const cfg_setting_info *setting(const char *key)
{
    const cfg_setting_info *info = cfg_setting_find(key);
    assert_non_null(info);
    return info;
}

/* A table-less setting for types and constraints settings.def lacks. */
static cfg_setting_info fake(enum cfg_type type, const char *constraint)
{
    cfg_setting_info info = {"test", "value", "test.value", "MUSCLES_TEST_VALUE",
                             type, "", constraint, "A setting made up by the test."};
    return info;
}

static int set(const cfg_setting_info *info, const char *text, void *field, mu_err *err)
{
    mu_err_clear(err);
    return cfg__value_set(info, text, strlen(text), "ORIGIN", field, err);
}

static void check_good_numbers(const cfg_setting_info *info, const good_number *cases,
                               size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t v = SENTINEL;
        mu_err err;
        int rc = set(info, cases[i].text, &v, &err);
        if (rc != 0) {
            print_error("%s: \"%s\" refused: %s\n", info->key, cases[i].text, err.message);
        }
        assert_int_equal(rc, 0);
        assert_int_equal(v, cases[i].value);
    }
}

/* Checks the refusal and the whole shape of its message. */
static void check_bad(const cfg_setting_info *info, const bad_value *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t number = SENTINEL;
        bool flag = true;
        char *text = NULL;
        void *field = info->type == CFG_BOOL                                 ? (void *)&flag
                      : info->type == CFG_U64 || info->type == CFG_BYTES ? (void *)&number
                                                                         : (void *)&text;
        mu_err err;
        int rc = set(info, cases[i].text, field, &err);
        if (rc != MU_ECONFIG) {
            print_error("%s: \"%s\" accepted\n", info->key, cases[i].text);
        }
        assert_int_equal(rc, MU_ECONFIG);
        assert_int_equal(err.code, MU_ECONFIG);
        char allowed[256];
        char prefix[512];
        cfg__value_allowed(info, allowed, sizeof allowed);
        snprintf(prefix, sizeof prefix, "setting %s (ORIGIN): ", info->key);
        assert_true(strncmp(err.message, prefix, strlen(prefix)) == 0);
        CFGT_ASSERT_CONTAINS(err.message, cases[i].problem);
        char tail[300];
        snprintf(tail, sizeof tail, "; allowed: %s", allowed);
        assert_string_equal(err.message + strlen(err.message) - strlen(tail), tail);
        assert_int_equal(number, SENTINEL);
        assert_true(flag);
        assert_null(text);
    }
}

static void test_message_shape_exact(void **state)
{
    uint64_t port = 1;
    mu_err err;
    mu_err_clear(&err);
    const cfg_setting_info *info = setting("http.port");
    assert_int_equal(cfg__value_set(info, "notaport", 8, "MUSCLES_HTTP_PORT", &port, &err),
                     MU_ECONFIG);
    assert_string_equal(err.message, "setting http.port (MUSCLES_HTTP_PORT): \"notaport\" is "
                                     "not an unsigned integer; allowed: 1..65535");
    assert_int_equal(port, 1);
    /* Control bytes are escaped, not printed raw into logs. */
    assert_int_equal(set(info, "8\n0", &port, &err), MU_ECONFIG);
    CFGT_ASSERT_CONTAINS(err.message, "\"8\\n0\"");
}

static void test_u64_good(void **state)
{
    static const good_number port[] = {{"1", 1}, {"65535", 65535}, {"8123", 8123}};
    static const good_number timeout[] = {{"0", 0}, {"3600000", 3600000}, {"10", 10}};
    static const good_number full[] = {{"0", 0}, {"18446744073709551615", UINT64_MAX}};
    check_good_numbers(setting("http.port"), port, MU_ARRAY_LEN(port));
    check_good_numbers(setting("http.keep_alive_timeout_ms"), timeout, MU_ARRAY_LEN(timeout));
    cfg_setting_info info = fake(CFG_U64, "0..18446744073709551615");
    check_good_numbers(&info, full, MU_ARRAY_LEN(full));
}

static void test_u64_bad(void **state)
{
    static const bad_value port[] = {
        {"0", "is out of range"},
        {"65536", "is out of range"},
        {"18446744073709551615", "is out of range"},
        {"18446744073709551616", "does not fit in 64 bits"},
        {"99999999999999999999999", "does not fit in 64 bits"},
        {"", "is not an unsigned integer"},
        {" 80", "is not an unsigned integer"},
        {"80 ", "is not an unsigned integer"},
        {"-1", "is not an unsigned integer"},
        {"+1", "is not an unsigned integer"},
        {"0x50", "is not an unsigned integer"},
        {"1e3", "is not an unsigned integer"},
        {"80.0", "is not an unsigned integer"},
        {"8_0", "is not an unsigned integer"},
        {"80KiB", "is not an unsigned integer"},
        {"080", "has a leading zero"},
        {"00", "has a leading zero"},
        {"notaport", "is not an unsigned integer"},
    };
    check_bad(setting("http.port"), port, MU_ARRAY_LEN(port));
    cfg_setting_info info = fake(CFG_U64, "0..18446744073709551615");
    static const bad_value full[] = {{"18446744073709551616", "does not fit in 64 bits"},
                                     {"-0", "is not an unsigned integer"}};
    check_bad(&info, full, MU_ARRAY_LEN(full));
}

static void test_bytes_good(void **state)
{
    static const good_number header[] = {
        {"1KiB", 1024},    {"1024", 1024}, {"16MiB", 16u << 20}, {"16777216", 16u << 20},
        {"64KiB", 65536}, {"2MiB", 2u << 20},
    };
    static const good_number body[] = {
        {"0", 0}, {"0KiB", 0}, {"1TiB", UINT64_C(1) << 40}, {"1099511627776", UINT64_C(1) << 40},
        {"1GiB", UINT64_C(1) << 30},
    };
    static const good_number full[] = {
        {"16777215TiB", UINT64_MAX - ((UINT64_C(1) << 40) - 1)},
        {"18446744073709551615", UINT64_MAX},
    };
    check_good_numbers(setting("http.max_header_bytes"), header, MU_ARRAY_LEN(header));
    check_good_numbers(setting("http.max_body_bytes"), body, MU_ARRAY_LEN(body));
    check_good_numbers(setting("wal.segment_bytes"), &(good_number){"4GiB", UINT64_C(4) << 30},
                       1);
    cfg_setting_info info = fake(CFG_BYTES, "0..18446744073709551615");
    check_good_numbers(&info, full, MU_ARRAY_LEN(full));
}

static void test_bytes_bad(void **state)
{
    static const bad_value header[] = {
        {"1023", "is out of range"},
        {"0", "is out of range"},
        {"16777217", "is out of range"},
        {"17MiB", "is out of range"},
        {"1TiB", "is out of range"},
        {"", "is not a size"},
        {"64 KiB", "is not a size"},
        {" 64KiB", "is not a size"},
        {"64KiB ", "is not a size"},
        {"1.5MiB", "is not a size"},
        {"KiB", "is not a size"},
        {"-1KiB", "is not a size"},
        {"0x400", "is not a size"},
        {"64K1B", "is not a size"},
        {"64kib", "has an unknown unit"},
        {"64KB", "has an unknown unit"},
        {"2MB", "has an unknown unit"},
        {"2M", "has an unknown unit"},
        {"2B", "has an unknown unit"},
        {"1PiB", "has an unknown unit"},
        {"064KiB", "has a leading zero"},
        {"18014398509481984KiB", "does not fit in 64 bits"},
        {"18446744073709551616", "does not fit in 64 bits"},
    };
    check_bad(setting("http.max_header_bytes"), header, MU_ARRAY_LEN(header));
    static const bad_value body[] = {{"1099511627777", "is out of range"},
                                     {"1025GiB", "is out of range"}};
    check_bad(setting("http.max_body_bytes"), body, MU_ARRAY_LEN(body));
    static const bad_value segment[] = {{"4294967297", "is out of range"},
                                        {"65535", "is out of range"}};
    check_bad(setting("wal.segment_bytes"), segment, MU_ARRAY_LEN(segment));
    cfg_setting_info info = fake(CFG_BYTES, "0..18446744073709551615");
    static const bad_value full[] = {{"16777216TiB", "does not fit in 64 bits"}};
    check_bad(&info, full, MU_ARRAY_LEN(full));
}

static void test_bool_good(void **state)
{
    static const char *const yes[] = {"true", "TRUE", "True", "yes", "YES", "on", "On", "1"};
    static const char *const no[] = {"false", "FALSE", "no", "No", "off", "OFF", "0"};
    cfg_setting_info info = fake(CFG_BOOL, "");
    mu_err err;
    for (size_t i = 0; i < MU_ARRAY_LEN(yes); i++) {
        bool flag = false;
        assert_int_equal(set(&info, yes[i], &flag, &err), 0);
        assert_true(flag);
    }
    for (size_t i = 0; i < MU_ARRAY_LEN(no); i++) {
        bool flag = true;
        assert_int_equal(set(&info, no[i], &flag, &err), 0);
        assert_false(flag);
    }
}

static void test_bool_bad(void **state)
{
    static const bad_value cases[] = {
        {"", "is not a boolean"},      {"2", "is not a boolean"},   {"y", "is not a boolean"},
        {"n", "is not a boolean"},     {"tru", "is not a boolean"}, {" true", "is not a boolean"},
        {"true ", "is not a boolean"}, {"01", "is not a boolean"},  {"-1", "is not a boolean"},
        {"enabled", "is not a boolean"}, {"truefalse", "is not a boolean"},
    };
    cfg_setting_info info = fake(CFG_BOOL, "");
    check_bad(&info, cases, MU_ARRAY_LEN(cases));
    char allowed[64];
    cfg__value_allowed(&info, allowed, sizeof allowed);
    assert_string_equal(allowed, "true|false|yes|no|on|off|1|0");
}

static void test_enum_good(void **state)
{
    static const char *const words[] = {"all", "data", "query", "ingest"};
    const cfg_setting_info *info = setting("node.mode");
    mu_err err;
    char *mode = NULL;
    for (size_t i = 0; i < MU_ARRAY_LEN(words); i++) {
        assert_int_equal(set(info, words[i], &mode, &err), 0); /* frees the previous */
        assert_string_equal(mode, words[i]);
    }
    free(mode);
    cfg_setting_info single = fake(CFG_ENUM, "only");
    char *value = NULL;
    assert_int_equal(set(&single, "only", &value, &err), 0);
    assert_string_equal(value, "only");
    free(value);
}

static void test_enum_bad(void **state)
{
    static const bad_value cases[] = {
        {"ALL", "is not one of the allowed words"},  {"", "is not one of the allowed words"},
        {" all", "is not one of the allowed words"}, {"all ", "is not one of the allowed words"},
        {"al", "is not one of the allowed words"},   {"alll", "is not one of the allowed words"},
        {"all|data", "is not one of the allowed words"},
        {"|", "is not one of the allowed words"},    {"ingests", "is not one of the allowed words"},
    };
    check_bad(setting("node.mode"), cases, MU_ARRAY_LEN(cases));
    static const bad_value level[] = {{"warning", "is not one of the allowed words"},
                                      {"Info", "is not one of the allowed words"}};
    check_bad(setting("log.level"), level, MU_ARRAY_LEN(level));
}

static void test_string(void **state)
{
    mu_err err;
    char *host = NULL;
    const cfg_setting_info *info = setting("http.listen_host");
    assert_int_equal(set(info, "::1", &host, &err), 0);
    assert_string_equal(host, "::1");
    assert_int_equal(set(info, " spaced out ", &host, &err), 0); /* kept verbatim */
    assert_string_equal(host, " spaced out ");
    free(host);
    char *wal_dir = NULL;
    assert_int_equal(set(setting("storage.wal_dir"), "", &wal_dir, &err), 0);
    assert_string_equal(wal_dir, "");
    free(wal_dir);
    static const bad_value empty[] = {{"", "is empty"}};
    check_bad(info, empty, MU_ARRAY_LEN(empty));
    check_bad(setting("storage.data_dir"), empty, MU_ARRAY_LEN(empty));
    char allowed[64];
    cfg__value_allowed(info, allowed, sizeof allowed);
    assert_string_equal(allowed, "any non-empty text");
    cfg__value_allowed(setting("storage.wal_dir"), allowed, sizeof allowed);
    assert_string_equal(allowed, "any text");
}

/* A NUL inside the value (YAML "\0" escape) is refused for every type, and
 * a failed set leaves the previous string in place. */
static void test_nul_byte(void **state)
{
    static const char *const keys[] = {"http.port", "http.max_body_bytes", "node.mode",
                                       "http.listen_host", "storage.wal_dir"};
    for (size_t i = 0; i < MU_ARRAY_LEN(keys); i++) {
        const cfg_setting_info *info = setting(keys[i]);
        char *previous = strdup("kept");
        uint64_t number = SENTINEL;
        void *field = info->type == CFG_U64 || info->type == CFG_BYTES ? (void *)&number
                                                                       : (void *)&previous;
        mu_err err;
        mu_err_clear(&err);
        assert_int_equal(cfg__value_set(info, "all\0x", 5, "ORIGIN", field, &err), MU_ECONFIG);
        CFGT_ASSERT_CONTAINS(err.message, "contains a NUL byte");
        assert_string_equal(previous, "kept");
        assert_int_equal(number, SENTINEL);
        free(previous);
    }
}

static void test_constraint_checker(void **state)
{
    static const struct {
        enum cfg_type type;
        const char *constraint;
        bool valid;
    } cases[] = {
        {CFG_U64, "1..2", true},          {CFG_U64, "0..0", true},
        {CFG_U64, "2..1", false},         {CFG_U64, "1..", false},
        {CFG_U64, "..1", false},          {CFG_U64, "a..b", false},
        {CFG_U64, "", false},             {CFG_U64, "1KiB..2KiB", false},
        {CFG_U64, "1...2", false},        {CFG_BYTES, "1KiB..1MiB", true},
        {CFG_BYTES, "1KB..1MiB", false},  {CFG_BYTES, "1MiB..1KiB", false},
        {CFG_ENUM, "a", true},            {CFG_ENUM, "a|b", true},
        {CFG_ENUM, "", false},            {CFG_ENUM, "a||b", false},
        {CFG_ENUM, "|a", false},          {CFG_ENUM, "a|", false},
        {CFG_BOOL, "", true},             {CFG_BOOL, "true|false", false},
        {CFG_STRING, "", true},           {CFG_STRING, "nonempty", true},
        {CFG_STRING, "non-empty", false},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        cfg_setting_info info = fake(cases[i].type, cases[i].constraint);
        if (cfg__constraint_valid(&info) != cases[i].valid) {
            print_error("constraint \"%s\" misjudged\n", cases[i].constraint);
            fail();
        }
    }
    for (size_t i = 0; i < cfg_setting_count(); i++) {
        assert_true(cfg__constraint_valid(cfg_setting_at(i)));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_message_shape_exact),
        cmocka_unit_test(test_u64_good),
        cmocka_unit_test(test_u64_bad),
        cmocka_unit_test(test_bytes_good),
        cmocka_unit_test(test_bytes_bad),
        cmocka_unit_test(test_bool_good),
        cmocka_unit_test(test_bool_bad),
        cmocka_unit_test(test_enum_good),
        cmocka_unit_test(test_enum_bad),
        cmocka_unit_test(test_string),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_constraint_checker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
