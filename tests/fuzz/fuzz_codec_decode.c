/* fuzz_codec_decode.c: libFuzzer target for the part codecs
 * (src/storage/part/codec.h). Decoding must never crash, leak, assert or
 * allocate past its limits on any bytes, and every encode must round-trip.
 *
 * The first input byte picks a mode; the rest is the data.
 *   mode % 3 == 0: decode the data as a sequence of blocks, as they come.
 *   mode % 3 == 1: the same after re-sealing each block's checksum, so the
 *                  fuzzer reaches the decompressors and transform decoders
 *                  that random bytes never get past the crc32c with.
 *   mode % 3 == 2: encode the data, read as values, through a chain chosen
 *                  by mode / 3, then decode it and compare bit for bit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "storage/part/codec.h"

/* Chains the round-trip mode picks from, with the value width they take. */
static const struct {
    const char *text;
    uint32_t value_bytes;
} FUZZ_CHAINS[] = {
    {"NONE", 0},           {"LZ4", 0},           {"LZ4HC(3)", 0},
    {"ZSTD(1)", 0},        {"Delta(1)", 1},      {"Delta, LZ4", 2},
    {"Delta, ZSTD", 4},    {"Delta(8), LZ4", 8}, {"DoubleDelta", 1},
    {"DoubleDelta", 2},    {"DoubleDelta", 4},   {"DoubleDelta, LZ4", 8},
    {"Gorilla", 4},        {"Gorilla, LZ4", 8},  {"T64", 1},
    {"T64", 2},            {"T64, ZSTD", 4},     {"T64", 8},
    {"Delta, T64, LZ4", 8}, {"Delta, Gorilla", 8}, {"Delta, DoubleDelta, ZSTD", 4},
};

/* Recomputes the checksum where the header says it and the payload are. */
static void fuzz_reseal(uint8_t *bytes, size_t length) {
    if (length < 2 || bytes[1] < 1 || bytes[1] > PART_CODEC_STEPS_MAX) return;
    size_t header = PART_CODEC_HEADER_BYTES(bytes[1]);
    if (length < header) return;
    uint32_t payload = mu_load_u32le(bytes + header - 8);
    if (payload > length - header) return;
    uint32_t crc = mu_crc32c(mu_crc32c(0, bytes, header - 4), bytes + header, payload);
    mu_store_u32le(bytes + header - 4, crc);
}

static void fuzz_decode_all(uint8_t *data, size_t size, bool reseal) {
    mu_buf out;
    mu_buf_init(&out, 64u << 20);
    size_t at = 0;
    for (int blocks = 0; blocks < 16 && at < size; blocks++) {
        if (reseal) fuzz_reseal(data + at, size - at);
        size_t consumed = 0;
        size_t before = out.length_bytes;
        int rc = part_codec_decode(data + at, size - at, &out, &consumed, NULL);
        if (rc != 0) {
            if (out.length_bytes != before) abort(); /* failure must not append */
            break;
        }
        if (consumed == 0 || consumed > size - at) abort();
        at += consumed;
    }
    mu_buf_deinit(&out);
}

static void fuzz_round_trip(unsigned pick, const uint8_t *data, size_t size) {
    unsigned index = pick % (unsigned)MU_ARRAY_LEN(FUZZ_CHAINS);
    part_codec_chain chain;
    const char *text = FUZZ_CHAINS[index].text;
    uint32_t width = FUZZ_CHAINS[index].value_bytes;
    if (part_codec_chain_parse(text, strlen(text), width, &chain, NULL) != 0) abort();
    if (width > 0) size -= size % width;
    mu_buf block, out;
    mu_buf_init(&block, 0);
    mu_buf_init(&out, 0);
    if (part_codec_encode(&chain, data, size, &block, NULL) != 0) abort();
    if (block.length_bytes > part_codec_encode_bound(&chain, size)) abort();
    size_t consumed = 0;
    if (part_codec_decode(block.data, block.length_bytes, &out, &consumed, NULL) != 0) abort();
    if (consumed != block.length_bytes || out.length_bytes != size) abort();
    if (size > 0 && memcmp(out.data, data, size) != 0) abort();
    mu_buf_deinit(&block);
    mu_buf_deinit(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    unsigned mode = data[0];
    data++;
    size--;
    if (mode % 3 == 2) {
        fuzz_round_trip(mode / 3, data, size);
        return 0;
    }
    /* A private copy: re-sealing writes, and ASan then sees exact bounds. */
    uint8_t *copy = malloc(size > 0 ? size : 1);
    if (copy == NULL) return 0;
    if (size > 0) memcpy(copy, data, size);
    fuzz_decode_all(copy, size, mode % 3 == 1);
    free(copy);
    return 0;
}
