/* type_parse.c: ClickHouse type names -> descriptors. A small recursive
 * descent parser over `Name [ '(' argument, ... ')' ]`, where arguments
 * are types, integers or quoted strings (Enum entries: 'name' = value).
 * Canonical names match case-sensitively; the compatibility aliases of
 * type_aliases[] match case-insensitively, as ClickHouse registers them.
 * Nesting is bounded by TY_TYPE_DEPTH_MAX (MU_ETOO_DEEP), and the nesting
 * rules of ClickHouse are enforced (no Nullable(Array(...)) and so on).
 */
#include "types/types_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct tp_parser {
    const char *text;
    size_t n;
    size_t pos;
    mu_arena *arena;
    mu_err *err;
} tp_parser;

/* How a name reads its arguments. */
enum tp_form {
    TP_PLAIN,       /* no arguments */
    TP_STRING,      /* optional length, ignored (VARCHAR(255)) */
    TP_FIXED,       /* (N) */
    TP_DATETIME,    /* optional ('zone') */
    TP_DATETIME64,  /* optional (P[, 'zone']), P defaults to 3 */
    TP_DECIMAL,     /* optional (P[, S]), default (10, 0) */
    TP_DECIMAL_S,   /* (S) with a fixed precision */
    TP_ENUM,        /* ('a' = 1, ...) */
    TP_WRAP,        /* (T) */
    TP_MAP,         /* (K, V) */
    TP_AGGREGATE,   /* (function[(params)], T...) */
    TP_UNSUPPORTED, /* a ClickHouse type muscles does not have */
};

typedef struct tp_name {
    const char *name;
    ty_kind kind;
    enum tp_form form;
    uint8_t precision; /* TP_DECIMAL_S; for TP_ENUM: 8, 16 or 0 (by values) */
} tp_name;

static const tp_name tp_canonical[] = {
    {"UInt8", TY_UINT8, TP_PLAIN, 0},      {"UInt16", TY_UINT16, TP_PLAIN, 0},
    {"UInt32", TY_UINT32, TP_PLAIN, 0},    {"UInt64", TY_UINT64, TP_PLAIN, 0},
    {"Int8", TY_INT8, TP_PLAIN, 0},        {"Int16", TY_INT16, TP_PLAIN, 0},
    {"Int32", TY_INT32, TP_PLAIN, 0},      {"Int64", TY_INT64, TP_PLAIN, 0},
    {"Float32", TY_FLOAT32, TP_PLAIN, 0},  {"Float64", TY_FLOAT64, TP_PLAIN, 0},
    {"Bool", TY_BOOL, TP_PLAIN, 0},        {"String", TY_STRING, TP_STRING, 0},
    {"FixedString", TY_FIXED_STRING, TP_FIXED, 0},
    {"Date", TY_DATE, TP_PLAIN, 0},        {"Date32", TY_DATE32, TP_PLAIN, 0},
    {"DateTime", TY_DATETIME, TP_DATETIME, 0},
    {"DateTime64", TY_DATETIME64, TP_DATETIME64, 0},
    {"UUID", TY_UUID, TP_PLAIN, 0}, {"Nothing", TY_NOTHING, TP_PLAIN, 0},        {"Decimal", TY_DECIMAL, TP_DECIMAL, 0},
    {"Decimal32", TY_DECIMAL, TP_DECIMAL_S, 9},
    {"Decimal64", TY_DECIMAL, TP_DECIMAL_S, 18},
    {"Decimal128", TY_DECIMAL, TP_DECIMAL_S, 38},
    {"Enum8", TY_ENUM8, TP_ENUM, 8},       {"Enum16", TY_ENUM16, TP_ENUM, 16},
    {"Enum", TY_ENUM8, TP_ENUM, 0},        {"Nullable", TY_NULLABLE, TP_WRAP, 0},
    {"LowCardinality", TY_LOW_CARDINALITY, TP_WRAP, 0},
    {"Array", TY_ARRAY, TP_WRAP, 0},       {"Map", TY_MAP, TP_MAP, 0},
    /* Known to ClickHouse, not (yet) to muscles: a clearer error. */
    {"Int128", 0, TP_UNSUPPORTED, 0},      {"Int256", 0, TP_UNSUPPORTED, 0},
    {"UInt128", 0, TP_UNSUPPORTED, 0},     {"UInt256", 0, TP_UNSUPPORTED, 0},
    {"Decimal256", 0, TP_UNSUPPORTED, 0},  {"BFloat16", 0, TP_UNSUPPORTED, 0},
    {"IPv4", 0, TP_UNSUPPORTED, 0},        {"IPv6", 0, TP_UNSUPPORTED, 0},
    {"Tuple", 0, TP_UNSUPPORTED, 0},       {"Nested", 0, TP_UNSUPPORTED, 0},
    {"JSON", 0, TP_UNSUPPORTED, 0},        {"Object", 0, TP_UNSUPPORTED, 0},
    {"Variant", 0, TP_UNSUPPORTED, 0},     {"Dynamic", 0, TP_UNSUPPORTED, 0},
    {"Time", 0, TP_UNSUPPORTED, 0},        {"Time64", 0, TP_UNSUPPORTED, 0},
    {"Nothing", 0, TP_UNSUPPORTED, 0},     {"Point", 0, TP_UNSUPPORTED, 0},
    {"AggregateFunction", TY_STRING, TP_AGGREGATE, 0},
    {"SimpleAggregateFunction", 0, TP_UNSUPPORTED, 0},
};

