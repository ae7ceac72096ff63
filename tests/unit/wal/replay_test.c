/* replay_test.c: goal — prove the replay rules of wal.h on real files:
 * records come back in LSN order with their stamps and tokens; a torn tail
 * (cut at every byte offset of the last record, a flipped byte in it, zeros
 * after it, damage inside the last unsynced group) is truncated and the log
 * goes on; damage followed by a later group, damage in an older segment, a
 * missing segment, a bad header or a mismatched name is MU_ECORRUPT naming
 * file and offset, with no record after it delivered; corrupt_read_only
 * keeps a read-only log; discard_after_corruption repairs; a torn roll and
 * obsolete segments before a FRESH_START are removed; foreign file names are
 * ignored. Most cases are bad inputs, as replay exists for them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "wal_test_util.h"

static int open_collect(wal **w, wt_replay *r, mu_err *err) {
    wal_options opt;
    wt_options(&opt);
    return wal_open(w, &opt, wt_collect, r, err);
}

/* Opens without collecting (the replayed records are not needed). */
static int open_quiet(wal **w, mu_err *err) {
    wal_options opt;
    wt_options(&opt);
    return wal_open(w, &opt, NULL, NULL, err);
}

/* Appends count records "record-<i>" one at a time (one group each). */
static void append_records(wal *w, int first, int count) {
    for (int i = first; i < first + count; i++) {
        char text[64];
        snprintf(text, sizeof(text), "record-%d-padding-padding", i);
        wal_ack ack;
        mu_err err;
        assert_int_equal(wt_append_text(w, text, NULL, &ack, &err), 0);
    }
}

static void expect_record(const wt_replay *r, size_t index, int number) {
    char text[64];
    snprintf(text, sizeof(text), "record-%d-padding-padding", number);
    assert_true(index < r->count);
    assert_int_equal(r->records[index].payload_bytes, strlen(text));
    assert_memory_equal(r->records[index].payload, text, strlen(text));
}

/* Writes count records to a fresh log and returns the segment's bytes. */
static uint8_t *make_log(int count, long *size_out, long *record_bytes_out) {
    wal *w = NULL;
    mu_err err;
    assert_int_equal(open_quiet(&w, &err), 0);
    append_records(w, 0, count);
    wal_close(w);
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    long size = wt_file_size(path);
    uint8_t *bytes = malloc((size_t)size);
    FILE *f = fopen(path, "rb");
    assert_int_equal(fread(bytes, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *size_out = size;
    *record_bytes_out = (long)wal__record_bytes(0, strlen("record-0-padding-padding"));
    return bytes;
}

static void test_round_trip(void **state) {
    (void)state;
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), 0);
    assert_int_equal(r.count, 0);
    wal_entry entries[] = {
        {.type = 1, .payload = "a", .payload_bytes = 1},
        {.type = 255, .token = "tk", .token_bytes = 2, .payload = "bb", .payload_bytes = 2},
        {.type = 2},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(entries); i++) {
        wal_ack ack;
        assert_int_equal(wal_append(w, &entries[i], &ack, &err), 0);
        assert_int_equal(ack.lsn, i + 1);
        assert_false(ack.already_stored);
    }
    wal_close(w);
    assert_int_equal(open_collect(&w, &r, &err), 0);
    assert_int_equal(r.count, 3);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(r.records[i].lsn, i + 1);
        assert_int_equal(r.records[i].type, entries[i].type);
        assert_int_equal(r.records[i].payload_bytes, entries[i].payload_bytes);
        assert_int_equal(r.records[i].token_bytes, entries[i].token_bytes);
        if (i > 0) assert_true(r.records[i].sync_stamp > r.records[i - 1].sync_stamp);
    }
    assert_memory_equal(r.records[1].token, "tk", 2);
    wal_stats stats;
    wal_stats_get(w, &stats);
    assert_int_equal(stats.replayed_records, 3);
    assert_int_equal(stats.next_lsn, 4);
    assert_int_equal(stats.durable_lsn, 3);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_torn_tail_every_cut(void **state) {
    (void)state;
    long size = 0, record_bytes = 0;
    uint8_t *original = make_log(5, &size, &record_bytes);
    long last_start = size - record_bytes;
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    for (long cut = last_start; cut < size; cut++) {
        wt_write_raw(path, original, (size_t)cut);
        wal *w = NULL;
        mu_err err;
        wt_replay r = {0};
        assert_int_equal(open_collect(&w, &r, &err), 0);
        assert_int_equal(r.count, 4);
        expect_record(&r, 3, 3);
        assert_int_equal(wt_file_size(path), last_start);
        if (cut % 16 == 0) { /* the log goes on after the cut */
            append_records(w, 10, 1);
            wal_close(w);
            wt_replay_reset(&r);
            assert_int_equal(open_collect(&w, &r, &err), 0);
            assert_int_equal(r.count, 5);
            expect_record(&r, 4, 10);
            assert_int_equal(r.records[4].lsn, 5);
        }
        wal_close(w);
        wt_replay_reset(&r);
    }
    free(original);
}

