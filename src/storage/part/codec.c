/* codec.c: codec chains — the table of known codecs, parsing the text of a
 * CODEC(...) clause, rendering it back in ClickHouse's canonical form, and
 * the ordering rules every chain obeys (also applied to chains read from
 * block headers, see codec_block.c). The rules and ids are specified in
 * codec.h; parse(render(c)) == c for every chain parse accepts.
 */
#include "storage/part/codec.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum codec_kind { CODEC_COMPRESSOR, CODEC_TRANSFORM };

/* How a codec's parameter is written and stored. */
enum codec_param {
    PARAM_NONE,        /* no parameter: stored as 0 */
    PARAM_LEVEL,       /* optional "(level)", default when absent */
    PARAM_WIDTH,       /* Delta: optional "(n)", default the value width */
    PARAM_VALUE_WIDTH, /* no parameter: stored as the value width */
};

typedef struct codec_desc {
    uint8_t id;
    const char *name; /* canonical spelling, as ClickHouse renders it */
    uint8_t kind;     /* enum codec_kind */
    uint8_t param;    /* enum codec_param */
    int level_min, level_max, level_default;
} codec_desc;

/* One row per codec; parse, render and check are driven by this table. */
static const codec_desc CODEC_TABLE[] = {
    {PART_CODEC_NONE, "NONE", CODEC_COMPRESSOR, PARAM_NONE, 0, 0, 0},
    {PART_CODEC_LZ4, "LZ4", CODEC_COMPRESSOR, PARAM_NONE, 0, 0, 0},
    {PART_CODEC_LZ4HC, "LZ4HC", CODEC_COMPRESSOR, PARAM_LEVEL, 1, 12,
     PART_CODEC_LZ4HC_LEVEL_DEFAULT},
    {PART_CODEC_ZSTD, "ZSTD", CODEC_COMPRESSOR, PARAM_LEVEL, 1, 22, PART_CODEC_ZSTD_LEVEL_DEFAULT},
    {PART_CODEC_DELTA, "Delta", CODEC_TRANSFORM, PARAM_WIDTH, 0, 0, 0},
    {PART_CODEC_DOUBLE_DELTA, "DoubleDelta", CODEC_TRANSFORM, PARAM_VALUE_WIDTH, 0, 0, 0},
    {PART_CODEC_GORILLA, "Gorilla", CODEC_TRANSFORM, PARAM_VALUE_WIDTH, 0, 0, 0},
    {PART_CODEC_T64, "T64", CODEC_TRANSFORM, PARAM_VALUE_WIDTH, 0, 0, 0},
};

/* Widths (bytes) a transform accepts: Gorilla XORs 4- or 8-byte words. */
static bool codec_width_allowed(const codec_desc *d, unsigned width) {
    if (d->id == PART_CODEC_GORILLA) return width == 4 || width == 8;
    return width == 1 || width == 2 || width == 4 || width == 8;
}

static const codec_desc *codec_find_id(uint8_t id) {
    for (size_t i = 0; i < MU_ARRAY_LEN(CODEC_TABLE); i++) {
        if (CODEC_TABLE[i].id == id) return &CODEC_TABLE[i];
    }
    return NULL;
}

static const codec_desc *codec_find_name(const char *name, size_t name_bytes) {
    for (size_t i = 0; i < MU_ARRAY_LEN(CODEC_TABLE); i++) {
        const char *known = CODEC_TABLE[i].name;
        if (strlen(known) == name_bytes && strncasecmp(known, name, name_bytes) == 0) {
            return &CODEC_TABLE[i];
        }
    }
    return NULL;
}

const char *part_codec_id_name(uint8_t id) {
    const codec_desc *d = codec_find_id(id);
    return d == NULL ? NULL : d->name;
}

void part_codec_chain_default(part_codec_chain *chain_out) {
    MU_ASSERT(chain_out != NULL);
    memset(chain_out, 0, sizeof(*chain_out));
    chain_out->step_count = 1;
    chain_out->steps[0].id = PART_CODEC_LZ4;
}

