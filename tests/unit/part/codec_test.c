/* codec_test.c: goal — prove that every codec and the common chains
 * (src/storage/part/codec.h) round-trip bit-exactly for every width they
 * accept on empty, tiny, constant, monotone, extreme, wrapping, random and
 * float-special data; that compression helps where it must (timestamps with
 * DoubleDelta, constants with T64/LZ4/Gorilla); that chain text parses and
 * renders canonically and every malformed or invalid chain is refused with
 * the right code; and that decoding truncated, bit-flipped and hand-made
 * hostile blocks fails cleanly (MU_ECORRUPT) without touching the output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "storage/part/codec.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                            */
/* ------------------------------------------------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static part_codec_chain parse_ok(const char *text, uint32_t value_bytes) {
    part_codec_chain chain;
    mu_err err;
    mu_err_clear(&err);
    int rc = part_codec_chain_parse(text, strlen(text), value_bytes, &chain, &err);
    if (rc != 0) fail_msg("parse \"%s\" (width %u): %s", text, value_bytes, err.message);
    return chain;
}

/* Encodes, checks the header, decodes (with trailing bytes after the block)
 * and compares bit-exactly. Returns the block size. */
static size_t round_trip(const part_codec_chain *chain, const void *data, size_t bytes) {
    mu_buf block, out;
    mu_buf_init(&block, 0);
    mu_buf_init(&out, 0);
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(mu_buf_append_str(&block, "pre", NULL), 0);
    int rc = part_codec_encode(chain, data, bytes, &block, &err);
    if (rc != 0) fail_msg("encode %zu bytes: %s", bytes, err.message);
    size_t block_bytes = block.length_bytes - 3;
    assert_true(block_bytes <= part_codec_encode_bound(chain, bytes));
    part_codec_block_info info;
    assert_int_equal(part_codec_block_info_read(block.data + 3, block_bytes, &info, &err), 0);
    assert_int_equal(info.raw_bytes, bytes);
    assert_int_equal(info.block_bytes, block_bytes);
    assert_true(part_codec_chain_equal(&info.chain, chain));
    assert_int_equal(mu_buf_append_str(&block, "trailing", NULL), 0);
    assert_int_equal(mu_buf_append_str(&out, "x", NULL), 0);
    size_t consumed = 0;
    rc = part_codec_decode(block.data + 3, block.length_bytes - 3, &out, &consumed, &err);
    if (rc != 0) fail_msg("decode %zu bytes: %s", bytes, err.message);
    assert_int_equal(consumed, block_bytes);
    assert_int_equal(out.length_bytes, 1 + bytes);
    if (bytes > 0 && memcmp(out.data + 1, data, bytes) != 0) {
        char name[96];
        fail_msg("chain %s: %zu bytes differ after the round trip",
                 part_codec_chain_name(chain, name, sizeof(name)), bytes);
    }
    mu_buf_deinit(&block);
    mu_buf_deinit(&out);
    return block_bytes;
}

static void store_values(uint8_t *dst, unsigned width, size_t count, const uint64_t *v) {
    for (size_t i = 0; i < count; i++) {
        for (unsigned b = 0; b < width; b++) dst[i * width + b] = (uint8_t)(v[i] >> (8 * b));
    }
}

enum { PATTERN_COUNT = 12 };

/* Fills count values of pattern p (as 64-bit, truncated to the width). */
static void pattern_fill(int p, unsigned width, size_t count, uint64_t *v) {
    uint64_t max = width == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * width)) - 1;
    uint64_t smin = (max >> 1) + 1, smax = max >> 1;
    for (size_t i = 0; i < count; i++) {
        uint64_t x = 0;
        switch (p) {
        case 0: x = 0; break;                                         /* zeros */
        case 1: x = 0x5A5A5A5A5A5A5A5Aull; break;                     /* constant */
        case 2: x = 1000 + 7 * i; break;                              /* increasing */
        case 3: x = max - 3 * i; break;                               /* decreasing */
        case 4: x = i % 2 ? smin : smax; break;                       /* signed extremes */
        case 5: x = i % 2 ? 0 : max; break;                           /* unsigned extremes */
        case 6: x = rng_next(); break;                                /* random */
        case 7: x = max - 5 + i * (smin + 3); break;                  /* wrapping deltas */
        case 8: x = (uint64_t)((int64_t)(rng_next() % 7) - 3); break; /* small signed */
        case 9: x = i * i * i * 0x9E3779B1ull; break;                 /* wrapping dod */
        case 10: x = 1700000000000ull + 15000 * i + (rng_next() % 10 == 0 ? 3 : 0); break;
        default: x = i == 0 ? max : (i % 3 == 0 ? smin : i); break;   /* mixed */
        }
        v[i] = x & max;
    }
}

static const size_t COUNTS[] = {0, 1, 2, 3, 63, 64, 65, 66, 127, 129, 1000, 8192};

/* Round-trips every pattern and count through the chain for one width. */
static void round_trip_patterns(const char *text, unsigned width) {
    part_codec_chain chain = parse_ok(text, width);
    uint64_t *v = malloc(8192 * sizeof(uint64_t));
    uint8_t *bytes = malloc(8192 * 8);
    assert_non_null(v);
    assert_non_null(bytes);
    for (int p = 0; p < PATTERN_COUNT; p++) {
        for (size_t c = 0; c < MU_ARRAY_LEN(COUNTS); c++) {
            pattern_fill(p, width, COUNTS[c], v);
            store_values(bytes, width, COUNTS[c], v);
            round_trip(&chain, bytes, COUNTS[c] * width);
        }
    }
    free(v);
    free(bytes);
}

/* ------------------------------------------------------------------ */
/* Round trips                                                        */
/* ------------------------------------------------------------------ */

static const char *const CHAINS_ANY_WIDTH[] = {
    "NONE", "LZ4", "LZ4HC", "LZ4HC(1)", "ZSTD", "ZSTD(3)", "Delta", "Delta, LZ4",
    "Delta(1), ZSTD", "Delta, Delta, ZSTD", "DoubleDelta", "DoubleDelta, LZ4",
    "DoubleDelta, ZSTD(1)", "T64", "T64, LZ4", "T64, ZSTD", "Delta, T64, ZSTD",
    "Delta, DoubleDelta", "Delta(1), Delta, T64, LZ4",
};