static void test_flip_in_last_record_is_torn(void **state) {
    (void)state;
    long size = 0, record_bytes = 0;
    uint8_t *original = make_log(4, &size, &record_bytes);
    long last_start = size - record_bytes;
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    for (long at = last_start; at < size; at++) {
        wt_write_raw(path, original, (size_t)size);
        wt_flip_byte(path, at, 0x01);
        wal *w = NULL;
        mu_err err;
        wt_replay r = {0};
        assert_int_equal(open_collect(&w, &r, &err), 0);
        assert_int_equal(r.count, 3);
        assert_int_equal(wt_file_size(path), last_start);
        wal_close(w);
        wt_replay_reset(&r);
    }
    free(original);
}

static void test_zero_filled_tail_is_torn(void **state) {
    (void)state;
    long size = 0, record_bytes = 0;
    uint8_t *original = make_log(3, &size, &record_bytes);
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    uint8_t *padded = calloc(1, (size_t)size + 4096);
    memcpy(padded, original, (size_t)size);
    wt_write_raw(path, padded, (size_t)size + 4096);
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), 0);
    assert_int_equal(r.count, 3);
    assert_int_equal(wt_file_size(path), size);
    wal_close(w);
    wt_replay_reset(&r);
    free(padded);
    free(original);
}

/* Damage anywhere in an acknowledged record followed by later groups. */
static void test_flip_before_later_group_is_corruption(void **state) {
    (void)state;
    long size = 0, record_bytes = 0;
    uint8_t *original = make_log(5, &size, &record_bytes);
    long damaged_start = WAL_SEGMENT_HEADER_BYTES + 2 * record_bytes;
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    char expected_offset[64];
    snprintf(expected_offset, sizeof(expected_offset), "offset %ld", damaged_start);
    for (long at = damaged_start; at < damaged_start + record_bytes; at++) {
        wt_write_raw(path, original, (size_t)size);
        wt_flip_byte(path, at, 0x80);
        wal *w = (wal *)1;
        mu_err err;
        wt_replay r = {0};
        assert_int_equal(open_collect(&w, &r, &err), MU_ECORRUPT);
        assert_null(w);
        assert_int_equal(r.count, 2); /* nothing at or after the damage */
        assert_non_null(strstr(err.message, path));
        assert_non_null(strstr(err.message, expected_offset));
        assert_non_null(strstr(err.message, "acknowledged"));
        assert_int_equal(wt_file_size(path), size); /* nothing removed */
        wt_replay_reset(&r);
    }
    free(original);
}

static void test_corrupt_read_only_state(void **state) {
    (void)state;
    long size = 0, record_bytes = 0;
    uint8_t *original = make_log(4, &size, &record_bytes);
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    wt_flip_byte(path, WAL_SEGMENT_HEADER_BYTES + record_bytes + 30, 0x04);
    wal_options opt;
    wt_options(&opt);
    opt.corrupt_read_only = true;
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), MU_ECORRUPT);
    assert_non_null(w);
    assert_int_equal(r.count, 1);
    mu_err reason;
    assert_int_equal(wal_state_get(w, &reason), WAL_STATE_CORRUPT);
    assert_int_equal(reason.code, MU_ECORRUPT);
    assert_non_null(strstr(reason.message, path));
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "x", NULL, &ack, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, "is corrupt"));
    assert_non_null(strstr(err.message, path));
    assert_int_equal(wal_truncate_before(w, 100, &err), MU_ECORRUPT);
    assert_int_equal(wal_recover_after_failure(w, &err), MU_EINVAL);
    wal_close(w);
    assert_int_equal(wt_file_size(path), size);
    wt_replay_reset(&r);
    free(original);
}