/* Case-insensitive compatibility names (MySQL, PostgreSQL, SQL standard),
 * the subset of ClickHouse's alias table that maps onto our kinds. */
static const tp_name tp_aliases[] = {
    {"BOOL", TY_BOOL, TP_PLAIN, 0},          {"BOOLEAN", TY_BOOL, TP_PLAIN, 0},
    {"TINYINT", TY_INT8, TP_PLAIN, 0},       {"INT1", TY_INT8, TP_PLAIN, 0},
    {"BYTE", TY_INT8, TP_PLAIN, 0},          {"TINYINT SIGNED", TY_INT8, TP_PLAIN, 0},
    {"INT1 SIGNED", TY_INT8, TP_PLAIN, 0},   {"SMALLINT", TY_INT16, TP_PLAIN, 0},
    {"SMALLINT SIGNED", TY_INT16, TP_PLAIN, 0}, {"INT", TY_INT32, TP_PLAIN, 0},
    {"INTEGER", TY_INT32, TP_PLAIN, 0},      {"MEDIUMINT", TY_INT32, TP_PLAIN, 0},
    {"INT SIGNED", TY_INT32, TP_PLAIN, 0},   {"INTEGER SIGNED", TY_INT32, TP_PLAIN, 0},
    {"MEDIUMINT SIGNED", TY_INT32, TP_PLAIN, 0}, {"BIGINT", TY_INT64, TP_PLAIN, 0},
    {"SIGNED", TY_INT64, TP_PLAIN, 0},       {"BIGINT SIGNED", TY_INT64, TP_PLAIN, 0},
    {"TINYINT UNSIGNED", TY_UINT8, TP_PLAIN, 0}, {"INT1 UNSIGNED", TY_UINT8, TP_PLAIN, 0},
    {"SMALLINT UNSIGNED", TY_UINT16, TP_PLAIN, 0}, {"YEAR", TY_UINT16, TP_PLAIN, 0},
    {"INT UNSIGNED", TY_UINT32, TP_PLAIN, 0}, {"INTEGER UNSIGNED", TY_UINT32, TP_PLAIN, 0},
    {"MEDIUMINT UNSIGNED", TY_UINT32, TP_PLAIN, 0},
    {"BIGINT UNSIGNED", TY_UINT64, TP_PLAIN, 0}, {"UNSIGNED", TY_UINT64, TP_PLAIN, 0},
    {"BIT", TY_UINT64, TP_PLAIN, 0},         {"SET", TY_UINT64, TP_PLAIN, 0},
    {"FLOAT", TY_FLOAT32, TP_PLAIN, 0},      {"REAL", TY_FLOAT32, TP_PLAIN, 0},
    {"SINGLE", TY_FLOAT32, TP_PLAIN, 0},     {"DOUBLE", TY_FLOAT64, TP_PLAIN, 0},
    {"DOUBLE PRECISION", TY_FLOAT64, TP_PLAIN, 0},
    {"STRING", TY_STRING, TP_STRING, 0},     {"CHAR", TY_STRING, TP_STRING, 0},
    {"CHARACTER", TY_STRING, TP_STRING, 0},  {"VARCHAR", TY_STRING, TP_STRING, 0},
    {"VARCHAR2", TY_STRING, TP_STRING, 0},   {"NCHAR", TY_STRING, TP_STRING, 0},
    {"NVARCHAR", TY_STRING, TP_STRING, 0},   {"TEXT", TY_STRING, TP_STRING, 0},
    {"TINYTEXT", TY_STRING, TP_STRING, 0},   {"MEDIUMTEXT", TY_STRING, TP_STRING, 0},
    {"LONGTEXT", TY_STRING, TP_STRING, 0},   {"BLOB", TY_STRING, TP_STRING, 0},
    {"TINYBLOB", TY_STRING, TP_STRING, 0},   {"MEDIUMBLOB", TY_STRING, TP_STRING, 0},
    {"LONGBLOB", TY_STRING, TP_STRING, 0},   {"CLOB", TY_STRING, TP_STRING, 0},
    {"BYTEA", TY_STRING, TP_STRING, 0},      {"VARBINARY", TY_STRING, TP_STRING, 0},
    {"CHARACTER VARYING", TY_STRING, TP_STRING, 0},
    {"CHAR VARYING", TY_STRING, TP_STRING, 0},
    {"NATIONAL CHAR", TY_STRING, TP_STRING, 0},
    {"NATIONAL CHARACTER", TY_STRING, TP_STRING, 0},
    {"NATIONAL CHAR VARYING", TY_STRING, TP_STRING, 0},
    {"NATIONAL CHARACTER VARYING", TY_STRING, TP_STRING, 0},
    {"NCHAR VARYING", TY_STRING, TP_STRING, 0},
    {"CHARACTER LARGE OBJECT", TY_STRING, TP_STRING, 0},
    {"CHAR LARGE OBJECT", TY_STRING, TP_STRING, 0},
    {"NCHAR LARGE OBJECT", TY_STRING, TP_STRING, 0},
    {"BINARY LARGE OBJECT", TY_STRING, TP_STRING, 0},
    {"BINARY VARYING", TY_STRING, TP_STRING, 0},
    {"BINARY", TY_FIXED_STRING, TP_FIXED, 0},
    {"DATE", TY_DATE, TP_PLAIN, 0},          {"TIMESTAMP", TY_DATETIME, TP_DATETIME, 0},
    {"DECIMAL", TY_DECIMAL, TP_DECIMAL, 0},  {"DEC", TY_DECIMAL, TP_DECIMAL, 0},
    {"NUMERIC", TY_DECIMAL, TP_DECIMAL, 0},  {"FIXED", TY_DECIMAL, TP_DECIMAL, 0},
    {"ENUM", TY_ENUM8, TP_ENUM, 0},
};