static void test_round_trip_every_width(void **state) {
    (void)state;
    static const unsigned widths[] = {1, 2, 4, 8};
    for (size_t w = 0; w < MU_ARRAY_LEN(widths); w++) {
        for (size_t c = 0; c < MU_ARRAY_LEN(CHAINS_ANY_WIDTH); c++) {
            round_trip_patterns(CHAINS_ANY_WIDTH[c], widths[w]);
        }
        if (widths[w] >= 4) {
            round_trip_patterns("Gorilla", widths[w]);
            round_trip_patterns("Gorilla, LZ4", widths[w]);
            round_trip_patterns("Delta, Gorilla, ZSTD", widths[w]);
        }
    }
}

static void test_round_trip_compressors_any_length(void **state) {
    (void)state;
    /* Compressor-only chains take any length and any value width (String
     * columns have value_bytes 0). */
    static const char *const chains[] = {"NONE", "LZ4", "LZ4HC(12)", "ZSTD(1)", "ZSTD(19)"};
    uint8_t data[1031];
    for (size_t i = 0; i < sizeof(data); i++) data[i] = (uint8_t)(i % 17 == 0 ? rng_next() : i);
    for (size_t c = 0; c < MU_ARRAY_LEN(chains); c++) {
        part_codec_chain chain = parse_ok(chains[c], 0);
        for (size_t n = 0; n <= sizeof(data); n += (n < 40 ? 1 : 97)) round_trip(&chain, data, n);
    }
}

static void test_gorilla_float_specials_bit_exact(void **state) {
    (void)state;
    static const uint64_t f64[] = {
        0x7ff8000000000000ull, 0x7ff8000000000001ull, 0xfff8dead00000000ull, /* quiet NaNs */
        0x7ff0000000000001ull, 0xfff4000000000000ull,                         /* signaling */
        0x7ff0000000000000ull, 0xfff0000000000000ull,                         /* +-Inf */
        0x8000000000000000ull, 0x0000000000000000ull,                         /* -0.0, 0.0 */
        0x0000000000000001ull, 0x000fffffffffffffull, 0x800fffffffffffffull, /* denormals */
        0x7fefffffffffffffull, 0x3ff0000000000000ull, 0x3ff0000000000001ull, 0x3ff0000000000000ull,
    };
    static const uint32_t f32[] = {
        0x7fc00000u, 0x7fc00001u, 0xffc0beefu, 0x7f800001u, 0x7f800000u, 0xff800000u, 0x80000000u,
        0x00000000u, 0x00000001u, 0x007fffffu, 0x807fffffu, 0x7f7fffffu, 0x3f800000u, 0x3f800000u,
    };
    part_codec_chain g8 = parse_ok("Gorilla", 8), g4 = parse_ok("Gorilla", 4);
    for (size_t n = 0; n <= MU_ARRAY_LEN(f64); n++) round_trip(&g8, f64, n * 8);
    for (size_t n = 0; n <= MU_ARRAY_LEN(f32); n++) round_trip(&g4, f32, n * 4);
    /* Every ordering of specials exercises window reuse and renewal. */
    uint64_t mixed[4096];
    uint32_t mixed32[4096];
    for (size_t i = 0; i < MU_ARRAY_LEN(mixed); i++) {
        mixed[i] = f64[rng_next() % MU_ARRAY_LEN(f64)] ^ (rng_next() % 4 == 0 ? rng_next() : 0);
        mixed32[i] = f32[rng_next() % MU_ARRAY_LEN(f32)] ^ (uint32_t)(rng_next() & 0xff);
    }
    round_trip(&g8, mixed, sizeof(mixed));
    round_trip(&g4, mixed32, sizeof(mixed32));
    part_codec_chain gz = parse_ok("Gorilla, ZSTD", 8);
    round_trip(&gz, mixed, sizeof(mixed));
}

static void test_blocks_back_to_back(void **state) {
    (void)state;
    part_codec_chain chains[3] = {parse_ok("Delta, ZSTD", 4), parse_ok("T64", 4),
                                  parse_ok("LZ4", 4)};
    uint32_t values[300];
    for (size_t i = 0; i < MU_ARRAY_LEN(values); i++) values[i] = (uint32_t)(i * 31);
    mu_buf file, out;
    mu_buf_init(&file, 0);
    mu_buf_init(&out, 0);
    for (size_t b = 0; b < 3; b++) {
        assert_int_equal(part_codec_encode(&chains[b], values, (b + 1) * 400, &file, NULL), 0);
    }
    size_t at = 0;
    for (size_t b = 0; b < 3; b++) {
        size_t consumed = 0;
        assert_int_equal(part_codec_decode(file.data + at, file.length_bytes - at, &out,
                                           &consumed, NULL), 0);
        at += consumed;
    }
    assert_int_equal(at, file.length_bytes);
    assert_int_equal(out.length_bytes, 400 + 800 + 1200);
    assert_memory_equal(out.data, values, 400);
    assert_memory_equal(out.data + 400, values, 800);
    assert_memory_equal(out.data + 1200, values, 1200);
    mu_buf_deinit(&file);
    mu_buf_deinit(&out);
}

static void *thread_round_trips(void *arg) {
    (void)arg;
    uint64_t values[2048];
    for (size_t i = 0; i < MU_ARRAY_LEN(values); i++) values[i] = i * i;
    part_codec_chain chain = parse_ok("DoubleDelta, ZSTD(5)", 8);
    part_codec_chain hc = parse_ok("LZ4HC(4)", 8);
    for (int round = 0; round < 50; round++) {
        round_trip(&chain, values, sizeof(values));
        round_trip(&hc, values, sizeof(values));
    }
    return NULL;
}

static void test_threads_keep_their_own_contexts(void **state) {
    (void)state;
    pthread_t threads[4];
    for (size_t i = 0; i < MU_ARRAY_LEN(threads); i++) {
        assert_int_equal(pthread_create(&threads[i], NULL, thread_round_trips, NULL), 0);
    }
    for (size_t i = 0; i < MU_ARRAY_LEN(threads); i++) pthread_join(threads[i], NULL);
}

/* ------------------------------------------------------------------ */
/* Compression properties (sizes, loosely)                            */
/* ------------------------------------------------------------------ */

static size_t encoded_size(const char *text, unsigned width, const void *data, size_t bytes) {
    part_codec_chain chain = parse_ok(text, width);
    return round_trip(&chain, data, bytes);
}

