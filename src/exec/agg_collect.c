/* agg_collect.c: aggregates that collect values, with ClickHouse's names
 * and result types: groupArray/array_agg (Array(T), optional max_size),
 * groupUniqArray (Array(T), first-seen order where ClickHouse's is hash
 * order), uniqExact (UInt64, exact), uniq/uniqCombined/uniqCombined64
 * (UInt64: exact below 65536 distinct values, then an adaptive hash
 * sample), topK (Space-Saving, most frequent first) and
 * groupBitAnd/groupBitOr/groupBitXor. Values of any type are kept in a
 * column of the value type that the state owns; hash tables are malloc'd
 * and charged to the query's tracker; destroy frees both. NULL rows are
 * skipped (rows where any argument is NULL); the Array and UInt64 results
 * are never NULL, as ClickHouse's.
 *
 * Serialized states (integers little-endian, varint = LEB128):
 *   rows         varint n, then chunks of at most 65536 rows, each a varint
 *                length and one MUB1 batch (types.h) of one column "v"
 *   groupArray, groupUniqArray   rows
 *   uniqExact    varint n, n keys of 16 bytes in ascending order
 *   uniq*        u8 sampling degree, varint n, n 8-byte hashes ascending
 *   topK         varint counters, varint next sequence number, per counter
 *                varint count, error, sequence; then rows (their values)
 *   groupBit*    8 bytes of the accumulated bits
 */
#include "exec/exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared ------------------------------------------------------------------ */

/* ClickHouse's limit on groupArray elements (its server setting's default). */
#define COLLECT_ARRAY_MAX 0xFFFFFFu
#define COLLECT_TOPK_MAX 0xFFFFFFu

static int collect_corrupt(const exec_agg *a, const char *what, mu_err *err) {
    return MU_CORRUPT(err, "aggregate state of %s: %s", a->function->name, what);
}

static mu_mem_tracker *collect_tracker(const exec_agg *a) {
    return a->ctx ? a->ctx->tracker : NULL;
}

/* A Nullable column read as its value type: the same buffers without the
 * validity bitmap (NULL rows hold the type's default payload). */
static const ty_column *collect_view(const ty_column *c, ty_column *view) {
    if (!c->nullable || c->type->kind != TY_NULLABLE) return c;
    *view = *c;
    view->type = c->type->child;
    view->nullable = false;
    memset(&view->validity, 0, sizeof(view->validity));
    return view;
}

/* True when row r has a NULL in any of the first n arguments. */
static bool collect_any_null(const exec_arg *args, uint32_t n, uint32_t r) {
    for (uint32_t i = 0; i < n; i++)
        if (exec_arg_is_null_row(&args[i], r)) return true;
    return false;
}

/* Zeroed memory charged to the tracker; collect_free gives it back. */
static void *collect_alloc(mu_mem_tracker *tracker, size_t bytes, mu_err *err) {
    if (tracker && mu_mem_tracker_charge(tracker, bytes, err) != 0) return NULL;
    void *p = calloc(1, bytes ? bytes : 1);
    if (p == NULL) {
        if (tracker) mu_mem_tracker_release(tracker, bytes);
        MU_ERR(err, MU_ENOMEM, "out of memory for an aggregate state of %zu bytes", bytes);
    }
    return p;
}

static void collect_free(mu_mem_tracker *tracker, void *p, size_t bytes) {
    if (p == NULL) return;
    free(p);
    if (tracker) mu_mem_tracker_release(tracker, bytes);
}

/* A positive integer parameter (max_size, N): ClickHouse's wording. */
static int collect_param_u64(const exec_agg *a, uint32_t i, uint64_t *out, mu_err *err) {
    const ty_column *p = a->params[i];
    const ty_type *t = ty_type_strip_nullable(p->type);
    if (!exec_type_is_integer(t) || ty_column_is_null(p, 0))
        return MU_ERR(err, MU_EINVAL, "Parameter for aggregate function %s should be positive "
                      "number", a->function->name);
    if (exec_type_is_signed(t) && exec_get_i64(p, 0) < 0)
        return MU_ERR(err, MU_EINVAL, "Parameter for aggregate function %s should be positive "
                      "number", a->function->name);
    *out = exec_get_u64(p, 0);
    return 0;
}

static const ty_type *collect_array_of(mu_arena *arena, const ty_type *t, mu_err *err) {
    ty_type *arr = mu_arena_calloc(arena, 1, sizeof(*arr), err);
    if (arr == NULL) return NULL;
    arr->kind = TY_ARRAY;
    arr->child = t;
    return arr;
}

/* ---- rows codec ------------------------------------------------------------------ */

static int collect_write_chunk(const ty_column *c, uint32_t from, uint32_t count, mu_buf *out,
                               mu_err *err) {
    ty_batch *batch;
    ty_column *col;
    mu_buf enc;
    mu_buf_init(&enc, 0);
    int rc = ty_batch_create(NULL, &batch, err);
    if (rc != 0) return rc;
    rc = ty_batch_add_column(batch, "v", c->type, &col, err);
    if (rc == 0) rc = ty_column_append_rows_from(col, c, from, count, err);
    if (rc == 0) rc = ty_batch_seal(batch, err);
    if (rc == 0) rc = ty_batch_encode(batch, &enc, err);
    if (rc == 0) rc = mu_buf_append_varint(out, enc.length_bytes, err);
    if (rc == 0) rc = mu_buf_append(out, enc.data, enc.length_bytes, err);
    mu_buf_deinit(&enc);
    ty_batch_destroy(batch);
    return rc;
}

/* Rows [0, count) of c (NULL: no rows). */
static int collect_write_rows(const ty_column *c, uint32_t count, mu_buf *out, mu_err *err) {
    int rc = mu_buf_append_varint(out, count, err);
    for (uint32_t from = 0; from < count && rc == 0; from += TY_BATCH_ROWS_MAX)
        rc = collect_write_chunk(c, from, MU_MIN(TY_BATCH_ROWS_MAX, count - from), out, err);
    return rc;
}

/* Reads rows written by collect_write_rows into *dst (created if NULL,
 * of `type`); at most max_rows. */
static int collect_read_rows(const exec_agg *a, const ty_type *type, ty_column **dst,
                             uint64_t max_rows, const uint8_t *bytes, size_t length,
                             size_t *used_out, mu_err *err) {
    uint64_t rows, len;
    size_t p = mu_varint_decode(bytes, length, &rows);
    if (p == 0 || rows > max_rows) return collect_corrupt(a, "bad row count", err);
    if (rows > 0 && *dst == NULL) {
        int rc = ty_column_create(type, collect_tracker(a), dst, err);
        if (rc != 0) return rc;
    }
    for (uint64_t done = 0; done < rows;) {
        size_t q = mu_varint_decode(bytes + p, length - p, &len);
        if (q == 0 || len > length - p - q) return collect_corrupt(a, "truncated rows", err);
        ty_batch *batch;
        int rc = ty_batch_decode(bytes + p + q, len, NULL, &batch, err);
        if (rc != 0) return rc;
        if (batch->column_count != 1 || batch->row_count == 0 ||
            batch->row_count > rows - done || !ty_type_equal(batch->columns[0]->type, type))
            rc = collect_corrupt(a, "rows of the wrong shape or type", err);
        if (rc == 0)
            rc = ty_column_append_rows_from(*dst, batch->columns[0], 0, batch->row_count, err);
        done += batch->row_count;
        ty_batch_destroy(batch);
        if (rc != 0) return rc;
        p += q + len;
    }
    *used_out = p;
    return 0;
}

/* ---- groupArray ----------------------------------------------------------------- */

typedef struct collect_array_bind {
    const ty_type *elem; /* the argument's type without Nullable */
    uint64_t max;        /* elements kept */
    bool limited;        /* groupArray(max_size): drop the rest; else too many is an error */
} collect_array_bind;

typedef struct collect_array {
    ty_column *values;
} collect_array;

static uint32_t collect_rows(const ty_column *c) { return c ? c->row_count : 0; }

static void array_init(const exec_agg *a, void *state) {
    (void)a;
    memset(state, 0, sizeof(collect_array));
}