bool part_codec_chain_equal(const part_codec_chain *a, const part_codec_chain *b) {
    MU_ASSERT(a != NULL && b != NULL);
    if (a->step_count != b->step_count) return false;
    for (unsigned i = 0; i < a->step_count && i < PART_CODEC_STEPS_MAX; i++) {
        if (a->steps[i].id != b->steps[i].id || a->steps[i].param != b->steps[i].param) {
            return false;
        }
    }
    return true;
}

/* Checks step `index` of chain given the steps before it; returns NULL or a
 * static sentence saying what is wrong. Only the prefix matters, so parse
 * checks each step as it is appended and can point at its text. */
static const char *codec_step_problem(const part_codec_chain *chain, unsigned index) {
    const part_codec_step *step = &chain->steps[index];
    const codec_desc *d = codec_find_id(step->id);
    if (d == NULL) return "unknown codec id";
    if (d->param == PARAM_NONE && step->param != 0) return "codec takes no parameter";
    if (d->param == PARAM_LEVEL &&
        (step->param < d->level_min || step->param > d->level_max)) {
        return "compression level out of range";
    }
    if ((d->param == PARAM_WIDTH || d->param == PARAM_VALUE_WIDTH) &&
        !codec_width_allowed(d, step->param)) {
        return d->id == PART_CODEC_GORILLA ? "Gorilla needs values 4 or 8 bytes wide"
                                           : "width must be 1, 2, 4 or 8 bytes";
    }
    if (index == 0) return NULL;
    const codec_desc *prev = codec_find_id(chain->steps[index - 1].id);
    MU_ASSERT(prev != NULL);
    if (prev->kind == CODEC_COMPRESSOR) {
        return d->kind == CODEC_COMPRESSOR
                   ? "only one general compressor (NONE, LZ4, LZ4HC, ZSTD) is allowed"
                   : "a compressor must be the last codec of the chain";
    }
    if (d->id == PART_CODEC_NONE) return "NONE cannot be combined with other codecs";
    if (prev->id != PART_CODEC_DELTA && d->kind == CODEC_TRANSFORM) {
        return "DoubleDelta, Gorilla and T64 emit a bit stream: only a compressor may follow";
    }
    return NULL;
}

