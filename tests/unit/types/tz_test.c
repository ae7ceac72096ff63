/* tz_test.c: goal: the TZif reader gives the offsets the system tzdata
 * defines (values cross-checked with Python's zoneinfo) in both
 * hemispheres, for half-hour and 45-minute zones, before the first
 * transition and after the last one (POSIX footer rule, up to 2299);
 * local->UTC follows ClickHouse in DST gaps and overlaps; invalid names
 * and corrupt TZif files (crafted under $TZDIR) are refused. */
#include "types_test_util.h"

#include <sys/stat.h>
#include <unistd.h>

static const ty_tz *zone(const char *name) {
    const ty_tz *tz = NULL;
    mu_err err;
    mu_err_clear(&err);
    if (ty_tz_get(name, &tz, &err) != 0) fail_msg("zone %s: %s", name, err.message);
    return tz;
}

static void test_offsets(void **state) {
    (void)state;
    const struct {
        const char *zone;
        int64_t utc;
        int32_t offset;
    } cases[] = {
        {"Europe/Berlin", 1705320000, 3600},         {"Europe/Berlin", 1721044800, 7200},
        {"Europe/Berlin", 4118126400, 7200},         {"Europe/Berlin", 10397937600, 7200},
        {"Europe/Berlin", -3786782400, 3208},        {"Australia/Sydney", 1705320000, 39600},
        {"Australia/Sydney", 1721044800, 36000},     {"Australia/Sydney", 5681534400, 39600},
        {"Asia/Kolkata", 1704110400, 19800},         {"Pacific/Chatham", 1705320000, 49500},
        {"Pacific/Chatham", 1721044800, 45900},      {"America/Sao_Paulo", 1894708800, -10800},
        {"Australia/Lord_Howe", 1705320000, 39600},  {"Australia/Lord_Howe", 1721044800, 37800},
        {"America/New_York", 7273800000, -14400},    {"UTC", 1705320000, 0},
        {"Etc/UTC", 1705320000, 0},                  {"UTC", -9000000000, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int32_t got = ty_tz_offset_at(zone(cases[i].zone), cases[i].utc);
        if (got != cases[i].offset)
            fail_msg("%s at %lld: %d, want %d", cases[i].zone, (long long)cases[i].utc, got,
                     cases[i].offset);
    }
}

static void test_gaps_and_overlaps(void **state) {
    (void)state;
    const ty_tz *berlin = zone("Europe/Berlin"), *new_york = zone("America/New_York");
    int64_t day = ty_days_from_civil(2024, 3, 31) * 86400;
    /* Gap: 02:30 does not exist; read with the offset after the change. */
    assert_int_equal(ty_tz_local_to_utc(berlin, day + 2 * 3600 + 1800), 1711845000);
    assert_int_equal(ty_tz_local_to_utc(berlin, day + 1 * 3600 + 1800), 1711845000);
    assert_int_equal(ty_tz_local_to_utc(berlin, day + 3 * 3600), 1711846800);
    assert_int_equal(ty_tz_local_to_utc(berlin, day + 2 * 3600 - 1), 1711846799);
    /* Overlap: 02:30 exists twice; the earlier instant wins. */
    day = ty_days_from_civil(2024, 10, 27) * 86400;
    assert_int_equal(ty_tz_local_to_utc(berlin, day + 2 * 3600 + 1800), 1729989000);
    assert_int_equal(ty_tz_local_to_utc(berlin, day + 3 * 3600), 1729994400);
    day = ty_days_from_civil(2024, 3, 10) * 86400;
    assert_int_equal(ty_tz_local_to_utc(new_york, day + 2 * 3600 + 1800), 1710052200);
    assert_int_equal(ty_tz_local_to_utc(zone("UTC"), 12345), 12345);
}

/* For every hour over several years: reading the rendered wall clock back
 * gives the same instant, or the earlier one of an overlap. */
static void test_round_trip_property(void **state) {
    (void)state;
    const char *names[] = {"Europe/Berlin", "America/New_York", "Australia/Sydney",
                           "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo",
                           "Pacific/Chatham", "Africa/Casablanca"};
    for (size_t z = 0; z < sizeof(names) / sizeof(names[0]); z++) {
        const ty_tz *tz = zone(names[z]);
        for (int64_t t = -2208988800LL; t < 10413791999LL; t += 3600 * 7 + 59) {
            int64_t local = t + ty_tz_offset_at(tz, t);
            int64_t back = ty_tz_local_to_utc(tz, local);
            if (back == t) continue;
            assert_true(back < t);
            assert_int_equal(back + ty_tz_offset_at(tz, back), local);
        }
    }
}

static void test_bad_names(void **state) {
    (void)state;
    const char *bad[] = {"", "/etc/passwd", "../zoneinfo/UTC", "Europe/../UTC", "Europe//Berlin",
                         "Europe/Berlin/", "Nowhere/City", "Europe", "zone.tab", "Europe/ Berlin",
                         "Europe/Berlin\n"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const ty_tz *tz;
        mu_err err;
        assert_int_equal(ty_tz_get(bad[i], &tz, &err), MU_EINVAL);
    }
    const ty_tz *right;
    mu_err right_err;
    if (access("/usr/share/zoneinfo/right/Europe/Berlin", R_OK) == 0)
        assert_int_equal(ty_tz_get("right/Europe/Berlin", &right, &right_err), MU_EINVAL);
    char long_name[400];
    memset(long_name, 'A', sizeof(long_name) - 1);
    long_name[sizeof(long_name) - 1] = 0;
    const ty_tz *tz;
    mu_err err;
    assert_int_equal(ty_tz_get(long_name, &tz, &err), MU_EINVAL);
}

static void test_default_zone(void **state) {
    (void)state;
    mu_err err;
    assert_ptr_equal(ty_tz_default(), ty_tz_utc());
    assert_int_equal(ty_tz_set_default("Nowhere/City", &err), MU_EINVAL);
    assert_ptr_equal(ty_tz_default(), ty_tz_utc());
    assert_int_equal(ty_tz_set_default("Asia/Tokyo", &err), 0);
    assert_string_equal(ty_tz_name(ty_tz_default()), "Asia/Tokyo");
    assert_int_equal(ty_tz_set_default("UTC", &err), 0);
    assert_ptr_equal(ty_tz_default(), ty_tz_utc());
    /* Lookups are cached: the same zone object every time. */
    assert_ptr_equal(zone("Asia/Tokyo"), zone("Asia/Tokyo"));
}

/* ------------------------------------------------------------------ */
/* Crafted files                                                       */
/* ------------------------------------------------------------------ */

static char tz_dir[64];

static void put_u32(FILE *f, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    fwrite(b, 1, 4, f);
}

static void put_header(FILE *f, char version, uint32_t timecnt, uint32_t typecnt) {
    fwrite("TZif", 1, 4, f);
    fputc(version, f);
    for (int i = 0; i < 15; i++) fputc(0, f);
    put_u32(f, 0);       /* isutcnt */
    put_u32(f, 0);       /* isstdcnt */
    put_u32(f, 0);       /* leapcnt */
    put_u32(f, timecnt);
    put_u32(f, typecnt);
    put_u32(f, 4);       /* charcnt */
}

/* One data block: times (4 or 8 bytes), type indexes, ttinfos, "ABC\0". */
static void put_block(FILE *f, int time_bytes, const int64_t *times, const uint8_t *types,
                      uint32_t timecnt, const int32_t *offsets, uint32_t typecnt) {
    for (uint32_t i = 0; i < timecnt; i++) {
        if (time_bytes == 8) put_u32(f, (uint32_t)((uint64_t)times[i] >> 32));
        put_u32(f, (uint32_t)times[i]);
    }
    if (timecnt > 0) fwrite(types, 1, timecnt, f);
    for (uint32_t i = 0; i < typecnt; i++) {
        put_u32(f, (uint32_t)offsets[i]);
        fputc(0, f);
        fputc(0, f);
    }
    fwrite("ABC", 1, 4, f);
}

static void write_zone(const char *name, char version, const int64_t *times,
                       const uint8_t *types, uint32_t timecnt, const int32_t *offsets,
                       uint32_t typecnt, const char *footer) {
    char path[256];
    snprintf(path, sizeof(path), "%s/Test", tz_dir);
    mkdir(path, 0700);
    snprintf(path, sizeof(path), "%s/Test/%s", tz_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    put_header(f, version, timecnt, typecnt);
    put_block(f, 4, times, types, timecnt, offsets, typecnt);
    if (version >= '2') {
        put_header(f, version, timecnt, typecnt);
        put_block(f, 8, times, types, timecnt, offsets, typecnt);
        fprintf(f, "\n%s\n", footer);
    }
    fclose(f);
}

static void write_raw(const char *name, const void *bytes, size_t n) {
    char path[256];
    snprintf(path, sizeof(path), "%s/Test/%s", tz_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(bytes, 1, n, f);
    fclose(f);
}

static int crafted_setup(void **state) {
    (void)state;
    snprintf(tz_dir, sizeof(tz_dir), "/tmp/ty_tz_XXXXXX");
    if (mkdtemp(tz_dir) == NULL) return -1;
    setenv("TZDIR", tz_dir, 1);
    return 0;
}

static int crafted_teardown(void **state) {
    (void)state;
    char command[128];
    snprintf(command, sizeof(command), "rm -rf %s", tz_dir);
    unsetenv("TZDIR");
    return system(command) == 0 ? 0 : -1;
}

static void test_crafted_good(void **state) {
    (void)state;
    int32_t cet[] = {3600};
    /* A "slim" file: no transitions, everything from the footer rule. */
    write_zone("Slim", '2', NULL, NULL, 0, cet, 1, "CET-1CEST,M3.5.0,M10.5.0/3");
    const ty_tz *slim = zone("Test/Slim");
    assert_int_equal(ty_tz_offset_at(slim, 1721044800), 7200);   /* 2024-07-15 */
    assert_int_equal(ty_tz_offset_at(slim, 1705320000), 3600);   /* 2024-01-15 */
    assert_int_equal(ty_tz_offset_at(slim, -614260800), 7200);   /* 1950-07-15 */
    assert_int_equal(ty_tz_offset_at(slim, 10397937600), 7200);  /* 2299-07-01 */
    /* Version 1: 32-bit times, no footer; the last offset stays. */
    int64_t times[] = {1000000000};
    uint8_t types[] = {1};
    int32_t offsets[] = {0, 3600};
    write_zone("V1", 0, times, types, 1, offsets, 2, NULL);
    const ty_tz *v1 = zone("Test/V1");
    assert_int_equal(ty_tz_offset_at(v1, 999999999), 0);
    assert_int_equal(ty_tz_offset_at(v1, 1000000000), 3600);
    assert_int_equal(ty_tz_offset_at(v1, 9000000000), 3600);
    /* A rule with a <+03> style name and no DST. */
    write_zone("Fixed", '3', NULL, NULL, 0, offsets, 1, "<+03>-3");
    assert_int_equal(ty_tz_offset_at(zone("Test/Fixed"), 1705320000), 10800);
}

static void expect_corrupt(const char *name) {
    char full[64];
    snprintf(full, sizeof(full), "Test/%s", name);
    const ty_tz *tz;
    mu_err err;
    int rc = ty_tz_get(full, &tz, &err);
    if (rc != MU_ECORRUPT) fail_msg("%s: got %d (%s)", name, rc, err.message);
}

static void test_crafted_bad(void **state) {
    (void)state;
    int32_t offsets[] = {0, 3600};
    int64_t times[] = {2000, 1000};
    uint8_t types[] = {1, 0}, bad_types[] = {5, 0};
    write_zone("Unordered", '2', times, types, 2, offsets, 2, "");
    expect_corrupt("Unordered");
    write_zone("BadType", '2', times + 1, bad_types, 1, offsets, 2, "");
    expect_corrupt("BadType");
    write_zone("BadFooter", '2', NULL, NULL, 0, offsets, 1, "CET-1CEST,M13.5.0,M10.5.0");
    expect_corrupt("BadFooter");
    int32_t huge[] = {INT32_MIN};
    write_zone("BadOffset", '2', NULL, NULL, 0, huge, 1, "");
    expect_corrupt("BadOffset");
    write_raw("Empty", "", 0);
    expect_corrupt("Empty");
    write_raw("BadMagic", "TZix2\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
                          "\0\0\0\0\0\0\0", 44);
    expect_corrupt("BadMagic");
    /* Every truncation of a good file is refused, never read past its end. */
    write_zone("Whole", '2', times + 1, types, 1, offsets, 2, "CET-1CEST,M3.5.0,M10.5.0/3");
    char path[256];
    snprintf(path, sizeof(path), "%s/Test/Whole", tz_dir);
    FILE *f = fopen(path, "rb");
    uint8_t whole[512];
    size_t n = fread(whole, 1, sizeof(whole), f);
    fclose(f);
    for (size_t cut = 0; cut + 1 < n; cut++) {
        char name[32];
        snprintf(name, sizeof(name), "Cut%zu", cut);
        write_raw(name, whole, cut);
        expect_corrupt(name);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_gaps_and_overlaps),
        cmocka_unit_test(test_round_trip_property),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_default_zone),
        cmocka_unit_test_setup_teardown(test_crafted_good, crafted_setup, crafted_teardown),
        cmocka_unit_test_setup_teardown(test_crafted_bad, crafted_setup, crafted_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
