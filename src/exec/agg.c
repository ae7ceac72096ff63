/* agg.c: binding of aggregate functions: name lookup with combinators
 * (-If; -State and -Merge answer "not supported yet" until the
 * AggregateFunction type exists) and ClickHouse's default NULL handling
 * (rows with a NULL argument are skipped; a Nullable argument makes the
 * result Nullable and NULL when no row was added). Wrappers are exec_agg
 * values whose bind_state is the wrapped exec_agg, so combinators nest.
 */
#include "exec/exec_int.h"

#include <stdlib.h>
#include <string.h>

/* Every state block starts at a 16-byte boundary; a wrapper puts its own
 * bytes first and the wrapped state at this offset. */
#define AGG_WRAP_OFFSET 16u

static bool agg_has_suffix(const char *name, size_t n, const char *suffix, size_t *stem_out) {
    size_t s = strlen(suffix);
    if (n <= s || memcmp(name + n - s, suffix, s) != 0) return false;
    *stem_out = n - s;
    return true;
}

bool exec_is_aggregate_name(const char *name, size_t name_bytes) {
    size_t n = name_bytes;
    for (int depth = 0; depth < 4; depth++) {
        if (exec_aggregate_find(name, n)) return true;
        size_t stem;
        if (agg_has_suffix(name, n, "If", &stem) || agg_has_suffix(name, n, "State", &stem) ||
            agg_has_suffix(name, n, "Merge", &stem) || agg_has_suffix(name, n, "OrNull", &stem) ||
            agg_has_suffix(name, n, "OrDefault", &stem))
            n = stem;
        else
            return false;
    }
    return false;
}

/* ---- -If ------------------------------------------------------------ */

static const exec_agg *agg_inner(const exec_agg *a) { return a->bind_state; }

static void agg_if_init(const exec_agg *a, void *state) { agg_inner(a)->init(agg_inner(a), state); }

static int agg_if_update(const exec_agg *a, void *const *states, const exec_arg *args,
                         uint32_t rows, mu_err *err) {
    const exec_agg *in = agg_inner(a);
    const exec_arg *cond = &args[a->arg_count - 1];
    void **filtered = exec__scratch(rows, sizeof(*filtered), err);
    if (filtered == NULL) return err->code;
    for (uint32_t i = 0; i < rows; i++) {
        uint32_t r = exec_arg_row(cond, i);
        bool keep = !ty_column_is_null(cond->column, r) && exec_get_u64(cond->column, r) != 0;
        filtered[i] = keep ? states[i] : NULL;
    }
    int rc = in->update(in, filtered, args, rows, err);
    free(filtered);
    return rc;
}

static int agg_passthrough_update(const exec_agg *a, void *const *states, const exec_arg *args,
                                  uint32_t rows, mu_err *err) {
    return agg_inner(a)->update(agg_inner(a), states, args, rows, err);
}

static int agg_passthrough_update_all(const exec_agg *a, void *state, const exec_arg *args,
                                      uint32_t rows, mu_err *err) {
    return agg_inner(a)->update_all(agg_inner(a), state, args, rows, err);
}

static int agg_if_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    return agg_inner(a)->merge(agg_inner(a), dst, src, err);
}
static int agg_if_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    return agg_inner(a)->serialize(agg_inner(a), state, out, err);
}
static int agg_if_deserialize(const exec_agg *a, void *state, const uint8_t *bytes, size_t length,
                              size_t *used_out, mu_err *err) {
    return agg_inner(a)->deserialize(agg_inner(a), state, bytes, length, used_out, err);
}
static int agg_if_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    return agg_inner(a)->finalize(agg_inner(a), state, out, err);
}
static void agg_if_destroy(const exec_agg *a, void *state) {
    if (agg_inner(a)->destroy) agg_inner(a)->destroy(agg_inner(a), state);
}

/* ---- NULL skipping ---------------------------------------------------- */