int part_codec_chain_check(const part_codec_chain *chain, mu_err *err) {
    MU_ASSERT(chain != NULL);
    if (chain->step_count < 1 || chain->step_count > PART_CODEC_STEPS_MAX) {
        return MU_ERR(err, MU_EINVAL, "codec chain has %u steps: 1 to %d allowed",
                      (unsigned)chain->step_count, PART_CODEC_STEPS_MAX);
    }
    for (unsigned i = 0; i < chain->step_count; i++) {
        const char *problem = codec_step_problem(chain, i);
        if (problem != NULL) {
            return MU_ERR(err, MU_EINVAL, "codec chain step %u (id %u, parameter %u): %s", i + 1,
                          (unsigned)chain->steps[i].id, (unsigned)chain->steps[i].param, problem);
        }
    }
    for (unsigned i = chain->step_count; i < PART_CODEC_STEPS_MAX; i++) {
        if (chain->steps[i].id != 0 || chain->steps[i].param != 0) {
            return MU_ERR(err, MU_EINVAL, "codec chain step %u is past the step count", i + 1);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                            */
/* ------------------------------------------------------------------ */

typedef struct chain_parser {
    const char *text;
    size_t length;
    size_t pos;
    uint32_t value_bytes;
    part_codec_chain chain;
    mu_err *err;
} chain_parser;

static void parser_skip_space(chain_parser *p) {
    while (p->pos < p->length && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
                                  p->text[p->pos] == '\n' || p->text[p->pos] == '\r')) {
        p->pos++;
    }
}

static bool is_ident_char(char c, bool first) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') return true;
    return !first && c >= '0' && c <= '9';
}

/* Describes the byte at pos for a syntax message ("'x'" or "the end"). */
static const char *parser_here(const chain_parser *p, char *out, size_t out_bytes) {
    if (p->pos >= p->length) return "the end of the text";
    unsigned char c = (unsigned char)p->text[p->pos];
    if (c >= 0x20 && c < 0x7f) {
        snprintf(out, out_bytes, "'%c'", c);
    } else {
        snprintf(out, out_bytes, "byte 0x%02x", c);
    }
    return out;
}

static int parser_syntax(chain_parser *p, const char *expected) {
    char here[16];
    return MU_ERR(p->err, MU_ESYNTAX, "codec list: expected %s at byte %zu, found %s", expected,
                  p->pos, parser_here(p, here, sizeof(here)));
}

/* Reads "( [+-]digits )" after a codec name; *present tells whether there
 * was a parenthesis at all. The value is clamped to +-1e9 (then rejected as
 * out of range by the caller), so no overflow is possible. */
static int parser_read_param(chain_parser *p, bool *present, long *value) {
    parser_skip_space(p);
    *present = false;
    if (p->pos >= p->length || p->text[p->pos] != '(') return 0;
    *present = true;
    p->pos++;
    parser_skip_space(p);
    bool negative = false;
    if (p->pos < p->length && (p->text[p->pos] == '-' || p->text[p->pos] == '+')) {
        negative = p->text[p->pos] == '-';
        p->pos++;
    }
    size_t digits_start = p->pos;
    long v = 0;
    while (p->pos < p->length && p->text[p->pos] >= '0' && p->text[p->pos] <= '9') {
        if (v < 1000000000L) v = v * 10 + (p->text[p->pos] - '0');
        p->pos++;
    }
    if (p->pos == digits_start) return parser_syntax(p, "an integer parameter");
    parser_skip_space(p);
    if (p->pos >= p->length || p->text[p->pos] != ')') return parser_syntax(p, "')'");
    p->pos++;
    *value = negative ? -v : v;
    return 0;
}

/* Turns the parsed name and parameter into a step (no ordering checks). */
static int parser_make_step(chain_parser *p, const codec_desc *d, size_t at, bool present,
                            long value, part_codec_step *step) {
    step->id = d->id;
    step->param = 0;
    if (d->param == PARAM_NONE || d->param == PARAM_VALUE_WIDTH) {
        if (present) {
            return MU_ERR(p->err, MU_EINVAL, "codec %s at byte %zu takes no parameter", d->name,
                          at);
        }
        if (d->param == PARAM_NONE) return 0;
        value = p->value_bytes;
    } else if (d->param == PARAM_LEVEL) {
        if (!present || (d->id == PART_CODEC_LZ4HC && value == 0)) value = d->level_default;
        if (value < d->level_min || value > d->level_max) {
            return MU_ERR(p->err, MU_EINVAL, "codec %s at byte %zu: level %ld is out of range "
                          "%d..%d", d->name, at, value, d->level_min, d->level_max);
        }
        step->param = (uint8_t)value;
        return 0;
    } else if (!present) {
        value = p->value_bytes; /* Delta defaults to the value width */
    } else if (value != 1 && value != 2 && value != 4 && value != 8) {
        return MU_ERR(p->err, MU_EINVAL, "codec Delta at byte %zu: width %ld must be 1, 2, 4 "
                      "or 8 bytes", at, value);
    }
    if (p->value_bytes == 0) {
        return MU_ERR(p->err, MU_EINVAL, "codec %s at byte %zu needs fixed-width values; this "
                      "column has none (use a compressor only)", d->name, at);
    }
    if (!codec_width_allowed(d, (unsigned)value) || p->value_bytes % (uint32_t)value != 0) {
        return MU_ERR(p->err, MU_EINVAL, "codec %s at byte %zu does not apply to %u-byte values "
                      "(%s)", d->name, at, p->value_bytes,
                      d->id == PART_CODEC_GORILLA ? "needs 4 or 8"
                      : d->id == PART_CODEC_DELTA ? "Delta(n) needs n in 1, 2, 4, 8 dividing the "
                                                    "value width"
                                                  : "needs 1, 2, 4 or 8");
    }
    step->param = (uint8_t)value;
    return 0;
}

/* Parses one "Name[(param)]" at pos and appends it to the chain. */
static int parser_step(chain_parser *p) {
    parser_skip_space(p);
    size_t at = p->pos;
    while (p->pos < p->length && is_ident_char(p->text[p->pos], p->pos == at)) p->pos++;
    if (p->pos == at) return parser_syntax(p, "a codec name");
    size_t name_bytes = p->pos - at;
    const codec_desc *d = codec_find_name(p->text + at, name_bytes);
    if (d == NULL) {
        return MU_ERR(p->err, MU_EUNKNOWN_CODEC, "unknown codec '%.*s' at byte %zu (known: NONE, LZ4, "
                      "LZ4HC, ZSTD, Delta, DoubleDelta, Gorilla, T64)",
                      (int)MU_MIN(name_bytes, (size_t)64), p->text + at, at);
    }
    bool present = false;
    long value = 0;
    int rc = parser_read_param(p, &present, &value);
    if (rc != 0) return rc;
    if (p->chain.step_count == PART_CODEC_STEPS_MAX) {
        return MU_ERR(p->err, MU_EINVAL, "codec %s at byte %zu: a chain has at most %d codecs",
                      d->name, at, PART_CODEC_STEPS_MAX);
    }
    unsigned index = p->chain.step_count;
    rc = parser_make_step(p, d, at, present, value, &p->chain.steps[index]);
    if (rc != 0) return rc;
    p->chain.step_count++;
    const char *problem = codec_step_problem(&p->chain, index);
    if (problem != NULL) {
        return MU_ERR(p->err, MU_EINVAL, "codec %s at byte %zu: %s", d->name, at, problem);
    }
    return 0;
}

int part_codec_chain_parse(const char *text, size_t text_bytes, uint32_t value_bytes,
                           part_codec_chain *chain_out, mu_err *err) {
    MU_ASSERT(text != NULL || text_bytes == 0);
    MU_ASSERT(chain_out != NULL);
    chain_parser p = {.text = text, .length = text_bytes, .value_bytes = value_bytes, .err = err};
    memset(&p.chain, 0, sizeof(p.chain));
    parser_skip_space(&p);
    if (p.pos == p.length) {
        return MU_ERR(err, MU_ESYNTAX, "codec list is empty: expected a codec such as LZ4");
    }
    for (;;) {
        int rc = parser_step(&p);
        if (rc != 0) return rc;
        parser_skip_space(&p);
        if (p.pos == p.length) break;
        if (p.text[p.pos] != ',') return parser_syntax(&p, "',' or the end of the list");
        p.pos++;
    }
    MU_ASSERT(part_codec_chain_check(&p.chain, NULL) == 0);
    *chain_out = p.chain;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Rendering                                                          */
/* ------------------------------------------------------------------ */

/* Writes one step's canonical text ("ZSTD(1)") into out. */
static void codec_step_text(const part_codec_step *step, char *out, size_t out_bytes) {
    const codec_desc *d = codec_find_id(step->id);
    if (d == NULL) {
        snprintf(out, out_bytes, "Unknown(0x%02x)", (unsigned)step->id);
    } else if (d->param == PARAM_LEVEL || d->param == PARAM_WIDTH) {
        snprintf(out, out_bytes, "%s(%u)", d->name, (unsigned)step->param);
    } else {
        snprintf(out, out_bytes, "%s", d->name);
    }
}

int part_codec_chain_render(const part_codec_chain *chain, mu_buf *out, mu_err *err) {
    MU_ASSERT(chain != NULL && out != NULL);
    int rc = part_codec_chain_check(chain, err);
    if (rc != 0) return rc;
    size_t start = out->length_bytes;
    for (unsigned i = 0; i < chain->step_count; i++) {
        char text[32];
        codec_step_text(&chain->steps[i], text, sizeof(text));
        rc = mu_buf_printf(out, err, "%s%s", i == 0 ? "" : ", ", text);
        if (rc != 0) {
            out->length_bytes = start;
            return rc;
        }
    }
    return 0;
}

const char *part_codec_chain_name(const part_codec_chain *chain, char *out, size_t out_bytes) {
    MU_ASSERT(chain != NULL && out != NULL && out_bytes > 0);
    size_t used = 0;
    out[0] = '\0';
    unsigned count = MU_MIN((unsigned)chain->step_count, (unsigned)PART_CODEC_STEPS_MAX);
    for (unsigned i = 0; i < count && used + 1 < out_bytes; i++) {
        char text[32];
        codec_step_text(&chain->steps[i], text, sizeof(text));
        int n = snprintf(out + used, out_bytes - used, "%s%s", i == 0 ? "" : ", ", text);
        if (n < 0) break;
        used = MU_MIN(used + (size_t)n, out_bytes - 1);
    }
    return out;
}