#define TP_WORDS_MAX 4
#define TP_ENUM_ENTRIES_MAX 65536u

static int tp_parse_type(tp_parser *p, unsigned depth, const ty_type **out);

static int tp_error(tp_parser *p, int code, const char *reason) {
    char shown[TY__MESSAGE_VALUE_BYTES + 8];
    ty__message_value(p->text, p->n, shown, sizeof(shown));
    return MU_ERR(p->err, code, "cannot parse type name \"%s\": %s at position %zu", shown,
                  reason, p->pos);
}

static void tp_skip_space(tp_parser *p) {
    while (p->pos < p->n && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
                             p->text[p->pos] == '\n' || p->text[p->pos] == '\r'))
        p->pos++;
}

static bool tp_peek(tp_parser *p, char c) {
    tp_skip_space(p);
    return p->pos < p->n && p->text[p->pos] == c;
}

static int tp_expect(tp_parser *p, char c) {
    if (!tp_peek(p, c)) {
        char reason[32];
        snprintf(reason, sizeof(reason), "expected '%c'", c);
        return tp_error(p, MU_ESYNTAX, reason);
    }
    p->pos++;
    return 0;
}

static bool tp_is_ident(char c, bool first) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

/* Reads one identifier at pos (no leading space skip); returns its length. */
static size_t tp_ident(tp_parser *p) {
    size_t start = p->pos;
    if (p->pos < p->n && tp_is_ident(p->text[p->pos], true)) {
        while (p->pos < p->n && tp_is_ident(p->text[p->pos], false)) p->pos++;
    }
    return p->pos - start;
}