static void test_compression_helps_where_it_should(void **state) {
    (void)state;
    enum { N = 8192 };
    static int64_t ts[N], jittered[N], constant[N], small[N], counter[N];
    static double floats[N];
    for (size_t i = 0; i < N; i++) {
        ts[i] = 1700000000000 + 15000 * (int64_t)i;
        jittered[i] = ts[i] + (rng_next() % 10 == 0 ? (int64_t)(rng_next() % 5) - 2 : 0);
        constant[i] = 42;
        small[i] = (int64_t)(rng_next() % 200);
        counter[i] = (i == 0 ? 0 : counter[i - 1]) + (int64_t)(rng_next() % 1000);
        floats[i] = 20.0 + (double)(i / 64) * 0.5;
    }
    size_t raw = sizeof(ts);
    assert_true(encoded_size("DoubleDelta", 8, ts, raw) < raw / 100);
    assert_true(encoded_size("DoubleDelta", 8, jittered, raw) < raw / 10);
    assert_true(encoded_size("DoubleDelta, LZ4", 8, ts, raw) < raw / 100);
    assert_true(encoded_size("T64", 8, constant, raw) < raw / 10);
    assert_true(encoded_size("LZ4", 8, constant, raw) < raw / 10);
    assert_true(encoded_size("ZSTD", 8, constant, raw) < raw / 10);
    assert_true(encoded_size("Gorilla", 8, constant, raw) < raw / 10);
    assert_true(encoded_size("Gorilla", 8, floats, raw) < raw / 5);
    assert_true(encoded_size("T64", 8, small, raw) < raw / 5);
    assert_true(encoded_size("Delta, T64", 8, counter, raw) < raw / 4);
    assert_true(encoded_size("Delta, LZ4", 8, ts, raw) < encoded_size("LZ4", 8, ts, raw));
    /* Narrow widths profit too: constant bytes and 16-bit ramps. */
    uint8_t bytes8[N];
    memset(bytes8, 7, sizeof(bytes8));
    assert_true(encoded_size("T64", 1, bytes8, sizeof(bytes8)) < sizeof(bytes8) / 10);
    uint16_t ramp16[N];
    for (size_t i = 0; i < N; i++) ramp16[i] = (uint16_t)(i * 3);
    assert_true(encoded_size("DoubleDelta", 2, ramp16, sizeof(ramp16)) < sizeof(ramp16) / 10);
    /* Random data must not grow much through any chain. */
    static uint64_t random_values[N];
    for (size_t i = 0; i < N; i++) random_values[i] = rng_next();
    assert_true(encoded_size("T64, LZ4", 8, random_values, raw) < raw + raw / 20);
    assert_true(encoded_size("DoubleDelta", 8, random_values, raw) < raw + raw / 20);
}

/* ------------------------------------------------------------------ */
/* Transform stream layouts (docs/formats/codecs.md)                   */
/* ------------------------------------------------------------------ */

/* T64 frames as specified: u8 bits, base, then plane j with bit i = bit j
 * of (value i - base), checked against a naive bit-by-bit construction for
 * plane counts on both sides of the bytewise/transpose64 switch. */
static void check_t64_frame(unsigned width, const uint64_t *values, size_t count) {
    uint8_t src[64 * 8], dst[1 + 8 + 64 * 8];
    store_values(src, width, count, values);
    size_t n = part__codec_transform_encode(PART_CODEC_T64, width, src, count * width, dst);
    unsigned bits = dst[0];
    assert_int_equal(n, 1 + width + 8 * (size_t)bits);
    uint64_t base = 0;
    for (unsigned b = 0; b < width; b++) base |= (uint64_t)dst[1 + b] << (8 * b);
    uint64_t mask = width == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * width)) - 1;
    for (unsigned j = 0; j < bits; j++) {
        uint64_t plane = mu_load_u64le(dst + 1 + width + 8 * j), expect = 0;
        for (size_t i = 0; i < count; i++) expect |= (((values[i] - base) & mask) >> j & 1) << i;
        assert_int_equal(plane, expect);
    }
    for (size_t i = 0; i < count; i++) {
        if (bits < 64) assert_true(((values[i] - base) & mask) >> bits == 0); /* no bit cut */
    }
}

static void test_t64_plane_layout(void **state) {
    (void)state;
    uint64_t v[64];
    static const unsigned widths[] = {1, 2, 4, 8};
    static const unsigned ranges[] = {1, 3, 8, 9, 15, 16, 17, 31, 40, 63, 64};
    for (size_t w = 0; w < MU_ARRAY_LEN(widths); w++) {
        for (size_t r = 0; r < MU_ARRAY_LEN(ranges); r++) {
            if (ranges[r] > 8 * widths[w]) continue;
            uint64_t span = ranges[r] == 64 ? UINT64_MAX : ((uint64_t)1 << ranges[r]) - 1;
            for (size_t count = 1; count <= 64; count += 21) {
                for (size_t i = 0; i < count; i++) v[i] = 1000 + (rng_next() & span);
                v[0] = 1000; /* the range's ends are in the frame */
                v[count - 1] = 1000 + span;
                uint64_t m = widths[w] == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * widths[w])) - 1;
                for (size_t i = 0; i < count; i++) v[i] &= m;
                check_t64_frame(widths[w], v, count);
            }
        }
    }
    /* Small negative and positive values take the signed base: 2 planes. */
    int32_t signed_values[4] = {-2, 1, 0, -1};
    uint8_t dst[1 + 4 + 64 * 4];
    part__codec_transform_encode(PART_CODEC_T64, 4, (const uint8_t *)signed_values, 16, dst);
    assert_int_equal(dst[0], 2);
    assert_int_equal(mu_load_u32le(dst + 1), (uint32_t)-2);
}

/* DoubleDelta as specified: v0, d1, then frames of zigzagged dods. */
static void test_double_delta_layout(void **state) {
    (void)state;
    uint32_t v[2 + 64 + 3];
    for (size_t i = 0; i < MU_ARRAY_LEN(v); i++) v[i] = 100 + 10 * (uint32_t)i;
    v[10] += 1000; /* dods around value 10: +1000, -2000, +1000 */
    uint8_t dst[512];
    size_t n = part__codec_transform_encode(PART_CODEC_DOUBLE_DELTA, 4, (const uint8_t *)v,
                                            sizeof(v), dst);
    assert_int_equal(mu_load_u32le(dst), 100);
    assert_int_equal(mu_load_u32le(dst + 4), 10);
    /* Frame 1 (values 2..65): 3 of 64 nonzero, zigzag 2000, 3999, 2000 in
     * 12 bits: sparse (map + one word) beats dense (12 words). */
    assert_int_equal(dst[8], 0x80 | 12);
    assert_int_equal(mu_load_u64le(dst + 9), (uint64_t)7 << 8); /* values 10, 11, 12 */
    assert_int_equal(mu_load_u64le(dst + 17), 2000 | (uint64_t)3999 << 12 | (uint64_t)2000 << 24);
    assert_int_equal(dst[25], 0); /* frame 2: three zero dods */
    assert_int_equal(n, 26);
}