static void agg_null_init(const exec_agg *a, void *state) {
    memset(state, 0, AGG_WRAP_OFFSET);
    agg_inner(a)->init(agg_inner(a), (uint8_t *)state + AGG_WRAP_OFFSET);
}

static int agg_null_update(const exec_agg *a, void *const *states, const exec_arg *args,
                           uint32_t rows, mu_err *err) {
    const exec_agg *in = agg_inner(a);
    void **inner = exec__scratch(rows, sizeof(*inner), err);
    if (inner == NULL) return err->code;
    for (uint32_t i = 0; i < rows; i++) {
        uint8_t *s = states[i];
        if (s == NULL) {
            inner[i] = NULL;
            continue;
        }
        bool any_null = false;
        for (uint32_t k = 0; k < a->arg_count && !any_null; k++)
            any_null = exec_arg_is_null_row(&args[k], i);
        if (any_null) {
            inner[i] = NULL;
            continue;
        }
        s[0] = 1;
        inner[i] = s + AGG_WRAP_OFFSET;
    }
    int rc = in->update(in, inner, args, rows, err);
    free(inner);
    return rc;
}

static int agg_null_merge(const exec_agg *a, void *dst, const void *src, mu_err *err) {
    const uint8_t *s = src;
    uint8_t *d = dst;
    if (!s[0]) return 0;
    d[0] = 1;
    return agg_inner(a)->merge(agg_inner(a), d + AGG_WRAP_OFFSET, s + AGG_WRAP_OFFSET, err);
}

static int agg_null_serialize(const exec_agg *a, const void *state, mu_buf *out, mu_err *err) {
    const uint8_t *s = state;
    int rc = mu_buf_append_u8(out, s[0], err);
    if (rc != 0 || !s[0]) return rc;
    return agg_inner(a)->serialize(agg_inner(a), s + AGG_WRAP_OFFSET, out, err);
}

static int agg_null_deserialize(const exec_agg *a, void *state, const uint8_t *bytes,
                                size_t length, size_t *used_out, mu_err *err) {
    uint8_t *s = state;
    if (length < 1) return MU_CORRUPT(err, "aggregate state of %s: empty", a->function->name);
    if (bytes[0] > 1)
        return MU_CORRUPT(err, "aggregate state of %s: bad NULL flag %u", a->function->name,
                          bytes[0]);
    s[0] = bytes[0];
    if (!s[0]) {
        *used_out = 1;
        return 0;
    }
    size_t used = 0;
    int rc = agg_inner(a)->deserialize(agg_inner(a), s + AGG_WRAP_OFFSET, bytes + 1, length - 1,
                                       &used, err);
    *used_out = used + 1;
    return rc;
}

static int agg_null_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    uint8_t *s = state;
    if (!s[0]) return ty_column_append_null(out, err);
    return agg_inner(a)->finalize(agg_inner(a), s + AGG_WRAP_OFFSET, out, err);
}

static void agg_null_destroy(const exec_agg *a, void *state) {
    if (agg_inner(a)->destroy)
        agg_inner(a)->destroy(agg_inner(a), (uint8_t *)state + AGG_WRAP_OFFSET);
}

/* ---- shared ------------------------------------------------------------ */

static int agg_update_all_via_update(const exec_agg *a, void *state, const exec_arg *args,
                                     uint32_t rows, mu_err *err) {
    void **states = exec__scratch(rows, sizeof(*states), err);
    if (states == NULL) return err->code;
    for (uint32_t i = 0; i < rows; i++) states[i] = state;
    int rc = a->update(a, states, args, rows, err);
    free(states);
    return rc;
}

static size_t agg_round16(size_t n) { return (n + 15u) & ~(size_t)15u; }