static void test_discard_after_corruption(void **state) {
    (void)state;
    long size = 0, record_bytes = 0;
    uint8_t *original = make_log(5, &size, &record_bytes);
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    long damaged_start = WAL_SEGMENT_HEADER_BYTES + 2 * record_bytes;
    wt_flip_byte(path, damaged_start + 26, 0x02);
    wal_options opt;
    wt_options(&opt);
    opt.discard_after_corruption = true;
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_int_equal(r.count, 2);
    assert_int_equal(wt_file_size(path), damaged_start);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "after", NULL, &ack, &err), 0);
    assert_int_equal(ack.lsn, 3);
    wal_close(w);
    wt_replay_reset(&r);
    free(original);
}

/* Crafted groups: damage inside the newest group is torn whatever follows
 * in that group; a later group after it makes it corruption. */
static void test_damage_within_last_group(void **state) {
    (void)state;
    for (int damaged = 1; damaged <= 3; damaged++) {
        for (int later_group = 0; later_group <= 1; later_group++) {
            wt_segment s;
            wt_segment_begin(&s, 1, 0);
            size_t offsets[5];
            offsets[0] = wt_segment_add(&s, 1, true, "group-a");
            offsets[1] = wt_segment_add(&s, 2, true, "group-b-first");
            offsets[2] = wt_segment_add(&s, 2, false, "group-b-second");
            offsets[3] = wt_segment_add(&s, 2, false, "group-b-third");
            if (later_group) offsets[4] = wt_segment_add(&s, 3, true, "group-c");
            s.bytes[offsets[damaged] + 30] ^= 0x20;
            wt_segment_save(&s, 1);
            wal *w = NULL;
            mu_err err;
            wt_replay r = {0};
            char path[512];
            wt_segment_path(1, path, sizeof(path));
            int rc = open_collect(&w, &r, &err);
            assert_int_equal(r.count, (size_t)damaged);
            if (later_group) {
                assert_int_equal(rc, MU_ECORRUPT);
                assert_null(w);
            } else {
                assert_int_equal(rc, 0);
                assert_int_equal(wt_file_size(path), (long)offsets[damaged]);
                wal_close(w);
            }
            wt_replay_reset(&r);
        }
    }
}

/* A record that verifies but breaks the stamp/group sequence is damage too. */
static void test_out_of_sequence_records(void **state) {
    (void)state;
    wt_segment s;
    wt_segment_begin(&s, 1, 0);
    wt_segment_add(&s, 5, true, "first");
    size_t bad = wt_segment_add(&s, 4, true, "stamp goes back");
    wt_segment_add(&s, 6, true, "later group");
    wt_segment_save(&s, 1);
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), MU_ECORRUPT);
    assert_int_equal(r.count, 1);
    char expected[64];
    snprintf(expected, sizeof(expected), "offset %zu", bad);
    assert_non_null(strstr(err.message, expected));
    wt_replay_reset(&r);
    /* A continuation record whose group offset points at the wrong start. */
    wt_segment_begin(&s, 1, 0);
    wt_segment_add(&s, 1, true, "first");
    s.group_start += 8;
    bad = wt_segment_add(&s, 1, false, "claims another group start");
    wt_segment_add(&s, 2, true, "later group");
    wt_segment_save(&s, 1);
    assert_int_equal(open_collect(&w, &r, &err), MU_ECORRUPT);
    assert_int_equal(r.count, 1);
    snprintf(expected, sizeof(expected), "offset %zu", bad);
    assert_non_null(strstr(err.message, expected));
    wt_replay_reset(&r);
}