/* ------------------------------------------------------------------ */
/* Chain text                                                         */
/* ------------------------------------------------------------------ */

static void expect_render(const char *text, uint32_t width, const char *canonical) {
    part_codec_chain chain = parse_ok(text, width);
    mu_buf out;
    mu_buf_init(&out, 0);
    assert_int_equal(part_codec_chain_render(&chain, &out, NULL), 0);
    assert_int_equal(mu_buf_append_u8(&out, 0, NULL), 0);
    assert_string_equal((const char *)out.data, canonical);
    part_codec_chain again = parse_ok(canonical, width);
    assert_memory_equal(&again, &chain, sizeof(chain));
    char name[64];
    assert_string_equal(part_codec_chain_name(&chain, name, sizeof(name)), canonical);
    mu_buf_deinit(&out);
}

static void test_parse_and_render_canonical(void **state) {
    (void)state;
    expect_render("LZ4", 8, "LZ4");
    expect_render("lz4", 0, "LZ4");
    expect_render("ZSTD", 0, "ZSTD(1)");
    expect_render("  zStD ( 3 )  ", 0, "ZSTD(3)");
    expect_render("ZSTD(+22)", 0, "ZSTD(22)");
    expect_render("LZ4HC", 0, "LZ4HC(9)");
    expect_render("LZ4HC(0)", 0, "LZ4HC(9)");
    expect_render("lz4hc(12)", 0, "LZ4HC(12)");
    expect_render("NONE", 16, "NONE");
    expect_render("Delta(4), ZSTD(1)", 4, "Delta(4), ZSTD(1)");
    expect_render("delta,zstd", 8, "Delta(8), ZSTD(1)");
    expect_render("Delta(2)", 8, "Delta(2)");
    expect_render("Delta(8)", 16, "Delta(8)");
    expect_render("DOUBLEDELTA, lz4", 4, "DoubleDelta, LZ4");
    expect_render("gorilla", 8, "Gorilla");
    expect_render("Gorilla,ZSTD(2)", 4, "Gorilla, ZSTD(2)");
    expect_render("T64, ZSTD", 1, "T64, ZSTD(1)");
    expect_render("\tDelta(1),\n\r T64", 2, "Delta(1), T64");
    expect_render("Delta, Delta(1), T64, LZ4HC(3)", 8, "Delta(8), Delta(1), T64, LZ4HC(3)");
    part_codec_chain chain = parse_ok("Delta(4), ZSTD(7)", 4);
    assert_int_equal(chain.step_count, 2);
    assert_int_equal(chain.steps[0].id, PART_CODEC_DELTA);
    assert_int_equal(chain.steps[0].param, 4);
    assert_int_equal(chain.steps[1].id, PART_CODEC_ZSTD);
    assert_int_equal(chain.steps[1].param, 7);
    chain = parse_ok("Gorilla, LZ4", 8);
    assert_int_equal(chain.steps[0].param, 8);
    part_codec_chain def;
    part_codec_chain_default(&def);
    chain = parse_ok("LZ4", 4);
    assert_true(part_codec_chain_equal(&def, &chain));
    assert_string_equal(part_codec_id_name(PART_CODEC_DOUBLE_DELTA), "DoubleDelta");
    assert_null(part_codec_id_name(0x7f));
}

typedef struct bad_chain {
    const char *text;
    uint32_t width;
    int code;
    const char *message_part;
} bad_chain;

static const bad_chain BAD_CHAINS[] = {
    {"", 8, MU_ESYNTAX, "empty"},
    {"  \t ", 8, MU_ESYNTAX, "empty"},
    {"Foo", 8, MU_EUNKNOWN_CODEC, "unknown codec 'Foo' at byte 0"},
    {"LZ4, Zstandard", 8, MU_EUNKNOWN_CODEC, "unknown codec 'Zstandard' at byte 5"},
    {"CODEC(LZ4)", 8, MU_EUNKNOWN_CODEC, "unknown codec 'CODEC'"},
    {"LZ4,", 8, MU_ESYNTAX, "a codec name at byte 4"},
    {",LZ4", 8, MU_ESYNTAX, "a codec name at byte 0"},
    {"Delta,, LZ4", 8, MU_ESYNTAX, "found ','"},
    {"LZ4 ZSTD", 8, MU_ESYNTAX, "',' or the end"},
    {"LZ4;", 8, MU_ESYNTAX, "found ';'"},
    {"LZ4\x01", 8, MU_ESYNTAX, "byte 0x01"},
    {"ZSTD(", 8, MU_ESYNTAX, "integer parameter"},
    {"ZSTD()", 8, MU_ESYNTAX, "integer parameter"},
    {"ZSTD(x)", 8, MU_ESYNTAX, "integer parameter"},
    {"ZSTD(3", 8, MU_ESYNTAX, "')'"},
    {"ZSTD(1.5)", 8, MU_ESYNTAX, "')'"},
    {"ZSTD(3))", 8, MU_ESYNTAX, "found ')'"},
    {"ZSTD(0)", 8, MU_EINVAL, "level 0 is out of range 1..22"},
    {"ZSTD(23)", 8, MU_EINVAL, "out of range"},
    {"ZSTD(-1)", 8, MU_EINVAL, "level -1"},
    {"ZSTD(99999999999999999999999)", 8, MU_EINVAL, "out of range"},
    {"LZ4HC(13)", 8, MU_EINVAL, "out of range 1..12"},
    {"LZ4(1)", 8, MU_EINVAL, "LZ4 at byte 0 takes no parameter"},
    {"NONE(0)", 8, MU_EINVAL, "takes no parameter"},
    {"Gorilla(8)", 8, MU_EINVAL, "takes no parameter"},
    {"T64(8)", 8, MU_EINVAL, "takes no parameter"},
    {"Delta(3)", 8, MU_EINVAL, "width 3 must be 1, 2, 4 or 8"},
    {"Delta(0)", 8, MU_EINVAL, "width 0"},
    {"Delta(16)", 16, MU_EINVAL, "width 16"},
    {"Delta(8)", 4, MU_EINVAL, "does not apply to 4-byte values"},
    {"Delta", 16, MU_EINVAL, "does not apply to 16-byte values"},
    {"Delta", 3, MU_EINVAL, "does not apply to 3-byte values"},
    {"Delta", 0, MU_EINVAL, "fixed-width"},
    {"T64", 16, MU_EINVAL, "does not apply"},
    {"T64", 3, MU_EINVAL, "does not apply"},
    {"T64, LZ4", 0, MU_EINVAL, "fixed-width"},
    {"DoubleDelta", 16, MU_EINVAL, "does not apply"},
    {"DoubleDelta", 0, MU_EINVAL, "fixed-width"},
    {"Gorilla", 2, MU_EINVAL, "Gorilla at byte 0 does not apply to 2-byte values"},
    {"Gorilla", 1, MU_EINVAL, "needs 4 or 8"},
    {"Gorilla", 16, MU_EINVAL, "needs 4 or 8"},
    {"LZ4, Delta", 8, MU_EINVAL, "must be the last"},
    {"ZSTD, LZ4", 8, MU_EINVAL, "only one general compressor"},
    {"lz4hc(4), zstd", 8, MU_EINVAL, "only one"},
    {"NONE, LZ4", 8, MU_EINVAL, "only one"},
    {"Delta, NONE", 8, MU_EINVAL, "NONE cannot be combined"},
    {"T64, Delta", 8, MU_EINVAL, "bit stream"},
    {"DoubleDelta, Gorilla", 8, MU_EINVAL, "bit stream"},
    {"Gorilla, T64, LZ4", 8, MU_EINVAL, "bit stream"},
    {"Delta, Delta, Delta, Delta, LZ4", 8, MU_EINVAL, "at most 4 codecs"},
};