static void array_destroy(const exec_agg *a, void *state) {
    (void)a;
    collect_array *s = state;
    ty_column_destroy(s->values);
    s->values = NULL;
}

/* Room for one more element: false when a limited array is full. */
static int array_room(const exec_agg *a, collect_array *s, bool *room, mu_err *err) {
    const collect_array_bind *b = a->bind_state;
    uint32_t n = collect_rows(s->values);
    *room = n < b->max;
    if (!*room && !b->limited)
        return MU_ERR(err, MU_EARRAY_TOO_LARGE, "Too large array size %u (maximum: %llu)", n + 1,
                      (unsigned long long)b->max);
    if (s->values == NULL) return ty_column_create(b->elem, collect_tracker(a), &s->values, err);
    return 0;
}

static int array_update(const exec_agg *a, void *const *states, const exec_arg *args,
                        uint32_t rows, mu_err *err) {
    ty_column view_buf;
    const ty_column *view = collect_view(args[0].column, &view_buf);
    for (uint32_t r = 0; r < rows; r++) {
        collect_array *s = states[r];
        if (s == NULL || exec_arg_is_null_row(&args[0], r)) continue;
        bool room;
        int rc = array_room(a, s, &room, err);
        if (rc == 0 && room)
            rc = ty_column_append_from(s->values, view, exec_arg_row(&args[0], r), err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* The no-GROUP-BY path: one bulk copy of the non-NULL rows. */
static int array_update_all(const exec_agg *a, void *state, const exec_arg *args, uint32_t rows,
                            mu_err *err) {
    const collect_array_bind *b = a->bind_state;
    collect_array *s = state;
    if (args[0].is_const || rows == 0) {
        void **states = exec__scratch(rows, sizeof(*states), err);
        if (states == NULL) return err->code;
        for (uint32_t r = 0; r < rows; r++) states[r] = state;
        int rc = array_update(a, states, args, rows, err);
        free(states);
        return rc;
    }
    ty_column view_buf;
    const ty_column *view = collect_view(args[0].column, &view_buf);
    uint32_t *sel = exec__scratch(rows, sizeof(*sel), err);
    if (sel == NULL) return err->code;
    uint32_t n = 0;
    for (uint32_t r = 0; r < rows; r++)
        if (!ty_column_is_null(args[0].column, r)) sel[n++] = r;
    uint64_t have = collect_rows(s->values), take = n;
    if (have + take > b->max) {
        if (!b->limited) {
            free(sel);
            return MU_ERR(err, MU_EARRAY_TOO_LARGE, "Too large array size %llu (maximum: %llu)",
                          (unsigned long long)(have + take), (unsigned long long)b->max);
        }
        take = b->max - have;
    }
    int rc = 0;
    if (take > 0 && s->values == NULL)
        rc = ty_column_create(b->elem, collect_tracker(a), &s->values, err);
    if (rc == 0 && take > 0)
        rc = ty_column_append_gather(s->values, view, sel, (uint32_t)take, err);
    free(sel);
    return rc;
}

static int array_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const collect_array_bind *b = a->bind_state;
    collect_array *d = dst;
    const collect_array *s = src;
    uint64_t have = collect_rows(d->values), take = collect_rows(s->values);
    if (take == 0) return 0;
    if (have + take > b->max) {
        if (!b->limited)
            return MU_ERR(err, MU_EARRAY_TOO_LARGE, "Too large array size %llu (maximum: %llu)",
                          (unsigned long long)(have + take), (unsigned long long)b->max);
        take = b->max - have;
    }
    int rc = 0;
    if (d->values == NULL) rc = ty_column_create(b->elem, collect_tracker(a), &d->values, err);
    if (rc == 0 && take > 0)
        rc = ty_column_append_rows_from(d->values, s->values, 0, (uint32_t)take, err);
    return rc;
}

static int array_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a;
    const collect_array *s = state;
    return collect_write_rows(s->values, collect_rows(s->values), out, err);
}

static int array_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                             size_t *used_out, mu_err *err) {
    const collect_array_bind *b = a->bind_state;
    collect_array *s = state;
    return collect_read_rows(a, b->elem, &s->values, b->max, bytes, length, used_out, err);
}

/* Appends rows [0, n) of values (NULL: none) as one Array row. */
static int collect_append_array(ty_column *out, const ty_column *values, uint32_t n,
                                mu_err *err) {
    int rc = 0;
    if (n > 0) rc = ty_column_append_rows_from(ty_column_child_mut(out, 0), values, 0, n, err);
    return rc != 0 ? rc : ty_column_append_nested_end(out, err);
}

static int array_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    (void)a;
    const collect_array *s = state;
    return collect_append_array(out, s->values, collect_rows(s->values), err);
}

static int array_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    if (a->arg_count != 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires single argument", a->function->name);
    if (a->param_count > 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Incorrect number of parameters for aggregate "
                      "function %s, should be 0 or 1", a->function->name);
    collect_array_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    b->elem = ty_type_strip_nullable(a->arg_types[0]);
    b->max = COLLECT_ARRAY_MAX;
    if (a->param_count == 1) {
        int rc = collect_param_u64(a, 0, &b->max, err);
        if (rc != 0) return rc;
        if (b->max == 0)
            return MU_ERR(err, MU_EINVAL, "Parameter for aggregate function %s should be "
                          "positive number", a->function->name);
        b->limited = true;
    }
    a->result_type = collect_array_of(arena, b->elem, err);
    if (a->result_type == NULL) return err->code;
    a->bind_state = b;
    a->state_bytes = sizeof(collect_array);
    a->init = array_init;
    a->update = array_update;
    a->update_all = array_update_all;
    a->merge = array_merge;
    a->serialize = array_serialize;
    a->deserialize = array_deserialize;
    a->finalize = array_finalize;
    a->destroy = array_destroy;
    return 0;
}

/* ---- hashing values of any type ------------------------------------------------- */

#define COLLECT_SEED_A UINT64_C(0x9E3779B97F4A7C15)
#define COLLECT_SEED_B UINT64_C(0xC2B2AE3D27D4EB4F)

static uint64_t collect_mix(uint64_t h, uint64_t v) {
    return mu_hash_u64(h ^ (v + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2)));
}

/* Bytes of a fixed-width value with floats made canonical: -0 as +0 and
 * one NaN, so values ty_column_equal_row finds equal hash equally. */
static void collect_canonical(const ty_type *t, const uint8_t *p, uint8_t *out, uint32_t width) {
    memcpy(out, p, width);
    if (t->kind == TY_FLOAT64) {
        double v;
        memcpy(&v, p, 8);
        if (v == 0) v = 0;
        if (isnan(v)) v = NAN;
        memcpy(out, &v, 8);
    } else if (t->kind == TY_FLOAT32) {
        float v;
        memcpy(&v, p, 4);
        if (v == 0) v = 0;
        if (isnan(v)) v = NAN;
        memcpy(out, &v, 4);
    }
}

static uint64_t collect_offset(const ty_column *c, uint32_t i) {
    return ty_column_offsets(c)[i];
}

/* A 64-bit hash of row r of c, any type: nested values recurse along the
 * type tree, at most TY_TYPE_DEPTH_MAX levels (as ty_column_compare_rows). */
static uint64_t collect_hash_at(const ty_column *c, uint32_t r, uint64_t seed, unsigned depth) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX);
    if (ty_column_is_null(c, r)) return collect_mix(seed, 0x4E554C4Cu);
    const ty_type *t = ty_type_strip_nullable(c->type);
    switch (t->kind) {
    case TY_ARRAY:
    case TY_MAP: {
        uint64_t start = collect_offset(c, r), end = collect_offset(c, r + 1);
        uint64_t h = collect_mix(seed, end - start);
        for (uint64_t i = start; i < end; i++) {
            h = collect_mix(h, collect_hash_at(ty_column_child(c, 0), (uint32_t)i, seed,
                                               depth + 1));
            if (t->kind == TY_MAP)
                h = collect_mix(h, collect_hash_at(ty_column_child(c, 1), (uint32_t)i, seed,
                                                   depth + 1));
        }
        return h;
    }
    case TY_STRING:
    case TY_FIXED_STRING:
    case TY_LOW_CARDINALITY: {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(c, r, &n);
        return mu_xxhash64(p, n, seed);
    }
    default: {
        uint32_t width = ty_type_value_bytes(t);
        uint8_t bytes[16];
        MU_ASSERT(width <= sizeof(bytes));
        collect_canonical(t, ty_column_values(c) + (size_t)r * width, bytes, width);
        return mu_xxhash64(bytes, width, seed);
    }
    }
}