/* Bytes after the damage that look like record headers at every 24th
 * offset but never verify: the forward scan gives up within its budget and
 * reports corruption instead of guessing "torn" (or running for hours). */
static void test_unclassifiable_damage_is_corruption(void **state) {
    (void)state;
    const size_t size = 2u << 20;
    uint8_t *bytes = calloc(1, size);
    wt_segment s;
    wt_segment_begin(&s, 1, 0);
    wt_segment_add(&s, 1, true, "good");
    size_t damaged = s.length_bytes;
    memcpy(bytes, s.bytes, s.length_bytes);
    for (size_t at = damaged; at + WAL_RECORD_HEADER_BYTES <= size; at += WAL_RECORD_HEADER_BYTES) {
        mu_store_u32le(bytes + at, 1u << 20); /* plausible length */
        mu_store_u32le(bytes + at + 4, 0xDEADBEEF);
        bytes[at + 16] = 1; /* type */
    }
    char path[512];
    wt_segment_path(1, path, sizeof(path));
    wt_write_raw(path, bytes, size);
    free(bytes);
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    int64_t start = mu_clock_mono_ms();
    assert_int_equal(open_collect(&w, &r, &err), MU_ECORRUPT);
    assert_true(mu_clock_mono_ms() - start < 10000);
    assert_int_equal(r.count, 1);
    assert_non_null(strstr(err.message, "could not prove"));
    assert_int_equal(wt_file_size(path), (long)size);
    wt_replay_reset(&r);
}

static void roll_options(wal_options *opt) {
    wt_options(opt);
    opt->segment_bytes = 200;
}

/* Builds three segments of records (small segment_bytes). */
static void make_rolled_log(void) {
    wal_options opt;
    roll_options(&opt);
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    append_records(w, 0, 9);
    wal_close(w);
    assert_true(wt_count_segments() >= 3);
}

static uint64_t nth_segment_lsn(int n) {
    io_dir_list list;
    assert_int_equal(io_list_dir(wt_dir, &list, NULL), 0);
    uint64_t lsn = 0;
    int seen = 0;
    for (size_t i = 0; i < list.count; i++) {
        uint64_t value;
        if (wal__segment_name_parse(list.names[i], &value) && seen++ == n) lsn = value;
    }
    io_dir_list_deinit(&list);
    return lsn;
}

static void test_damage_in_older_segment_is_corruption(void **state) {
    (void)state;
    make_rolled_log();
    char path[512];
    wt_segment_path(nth_segment_lsn(0), path, sizeof(path));
    long size = wt_file_size(path);
    wt_flip_byte(path, size - 3, 0x01); /* the last record of the oldest segment */
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "followed by newer"));
    assert_int_equal(wt_file_size(path), size);
    wt_replay_reset(&r);
}

static void test_missing_segment_is_corruption(void **state) {
    (void)state;
    make_rolled_log();
    char path[512];
    wt_segment_path(nth_segment_lsn(1), path, sizeof(path));
    assert_int_equal(unlink(path), 0);
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, "missing segment"));
    wt_replay_reset(&r);
}

static void test_bad_headers(void **state) {
    (void)state;
    make_rolled_log();
    char oldest[512], newest[512];
    wt_segment_path(nth_segment_lsn(0), oldest, sizeof(oldest));
    int count = wt_count_segments();
    wt_segment_path(nth_segment_lsn(count - 1), newest, sizeof(newest));
    wal *w = NULL;
    mu_err err;
    /* Older segment header. */
    wt_flip_byte(oldest, 9, 0x01);
    assert_int_equal(open_quiet(&w, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, oldest));
    assert_non_null(strstr(err.message, "offset 0"));
    wt_flip_byte(oldest, 9, 0x01);
    /* Newest segment with records: a bad header is corruption, not a torn roll. */
    assert_true(wt_file_size(newest) > WAL_SEGMENT_HEADER_BYTES);
    wt_flip_byte(newest, 0, 0xFF);
    assert_int_equal(open_quiet(&w, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, newest));
    wt_flip_byte(newest, 0, 0xFF);
    /* A file whose header names another LSN. */
    char renamed[512];
    wt_segment_path(nth_segment_lsn(count - 1) + 1000, renamed, sizeof(renamed));
    assert_int_equal(rename(newest, renamed), 0);
    assert_int_equal(open_quiet(&w, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, "another first LSN"));
    assert_int_equal(rename(renamed, newest), 0);
    /* Still intact after all that. */
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), 0);
    assert_int_equal(r.count, 9);
    wal_close(w);
    wt_replay_reset(&r);
}