static int agg_bind_plain(const exec_context *ctx, mu_arena *arena, const exec_aggregate *fn,
                          const ty_type *const *arg_types, uint32_t arg_count,
                          const ty_column *const *params, uint32_t param_count, exec_agg *a,
                          mu_err *err) {
    bool custom = (fn->flags & EXEC_AGG_NULLS_CUSTOM) != 0;
    bool any_nullable = false;
    const ty_type **types = mu_arena_calloc(arena, arg_count ? arg_count : 1, sizeof(*types), err);
    if (types == NULL) return err->code;
    for (uint32_t i = 0; i < arg_count; i++) {
        const ty_type *t = arg_types[i];
        if (t->kind == TY_LOW_CARDINALITY) t = t->child;
        if (!custom && t->kind == TY_NULLABLE) {
            any_nullable = true;
            t = t->child;
        }
        types[i] = t;
    }
    if (param_count > 0 && !(fn->flags & EXEC_AGG_NEEDS_PARAMS))
        return MU_ERR(err, MU_EINVAL, "Aggregate function %s cannot have parameters", fn->name);
    exec_agg *inner = any_nullable ? mu_arena_calloc(arena, 1, sizeof(*inner), err) : a;
    if (inner == NULL) return err->code;
    memset(inner, 0, sizeof(*inner));
    inner->function = fn;
    inner->ctx = ctx;
    inner->arg_count = arg_count;
    inner->arg_types = types;
    inner->param_count = param_count;
    inner->params = params;
    int rc = fn->bind(inner, arena, err);
    if (rc != 0) return rc;
    inner->state_bytes = agg_round16(inner->state_bytes ? inner->state_bytes : 1);
    if (inner->update_all == NULL) inner->update_all = agg_update_all_via_update;
    if (!any_nullable) return 0;
    memset(a, 0, sizeof(*a));
    a->function = fn;
    a->ctx = ctx;
    a->arg_count = arg_count;
    a->arg_types = arg_types;
    a->param_count = param_count;
    a->params = params;
    a->bind_state = inner;
    a->state_bytes = AGG_WRAP_OFFSET + inner->state_bytes;
    rc = exec_type_make_nullable(inner->result_type, arena, &a->result_type, err);
    if (rc != 0) return rc;
    a->init = agg_null_init;
    a->update = agg_null_update;
    a->update_all = agg_update_all_via_update;
    a->merge = agg_null_merge;
    a->serialize = agg_null_serialize;
    a->deserialize = agg_null_deserialize;
    a->finalize = agg_null_finalize;
    a->destroy = agg_null_destroy;
    return 0;
}

/* ---- -State: the result is the serialized state ------------------------ */

static int agg_state_finalize(const exec_agg *a, void *state, ty_column *out, mu_err *err) {
    mu_buf b;
    mu_buf_init(&b, 0);
    int rc = agg_inner(a)->serialize(agg_inner(a), state, &b, err);
    if (rc == 0) rc = ty_column_append_bytes(out, b.data ? b.data : (const uint8_t *)"", b.length_bytes, err);
    mu_buf_deinit(&b);
    return rc;
}

static void agg_copy_header(exec_agg *a, const exec_agg *inner, const exec_context *ctx,
                            const ty_type *const *arg_types, uint32_t arg_count,
                            const ty_column *const *params, uint32_t param_count) {
    memset(a, 0, sizeof(*a));
    a->function = inner->function;
    a->ctx = ctx;
    a->arg_count = arg_count;
    a->arg_types = arg_types;
    a->param_count = param_count;
    a->params = params;
    a->bind_state = (void *)inner; /* read-only through agg_inner */
    a->state_bytes = inner->state_bytes;
}