static uint64_t collect_hash_row(const ty_column *c, uint32_t r, uint64_t seed) {
    return collect_hash_at(c, r, seed, 1);
}

/* ---- open-addressing table ----------------------------------------------------- */

/* 16-byte slots with linear probing. As a set (uniq, uniqExact) a slot is
 * a key (a, b) and the all-zero key is kept aside in has_zero; as a map
 * (groupUniqArray, topK) a is a value's hash and b its index + 1, with
 * b = UINT64_MAX marking a removed entry. Capacity is a power of two, at
 * least twice the entries. */
typedef struct collect_slot {
    uint64_t a, b;
} collect_slot;

typedef struct collect_table {
    collect_slot *slots;
    uint64_t capacity;
    uint64_t size; /* live entries (the zero key not included) */
    uint64_t dead; /* removed map entries still occupying slots */
    uint8_t has_zero;
} collect_table;

#define COLLECT_DEAD UINT64_MAX

static uint64_t table_bucket(const collect_slot *s, bool map) {
    return map ? mu_hash_u64(s->a) : mu_hash_u64(s->a ^ mu_hash_u64(s->b));
}

static void table_free(mu_mem_tracker *tracker, collect_table *t) {
    collect_free(tracker, t->slots, (size_t)t->capacity * sizeof(collect_slot));
    memset(t, 0, sizeof(*t));
}

static void table_place(collect_slot *slots, uint64_t capacity, collect_slot s, bool map) {
    uint64_t mask = capacity - 1, i = table_bucket(&s, map) & mask;
    while (slots[i].a != 0 || slots[i].b != 0) i = (i + 1) & mask;
    slots[i] = s;
}

/* Makes room for one more entry (dropping removed ones). */
static int table_reserve(mu_mem_tracker *tracker, collect_table *t, bool map, mu_err *err) {
    if ((t->size + t->dead + 1) * 2 <= t->capacity) return 0;
    uint64_t cap = t->capacity ? t->capacity : 16;
    while ((t->size + 1) * 2 > cap) cap *= 2;
    collect_slot *slots = collect_alloc(tracker, (size_t)cap * sizeof(*slots), err);
    if (slots == NULL) return err->code;
    for (uint64_t i = 0; i < t->capacity; i++) {
        collect_slot s = t->slots[i];
        if ((s.a != 0 || s.b != 0) && !(map && s.b == COLLECT_DEAD))
            table_place(slots, cap, s, map);
    }
    collect_free(tracker, t->slots, (size_t)t->capacity * sizeof(collect_slot));
    t->slots = slots;
    t->capacity = cap;
    t->dead = 0;
    return 0;
}

static int set_insert(mu_mem_tracker *tracker, collect_table *t, uint64_t a, uint64_t b,
                      bool *inserted, mu_err *err) {
    if (a == 0 && b == 0) {
        *inserted = !t->has_zero;
        t->has_zero = 1;
        return 0;
    }
    int rc = table_reserve(tracker, t, false, err);
    if (rc != 0) return rc;
    collect_slot s = {a, b};
    uint64_t mask = t->capacity - 1, i = table_bucket(&s, false) & mask;
    for (; t->slots[i].a != 0 || t->slots[i].b != 0; i = (i + 1) & mask) {
        if (t->slots[i].a == a && t->slots[i].b == b) {
            *inserted = false;
            return 0;
        }
    }
    t->slots[i] = s;
    t->size++;
    *inserted = true;
    return 0;
}

static uint64_t set_count(const collect_table *t) { return t->size + t->has_zero; }