/* Compares "word word ..." (single spaces, any case) with `words`, the
 * source words separated by arbitrary spaces. */
static bool tp_words_match(const char *alias, const char *const *words, const size_t *lengths,
                           unsigned count) {
    for (unsigned i = 0; i < count; i++) {
        if (i > 0 && *alias++ != ' ') return false;
        if (strncasecmp(alias, words[i], lengths[i]) != 0) return false;
        alias += lengths[i];
        if (*alias != 0 && *alias != ' ') return false;
    }
    return *alias == 0;
}

static const tp_name *tp_lookup(const char *const *words, const size_t *lengths, unsigned count) {
    if (count == 1) {
        for (size_t i = 0; i < MU_ARRAY_LEN(tp_canonical); i++) {
            if (strlen(tp_canonical[i].name) == lengths[0] &&
                memcmp(tp_canonical[i].name, words[0], lengths[0]) == 0)
                return &tp_canonical[i];
        }
    }
    for (size_t i = 0; i < MU_ARRAY_LEN(tp_aliases); i++) {
        if (tp_words_match(tp_aliases[i].name, words, lengths, count)) return &tp_aliases[i];
    }
    return NULL;
}

/* Reads the name, which may be several words for an alias such as
 * DOUBLE PRECISION (the longest match wins), and finds its entry. */
static int tp_read_name(tp_parser *p, const tp_name **entry_out) {
    const char *words[TP_WORDS_MAX];
    size_t lengths[TP_WORDS_MAX], ends[TP_WORDS_MAX];
    unsigned count = 0;
    tp_skip_space(p);
    size_t start = p->pos;
    while (count < TP_WORDS_MAX) {
        size_t before = p->pos;
        if (count > 0) tp_skip_space(p);
        if (count > 0 && p->pos == before) break;
        size_t at = p->pos, length = tp_ident(p);
        if (length == 0) {
            p->pos = before;
            break;
        }
        words[count] = p->text + at;
        lengths[count] = length;
        ends[count++] = p->pos;
    }
    if (count == 0) return tp_error(p, MU_ESYNTAX, "expected a type name");
    for (unsigned k = count; k >= 1; k--) {
        const tp_name *entry = tp_lookup(words, lengths, k);
        if (entry != NULL) {
            p->pos = ends[k - 1];
            *entry_out = entry;
            return 0;
        }
    }
    p->pos = start;
    char reason[96];
    snprintf(reason, sizeof(reason), "unknown data type '%.*s'", (int)MU_MIN(lengths[0], 64),
             words[0]);
    return tp_error(p, MU_EUNKNOWN_TYPE, reason);
}

static int tp_uint(tp_parser *p, uint64_t max, const char *what, uint64_t *value_out) {
    tp_skip_space(p);
    uint64_t v = 0;
    size_t digits = 0;
    while (p->pos < p->n && p->text[p->pos] >= '0' && p->text[p->pos] <= '9') {
        if (v > (UINT64_MAX - 9) / 10) return tp_error(p, MU_ETYPE, "number too large");
        v = v * 10 + (uint64_t)(p->text[p->pos++] - '0');
        digits++;
    }
    if (digits == 0) {
        char reason[96];
        snprintf(reason, sizeof(reason), "expected %s", what);
        return tp_error(p, MU_ESYNTAX, reason);
    }
    if (v > max) {
        char reason[128];
        snprintf(reason, sizeof(reason), "%s %llu out of range (at most %llu)", what,
                 (unsigned long long)v, (unsigned long long)max);
        return tp_error(p, MU_ETYPE, reason);
    }
    *value_out = v;
    return 0;
}