static void test_parse_rejects_bad_chains(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(BAD_CHAINS); i++) {
        const bad_chain *bad = &BAD_CHAINS[i];
        part_codec_chain chain;
        memset(&chain, 0xAB, sizeof(chain));
        mu_err err;
        mu_err_clear(&err);
        int rc = part_codec_chain_parse(bad->text, strlen(bad->text), bad->width, &chain, &err);
        if (rc != bad->code || strstr(err.message, bad->message_part) == NULL) {
            fail_msg("\"%s\" (width %u): rc %d, message \"%s\"; wanted %d with \"%s\"", bad->text,
                     bad->width, rc, err.message, bad->code, bad->message_part);
        }
        assert_int_equal(err.code, bad->code);
        assert_int_equal(chain.step_count, 0xAB); /* untouched */
    }
    /* Text is bounded by its length, not by a NUL. */
    part_codec_chain chain;
    assert_int_equal(part_codec_chain_parse("LZ4, garbage", 3, 8, &chain, NULL), 0);
    assert_int_equal(part_codec_chain_parse("LZ4\0ZSTD", 8, 8, &chain, NULL), MU_ESYNTAX);
}

static void test_check_rejects_hand_made_chains(void **state) {
    (void)state;
    part_codec_chain chain;
    part_codec_chain_default(&chain);
    assert_int_equal(part_codec_chain_check(&chain, NULL), 0);
    chain.step_count = 0;
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    chain.step_count = 5;
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    part_codec_chain_default(&chain);
    chain.steps[0].id = 0x55;
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    part_codec_chain_default(&chain);
    chain.steps[0].param = 1; /* LZ4 has no parameter */
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    part_codec_chain_default(&chain);
    chain.steps[2].id = PART_CODEC_ZSTD; /* past the count */
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    chain = (part_codec_chain){.step_count = 1, .steps = {{PART_CODEC_ZSTD, 0}}};
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    chain = (part_codec_chain){.step_count = 1, .steps = {{PART_CODEC_GORILLA, 2}}};
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    chain = (part_codec_chain){.step_count = 1, .steps = {{PART_CODEC_T64, 0}}};
    assert_int_equal(part_codec_chain_check(&chain, NULL), MU_EINVAL);
    mu_buf out;
    mu_buf_init(&out, 0);
    assert_int_equal(part_codec_chain_render(&chain, &out, NULL), MU_EINVAL);
    assert_int_equal(out.length_bytes, 0);
    uint8_t data[8] = {0};
    assert_int_equal(part_codec_encode(&chain, data, 8, &out, NULL), MU_EINVAL);
    assert_int_equal(part_codec_encode_bound(&chain, 8), 0);
    assert_int_equal(out.length_bytes, 0);
    mu_buf_deinit(&out);
}

/* ------------------------------------------------------------------ */
/* Block format                                                       */
/* ------------------------------------------------------------------ */

static void test_block_header_layout(void **state) {
    (void)state;
    uint32_t values[100];
    for (size_t i = 0; i < MU_ARRAY_LEN(values); i++) values[i] = (uint32_t)i;
    mu_buf block;
    mu_buf_init(&block, 0);
    part_codec_chain chain = parse_ok("LZ4", 4);
    assert_int_equal(part_codec_encode(&chain, values, sizeof(values), &block, NULL), 0);
    assert_int_equal(block.data[0], PART_CODEC_FORMAT_VERSION);
    assert_int_equal(block.data[1], 1);
    assert_int_equal(block.data[2], PART_CODEC_LZ4);
    assert_int_equal(block.data[3], 0);
    assert_int_equal(mu_load_u32le(block.data + 4), sizeof(values));
    assert_int_equal(mu_load_u32le(block.data + 8), block.length_bytes - 16);
    uint32_t crc = mu_crc32c(mu_crc32c(0, block.data, 12), block.data + 16,
                             block.length_bytes - 16);
    assert_int_equal(mu_load_u32le(block.data + 12), crc);
    mu_buf_clear(&block);
    chain = parse_ok("Delta(4), T64, ZSTD(3)", 4);
    assert_int_equal(part_codec_encode(&chain, values, sizeof(values), &block, NULL), 0);
    static const uint8_t steps[] = {1, 3, 0x10, 4, 0x13, 4, 0x04, 3};
    assert_memory_equal(block.data, steps, sizeof(steps));
    assert_int_equal(mu_load_u32le(block.data + 8), 400);  /* raw */
    assert_int_equal(mu_load_u32le(block.data + 12), 400); /* after Delta */
    uint32_t t64 = mu_load_u32le(block.data + 16);
    /* Deltas 0, 1, 1, ...: one bit plane in the first frame, none after. */
    assert_int_equal(t64, (1 + 4 + 8) + (1 + 4));
    assert_int_equal(mu_load_u32le(block.data + 20), block.length_bytes - 28);
    crc = mu_crc32c(mu_crc32c(0, block.data, 24), block.data + 28, block.length_bytes - 28);
    assert_int_equal(mu_load_u32le(block.data + 24), crc);
    part_codec_block_info info;
    assert_int_equal(part_codec_block_info_read(block.data, block.length_bytes, &info, NULL), 0);
    assert_int_equal(info.checksum, crc);
    assert_int_equal(info.header_bytes, 28);
    /* An empty block is a bare header with every stage zero. */
    mu_buf_clear(&block);
    assert_int_equal(part_codec_encode(&chain, NULL, 0, &block, NULL), 0);
    assert_int_equal(block.length_bytes, PART_CODEC_HEADER_BYTES(3));
    for (size_t i = 8; i < 24; i++) assert_int_equal(block.data[i], 0);
    mu_buf_deinit(&block);
}