static int collect_slot_cmp(const void *x, const void *y) {
    const collect_slot *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* The keys of a set in ascending order (malloc'd; caller frees). */
static collect_slot *set_sorted(const collect_table *t, mu_err *err) {
    uint64_t n = set_count(t), k = 0;
    collect_slot *keys = exec__scratch(n ? n : 1, sizeof(*keys), err);
    if (keys == NULL) return NULL;
    if (t->has_zero) keys[k++] = (collect_slot){0, 0};
    for (uint64_t i = 0; i < t->capacity; i++)
        if (t->slots[i].a != 0 || t->slots[i].b != 0) keys[k++] = t->slots[i];
    MU_ASSERT(k == n);
    qsort(keys, n, sizeof(*keys), collect_slot_cmp);
    return keys;
}

/* Map lookup: the index of the entry with hash h whose value `eq`
 * accepts, or -1; *free_out is where a new entry would go. */
typedef bool (*collect_eq_fn)(const void *ctx, uint64_t index);

static int64_t map_find(const collect_table *t, uint64_t h, collect_eq_fn eq, const void *ctx) {
    if (t->capacity == 0) return -1;
    collect_slot probe = {h, 0};
    uint64_t mask = t->capacity - 1, i = table_bucket(&probe, true) & mask;
    for (; t->slots[i].a != 0 || t->slots[i].b != 0; i = (i + 1) & mask) {
        const collect_slot *s = &t->slots[i];
        if (s->a == h && s->b != COLLECT_DEAD && eq(ctx, s->b - 1)) return (int64_t)(s->b - 1);
    }
    return -1;
}

static int map_insert(mu_mem_tracker *tracker, collect_table *t, uint64_t h, uint64_t index,
                      mu_err *err) {
    int rc = table_reserve(tracker, t, true, err);
    if (rc != 0) return rc;
    table_place(t->slots, t->capacity, (collect_slot){h, index + 1}, true);
    t->size++;
    return 0;
}

static void map_remove(collect_table *t, uint64_t h, uint64_t index) {
    collect_slot probe = {h, 0};
    uint64_t mask = t->capacity - 1, i = table_bucket(&probe, true) & mask;
    for (; t->slots[i].a != 0 || t->slots[i].b != 0; i = (i + 1) & mask) {
        if (t->slots[i].a == h && t->slots[i].b == index + 1) {
            t->slots[i].b = COLLECT_DEAD;
            t->size--;
            t->dead++;
            return;
        }
    }
    MU_ASSERT(!"removing an entry that is not there");
}

/* Row equality for map lookups: values[index] == view[row]. */
typedef struct collect_eq_ctx {
    const ty_column *values;
    const ty_column *view;
    uint32_t row;
    const uint32_t *rows_of; /* topK: counter index -> row of values; NULL: identity */
} collect_eq_ctx;

static bool collect_eq_row(const void *ctx, uint64_t index) {
    const collect_eq_ctx *c = ctx;
    uint32_t at = c->rows_of ? c->rows_of[index] : (uint32_t)index;
    return ty_column_equal_row(c->values, at, c->view, c->row);
}

/* ---- uniqExact, uniq ---------------------------------------------------------------- */

/* uniq keeps the hashes whose low `skip` bits are zero, at most 65536 of
 * them, raising skip (and dropping half) past that: below 65536 distinct
 * values the count is exact (64-bit hashes; fixed-width values up to 8
 * bytes hash without collisions); above, the estimate count * 2^skip has a
 * relative standard error of about 1 / sqrt(count), under 0.6%.
 * ClickHouse's uniq uses the same idea with 32-bit hashes. */
#define COLLECT_UNIQ_MAX 65536u

typedef enum collect_uniq_kind {
    COLLECT_UNIQ_EXACT,
    COLLECT_UNIQ_SAMPLED,
} collect_uniq_kind;

typedef struct collect_uniq_bind {
    collect_uniq_kind kind;
    uint32_t raw_width; /* one fixed-width argument of this many bytes (<= 16): keyed by value */
    bool raw_float;     /* ... a float, made canonical first */
    const ty_type *raw_type;
} collect_uniq_bind;

typedef struct collect_uniq {
    collect_table set;
    uint8_t skip;
} collect_uniq;

static void uniq_init(const exec_agg *a, void *state) {
    (void)a;
    memset(state, 0, sizeof(collect_uniq));
}

static void uniq_destroy(const exec_agg *a, void *state) {
    collect_uniq *s = state;
    table_free(collect_tracker(a), &s->set);
}

/* The key of row r: the value itself when it fits (exact, no hashing),
 * else two independent 64-bit hashes of the tuple of arguments. */
static collect_slot uniq_key(const collect_uniq_bind *b, const exec_arg *args, uint32_t n,
                             const ty_column *const *views, uint32_t r) {
    collect_slot k = {0, 0};
    if (b->raw_width > 0) {
        const uint8_t *p = ty_column_values(views[0]) +
                           (size_t)exec_arg_row(&args[0], r) * b->raw_width;
        uint8_t canonical[16];
        if (b->raw_float) {
            collect_canonical(b->raw_type, p, canonical, b->raw_width);
            p = canonical;
        }
        switch (b->raw_width) { /* constant-size loads: no call, no store stall */
        case 1: k.a = p[0]; break;
        case 2: k.a = mu_load_u16le(p); break;
        case 4: k.a = mu_load_u32le(p); break;
        case 8: k.a = mu_load_u64le(p); break;
        case 16: k.a = mu_load_u64le(p), k.b = mu_load_u64le(p + 8); break;
        default:
            memcpy(&k.a, p, MU_MIN(b->raw_width, 8u));
            if (b->raw_width > 8) memcpy(&k.b, p + 8, b->raw_width - 8);
            break;
        }
        if (b->kind == COLLECT_UNIQ_SAMPLED) k = (collect_slot){mu_hash_u64(k.a), 0};
        return k;
    }
    uint64_t ha = COLLECT_SEED_A, hb = COLLECT_SEED_B;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = exec_arg_row(&args[i], r);
        ha = collect_mix(ha, collect_hash_row(views[i], row, COLLECT_SEED_A));
        if (b->kind == COLLECT_UNIQ_EXACT)
            hb = collect_mix(hb, collect_hash_row(views[i], row, COLLECT_SEED_B));
    }
    k.a = ha;
    k.b = b->kind == COLLECT_UNIQ_EXACT ? hb : 0;
    return k;
}

/* Keeps only the hashes whose low `skip` bits are zero. */
static int uniq_resample(mu_mem_tracker *tracker, collect_uniq *s, uint8_t skip, mu_err *err) {
    uint64_t mask = (UINT64_C(1) << skip) - 1;
    collect_table kept = {0};
    kept.has_zero = s->set.has_zero; /* the zero hash passes every degree */
    for (uint64_t i = 0; i < s->set.capacity; i++) {
        collect_slot k = s->set.slots[i];
        if ((k.a == 0 && k.b == 0) || (k.a & mask)) continue;
        bool inserted;
        int rc = set_insert(tracker, &kept, k.a, k.b, &inserted, err);
        if (rc != 0) {
            table_free(tracker, &kept);
            return rc;
        }
    }
    table_free(tracker, &s->set);
    s->set = kept;
    s->skip = skip;
    return 0;
}

/* Raises the sampling degree until at most COLLECT_UNIQ_MAX hashes stay. */
static int uniq_shrink(mu_mem_tracker *tracker, collect_uniq *s, mu_err *err) {
    int rc = 0;
    while (rc == 0 && set_count(&s->set) > COLLECT_UNIQ_MAX)
        rc = uniq_resample(tracker, s, (uint8_t)(s->skip + 1), err);
    return rc;
}

static int uniq_add(const exec_agg *a, const collect_uniq_bind *b, collect_uniq *s,
                    collect_slot k, mu_err *err) {
    if (b->kind == COLLECT_UNIQ_SAMPLED && (k.a & ((UINT64_C(1) << s->skip) - 1))) return 0;
    bool inserted;
    int rc = set_insert(collect_tracker(a), &s->set, k.a, k.b, &inserted, err);
    if (rc == 0 && inserted && b->kind == COLLECT_UNIQ_SAMPLED &&
        set_count(&s->set) > COLLECT_UNIQ_MAX)
        rc = uniq_shrink(collect_tracker(a), s, err);
    return rc;
}

static int uniq_update(const exec_agg *a, void *const *states, const exec_arg *args,
                       uint32_t rows, mu_err *err) {
    const collect_uniq_bind *b = a->bind_state;
    ty_column view_bufs[8];
    const ty_column *views[8];
    MU_ASSERT(a->arg_count <= 8);
    bool nulls = false;
    for (uint32_t i = 0; i < a->arg_count; i++) {
        views[i] = collect_view(args[i].column, &view_bufs[i]);
        nulls |= args[i].column->nullable;
    }
    for (uint32_t r = 0; r < rows; r++) {
        if (states[r] == NULL || (nulls && collect_any_null(args, a->arg_count, r))) continue;
        int rc = uniq_add(a, b, states[r], uniq_key(b, args, a->arg_count, views, r), err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* The union at the larger degree: the same state a single pass over both
 * inputs reaches (the kept set depends only on the distinct hashes). */
static int uniq_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const collect_uniq_bind *b = a->bind_state;
    collect_uniq *d = dst;
    const collect_uniq *s = src;
    if (s->skip > d->skip) {
        int rc = uniq_resample(collect_tracker(a), d, s->skip, err);
        if (rc != 0) return rc;
    }
    if (s->set.has_zero) d->set.has_zero = 1;
    int rc = b->kind == COLLECT_UNIQ_SAMPLED ? uniq_shrink(collect_tracker(a), d, err) : 0;
    for (uint64_t i = 0; i < s->set.capacity && rc == 0; i++) {
        collect_slot k = s->set.slots[i];
        if (k.a != 0 || k.b != 0) rc = uniq_add(a, b, d, k, err);
    }
    return rc;
}

static int uniq_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    const collect_uniq_bind *b = a->bind_state;
    const collect_uniq *s = state;
    collect_slot *keys = set_sorted(&s->set, err);
    if (keys == NULL) return err->code;
    uint64_t n = set_count(&s->set);
    int rc = 0;
    if (b->kind == COLLECT_UNIQ_SAMPLED) rc = mu_buf_append_u8(out, s->skip, err);
    if (rc == 0) rc = mu_buf_append_varint(out, n, err);
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        rc = mu_buf_append_u64le(out, keys[i].a, err);
        if (rc == 0 && b->kind == COLLECT_UNIQ_EXACT) rc = mu_buf_append_u64le(out, keys[i].b, err);
    }
    free(keys);
    return rc;
}

static int uniq_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                            size_t *used_out, mu_err *err) {
    const collect_uniq_bind *b = a->bind_state;
    collect_uniq *s = state;
    bool sampled = b->kind == COLLECT_UNIQ_SAMPLED;
    size_t p = 0, key_bytes = sampled ? 8 : 16;
    uint64_t n;
    if (sampled) {
        if (length < 1 || bytes[0] > 63) return collect_corrupt(a, "bad sampling degree", err);
        s->skip = bytes[p++];
    }
    size_t q = mu_varint_decode(bytes + p, length - p, &n);
    if (q == 0 || (length - p - q) / key_bytes < n || (sampled && n > COLLECT_UNIQ_MAX))
        return collect_corrupt(a, "truncated set", err);
    p += q;
    uint64_t mask = sampled ? (UINT64_C(1) << s->skip) - 1 : 0;
    for (uint64_t i = 0; i < n; i++, p += key_bytes) {
        collect_slot k = {mu_load_u64le(bytes + p), sampled ? 0 : mu_load_u64le(bytes + p + 8)};
        bool inserted;
        if (k.a & mask) return collect_corrupt(a, "hash outside the sample", err);
        int rc = set_insert(collect_tracker(a), &s->set, k.a, k.b, &inserted, err);
        if (rc != 0) return rc;
        if (!inserted) return collect_corrupt(a, "repeated key", err);
    }
    *used_out = p;
    return 0;
}

static int uniq_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    (void)a;
    const collect_uniq *s = state;
    uint64_t n = set_count(&s->set) << s->skip;
    return ty_column_append_value(out, &n, err);
}