/* Regression (found by fuzz_wal_replay): discard mode meeting a bad header
 * before segments whose headers were not read yet. */
static void test_discard_bad_header_drops_later(void **state) {
    (void)state;
    make_rolled_log();
    int count = wt_count_segments();
    uint64_t middle_lsn = nth_segment_lsn(1);
    char middle[512];
    wt_segment_path(middle_lsn, middle, sizeof(middle));
    wt_flip_byte(middle, 2, 0x01);
    wal_options opt;
    roll_options(&opt);
    opt.discard_after_corruption = true;
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_int_equal(wt_count_segments(), 1); /* the damaged one and all later ones went */
    assert_true(count >= 3);
    assert_int_equal(r.records[r.count - 1].lsn, middle_lsn - 1);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "after", NULL, &ack, &err), 0);
    assert_int_equal(ack.lsn, r.count + 1);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_unknown_version(void **state) {
    (void)state;
    make_rolled_log();
    char oldest[512];
    wt_segment_path(nth_segment_lsn(0), oldest, sizeof(oldest));
    uint8_t header[WAL_SEGMENT_HEADER_BYTES];
    FILE *f = fopen(oldest, "r+b");
    assert_int_equal(fread(header, 1, sizeof(header), f), sizeof(header));
    mu_store_u16le(header + 4, 2);
    mu_store_u32le(header + 28, mu_crc32c(0, header, 28));
    fseek(f, 0, SEEK_SET);
    fwrite(header, 1, sizeof(header), f);
    fclose(f);
    wal *w = NULL;
    mu_err err;
    assert_int_equal(open_quiet(&w, &err), MU_ENOT_SUPPORTED);
    assert_non_null(strstr(err.message, "unknown format version"));
}

static void test_torn_roll_removed(void **state) {
    (void)state;
    const size_t sizes[] = {0, 1, 20, WAL_SEGMENT_HEADER_BYTES};
    for (size_t i = 0; i < MU_ARRAY_LEN(sizes); i++) {
        wal *w = NULL;
        mu_err err;
        assert_int_equal(open_quiet(&w, &err), 0);
        wal_stats stats;
        wal_stats_get(w, &stats);
        append_records(w, 0, 2);
        wal_close(w);
        char path[512];
        wt_segment_path(stats.next_lsn + 2, path, sizeof(path));
        uint8_t garbage[WAL_SEGMENT_HEADER_BYTES];
        memset(garbage, 0x5A, sizeof(garbage));
        wt_write_raw(path, garbage, sizes[i]);
        wt_replay r = {0};
        assert_int_equal(open_collect(&w, &r, &err), 0);
        assert_int_equal(r.count % 2, 0);
        assert_int_equal(wt_file_size(path), -1); /* removed */
        wal_close(w);
        wt_replay_reset(&r);
    }
}

static void test_foreign_names_ignored(void **state) {
    (void)state;
    const char *names[] = {"notes.txt", "123.log", "00000000000000000001.log.tmp",
                           "99999999999999999999.log"};
    for (size_t i = 0; i < MU_ARRAY_LEN(names); i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", wt_dir, names[i]);
        wt_write_raw(path, "junk", 4);
    }
    char sub[512];
    snprintf(sub, sizeof(sub), "%s/subdir", wt_dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    wal *w = NULL;
    mu_err err;
    assert_int_equal(open_quiet(&w, &err), 0);
    append_records(w, 0, 1);
    wal_close(w);
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), 0);
    assert_int_equal(r.count, 1);
    wal_close(w);
    for (size_t i = 0; i < MU_ARRAY_LEN(names); i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", wt_dir, names[i]);
        assert_int_equal(wt_file_size(path), 4); /* left alone */
    }
    wt_replay_reset(&r);
}