static void encode_into(const char *text, uint32_t width, const void *data, size_t bytes,
                        mu_buf *block) {
    mu_buf_init(block, 0);
    part_codec_chain chain = parse_ok(text, width);
    assert_int_equal(part_codec_encode(&chain, data, bytes, block, NULL), 0);
}

/* Recomputes the checksum of a block whose header is intact enough to say
 * where the checksum and payload are, so damage reaches the decoders. */
static void reseal(uint8_t *bytes, size_t length) {
    if (length < 2 || bytes[1] < 1 || bytes[1] > PART_CODEC_STEPS_MAX) return;
    size_t header = PART_CODEC_HEADER_BYTES(bytes[1]);
    if (length < header) return;
    uint32_t payload = mu_load_u32le(bytes + header - 8);
    if (payload > length - header) return;
    uint32_t crc = mu_crc32c(mu_crc32c(0, bytes, header - 4), bytes + header, payload);
    mu_store_u32le(bytes + header - 4, crc);
}

/* Decodes damaged bytes; the result must be a clean error that leaves out
 * unchanged (MU_ECORRUPT, or MU_ETOO_LARGE for a raw size past out's 16 MiB
 * maximum), or a decode of exactly the declared raw size. Returns rc. */
static int decode_damaged(const uint8_t *bytes, size_t length) {
    mu_buf out;
    mu_buf_init(&out, 1 << 24);
    assert_int_equal(mu_buf_append_str(&out, "keep", NULL), 0);
    mu_err err;
    mu_err_clear(&err);
    size_t consumed = 0;
    int rc = part_codec_decode(bytes, length, &out, &consumed, &err);
    if (rc == 0) {
        part_codec_block_info info;
        assert_int_equal(part_codec_block_info_read(bytes, length, &info, NULL), 0);
        assert_int_equal(out.length_bytes, 4 + info.raw_bytes);
        assert_int_equal(consumed, info.block_bytes);
    } else {
        if (rc != MU_ECORRUPT && rc != MU_ETOO_LARGE) fail_msg("rc %d: %s", rc, err.message);
        assert_non_null(strstr(err.message, "byte"));
        assert_int_equal(out.length_bytes, 4);
    }
    assert_memory_equal(out.data, "keep", 4);
    mu_buf_deinit(&out);
    return rc;
}

static const char *const DAMAGE_CHAINS[] = {
    "NONE", "LZ4", "ZSTD(2)", "Delta, LZ4", "DoubleDelta", "DoubleDelta, ZSTD", "Gorilla",
    "Gorilla, LZ4", "T64", "Delta, T64, LZ4HC(2)",
};

static void fill_damage_data(uint64_t *v, size_t count) {
    for (size_t i = 0; i < count; i++) {
        v[i] = 1700000000000ull + 1000 * i + (i % 7 == 0 ? rng_next() % 50 : 0);
    }
}

static void test_decode_truncated_at_every_length(void **state) {
    (void)state;
    uint64_t v[300];
    fill_damage_data(v, MU_ARRAY_LEN(v));
    for (size_t c = 0; c < MU_ARRAY_LEN(DAMAGE_CHAINS); c++) {
        mu_buf block;
        encode_into(DAMAGE_CHAINS[c], 8, v, sizeof(v), &block);
        for (size_t length = 0; length < block.length_bytes; length++) {
            /* A copy of exactly `length` bytes, so ASan sees any over-read. */
            uint8_t *copy = malloc(length + 1);
            memcpy(copy, block.data, length);
            assert_int_equal(decode_damaged(copy, length), MU_ECORRUPT);
            free(copy);
        }
        assert_int_equal(decode_damaged(block.data, block.length_bytes), 0);
        mu_buf_deinit(&block);
    }
}

static void test_decode_byte_flips(void **state) {
    (void)state;
    uint64_t v[200];
    fill_damage_data(v, MU_ARRAY_LEN(v));
    static const uint8_t masks[] = {0x01, 0x02, 0x10, 0x80, 0xFF, 0x55};
    for (size_t c = 0; c < MU_ARRAY_LEN(DAMAGE_CHAINS); c++) {
        mu_buf block;
        encode_into(DAMAGE_CHAINS[c], 8, v, sizeof(v), &block);
        uint8_t *copy = malloc(block.length_bytes);
        for (size_t i = 0; i < block.length_bytes; i++) {
            for (size_t m = 0; m < MU_ARRAY_LEN(masks) + 2; m++) {
                uint8_t mask = m < MU_ARRAY_LEN(masks) ? masks[m] : (uint8_t)(rng_next() | 1);
                memcpy(copy, block.data, block.length_bytes);
                copy[i] ^= mask;
                /* The checksum catches every byte flip... */
                assert_int_equal(decode_damaged(copy, block.length_bytes), MU_ECORRUPT);
                /* ...and with the checksum re-sealed the decoders still
                 * fail cleanly or decode exactly the declared size. */
                reseal(copy, block.length_bytes);
                decode_damaged(copy, block.length_bytes);
            }
        }
        free(copy);
        mu_buf_deinit(&block);
    }
}

/* Builds a block by hand: header from the arguments, then the payload. */
static size_t hostile_block(uint8_t *dst, const part_codec_chain *chain, const uint32_t *stages,
                            const void *payload, size_t payload_bytes) {
    unsigned n = chain->step_count;
    dst[0] = PART_CODEC_FORMAT_VERSION;
    dst[1] = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        dst[2 + 2 * i] = chain->steps[i].id;
        dst[3 + 2 * i] = chain->steps[i].param;
    }
    for (unsigned i = 0; i <= n; i++) mu_store_u32le(dst + 2 + 2 * n + 4 * i, stages[i]);
    memcpy(dst + PART_CODEC_HEADER_BYTES(n), payload, payload_bytes);
    size_t length = PART_CODEC_HEADER_BYTES(n) + payload_bytes;
    reseal(dst, length);
    return length;
}