static int uniq_bind_kind(exec_agg *a, mu_arena *arena, collect_uniq_kind kind, mu_err *err) {
    if (a->arg_count == 0)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Incorrect number of arguments for aggregate function %s",
                      a->function->name);
    if (a->arg_count > 8)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "%s of more than 8 arguments is not supported",
                      a->function->name);
    collect_uniq_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    b->kind = kind;
    const ty_type *t = ty_type_strip_nullable(a->arg_types[0]);
    uint32_t width = ty_type_value_bytes(t);
    bool fixed = t->kind != TY_STRING && t->kind != TY_ARRAY && t->kind != TY_MAP &&
                 t->kind != TY_LOW_CARDINALITY && width > 0;
    if (a->arg_count == 1 && fixed && width <= (kind == COLLECT_UNIQ_EXACT ? 16u : 8u)) {
        b->raw_width = width;
        b->raw_type = t;
        b->raw_float = exec_type_is_float(t);
    }
    a->bind_state = b;
    a->result_type = ty_type_builtin(TY_UINT64);
    a->state_bytes = sizeof(collect_uniq);
    a->init = uniq_init;
    a->update = uniq_update;
    a->merge = uniq_merge;
    a->serialize = uniq_serialize;
    a->deserialize = uniq_deserialize;
    a->finalize = uniq_finalize;
    a->destroy = uniq_destroy;
    return 0;
}

static int uniq_exact_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return uniq_bind_kind(a, arena, COLLECT_UNIQ_EXACT, err);
}

static int uniq_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return uniq_bind_kind(a, arena, COLLECT_UNIQ_SAMPLED, err);
}

/* uniqCombined(precision)(x): ClickHouse's HyperLogLog parameter
 * (12..20) is checked and the uniq sketch answers. */
static int uniq_combined_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    if (a->param_count > 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS, "Aggregate function %s requires one parameter "
                      "or less", a->function->name);
    if (a->param_count == 1) {
        const ty_type *t = ty_type_strip_nullable(a->params[0]->type);
        int64_t p = exec_type_is_integer(t) && !ty_column_is_null(a->params[0], 0)
                        ? exec_get_i64(a->params[0], 0) : -1;
        if (p < 12 || p > 20)
            return MU_ERR(err, MU_EOUT_OF_BOUND, "Parameter for aggregate function %s is out of "
                          "range: [12, 20].", a->function->name);
    }
    return uniq_bind_kind(a, arena, COLLECT_UNIQ_SAMPLED, err);
}

/* ---- groupUniqArray ------------------------------------------------------------- */

typedef struct collect_uniq_array {
    ty_column *values; /* in first-seen order */
    collect_table map; /* hash -> index */
} collect_uniq_array;

static void uniq_array_init(const exec_agg *a, void *state) {
    (void)a;
    memset(state, 0, sizeof(collect_uniq_array));
}

static void uniq_array_destroy(const exec_agg *a, void *state) {
    collect_uniq_array *s = state;
    ty_column_destroy(s->values);
    table_free(collect_tracker(a), &s->map);
    memset(s, 0, sizeof(*s));
}

/* Adds row `row` of view unless an equal value is there (or the array is
 * full); *added tells which. */
static int uniq_array_add(const exec_agg *a, collect_uniq_array *s, const ty_column *view,
                          uint32_t row, bool *added, mu_err *err) {
    const collect_array_bind *b = a->bind_state;
    uint64_t h = collect_hash_row(view, row, COLLECT_SEED_A);
    collect_eq_ctx eq = {s->values, view, row, NULL};
    *added = false;
    if (s->values != NULL && map_find(&s->map, h, collect_eq_row, &eq) >= 0) return 0;
    uint32_t n = collect_rows(s->values);
    if (n >= b->max) return 0;
    int rc = 0;
    if (s->values == NULL) rc = ty_column_create(b->elem, collect_tracker(a), &s->values, err);
    if (rc == 0) rc = ty_column_append_from(s->values, view, row, err);
    if (rc == 0) rc = map_insert(collect_tracker(a), &s->map, h, n, err);
    if (rc != 0 && s->values != NULL && s->values->row_count > n) ty_column_truncate(s->values, n);
    *added = rc == 0;
    return rc;
}

static int uniq_array_update(const exec_agg *a, void *const *states, const exec_arg *args,
                             uint32_t rows, mu_err *err) {
    ty_column view_buf;
    const ty_column *view = collect_view(args[0].column, &view_buf);
    for (uint32_t r = 0; r < rows; r++) {
        if (states[r] == NULL || exec_arg_is_null_row(&args[0], r)) continue;
        bool added;
        int rc = uniq_array_add(a, states[r], view, exec_arg_row(&args[0], r), &added, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int uniq_array_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const collect_uniq_array *s = src;
    for (uint32_t i = 0; i < collect_rows(s->values); i++) {
        bool added;
        int rc = uniq_array_add(a, dst, s->values, i, &added, err);
        if (rc != 0) return rc;
    }
    return 0;
}

static int uniq_array_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a;
    const collect_uniq_array *s = state;
    return collect_write_rows(s->values, collect_rows(s->values), out, err);
}

static int uniq_array_deserialize(const exec_agg *a, void *state, const uint8_t *bytes,
                                  size_t length, size_t *used_out, mu_err *err) {
    const collect_array_bind *b = a->bind_state;
    collect_uniq_array *s = state;
    ty_column *rows = NULL;
    int rc = collect_read_rows(a, b->elem, &rows, b->max, bytes, length, used_out, err);
    for (uint32_t i = 0; i < collect_rows(rows) && rc == 0; i++) {
        bool added;
        rc = uniq_array_add(a, s, rows, i, &added, err);
        if (rc == 0 && !added) rc = collect_corrupt(a, "repeated value", err);
    }
    ty_column_destroy(rows);
    return rc;
}

static int uniq_array_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    (void)a;
    const collect_uniq_array *s = state;
    return collect_append_array(out, s->values, collect_rows(s->values), err);
}

static int uniq_array_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    int rc = array_bind(a, arena, err);
    if (rc != 0) return rc;
    collect_array_bind *b = a->bind_state;
    b->limited = true; /* past the limit values are dropped, never an error */
    a->state_bytes = sizeof(collect_uniq_array);
    a->init = uniq_array_init;
    a->update = uniq_array_update;
    a->update_all = NULL;
    a->merge = uniq_array_merge;
    a->serialize = uniq_array_serialize;
    a->deserialize = uniq_array_deserialize;
    a->finalize = uniq_array_finalize;
    a->destroy = uniq_array_destroy;
    return 0;
}

/* ---- topK ------------------------------------------------------------------------- */

/* Space-Saving (Metwally et al.) over `capacity` = N * load_factor
 * counters: a new value takes a free counter, or replaces the smallest
 * one, inheriting its count as error. With at most `capacity` distinct
 * values the counts are exact. Merging uses Parallel Space Saving (Cafaro
 * et al.): a value missing on one side is credited that side's smallest
 * count when the side is full. The answer is the N counters with the
 * highest count (lower error, then first seen, break ties; ClickHouse
 * leaves ties unordered and filters insertions through an alpha map). */
typedef struct collect_topk_bind {
    const ty_type *elem;
    uint32_t n;
    uint32_t capacity;
} collect_topk_bind;

typedef struct collect_counter {
    uint64_t count, error, seq, hash;
    uint32_t row;  /* of values */
    uint32_t heap; /* position in the min-heap */
} collect_counter;

typedef struct collect_topk {
    ty_column *values;          /* counters' values; replaced rows become garbage */
    collect_counter *counters;
    uint32_t *heap;             /* counter indexes, smallest count first */
    uint32_t *rows_of;          /* counter index -> row of values (map lookups) */
    uint32_t count;             /* counters in use */
    uint32_t allocated;         /* counters allocated (<= capacity) */
    uint64_t next_seq;
    collect_table map;          /* value hash -> counter index */
} collect_topk;

static void topk_init(const exec_agg *a, void *state) {
    (void)a;
    memset(state, 0, sizeof(collect_topk));
}

static void topk_destroy(const exec_agg *a, void *state) {
    collect_topk *s = state;
    mu_mem_tracker *tracker = collect_tracker(a);
    ty_column_destroy(s->values);
    collect_free(tracker, s->counters, (size_t)s->allocated * sizeof(collect_counter));
    collect_free(tracker, s->heap, (size_t)s->allocated * sizeof(uint32_t));
    collect_free(tracker, s->rows_of, (size_t)s->allocated * sizeof(uint32_t));
    table_free(tracker, &s->map);
    memset(s, 0, sizeof(*s));
}