static int agg_bind_state(const exec_context *ctx, mu_arena *arena, const char *name, size_t stem,
                          const ty_type *const *arg_types, uint32_t arg_count,
                          const ty_column *const *params, uint32_t param_count, exec_agg *a,
                          mu_err *err) {
    char *stem_name = mu_arena_strndup(arena, name, stem, err);
    exec_agg *inner = mu_arena_calloc(arena, 1, sizeof(*inner), err);
    ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
    const ty_type **args = mu_arena_calloc(arena, arg_count + 1, sizeof(*args), err);
    if (stem_name == NULL || inner == NULL || t == NULL || args == NULL) return err->code;
    int rc = exec_agg_bind(ctx, arena, stem_name, arg_types, arg_count, params, param_count, inner,
                           err);
    if (rc != 0) return rc;
    /* AggregateFunction(f[(params)], T...), as ClickHouse names the type. */
    mu_buf fn;
    mu_buf_init(&fn, 0);
    rc = mu_buf_append_str(&fn, stem_name, err);
    for (uint32_t i = 0; rc == 0 && i < param_count; i++) {
        rc = mu_buf_append_str(&fn, i ? ", " : "(", err);
        if (rc == 0) rc = ty_column_render_text(params[i], 0, TY_RENDER_QUOTED, &fn, err);
        if (rc == 0 && i + 1 == param_count) rc = mu_buf_append_u8(&fn, ')', err);
    }
    if (rc == 0) {
        t->kind = TY_STRING;
        t->aggregate_function = mu_arena_strndup(arena, (const char *)fn.data, fn.length_bytes, err);
        if (t->aggregate_function == NULL) rc = err->code;
    }
    mu_buf_deinit(&fn);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < arg_count; i++) {
        const ty_type *at = arg_types[i];
        if (at->kind == TY_LOW_CARDINALITY) at = at->child;
        args[i] = at;
    }
    t->aggregate_args = args;
    t->aggregate_arg_count = arg_count;
    agg_copy_header(a, inner, ctx, arg_types, arg_count, params, param_count);
    a->result_type = t;
    a->init = agg_if_init;
    a->update = agg_passthrough_update;
    a->update_all = agg_passthrough_update_all;
    a->merge = agg_if_merge;
    a->serialize = agg_if_serialize;
    a->deserialize = agg_if_deserialize;
    a->finalize = agg_state_finalize;
    a->destroy = agg_if_destroy;
    return 0;
}

/* ---- -Merge: the argument holds serialized states to combine ------------- */

static int agg_merge_update(const exec_agg *a, void *const *states, const exec_arg *args,
                            uint32_t rows, mu_err *err) {
    const exec_agg *in = agg_inner(a);
    void *tmp = aligned_alloc(16, in->state_bytes);
    if (tmp == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory merging states");
    int rc = 0;
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        if (states[i] == NULL) continue;
        size_t n, used = 0;
        const uint8_t *bytes = ty_column_row_bytes(args[0].column, exec_arg_row(&args[0], i), &n);
        in->init(in, tmp);
        rc = in->deserialize(in, tmp, bytes, n, &used, err);
        if (rc == 0 && used != n)
            rc = MU_CORRUPT(err, "state of %s: %zu bytes left over", a->function->name, n - used);
        if (rc == 0) rc = in->merge(in, states[i], tmp, err);
        if (in->destroy) in->destroy(in, tmp);
    }
    free(tmp);
    return rc;
}

static int agg_merge_update_all(const exec_agg *a, void *state, const exec_arg *args,
                                uint32_t rows, mu_err *err) {
    void **states = exec__scratch(rows, sizeof(*states), err);
    if (states == NULL) return err->code;
    for (uint32_t i = 0; i < rows; i++) states[i] = state;
    int rc = agg_merge_update(a, states, args, rows, err);
    free(states);
    return rc;
}