/* Decoding a one-step block with this payload fails naming message_part;
 * header-level failures (header_only) allocate nothing at all. */
static void expect_hostile(const char *text, uint32_t width, uint32_t raw, const void *payload,
                           size_t payload_bytes, bool header_only, const char *message_part) {
    part_codec_chain chain = parse_ok(text, width);
    uint8_t block[4096];
    uint32_t stages[PART_CODEC_STEPS_MAX + 1] = {raw};
    stages[chain.step_count] = (uint32_t)payload_bytes;
    for (unsigned i = 1; i < chain.step_count; i++) stages[i] = (uint32_t)payload_bytes;
    size_t length = hostile_block(block, &chain, stages, payload, payload_bytes);
    mu_buf out;
    mu_buf_init(&out, 0);
    mu_err err;
    mu_err_clear(&err);
    int rc = part_codec_decode(block, length, &out, NULL, &err);
    if (rc != MU_ECORRUPT || strstr(err.message, message_part) == NULL) {
        fail_msg("%s raw %u: rc %d \"%s\", wanted \"%s\"", text, raw, rc, err.message,
                 message_part);
    }
    assert_int_equal(out.length_bytes, 0);
    if (header_only) assert_null(out.data); /* nothing was allocated */
    mu_buf_deinit(&out);
}

static void test_decode_rejects_hostile_sizes(void **state) {
    (void)state;
    static uint8_t zeros[4096];
    uint8_t junk[64];
    memset(junk, 0xEE, sizeof(junk));
    expect_hostile("NONE", 0, (1u << 30) + 1, junk, 4, true, "passes the maximum");
    expect_hostile("LZ4", 0, 1u << 30, junk, 10, true, "LZ4 cannot turn 1073741824 bytes");
    expect_hostile("NONE", 0, 100, junk, 60, true, "NONE cannot turn 100 bytes into 60");
    expect_hostile("Delta", 8, 64, zeros, 72, true, "Delta cannot turn");
    expect_hostile("Delta", 8, 12, zeros, 12, true, "not a multiple of its width 8");
    expect_hostile("T64", 4, 4 * 64, zeros, 4, true, "T64 cannot turn");
    expect_hostile("Gorilla", 8, 8 * 100, zeros, 8, true, "Gorilla cannot turn");
    expect_hostile("DoubleDelta", 8, 8 * 1000, zeros, 20, true, "DoubleDelta cannot turn");
    expect_hostile("LZ4", 0, 64, junk, 32, false, "does not decompress");
    expect_hostile("ZSTD", 0, 64, junk, 32, true, "not one frame");
    /* A ZSTD frame of 1 KiB declared as 1 GiB is refused before allocating,
     * and so are two frames where the format allows one. */
    uint8_t frames[512];
    size_t frame_bytes = ZSTD_compress(frames, 256, zeros, 1024, 1);
    assert_false(ZSTD_isError(frame_bytes));
    expect_hostile("ZSTD", 0, 1u << 30, frames, frame_bytes, true, "not one frame");
    expect_hostile("ZSTD", 0, 1000, frames, frame_bytes, true, "not one frame");
    memcpy(frames + frame_bytes, frames, frame_bytes);
    expect_hostile("ZSTD", 0, 2048, frames, 2 * frame_bytes, true, "not one frame");
}

static void test_decode_rejects_bad_transform_streams(void **state) {
    (void)state;
    uint8_t s[128];
    memset(s, 0, sizeof(s));
    /* DoubleDelta(8), 3 values: v0, d1, then one frame of one value. */
    s[16] = 0x41; /* 65 bits */
    expect_hostile("DoubleDelta", 8, 24, s, 17, false, "bad frame head 0x41");
    s[16] = 0x80; /* sparse with 0 bits */
    expect_hostile("DoubleDelta", 8, 24, s, 17, false, "bad frame head 0x80");
    s[16] = 0x81; /* sparse, map 0 */
    expect_hostile("DoubleDelta", 8, 24, s, 25, false, "bad sparse frame map");
    s[17] = 0x02; /* map names value 1 of a 1-value frame */
    expect_hostile("DoubleDelta", 8, 24, s, 33, false, "bad sparse frame map");
    s[16] = 0x00;
    expect_hostile("DoubleDelta", 8, 24, s, 18, false, "1 bytes left after 3 values");
    s[16] = 0x01;
    s[17] = 0x02; /* dense, 1 bit, padding bit 1 set */
    expect_hostile("DoubleDelta", 8, 24, s, 25, false, "padding bits set");
    expect_hostile("DoubleDelta", 8, 24, s, 20, false, "run past the end");
    memset(s, 0, sizeof(s));
    /* T64(1), one value. */
    s[0] = 9;
    expect_hostile("T64", 1, 1, s, 2 + 64, false, "9 bit planes for 1-byte values");
    s[0] = 1;
    s[2] = 0x02; /* plane 0 names value 1 of a 1-value frame */
    expect_hostile("T64", 1, 1, s, 2 + 8, false, "bits set for value 1");
    s[0] = 2;
    s[2] = 0;
    expect_hostile("T64", 1, 1, s, 2 + 8, false, "run past the end");
    s[0] = 0;
    expect_hostile("T64", 1, 1, s, 3, false, "1 bytes left");
    memset(s, 0, sizeof(s));
    /* Gorilla(8), two values: first value, then the XOR's bits. */
    s[8] = 0x01; /* bits 1, 0: reuse a window that does not exist */
    expect_hostile("Gorilla", 8, 16, s, 9, false, "reuses a window");
    s[8] = 0xFF;
    s[9] = 0x3F; /* bits 1, 1, lead 63, length 64 */
    expect_hostile("Gorilla", 8, 16, s, 10, false, "leading zeros plus length");
    s[8] = 0x03;
    s[9] = 0x00; /* new window lead 0, length 1: needs one more bit */
    expect_hostile("Gorilla", 8, 16, s, 9, false, "truncated");
    s[8] = 0x00;
    expect_hostile("Gorilla", 8, 16, s, 10, false, "1 bytes left after 2 values");
    s[8] = 0x02; /* value 1 repeats, padding bit set */
    expect_hostile("Gorilla", 8, 16, s, 9, false, "padding bits set");
    expect_hostile("Gorilla", 4, 4, s, 1, true, "Gorilla cannot turn 4 bytes into 1");
}