static int topk_allocate(const exec_agg *a, collect_topk *s, mu_err *err) {
    const collect_topk_bind *b = a->bind_state;
    mu_mem_tracker *tracker = collect_tracker(a);
    if (s->counters != NULL) return 0;
    s->counters = collect_alloc(tracker, (size_t)b->capacity * sizeof(collect_counter), err);
    s->heap = s->counters ? collect_alloc(tracker, (size_t)b->capacity * sizeof(uint32_t), err)
                          : NULL;
    s->rows_of = s->heap ? collect_alloc(tracker, (size_t)b->capacity * sizeof(uint32_t), err)
                         : NULL;
    int rc = s->rows_of ? ty_column_create(b->elem, tracker, &s->values, err) : err->code;
    if (rc != 0) {
        collect_free(tracker, s->counters, (size_t)b->capacity * sizeof(collect_counter));
        collect_free(tracker, s->heap, (size_t)b->capacity * sizeof(uint32_t));
        collect_free(tracker, s->rows_of, (size_t)b->capacity * sizeof(uint32_t));
        s->counters = NULL;
        s->heap = s->rows_of = NULL;
        return rc;
    }
    s->allocated = b->capacity;
    return 0;
}

static bool topk_less(const collect_topk *s, uint32_t x, uint32_t y) {
    const collect_counter *p = &s->counters[x], *q = &s->counters[y];
    if (p->count != q->count) return p->count < q->count;
    return p->seq < q->seq;
}

static void topk_swap(collect_topk *s, uint32_t i, uint32_t j) {
    uint32_t t = s->heap[i];
    s->heap[i] = s->heap[j];
    s->heap[j] = t;
    s->counters[s->heap[i]].heap = i;
    s->counters[s->heap[j]].heap = j;
}

/* Restores the heap below position i after its counter grew. */
static void topk_sift_down(collect_topk *s, uint32_t i) {
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->count && topk_less(s, s->heap[l], s->heap[m])) m = l;
        if (r < s->count && topk_less(s, s->heap[r], s->heap[m])) m = r;
        if (m == i) return;
        topk_swap(s, i, m);
        i = m;
    }
}

static void topk_sift_up(collect_topk *s, uint32_t i) {
    while (i > 0 && topk_less(s, s->heap[i], s->heap[(i - 1) / 2])) {
        topk_swap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

/* Rewrites values keeping only the rows of live counters. */
static int topk_compact(const exec_agg *a, collect_topk *s, mu_err *err) {
    const collect_topk_bind *b = a->bind_state;
    ty_column *fresh;
    int rc = ty_column_create(b->elem, collect_tracker(a), &fresh, err);
    if (rc != 0) return rc;
    rc = ty_column_append_gather(fresh, s->values, s->rows_of, s->count, err);
    if (rc != 0) {
        ty_column_destroy(fresh);
        return rc;
    }
    for (uint32_t i = 0; i < s->count; i++) s->counters[i].row = s->rows_of[i] = i;
    ty_column_destroy(s->values);
    s->values = fresh;
    return 0;
}

/* Counts `weight` more of row `row` of view (hash h). */
static int topk_add(const exec_agg *a, collect_topk *s, const ty_column *view, uint32_t row,
                    uint64_t h, uint64_t weight, mu_err *err) {
    const collect_topk_bind *b = a->bind_state;
    int rc = topk_allocate(a, s, err);
    if (rc != 0) return rc;
    collect_eq_ctx eq = {s->values, view, row, s->rows_of};
    int64_t found = map_find(&s->map, h, collect_eq_row, &eq);
    if (found >= 0) {
        s->counters[found].count += weight;
        topk_sift_down(s, s->counters[found].heap);
        return 0;
    }
    if (s->values->row_count >= 2 * b->capacity + 1024 && (rc = topk_compact(a, s, err)) != 0)
        return rc;
    uint32_t at = s->values->row_count, index;
    if ((rc = ty_column_append_from(s->values, view, row, err)) != 0) return rc;
    uint64_t base = 0;
    if (s->count < b->capacity) {
        index = s->count++;
        s->counters[index].heap = index;
        s->heap[index] = index;
    } else {
        index = s->heap[0];
        base = s->counters[index].count;
        map_remove(&s->map, s->counters[index].hash, index);
    }
    collect_counter *c = &s->counters[index];
    *c = (collect_counter){base + weight, base, s->next_seq++, h, at, c->heap};
    s->rows_of[index] = at;
    if ((rc = map_insert(collect_tracker(a), &s->map, h, index, err)) != 0) return rc;
    topk_sift_up(s, c->heap);
    topk_sift_down(s, c->heap);
    return 0;
}

static int topk_update(const exec_agg *a, void *const *states, const exec_arg *args,
                       uint32_t rows, mu_err *err) {
    ty_column view_buf;
    const ty_column *view = collect_view(args[0].column, &view_buf);
    for (uint32_t r = 0; r < rows; r++) {
        if (states[r] == NULL || exec_arg_is_null_row(&args[0], r)) continue;
        uint32_t row = exec_arg_row(&args[0], r);
        int rc = topk_add(a, states[r], view, row, collect_hash_row(view, row, COLLECT_SEED_A), 1,
                          err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* One counter of a merge or an answer: the value (column, row) and its
 * numbers. */
typedef struct collect_entry {
    const ty_column *values;
    uint32_t row;
    uint32_t index; /* counter index in its state */
    uint64_t count, error, seq, hash;
} collect_entry;

/* The answer's order: count desc, error asc, first seen first. */
static int topk_entry_cmp(const void *x, const void *y) {
    const collect_entry *p = x, *q = y;
    if (p->count != q->count) return p->count > q->count ? -1 : 1;
    if (p->error != q->error) return p->error < q->error ? -1 : 1;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

static int topk_seq_cmp(const void *x, const void *y) {
    const collect_entry *p = x, *q = y;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

/* The counters of s as entries (malloc'd), sorted by cmp. */
static collect_entry *topk_entries(const collect_topk *s, int (*cmp)(const void *, const void *),
                                   mu_err *err) {
    collect_entry *e = exec__scratch(s->count ? s->count : 1, sizeof(*e), err);
    if (e == NULL) return NULL;
    for (uint32_t i = 0; i < s->count; i++) {
        const collect_counter *c = &s->counters[i];
        e[i] = (collect_entry){s->values, c->row, i, c->count, c->error, c->seq, c->hash};
    }
    qsort(e, s->count, sizeof(*e), cmp);
    return e;
}

/* Rebuilds s from entries (already limited to the capacity). */
static int topk_rebuild(const exec_agg *a, collect_topk *s, const collect_entry *e, uint32_t n,
                        uint64_t next_seq, mu_err *err) {
    collect_topk fresh;
    topk_init(a, &fresh);
    int rc = n ? topk_allocate(a, &fresh, err) : 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        rc = ty_column_append_from(fresh.values, e[i].values, e[i].row, err);
        fresh.counters[i] = (collect_counter){e[i].count, e[i].error, e[i].seq, e[i].hash, i, i};
        fresh.heap[i] = fresh.rows_of[i] = i;
        fresh.count = i + 1;
        if (rc == 0) rc = map_insert(collect_tracker(a), &fresh.map, e[i].hash, i, err);
    }
    for (uint32_t i = fresh.count / 2; i-- > 0;) topk_sift_down(&fresh, i);
    fresh.next_seq = next_seq;
    if (rc != 0) {
        topk_destroy(a, &fresh);
        return rc;
    }
    topk_destroy(a, s);
    *s = fresh;
    return 0;
}

/* A full side's smallest count: what a value it lacks may have had. */
static uint64_t topk_floor(const exec_agg *a, const collect_topk *s) {
    const collect_topk_bind *b = a->bind_state;
    return s->count == b->capacity ? s->counters[s->heap[0]].count : 0;
}

/* Adds dst's counters to e, credited with src's counts (or floor). */
static uint32_t topk_merge_dst(const collect_topk *d, const collect_topk *s, uint64_t m_src,
                               bool *matched, collect_entry *e) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->count; i++) {
        const collect_counter *c = &d->counters[i];
        collect_eq_ctx eq = {s->values, d->values, c->row, s->rows_of};
        int64_t j = s->count ? map_find(&s->map, c->hash, collect_eq_row, &eq) : -1;
        uint64_t add_c = j >= 0 ? s->counters[j].count : m_src;
        uint64_t add_e = j >= 0 ? s->counters[j].error : m_src;
        if (j >= 0) matched[j] = true;
        e[n++] = (collect_entry){d->values, c->row, i, c->count + add_c, c->error + add_e,
                                 c->seq, c->hash};
    }
    return n;
}

static int topk_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const collect_topk_bind *b = a->bind_state;
    collect_topk *d = dst;
    const collect_topk *s = src;
    if (s->count == 0) return 0;
    uint64_t m_dst = topk_floor(a, d), m_src = topk_floor(a, s);
    collect_entry *e = exec__scratch((size_t)d->count + s->count, sizeof(*e), err);
    bool *matched = e ? calloc(s->count, sizeof(*matched)) : NULL;
    collect_entry *by_seq = matched ? topk_entries(s, topk_seq_cmp, err) : NULL;
    int rc = 0;
    if (by_seq == NULL) {
        rc = matched == NULL && e != NULL ? MU_ERR(err, MU_ENOMEM, "out of memory merging topK")
                                          : err->code;
        goto done;
    }
    uint32_t n = topk_merge_dst(d, s, m_src, matched, e);
    uint64_t next_seq = d->next_seq;
    /* src's other values follow dst's, in the order src first saw them */
    for (uint32_t k = 0; k < s->count; k++) {
        const collect_entry *c = &by_seq[k];
        if (matched[c->index]) continue;
        e[n++] = (collect_entry){s->values, c->row, 0, c->count + m_dst, c->error + m_dst,
                                 next_seq++, c->hash};
    }
    if (n > b->capacity) {
        qsort(e, n, sizeof(*e), topk_entry_cmp);
        n = b->capacity;
    }
    rc = topk_rebuild(a, d, e, n, next_seq, err);
done:
    free(by_seq);
    free(matched);
    free(e);
    return rc;
}

static int topk_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    const collect_topk_bind *b = a->bind_state;
    const collect_topk *s = state;
    int rc = mu_buf_append_varint(out, s->count, err);
    if (rc == 0) rc = mu_buf_append_varint(out, s->next_seq, err);
    for (uint32_t i = 0; i < s->count && rc == 0; i++) {
        const collect_counter *c = &s->counters[i];
        rc = mu_buf_append_varint(out, c->count, err);
        if (rc == 0) rc = mu_buf_append_varint(out, c->error, err);
        if (rc == 0) rc = mu_buf_append_varint(out, c->seq, err);
    }
    if (rc != 0 || s->count == 0) return rc != 0 ? rc : collect_write_rows(NULL, 0, out, err);
    ty_column *rows;
    rc = ty_column_create(b->elem, NULL, &rows, err);
    if (rc != 0) return rc;
    rc = ty_column_append_gather(rows, s->values, s->rows_of, s->count, err);
    if (rc == 0) rc = collect_write_rows(rows, s->count, out, err);
    ty_column_destroy(rows);
    return rc;
}

/* Reads the counters' numbers: count, error, sequence each. */
static int topk_read_counters(const exec_agg *a, collect_entry *e, uint64_t n, uint64_t next_seq,
                              const uint8_t *bytes, size_t length, size_t *p, mu_err *err) {
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v[3];
        for (int k = 0; k < 3; k++) {
            size_t q = mu_varint_decode(bytes + *p, length - *p, &v[k]);
            if (q == 0) return collect_corrupt(a, "truncated counters", err);
            *p += q;
        }
        if (v[1] > v[0] || v[2] >= next_seq) return collect_corrupt(a, "bad counter", err);
        e[i] = (collect_entry){NULL, (uint32_t)i, (uint32_t)i, v[0], v[1], v[2], 0};
    }
    return 0;
}

static int topk_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                            size_t *used_out, mu_err *err) {
    const collect_topk_bind *b = a->bind_state;
    uint64_t n, next_seq;
    size_t p = mu_varint_decode(bytes, length, &n), q;
    if (p == 0 || n > b->capacity || (q = mu_varint_decode(bytes + p, length - p, &next_seq)) == 0)
        return collect_corrupt(a, "bad counter count", err);
    p += q;
    collect_entry *e = exec__scratch(n ? n : 1, sizeof(*e), err);
    if (e == NULL) return err->code;
    ty_column *rows = NULL;
    int rc = topk_read_counters(a, e, n, next_seq, bytes, length, &p, err);
    if (rc == 0) rc = collect_read_rows(a, b->elem, &rows, n, bytes + p, length - p, &q, err);
    if (rc == 0 && collect_rows(rows) != n) rc = collect_corrupt(a, "values do not match", err);
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        e[i].values = rows;
        e[i].hash = collect_hash_row(rows, (uint32_t)i, COLLECT_SEED_A);
    }
    if (rc == 0) rc = topk_rebuild(a, state, e, (uint32_t)n, next_seq, err);
    const collect_topk *s = state;
    for (uint32_t i = 0; i < s->count && rc == 0; i++) {
        collect_eq_ctx eq = {s->values, s->values, i, s->rows_of};
        if (map_find(&s->map, s->counters[i].hash, collect_eq_row, &eq) != (int64_t)i)
            rc = collect_corrupt(a, "repeated value", err);
    }
    ty_column_destroy(rows);
    free(e);
    if (rc == 0) *used_out = p + q;
    return rc;
}