static void test_fresh_start_obsoletes_older(void **state) {
    (void)state;
    wt_segment s;
    wt_segment_begin(&s, 1, 0);
    wt_segment_add(&s, 1, true, "old-1");
    size_t damaged = wt_segment_add(&s, 2, true, "old-2 (its sync failed)");
    s.bytes[damaged + 27] ^= 0x11;
    wt_segment_save(&s, 1);
    wt_segment_begin(&s, 5, WAL_SEGMENT_FLAG_FRESH_START);
    wt_segment_add(&s, 3, true, "fresh-5");
    wt_segment_add(&s, 4, true, "fresh-6");
    wt_segment_save(&s, 5);
    wal *w = NULL;
    mu_err err;
    wt_replay r = {0};
    assert_int_equal(open_collect(&w, &r, &err), 0);
    assert_int_equal(r.count, 2);
    assert_int_equal(r.records[0].lsn, 5);
    assert_int_equal(r.records[1].lsn, 6);
    assert_memory_equal(r.records[0].payload, "fresh-5", 7);
    char old_path[512];
    wt_segment_path(1, old_path, sizeof(old_path));
    assert_int_equal(wt_file_size(old_path), -1);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "next", NULL, &ack, &err), 0);
    assert_int_equal(ack.lsn, 7);
    assert_true(ack.sync_stamp > 4);
    wal_close(w);
    wt_replay_reset(&r);
}

static void test_callback_error_stops_open(void **state) {
    (void)state;
    long size = 0, record_bytes = 0;
    free(make_log(3, &size, &record_bytes));
    wal *w = (wal *)1;
    mu_err err;
    wt_replay r = {.fail_at_count = 2};
    assert_int_equal(open_collect(&w, &r, &err), MU_EPARSE);
    assert_null(w);
    assert_non_null(strstr(err.message, "refuses LSN 3"));
    wt_replay_reset(&r);
}

static void test_first_lsn_for_empty_dir(void **state) {
    (void)state;
    wal_options opt;
    wt_options(&opt);
    opt.first_lsn = 1000;
    wal *w = NULL;
    mu_err err;
    assert_int_equal(wal_open(&w, &opt, NULL, NULL, &err), 0);
    wal_ack ack;
    assert_int_equal(wt_append_text(w, "x", NULL, &ack, &err), 0);
    assert_int_equal(ack.lsn, 1000);
    wal_close(w);
    char path[512];
    wt_segment_path(1000, path, sizeof(path));
    assert_true(wt_file_size(path) > WAL_SEGMENT_HEADER_BYTES);
    /* Segments exist now: first_lsn no longer applies. */
    opt.first_lsn = 5;
    wt_replay r = {0};
    assert_int_equal(wal_open(&w, &opt, wt_collect, &r, &err), 0);
    assert_int_equal(r.records[0].lsn, 1000);
    assert_int_equal(wt_append_text(w, "y", NULL, &ack, &err), 0);
    assert_int_equal(ack.lsn, 1001);
    wal_close(w);
    wt_replay_reset(&r);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, wt_setup, wt_teardown)
    const struct CMUnitTest tests[] = {
        T(test_round_trip),
        T(test_torn_tail_every_cut),
        T(test_flip_in_last_record_is_torn),
        T(test_zero_filled_tail_is_torn),
        T(test_flip_before_later_group_is_corruption),
        T(test_corrupt_read_only_state),
        T(test_discard_after_corruption),
        T(test_damage_within_last_group),
        T(test_out_of_sequence_records),
        T(test_unclassifiable_damage_is_corruption),
        T(test_damage_in_older_segment_is_corruption),
        T(test_missing_segment_is_corruption),
        T(test_bad_headers),
        T(test_discard_bad_header_drops_later),
        T(test_unknown_version),
        T(test_torn_roll_removed),
        T(test_foreign_names_ignored),
        T(test_fresh_start_obsoletes_older),
        T(test_callback_error_stops_open),
        T(test_first_lsn_for_empty_dir),
    };
#undef T
    mu_log_set_level(MU_LOG_ERROR);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