/* A well-formed "ZSTD(1)" block with one header byte replaced and, past
 * the step count, the checksum re-sealed so the field checks are reached. */
static int decode_with_header_byte(size_t at, uint8_t value) {
    uint8_t data[100];
    memset(data, 3, sizeof(data));
    mu_buf block;
    encode_into("ZSTD(1)", 0, data, sizeof(data), &block);
    block.data[at] = value;
    if (at >= 2 && at < 12) reseal(block.data, block.length_bytes);
    mu_buf out;
    mu_buf_init(&out, 0);
    mu_err err;
    mu_err_clear(&err);
    int rc = part_codec_decode(block.data, block.length_bytes, &out, NULL, &err);
    assert_int_equal(out.length_bytes, rc == 0 ? sizeof(data) : 0);
    mu_buf_deinit(&out);
    mu_buf_deinit(&block);
    return rc;
}

static void test_decode_rejects_bad_headers(void **state) {
    (void)state;
    assert_int_equal(decode_with_header_byte(0, 0), MU_ECORRUPT);  /* version 0 */
    assert_int_equal(decode_with_header_byte(0, 2), MU_ECORRUPT);  /* version 2 */
    assert_int_equal(decode_with_header_byte(1, 0), MU_ECORRUPT);  /* no steps */
    assert_int_equal(decode_with_header_byte(1, 5), MU_ECORRUPT);  /* 5 steps */
    assert_int_equal(decode_with_header_byte(1, 2), MU_ECORRUPT);  /* 2 steps */
    assert_int_equal(decode_with_header_byte(2, 0x7E), MU_ECORRUPT); /* unknown codec */
    assert_int_equal(decode_with_header_byte(2, PART_CODEC_T64), MU_ECORRUPT);
    assert_int_equal(decode_with_header_byte(3, 0), MU_ECORRUPT);  /* ZSTD level 0 */
    assert_int_equal(decode_with_header_byte(3, 23), MU_ECORRUPT); /* ZSTD level 23 */
    assert_int_equal(decode_with_header_byte(3, 9), 0); /* the level is not needed to decode */
    assert_int_equal(decode_with_header_byte(4, 99), MU_ECORRUPT);  /* raw size */
    assert_int_equal(decode_with_header_byte(8, 0xFF), MU_ECORRUPT); /* payload size */
    assert_int_equal(decode_with_header_byte(12, 0x00), MU_ECORRUPT); /* checksum */
    /* A compressor before a transform, written by hand. */
    part_codec_chain chain = {.step_count = 2,
                              .steps = {{PART_CODEC_LZ4, 0}, {PART_CODEC_DELTA, 8}}};
    uint8_t block[64];
    uint32_t stages[3] = {8, 8, 8};
    size_t length = hostile_block(block, &chain, stages, "abcdefgh", 8);
    mu_buf out;
    mu_buf_init(&out, 0);
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(part_codec_decode(block, length, &out, NULL, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, "must be the last"));
    assert_int_equal(part_codec_decode(block, 0, &out, NULL, NULL), MU_ECORRUPT);
    assert_int_equal(part_codec_decode(NULL, 0, &out, NULL, NULL), MU_ECORRUPT);
    mu_buf_deinit(&out);
}

static void test_limits_of_encode_and_decode(void **state) {
    (void)state;
    uint8_t data[4096];
    for (size_t i = 0; i < sizeof(data); i++) data[i] = (uint8_t)rng_next();
    part_codec_chain chain = parse_ok("Delta(4), LZ4", 4);
    mu_buf out;
    mu_buf_init(&out, 0);
    mu_err err;
    mu_err_clear(&err);
    /* Transforms need whole values; compressors do not. */
    assert_int_equal(part_codec_encode(&chain, data, 4095, &out, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "4-byte values"));
    chain = parse_ok("Gorilla", 8);
    assert_int_equal(part_codec_encode(&chain, data, 12, &out, NULL), MU_EINVAL);
    assert_int_equal(out.length_bytes, 0);
    chain = parse_ok("LZ4", 4);
    assert_int_equal(part_codec_encode(&chain, data, 4095, &out, NULL), 0);
    /* Too large to encode: refused before the input is read. */
    assert_int_equal(part_codec_encode(&chain, data, PART_CODEC_RAW_BYTES_MAX + 1, &out, NULL),
                     MU_ETOO_LARGE);
    assert_int_equal(part_codec_encode_bound(&chain, PART_CODEC_RAW_BYTES_MAX + 1), 0);
    /* An output buffer with too small a maximum: nothing changes. */
    mu_buf small;
    mu_buf_init(&small, 100);
    assert_int_equal(mu_buf_append_str(&small, "ab", NULL), 0);
    assert_int_equal(part_codec_encode(&chain, data, sizeof(data), &small, NULL), MU_ETOO_LARGE);
    assert_int_equal(small.length_bytes, 2);
    mu_err_clear(&err);
    assert_int_equal(part_codec_decode(out.data, out.length_bytes, &small, NULL, &err),
                     MU_ETOO_LARGE);
    assert_non_null(strstr(err.message, "4095 raw bytes"));
    assert_int_equal(small.length_bytes, 2);
    mu_buf_deinit(&small);
    mu_buf_deinit(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_width),
        cmocka_unit_test(test_round_trip_compressors_any_length),
        cmocka_unit_test(test_gorilla_float_specials_bit_exact),
        cmocka_unit_test(test_blocks_back_to_back),
        cmocka_unit_test(test_threads_keep_their_own_contexts),
        cmocka_unit_test(test_compression_helps_where_it_should),
        cmocka_unit_test(test_t64_plane_layout),
        cmocka_unit_test(test_double_delta_layout),
        cmocka_unit_test(test_parse_and_render_canonical),
        cmocka_unit_test(test_parse_rejects_bad_chains),
        cmocka_unit_test(test_check_rejects_hand_made_chains),
        cmocka_unit_test(test_block_header_layout),
        cmocka_unit_test(test_decode_truncated_at_every_length),
        cmocka_unit_test(test_decode_byte_flips),
        cmocka_unit_test(test_decode_rejects_hostile_sizes),
        cmocka_unit_test(test_decode_rejects_bad_transform_streams),
        cmocka_unit_test(test_decode_rejects_bad_headers),
        cmocka_unit_test(test_limits_of_encode_and_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