static int topk_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    const collect_topk_bind *b = a->bind_state;
    const collect_topk *s = state;
    collect_entry *e = topk_entries(s, topk_entry_cmp, err);
    uint32_t *rows = e ? exec__scratch(s->count ? s->count : 1, sizeof(*rows), err) : NULL;
    if (rows == NULL) {
        free(e);
        return err->code;
    }
    uint32_t n = MU_MIN(s->count, b->n);
    for (uint32_t i = 0; i < n; i++) rows[i] = e[i].row;
    int rc = 0;
    if (n > 0) rc = ty_column_append_gather(ty_column_child_mut(out, 0), s->values, rows, n, err);
    if (rc == 0) rc = ty_column_append_nested_end(out, err);
    free(rows);
    free(e);
    return rc;
}

/* A non-negative integer parameter of topK. */
static int topk_param(const exec_agg *a, uint32_t i, uint64_t *out, mu_err *err) {
    const ty_column *p = a->params[i];
    const ty_type *t = ty_type_strip_nullable(p->type);
    char tn[128];
    if (!exec_type_is_integer(t) || ty_column_is_null(p, 0) ||
        (exec_type_is_signed(t) && exec_get_i64(p, 0) < 0))
        return MU_ERR(err, MU_ECANNOT_CONVERT, "Cannot convert %s to UInt64",
                      ty_type_name(t, tn, sizeof(tn)));
    *out = exec_get_u64(p, 0);
    return 0;
}

static int topk_params(exec_agg *a, collect_topk_bind *b, mu_err *err) {
    const char *name = a->function->name;
    uint64_t n = 10, load = 3;
    if (a->param_count > 3)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function '%s' requires three parameters or less", name);
    int rc = a->param_count >= 1 ? topk_param(a, 0, &n, err) : 0;
    if (rc == 0 && a->param_count >= 2) rc = topk_param(a, 1, &load, err);
    if (rc != 0) return rc;
    if (a->param_count >= 2 && load < 1)
        return MU_ERR(err, MU_EOUT_OF_BOUND, "Too small parameter 'load_factor' for aggregate "
                      "function '%s' (got %llu, minimum is 1)", name, (unsigned long long)load);
    if (a->param_count == 3) {
        const ty_column *p = a->params[2];
        size_t len = 0;
        const char *text = ty_type_strip_nullable(p->type)->kind == TY_STRING
                               ? exec_get_str(p, 0, &len) : "";
        if (len == 6 && memcmp(text, "counts", 6) == 0)
            return MU_ERR(err, MU_ENOT_SUPPORTED, "topK with 'counts' is not supported yet");
        return MU_ERR(err, MU_EINVAL, "Aggregate function %s doesn't support a parameter: %.*s",
                      name, (int)len, text);
    }
    if (n > COLLECT_TOPK_MAX || load > COLLECT_TOPK_MAX || n * load > COLLECT_TOPK_MAX)
        return MU_ERR(err, MU_EOUT_OF_BOUND, "Too large parameter(s) for aggregate function '%s' "
                      "(maximum is %u)", name, COLLECT_TOPK_MAX);
    if (n == 0)
        return MU_ERR(err, MU_EOUT_OF_BOUND, "Parameter 0 is illegal for aggregate function '%s'",
                      name);
    b->n = (uint32_t)n;
    b->capacity = (uint32_t)(n * load);
    return 0;
}