static int agg_bind_merge(const exec_context *ctx, mu_arena *arena, const char *name, size_t stem,
                          const ty_type *const *arg_types, uint32_t arg_count,
                          const ty_column *const *params, uint32_t param_count, exec_agg *a,
                          mu_err *err) {
    char tn[160];
    if (arg_count != 1)
        return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                      "Aggregate function %s requires one argument, passed %u", name, arg_count);
    const ty_type *t = arg_types[0];
    size_t fn_len = t->aggregate_function ? strcspn(t->aggregate_function, "(") : 0;
    if (t->aggregate_function == NULL || fn_len != stem ||
        memcmp(t->aggregate_function, name, stem) != 0)
        return MU_ERR(err, MU_EILLEGAL_TYPE,
                      "Illegal type %s of argument for aggregate function %s, expected "
                      "AggregateFunction(%.*s, ...)",
                      ty_type_name(t, tn, sizeof(tn)), name, (int)stem, name);
    char *stem_name = mu_arena_strndup(arena, name, stem, err);
    exec_agg *inner = mu_arena_calloc(arena, 1, sizeof(*inner), err);
    if (stem_name == NULL || inner == NULL) return err->code;
    int rc = exec_agg_bind(ctx, arena, stem_name, t->aggregate_args, t->aggregate_arg_count, params,
                           param_count, inner, err);
    if (rc != 0) return rc;
    agg_copy_header(a, inner, ctx, arg_types, arg_count, params, param_count);
    a->result_type = inner->result_type;
    a->init = agg_if_init;
    a->update = agg_merge_update;
    a->update_all = agg_merge_update_all;
    a->merge = agg_if_merge;
    a->serialize = agg_if_serialize;
    a->deserialize = agg_if_deserialize;
    a->finalize = agg_if_finalize;
    a->destroy = agg_if_destroy;
    return 0;
}

int exec_agg_bind(const exec_context *ctx, mu_arena *arena, const char *name,
                  const ty_type *const *arg_types, uint32_t arg_count,
                  const ty_column *const *params, uint32_t param_count, exec_agg *a,
                  mu_err *err) {
    size_t n = strlen(name);
    const exec_aggregate *fn = exec_aggregate_find(name, n);
    if (fn != NULL)
        return agg_bind_plain(ctx, arena, fn, arg_types, arg_count, params, param_count, a, err);
    size_t stem;
    if (agg_has_suffix(name, n, "If", &stem)) {
        if (arg_count == 0)
            return MU_ERR(err, MU_ENUMBER_OF_ARGUMENTS,
                          "Aggregate function %s requires at least one argument", name);
        const ty_type *cond = ty_type_strip_nullable(arg_types[arg_count - 1]);
        if (cond->kind != TY_UINT8 && cond->kind != TY_BOOL) {
            char tn[128];
            return MU_ERR(err, MU_EILLEGAL_TYPE,
                          "Illegal type %s of last argument for aggregate function with If suffix",
                          ty_type_name(arg_types[arg_count - 1], tn, sizeof(tn)));
        }
        char *stem_name = mu_arena_strndup(arena, name, stem, err);
        exec_agg *inner = mu_arena_calloc(arena, 1, sizeof(*inner), err);
        if (stem_name == NULL || inner == NULL) return err->code;
        int rc = exec_agg_bind(ctx, arena, stem_name, arg_types, arg_count - 1, params,
                               param_count, inner, err);
        if (rc != 0) return rc;
        memset(a, 0, sizeof(*a));
        a->function = inner->function;
        a->ctx = ctx;
        a->arg_count = arg_count;
        a->arg_types = arg_types;
        a->param_count = param_count;
        a->params = params;
        a->bind_state = inner;
        a->result_type = inner->result_type;
        a->state_bytes = inner->state_bytes;
        a->init = agg_if_init;
        a->update = agg_if_update;
        a->update_all = agg_update_all_via_update;
        a->merge = agg_if_merge;
        a->serialize = agg_if_serialize;
        a->deserialize = agg_if_deserialize;
        a->finalize = agg_if_finalize;
        a->destroy = agg_if_destroy;
        return 0;
    }
    if (agg_has_suffix(name, n, "State", &stem) && exec_is_aggregate_name(name, stem))
        return agg_bind_state(ctx, arena, name, stem, arg_types, arg_count, params, param_count, a,
                              err);
    if (agg_has_suffix(name, n, "Merge", &stem) && exec_is_aggregate_name(name, stem))
        return agg_bind_merge(ctx, arena, name, stem, arg_types, arg_count, params, param_count, a,
                              err);
    return MU_ERR(err, MU_EUNKNOWN_AGGREGATE, "Unknown aggregate function %s", name);
}