static int tp_int(tp_parser *p, int64_t *value_out) {
    tp_skip_space(p);
    bool negative = p->pos < p->n && p->text[p->pos] == '-';
    if (negative || (p->pos < p->n && p->text[p->pos] == '+')) p->pos++;
    uint64_t v;
    int rc = tp_uint(p, (uint64_t)INT64_MAX, "an integer", &v);
    if (rc == 0) *value_out = negative ? -(int64_t)v : (int64_t)v;
    return rc;
}

/* Reads a single-quoted string ('' or \' for a quote, C escapes) into a
 * new arena copy. */
static int tp_quoted(tp_parser *p, const char **text_out, uint32_t *bytes_out) {
    tp_skip_space(p);
    if (p->pos >= p->n || p->text[p->pos] != '\'')
        return tp_error(p, MU_ESYNTAX, "expected a quoted string");
    char *copy = mu_arena_alloc(p->arena, p->n - p->pos + 1, p->err);
    if (copy == NULL) return p->err ? p->err->code : MU_ENOMEM;
    size_t length = 0;
    p->pos++;
    for (;;) {
        if (p->pos >= p->n) return tp_error(p, MU_ESYNTAX, "unterminated quoted string");
        char c = p->text[p->pos++];
        if (c == '\'' && p->pos < p->n && p->text[p->pos] == '\'') {
            p->pos++;
        } else if (c == '\'') {
            break;
        } else if (c == '\\') {
            if (p->pos >= p->n) return tp_error(p, MU_ESYNTAX, "unterminated quoted string");
            c = p->text[p->pos++];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == '0' ? '\0'
              : c == 'b' ? '\b' : c == 'f' ? '\f' : c;
        }
        copy[length++] = c;
    }
    copy[length] = 0;
    *text_out = copy;
    *bytes_out = (uint32_t)length;
    return 0;
}