static int topk_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    if (a->arg_count != 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires single argument", a->function->name);
    collect_topk_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    int rc = topk_params(a, b, err);
    if (rc != 0) return rc;
    b->elem = ty_type_strip_nullable(a->arg_types[0]);
    a->result_type = collect_array_of(arena, b->elem, err);
    if (a->result_type == NULL) return err->code;
    a->bind_state = b;
    a->state_bytes = sizeof(collect_topk);
    a->init = topk_init;
    a->update = topk_update;
    a->merge = topk_merge;
    a->serialize = topk_serialize;
    a->deserialize = topk_deserialize;
    a->finalize = topk_finalize;
    a->destroy = topk_destroy;
    return 0;
}

/* ---- groupBitAnd, groupBitOr, groupBitXor ---------------------------------------- */

typedef enum collect_bit_op {
    COLLECT_BIT_AND,
    COLLECT_BIT_OR,
    COLLECT_BIT_XOR,
} collect_bit_op;

typedef struct collect_bit_bind {
    collect_bit_op op;
} collect_bit_bind;

static void bit_init(const exec_agg *a, void *state) {
    const collect_bit_bind *b = a->bind_state;
    *(uint64_t *)state = b->op == COLLECT_BIT_AND ? UINT64_MAX : 0; /* AND starts all ones */
}

static void bit_fold(collect_bit_op op, uint64_t *acc, uint64_t v) {
    switch (op) {
    case COLLECT_BIT_AND: *acc &= v; break;
    case COLLECT_BIT_OR: *acc |= v; break;
    default: *acc ^= v; break;
    }
}

static int bit_update(const exec_agg *a, void *const *states, const exec_arg *args, uint32_t rows,
                      mu_err *err) {
    const collect_bit_bind *b = a->bind_state;
    uint64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_u64(&args[0], rows, v);
    for (uint32_t r = 0; r < rows; r++)
        if (states[r] != NULL) bit_fold(b->op, states[r], v[r]);
    free(v);
    return 0;
}

static int bit_update_all(const exec_agg *a, void *state, const exec_arg *args, uint32_t rows,
                          mu_err *err) {
    const collect_bit_bind *b = a->bind_state;
    uint64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_u64(&args[0], rows, v);
    uint64_t acc = *(uint64_t *)state;
    if (b->op == COLLECT_BIT_AND) for (uint32_t r = 0; r < rows; r++) acc &= v[r];
    else if (b->op == COLLECT_BIT_OR) for (uint32_t r = 0; r < rows; r++) acc |= v[r];
    else for (uint32_t r = 0; r < rows; r++) acc ^= v[r];
    *(uint64_t *)state = acc;
    free(v);
    return 0;
}

static int bit_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    (void)err;
    const collect_bit_bind *b = a->bind_state;
    bit_fold(b->op, dst, *(const uint64_t *)src);
    return 0;
}

static int bit_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    (void)a;
    return mu_buf_append_u64le(out, *(const uint64_t *)state, err);
}

static int bit_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                           size_t *used_out, mu_err *err) {
    if (length < 8) return collect_corrupt(a, "truncated bits", err);
    *(uint64_t *)state = mu_load_u64le(bytes);
    *used_out = 8;
    return 0;
}

static int bit_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    (void)a;
    return ty_column_append_value(out, state, err); /* little-endian: the low bytes */
}

static int bit_bind(exec_agg *a, mu_arena *arena, collect_bit_op op, mu_err *err) {
    if (a->arg_count != 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires single argument", a->function->name);
    const ty_type *t = a->arg_types[0];
    if (t->kind == TY_NOTHING) {
        a->result_type = t;
    } else if (exec_type_is_integer(t) || t->kind == TY_BOOL) {
        a->result_type = t->kind == TY_BOOL ? ty_type_builtin(TY_UINT8) : t;
    } else {
        char tn[128];
        return MU_ERR(err, MU_EILLEGAL_TYPE, "The type %s of argument for aggregate function %s "
                      "is illegal, because it cannot be used in bitwise operations",
                      ty_type_name(t, tn, sizeof(tn)), a->function->name);
    }
    collect_bit_bind *b = mu_arena_calloc(arena, 1, sizeof(*b), err);
    if (b == NULL) return err->code;
    b->op = op;
    a->bind_state = b;
    a->state_bytes = sizeof(uint64_t);
    a->init = bit_init;
    a->update = bit_update;
    a->update_all = bit_update_all;
    a->merge = bit_merge;
    a->serialize = bit_serialize;
    a->deserialize = bit_deserialize;
    a->finalize = bit_finalize;
    return 0;
}

static int bit_and_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return bit_bind(a, arena, COLLECT_BIT_AND, err);
}
static int bit_or_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return bit_bind(a, arena, COLLECT_BIT_OR, err);
}
static int bit_xor_bind(exec_agg *a, mu_arena *arena, mu_err *err) {
    return bit_bind(a, arena, COLLECT_BIT_XOR, err);
}

/* ---- registry ------------------------------------------------------------------- */

#define CI EXEC_AGG_CASE_INSENSITIVE
#define OWN_NULLS EXEC_AGG_NULLS_CUSTOM
#define PARAMS EXEC_AGG_NEEDS_PARAMS

static const exec_aggregate agg_group_array = {"groupArray", PARAMS | OWN_NULLS, array_bind};
static const exec_aggregate agg_array_agg = {"array_agg", PARAMS | OWN_NULLS | CI, array_bind};
static const exec_aggregate agg_group_uniq_array = {"groupUniqArray", PARAMS | OWN_NULLS,
                                                    uniq_array_bind};
static const exec_aggregate agg_uniq_exact = {"uniqExact", OWN_NULLS, uniq_exact_bind};
/* count(DISTINCT x) and countDistinct(x): uniqExact, ClickHouse's default
 * count_distinct_implementation. */
static const exec_aggregate agg_count_distinct = {"countDistinct", OWN_NULLS, uniq_exact_bind};
static const exec_aggregate agg_uniq = {"uniq", OWN_NULLS, uniq_bind};
static const exec_aggregate agg_uniq_combined = {"uniqCombined", PARAMS | OWN_NULLS,
                                                 uniq_combined_bind};
static const exec_aggregate agg_uniq_combined64 = {"uniqCombined64", PARAMS | OWN_NULLS,
                                                   uniq_combined_bind};
static const exec_aggregate agg_top_k = {"topK", PARAMS | OWN_NULLS, topk_bind};
static const exec_aggregate agg_bit_and = {"groupBitAnd", 0, bit_and_bind};
static const exec_aggregate agg_bit_or = {"groupBitOr", 0, bit_or_bind};
static const exec_aggregate agg_bit_xor = {"groupBitXor", 0, bit_xor_bind};
static const exec_aggregate agg_bit_and_sql = {"BIT_AND", CI, bit_and_bind};
static const exec_aggregate agg_bit_or_sql = {"BIT_OR", CI, bit_or_bind};
static const exec_aggregate agg_bit_xor_sql = {"BIT_XOR", CI, bit_xor_bind};

const exec_aggregate *const exec__aggregates_collect[] = {
    &agg_group_array,     &agg_array_agg, &agg_group_uniq_array, &agg_uniq_exact,
    &agg_count_distinct,
    &agg_uniq,            &agg_uniq_combined, &agg_uniq_combined64, &agg_top_k,
    &agg_bit_and,         &agg_bit_or,    &agg_bit_xor,          &agg_bit_and_sql,
    &agg_bit_or_sql,      &agg_bit_xor_sql, NULL,
};