static int tp_enum_compare_value(const void *a, const void *b) {
    const ty_enum_entry *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

static int tp_enum_compare_name(const void *a, const void *b) {
    const ty_enum_entry *x = *(const ty_enum_entry *const *)a;
    const ty_enum_entry *y = *(const ty_enum_entry *const *)b;
    int c = memcmp(x->name, y->name, MU_MIN(x->name_bytes, y->name_bytes));
    if (c != 0) return c;
    return (x->name_bytes > y->name_bytes) - (x->name_bytes < y->name_bytes);
}

/* Sorts entries by value and rejects duplicate values and names. */
static int tp_enum_finish(tp_parser *p, ty_enum_entry *entries, uint32_t count) {
    qsort(entries, count, sizeof(*entries), tp_enum_compare_value);
    for (uint32_t i = 1; i < count; i++) {
        if (entries[i].value == entries[i - 1].value)
            return tp_error(p, MU_ETYPE, "duplicate value in Enum");
    }
    const ty_enum_entry **by_name = malloc(count * sizeof(*by_name));
    if (by_name == NULL) return MU_ERR(p->err, MU_ENOMEM, "type name: out of memory");
    for (uint32_t i = 0; i < count; i++) by_name[i] = &entries[i];
    qsort(by_name, count, sizeof(*by_name), tp_enum_compare_name);
    int rc = 0;
    for (uint32_t i = 1; i < count && rc == 0; i++) {
        if (tp_enum_compare_name(&by_name[i], &by_name[i - 1]) == 0)
            rc = tp_error(p, MU_ETYPE, "duplicate name in Enum");
    }
    free(by_name);
    return rc;
}

/* ('a' = 1, 'b' = 2) or ('a', 'b') (values 1, 2, ...). Enum without a
 * width becomes Enum8 when every value fits, else Enum16. */
static int tp_parse_enum(tp_parser *p, const tp_name *entry, ty_type *t) {
    uint32_t capacity = (uint32_t)MU_MIN(p->n / 3 + 1, TP_ENUM_ENTRIES_MAX);
    ty_enum_entry *entries = mu_arena_calloc(p->arena, capacity, sizeof(*entries), p->err);
    if (entries == NULL) return p->err ? p->err->code : MU_ENOMEM;
    int rc = tp_expect(p, '(');
    uint32_t count = 0, with_value = 0;
    int64_t min = 0, max = 0;
    while (rc == 0) {
        if (count == capacity) return tp_error(p, MU_ETYPE, "too many Enum values");
        ty_enum_entry *e = &entries[count];
        int64_t value = count + 1;
        rc = tp_quoted(p, &e->name, &e->name_bytes);
        if (rc == 0 && tp_peek(p, '=')) {
            p->pos++;
            rc = tp_int(p, &value);
            with_value++;
        }
        if (rc != 0) return rc;
        bool narrow = entry->precision == 8;
        if (value < (narrow ? INT8_MIN : INT16_MIN) || value > (narrow ? INT8_MAX : INT16_MAX))
            return tp_error(p, MU_ETYPE, "Enum value out of range");
        e->value = (int16_t)value;
        min = count == 0 ? value : MU_MIN(min, value);
        max = count == 0 ? value : MU_MAX(max, value);
        count++;
        if (!tp_peek(p, ',')) break;
        p->pos++;
    }
    if (rc == 0) rc = tp_expect(p, ')');
    if (rc != 0) return rc;
    if (with_value != 0 && with_value != count)
        return tp_error(p, MU_ETYPE, "either every Enum element has a value or none has");
    if (entry->precision == 0) t->kind = min >= -128 && max <= 127 ? TY_ENUM8 : TY_ENUM16;
    t->enum_entries = entries;
    t->enum_count = count;
    return tp_enum_finish(p, entries, count);
}

static bool tp_low_cardinality_allowed(const ty_type *inner) {
    if (ty_type_strip_nullable(inner)->aggregate_function) return false;
    switch (ty_type_strip_nullable(inner)->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64:
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64:
    case TY_FLOAT32: case TY_FLOAT64: case TY_STRING: case TY_FIXED_STRING:
    case TY_DATE: case TY_DATE32: case TY_DATETIME: case TY_UUID:
        return true;
    default:
        return false;
    }
}

static bool tp_map_key_allowed(const ty_type *key) {
    switch (key->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64:
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64:
    case TY_BOOL: case TY_STRING: case TY_FIXED_STRING: case TY_DATE: case TY_DATE32:
    case TY_DATETIME: case TY_DATETIME64: case TY_UUID: case TY_ENUM8: case TY_ENUM16:
        return true;
    case TY_LOW_CARDINALITY:
        return key->child->kind == TY_STRING || key->child->kind == TY_FIXED_STRING;
    default:
        return false;
    }
}

/* ClickHouse's nesting rules, with its messages. */
static int tp_check_nesting(tp_parser *p, const ty_type *t) {
    char name[128], reason[256];
    const ty_type *c = t->child;
    if (t->kind == TY_NULLABLE && (c->kind == TY_NULLABLE || c->kind == TY_ARRAY || c->aggregate_function ||
                                   c->kind == TY_MAP || c->kind == TY_LOW_CARDINALITY)) {
        snprintf(reason, sizeof(reason), "Nested type %s cannot be inside Nullable type",
                 ty_type_name(c, name, sizeof(name)));
        return tp_error(p, MU_ETYPE, reason);
    }
    if (t->kind == TY_LOW_CARDINALITY && !tp_low_cardinality_allowed(c)) {
        snprintf(reason, sizeof(reason),
                 "LowCardinality is supported only for numbers, strings, Date, DateTime "
                 "and UUID, but got %s", ty_type_name(c, name, sizeof(name)));
        return tp_error(p, MU_ETYPE, reason);
    }
    if (t->kind == TY_MAP && !tp_map_key_allowed(c)) {
        snprintf(reason, sizeof(reason),
                 "Type of Map key must be a type that can be represented by integer or "
                 "String or FixedString (possibly LowCardinality) or UUID, but %s given",
                 ty_type_name(c, name, sizeof(name)));
        return tp_error(p, MU_ETYPE, reason);
    }
    return 0;
}

static int tp_timezone(tp_parser *p, ty_type *t) {
    uint32_t bytes;
    int rc = tp_quoted(p, &t->timezone_name, &bytes);
    if (rc != 0) return rc;
    if (strlen(t->timezone_name) != bytes) return tp_error(p, MU_EINVAL, "bad time zone name");
    rc = ty_tz_get(t->timezone_name, &t->timezone, p->err);
    if (rc != 0 && p->err != NULL) mu_err_prefix(p->err, "type name at position %zu", p->pos);
    return rc;
}

static int tp_parse_datetime64(tp_parser *p, ty_type *t) {
    t->precision = 3;
    if (!tp_peek(p, '(')) return 0;
    p->pos++;
    uint64_t precision;
    int rc = tp_uint(p, TY_DATETIME64_PRECISION_MAX, "DateTime64 precision", &precision);
    if (rc != 0) return rc;
    t->precision = (uint8_t)precision;
    if (tp_peek(p, ',')) {
        p->pos++;
        rc = tp_timezone(p, t);
    }
    return rc ? rc : tp_expect(p, ')');
}

static int tp_parse_decimal(tp_parser *p, const tp_name *entry, ty_type *t) {
    uint64_t precision = entry->form == TP_DECIMAL_S ? entry->precision : 10, scale = 0;
    int rc = 0;
    if (entry->form == TP_DECIMAL_S) {
        rc = tp_expect(p, '(');
        if (rc == 0) rc = tp_uint(p, precision, "Decimal scale", &scale);
        if (rc == 0) rc = tp_expect(p, ')');
    } else if (tp_peek(p, '(')) {
        p->pos++;
        rc = tp_uint(p, 76, "Decimal precision", &precision);
        if (rc == 0 && precision > TY_DECIMAL_PRECISION_MAX)
            return tp_error(p, MU_ENOT_SUPPORTED, "Decimal precision above 38 is not supported");
        if (rc == 0 && precision == 0) return tp_error(p, MU_ETYPE, "Decimal precision is 0");
        if (rc == 0 && tp_peek(p, ',')) {
            p->pos++;
            rc = tp_uint(p, precision, "Decimal scale", &scale);
        }
        if (rc == 0) rc = tp_expect(p, ')');
    }
    t->precision = (uint8_t)precision;
    t->scale = (uint8_t)scale;
    return rc;
}

/* AggregateFunction(name[(params)], T...): the function text is kept as
 * written (spaces trimmed), the argument types parsed. */
static int tp_parse_aggregate(tp_parser *p, unsigned depth, ty_type *t) {
    int rc = tp_expect(p, '(');
    if (rc != 0) return rc;
    tp_skip_space(p);
    size_t start = p->pos;
    while (p->pos < p->n && ((p->text[p->pos] >= 'a' && p->text[p->pos] <= 'z') ||
                             (p->text[p->pos] >= 'A' && p->text[p->pos] <= 'Z') ||
                             (p->text[p->pos] >= '0' && p->text[p->pos] <= '9') || p->text[p->pos] == '_'))
        p->pos++;
    if (p->pos == start) return tp_error(p, MU_ESYNTAX, "expected an aggregate function name");
    if (p->pos < p->n && p->text[p->pos] == '(') { /* parameters: balanced text */
        int level = 0;
        do {
            if (p->text[p->pos] == '(') level++;
            else if (p->text[p->pos] == ')') level--;
            p->pos++;
        } while (p->pos < p->n && level > 0);
        if (level != 0) return tp_error(p, MU_ESYNTAX, "unbalanced parameters of the aggregate function");
    }
    char *name = mu_arena_strndup(p->arena, p->text + start, p->pos - start, p->err);
    if (name == NULL) return p->err ? p->err->code : MU_ENOMEM;
    const ty_type *args[64];
    uint32_t count = 0;
    while (rc == 0 && tp_peek(p, ',')) {
        p->pos++;
        if (count == 64) return tp_error(p, MU_ETYPE, "more than 64 aggregate function arguments");
        rc = tp_parse_type(p, depth + 1, &args[count++]);
    }
    if (rc == 0) rc = tp_expect(p, ')');
    if (rc != 0) return rc;
    const ty_type **copy = mu_arena_calloc(p->arena, count + 1, sizeof(*copy), p->err);
    if (copy == NULL) return p->err ? p->err->code : MU_ENOMEM;
    memcpy(copy, args, count * sizeof(*copy));
    t->aggregate_function = name;
    t->aggregate_args = copy;
    t->aggregate_arg_count = count;
    return 0;
}

/* The arguments of `entry` into t; the name is already read. */
static int tp_parse_arguments(tp_parser *p, const tp_name *entry, unsigned depth, ty_type *t) {
    uint64_t v = 0;
    int rc = 0;
    switch (entry->form) {
    case TP_PLAIN:
        return tp_peek(p, '(') ? tp_error(p, MU_ETYPE, "data type takes no arguments") : 0;
    case TP_STRING:
        if (!tp_peek(p, '(')) return 0;
        p->pos++;
        rc = tp_uint(p, UINT64_MAX, "a length", &v);
        return rc ? rc : tp_expect(p, ')');
    case TP_FIXED:
        rc = tp_expect(p, '(');
        if (rc == 0) rc = tp_uint(p, TY_FIXED_STRING_BYTES_MAX, "FixedString size", &v);
        if (rc == 0 && v == 0) return tp_error(p, MU_ETYPE, "FixedString size must be positive");
        t->length = (uint32_t)v;
        return rc ? rc : tp_expect(p, ')');
    case TP_DATETIME:
        if (!tp_peek(p, '(')) return 0;
        p->pos++;
        rc = tp_timezone(p, t);
        return rc ? rc : tp_expect(p, ')');
    case TP_DATETIME64:
        return tp_parse_datetime64(p, t);
    case TP_DECIMAL:
    case TP_DECIMAL_S:
        return tp_parse_decimal(p, entry, t);
    case TP_ENUM:
        return tp_parse_enum(p, entry, t);
    case TP_WRAP:
    case TP_MAP:
        rc = tp_expect(p, '(');
        if (rc == 0) rc = tp_parse_type(p, depth + 1, &t->child);
        if (rc == 0 && entry->form == TP_MAP) rc = tp_expect(p, ',');
        if (rc == 0 && entry->form == TP_MAP) rc = tp_parse_type(p, depth + 1, &t->child2);
        if (rc == 0) rc = tp_expect(p, ')');
        return rc ? rc : tp_check_nesting(p, t);
    case TP_AGGREGATE:
        return tp_parse_aggregate(p, depth, t);
    case TP_UNSUPPORTED:
        break;
    }
    char reason[96];
    snprintf(reason, sizeof(reason), "data type %s is not supported by muscles", entry->name);
    return tp_error(p, MU_ENOT_SUPPORTED, reason);
}

/* Recursion depth is bounded by TY_TYPE_DEPTH_MAX. */
static int tp_parse_type(tp_parser *p, unsigned depth, const ty_type **out) {
    if (depth > TY_TYPE_DEPTH_MAX) return tp_error(p, MU_ETOO_DEEP, "type nested too deeply");
    const tp_name *entry = NULL;
    int rc = tp_read_name(p, &entry);
    if (rc != 0) return rc;
    ty_type *t = mu_arena_calloc(p->arena, 1, sizeof(*t), p->err);
    if (t == NULL) return p->err ? p->err->code : MU_ENOMEM;
    t->kind = entry->kind;
    rc = tp_parse_arguments(p, entry, depth, t);
    if (rc == 0) *out = t;
    return rc;
}

int ty_type_parse_n(const char *name, size_t name_bytes, mu_arena *arena,
                    const ty_type **type_out, mu_err *err) {
    MU_ASSERT(name != NULL && arena != NULL && type_out != NULL);
    tp_parser p = {.text = name, .n = name_bytes, .arena = arena, .err = err};
    if (name_bytes > TY_TYPE_NAME_BYTES_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "type name of %zu bytes is too long", name_bytes);
    const ty_type *type;
    int rc = tp_parse_type(&p, 1, &type);
    if (rc != 0) return rc;
    tp_skip_space(&p);
    if (p.pos != p.n) return tp_error(&p, MU_ESYNTAX, "unexpected text after the type");
    MU_ASSERT(type->kind < TY_KIND_COUNT);
    *type_out = type;
    return 0;
}

int ty_type_parse(const char *name, mu_arena *arena, const ty_type **type_out, mu_err *err) {
    return ty_type_parse_n(name, strlen(name), arena, type_out, err);
}
