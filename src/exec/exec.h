/* exec.h: pure compute over column vectors (prefix exec_): the scalar
 * function registry and its binding rules, bound expression trees and their
 * evaluation over batches, ClickHouse's type promotion (least supertype),
 * and the aggregate function registry with its state algebra
 * (init / update / merge / serialize / deserialize / finalize, DESIGN §7).
 * No storage, no I/O, no SQL text: the SQL binder (src/sql) turns the AST
 * into the trees built here. Rules for function authors: src/exec/README.md.
 */
#ifndef MUSCLES_EXEC_H
#define MUSCLES_EXEC_H

#include "base/base.h"
#include "types/types.h"

#include <stdbool.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Query context                                                       */
/* ------------------------------------------------------------------ */

/* What a query's functions may read besides their arguments. Fixed for the
 * life of one query (now() is the same in every row and every block). */
typedef struct exec_context {
    const ty_tz *timezone;       /* session zone: timezone(), toDateTime(x) */
    int64_t now_us;              /* query start, microseconds since the epoch */
    const char *database;        /* currentDatabase() */
    const char *version;         /* version() */
    const char *hostname;        /* hostName() */
    const char *display_name;    /* displayName(); NULL: hostname */
    uint32_t revision;           /* revision(): the client protocol revision answered */
    const char *user;            /* currentUser(); NULL: "default" */
    int64_t uptime_s;            /* uptime() */
    mu_mem_tracker *tracker;     /* the query's memory; may be NULL */
} exec_context;

/* ------------------------------------------------------------------ */
/* Arguments as kernels see them                                       */
/* ------------------------------------------------------------------ */

/* One argument of a call over `rows` rows: a column of `rows` rows, or a
 * constant (a column of one row that stands for every row). */
typedef struct exec_arg {
    const ty_column *column;
    bool is_const;
} exec_arg;

static inline uint32_t exec_arg_row(const exec_arg *a, uint32_t row) {
    return a->is_const ? 0 : row;
}

/* Any numeric, Bool, Date, Date32, DateTime, DateTime64 (ticks), Enum or
 * Decimal (the scaled integer) value as a wider number. */
double exec_get_f64(const ty_column *column, uint32_t row);
int64_t exec_get_i64(const ty_column *column, uint32_t row);
uint64_t exec_get_u64(const ty_column *column, uint32_t row);
/* String/FixedString bytes of a row (FixedString: all N bytes). */
static inline const char *exec_get_str(const ty_column *column, uint32_t row, size_t *bytes_out) {
    return (const char *)ty_column_row_bytes(column, row, bytes_out);
}

/* ------------------------------------------------------------------ */
/* Type helpers and promotion                                          */
/* ------------------------------------------------------------------ */

bool exec_type_is_integer(const ty_type *t);   /* UInt8..Int64 (not Bool) */
bool exec_type_is_float(const ty_type *t);     /* Float32, Float64 */
bool exec_type_is_number(const ty_type *t);    /* integer, float, Bool, Decimal */
bool exec_type_is_signed(const ty_type *t);
bool exec_type_is_string(const ty_type *t);    /* String or FixedString */
bool exec_type_is_date_or_time(const ty_type *t); /* Date, Date32, DateTime, DateTime64 */
bool exec_type_is_nothing(const ty_type *t);   /* Nothing or Nullable(Nothing) */
/* The integer kind of `bytes` bytes and the given signedness. */
ty_kind exec_int_kind(unsigned bytes, bool is_signed);
/* Nullable(t) (t itself if it already is, or cannot be: Array, Map,
 * LowCardinality); allocated in arena. */
int exec_type_make_nullable(const ty_type *t, mu_arena *arena, const ty_type **out,
                            mu_err *err);
/* ClickHouse's getLeastSupertype: the type all of types[0..count) convert
 * to without loss (UInt8 and Int8 give Int16, UInt64 and Int64 fail,
 * integers and floats give Float64, Nothing adds Nullable, String only
 * with String, Date with DateTime gives DateTime, arrays by element).
 * MU_ETYPE "There is no supertype for types A, B because ..." when none. */
int exec_type_supertype(const ty_type *const *types, uint32_t count, mu_arena *arena,
                        const ty_type **out, mu_err *err);

/* ------------------------------------------------------------------ */
/* Scalar functions                                                    */
/* ------------------------------------------------------------------ */

typedef struct exec_call exec_call;

/* Appends exactly `rows` rows of call->result_type to `out` (an empty
 * column of that type). args[i].column has the values of arg_types[i]:
 * with default NULL handling the columns may carry a validity bitmap that
 * the kernel ignores (values at NULL rows are the type's default, so any
 * arithmetic on them is defined; a kernel must not fail on them: it
 * checks exec_arg_is_null_row before raising a per-value error).
 * LowCardinality arguments are materialised before the call. */
typedef int (*exec_kernel_fn)(const exec_call *call, const exec_arg *args, uint32_t rows,
                              ty_column *out, mu_err *err);

static inline bool exec_arg_is_null_row(const exec_arg *a, uint32_t row) {
    return ty_column_is_null(a->column, exec_arg_row(a, row));
}

struct exec_call {
    const struct exec_function *function;
    const exec_context *ctx;
    uint32_t arg_count;
    const ty_type *const *arg_types; /* as the kernel sees them (see flags) */
    const ty_column *const *arg_consts; /* 1-row constant per argument, or NULL */
    const struct exec_expr *const *arg_exprs; /* the argument expressions, or NULL */
    /* set by bind: */
    exec_kernel_fn kernel;
    const ty_type *result_type;      /* what the kernel appends */
    void *state;                     /* bind's private data (arena) */
};

/* What bind may use: an arena for result types and state (query
 * lifetime). Bind checks argument count and types and fails with
 * MU_ENUMBER_OF_ARGUMENTS / MU_EILLEGAL_TYPE naming the function, the
 * argument and its type, as ClickHouse words it. A constant argument's
 * value is in call->arg_consts[i] (functions like toDecimal32(x, S),
 * toDateTime(x, 'zone') need it; a required constant that is not one is
 * MU_EILLEGAL_COLUMN). */
typedef int (*exec_bind_fn)(exec_call *call, mu_arena *arena, mu_err *err);

enum exec_function_flags {
    /* The kernel sees Nullable arguments as they are and decides its own
     * result nullability (isNull, coalesce, ifNull, if, multiIf, ...).
     * Without it: a Nullable argument makes the result Nullable, a NULL in
     * any argument makes that row NULL, and the kernel sees arg_types
     * without Nullable; an argument of type Nullable(Nothing) makes the
     * whole call a constant NULL of type Nullable(Nothing) unbound. */
    EXEC_FN_NULLS_CUSTOM = 1u << 0,
    /* Name matched case-insensitively (SQL-standard names: lower, upper,
     * length, substring, concat, coalesce, if, ...). */
    EXEC_FN_CASE_INSENSITIVE = 1u << 1,
    /* Never folded into a constant at bind time (rand, rowNumberInBlock). */
    EXEC_FN_VOLATILE = 1u << 2,
    /* With default NULL handling, bind may return a Nullable result
     * (JSONExtract(j, 'Nullable(T)')): the kernel's NULLs stay and rows
     * with a NULL argument become NULL too. */
    EXEC_FN_RESULT_NULLABLE_OK = 1u << 3,
    /* The value depends on when or where the query runs, not only on the
     * arguments (now, today, uptime); folded per query, but refused in
     * table keys. EXEC_FN_VOLATILE functions are not deterministic either. */
    EXEC_FN_NOT_DETERMINISTIC = 1u << 4,
};

typedef struct exec_function {
    const char *name;
    uint32_t flags;
    exec_bind_fn bind;
} exec_function;

/* A NULL-terminated list of functions, one per source file
 * (fn_arith.c: exec_functions_arith, ...). */
typedef const exec_function *const exec_function_list;

/* Looks up a scalar function by name; NULL if there is none. */
const exec_function *exec_function_find(const char *name, size_t name_bytes);
/* Calls fn for every registered scalar and aggregate function
 * (system.functions). */
void exec_function_foreach(void (*fn)(void *ctx, const char *name, bool is_aggregate,
                                      bool case_insensitive),
                           void *ctx);

/* ------------------------------------------------------------------ */
/* Expression trees                                                    */
/* ------------------------------------------------------------------ */

typedef enum exec_expr_kind {
    EXEC_EXPR_CONST = 1, /* a 1-row column */
    EXEC_EXPR_INPUT,     /* a column of the input batch */
    EXEC_EXPR_CALL,      /* a bound scalar function call */
} exec_expr_kind;

typedef struct exec_expr {
    exec_expr_kind kind;
    const ty_type *type;         /* result type */
    ty_column *constant;         /* CONST: 1 row of `type` (owned by the builder) */
    uint32_t input_index;        /* INPUT */
    const ty_type *input_type;   /* INPUT: the input's own type (LowCardinality kept) */
    exec_call call;              /* CALL */
    struct exec_expr **args;     /* CALL */
    uint32_t arg_count;
    bool nulls_default;          /* CALL: the framework applies NULL rows */
} exec_expr;

/* Builds expressions for one query: owns their arena and constants. */
typedef struct exec_builder {
    mu_arena *arena;
    const exec_context *ctx;
    ty_column **owned;
    uint32_t owned_count;
    uint32_t owned_capacity;
} exec_builder;

int exec_builder_init(exec_builder *b, const exec_context *ctx, mu_arena *arena, mu_err *err);
void exec_builder_deinit(exec_builder *b);
/* Takes ownership of column (freed by exec_builder_deinit). */
int exec_builder_own(exec_builder *b, ty_column *column, mu_err *err);

/* A constant: column (taken, 1 row) of its type. */
int exec_expr_const_take(exec_builder *b, ty_column *column, exec_expr **out, mu_err *err);
/* Constants from C values: UInt64 (the narrowest unsigned type that holds
 * it, as ClickHouse types literals), Int64 (narrowest signed), Float64,
 * String, NULL (Nullable(Nothing)). */
int exec_expr_const_uint(exec_builder *b, uint64_t value, exec_expr **out, mu_err *err);
int exec_expr_const_int(exec_builder *b, int64_t value, exec_expr **out, mu_err *err);
int exec_expr_const_float(exec_builder *b, double value, exec_expr **out, mu_err *err);
int exec_expr_const_string(exec_builder *b, const char *data, size_t bytes, exec_expr **out,
                           mu_err *err);
int exec_expr_const_null(exec_builder *b, exec_expr **out, mu_err *err);
/* Column input_index of the input batch, of `type` (LowCardinality is
 * materialised: the expression's type is the dictionary's type). */
int exec_expr_input(exec_builder *b, uint32_t input_index, const ty_type *type,
                    exec_expr **out, mu_err *err);
/* Binds function `name` to args (borrowed nodes of this builder). Unknown
 * name: MU_EUNKNOWN_FUNCTION ("Unknown function x"). A call whose
 * arguments are all constants is evaluated now and returned as a
 * constant (unless the function is volatile). */
int exec_expr_call(exec_builder *b, const char *name, exec_expr **args, uint32_t arg_count,
                   exec_expr **out, mu_err *err);
/* CAST(x AS type): `type` in the builder's arena. ClickHouse's CAST rules
 * (numbers with overflow errors for constants, strings parsed strictly,
 * Nullable wrapping). */
int exec_expr_cast(exec_builder *b, exec_expr *arg, const ty_type *type, exec_expr **out,
                   mu_err *err);

/* Higher-order functions (arrayMap, arrayFilter, arrayExists, arrayAll,
 * arrayCount, arrayFirst, arrayFirstIndex, arraySum): `body` is bound over
 * inputs [lambda parameters..., captures...]: parameter i is element i of
 * arrays[i] (all arrays of a row must have equal lengths), capture k is
 * captures[k] evaluated over the outer rows and repeated for each element.
 * MU_EUNKNOWN_FUNCTION if name is not a higher-order function. */
bool exec_function_takes_lambda(const char *name);
int exec_expr_call_lambda(exec_builder *b, const char *name, exec_expr *body,
                          uint32_t param_count, exec_expr **arrays, exec_expr **captures,
                          uint32_t capture_count, exec_expr **out, mu_err *err);

/* The result of evaluating an expression over `rows` rows. */
typedef struct exec_value {
    const ty_column *column; /* rows rows, or 1 row when is_const */
    bool is_const;
    ty_column *owned;        /* column, when the evaluation created it */
} exec_value;

void exec_value_release(exec_value *v); /* accepts a zeroed value */
/* Evaluates e over inputs (each a column of `rows` rows). */
int exec_eval(const exec_expr *e, const exec_context *ctx, const ty_column *const *inputs,
              uint32_t rows, exec_value *out, mu_err *err);
/* As exec_eval, then expands a constant to `rows` rows: *out_column is a
 * new column (owned by the caller) of e->type. */
int exec_eval_full(const exec_expr *e, const exec_context *ctx, const ty_column *const *inputs,
                   uint32_t rows, ty_column **out_column, mu_err *err);
/* A filter's selected rows: rows where the value is non-zero and not NULL.
 * sel_out holds rows entries; *count_out gets how many were selected. The
 * value must be a number or Bool (else MU_EILLEGAL_TYPE naming it). */
int exec_value_to_selection(const exec_value *v, uint32_t rows, uint32_t *sel_out,
                            uint32_t *count_out, mu_err *err);
/* A new column of `rows` copies of row 0 of `column`. */
int exec_column_replicate(const ty_column *column, uint32_t rows, mu_mem_tracker *tracker,
                          ty_column **out, mu_err *err);

/* ------------------------------------------------------------------ */
/* Aggregate functions                                                 */
/* ------------------------------------------------------------------ */

typedef struct exec_aggregate exec_aggregate;

/* A bound aggregate. States are caller-allocated blocks of state_bytes
 * aligned to 16; init prepares one, destroy frees what it owns. */
typedef struct exec_agg {
    const exec_aggregate *function;
    const exec_context *ctx;
    uint32_t arg_count;
    const ty_type *const *arg_types;   /* as update sees them */
    uint32_t param_count;
    const ty_column *const *params;    /* quantile(0.9): 1-row constants */
    /* set by bind: */
    const ty_type *result_type;        /* what finalize appends */
    size_t state_bytes;
    void *bind_state;
    void (*init)(const struct exec_agg *a, void *state);
    /* Adds rows [0, rows) to states[i] (NULL: skip row i). */
    int (*update)(const struct exec_agg *a, void *const *states, const exec_arg *args,
                  uint32_t rows, mu_err *err);
    /* Adds every row of args to one state (no GROUP BY). */
    int (*update_all)(const struct exec_agg *a, void *state, const exec_arg *args,
                      uint32_t rows, mu_err *err);
    int (*merge)(const struct exec_agg *a, void *dst, const void *src, mu_err *err);
    int (*serialize)(const struct exec_agg *a, const void *state, mu_buf *out, mu_err *err);
    /* Reads one state from bytes[0..length) into an init'ed state;
     * *used_out = bytes consumed. Damaged input is MU_ECORRUPT. */
    int (*deserialize)(const struct exec_agg *a, void *state, const uint8_t *bytes,
                       size_t length, size_t *used_out, mu_err *err);
    int (*finalize)(const struct exec_agg *a, void *state, ty_column *out, mu_err *err);
    void (*destroy)(const struct exec_agg *a, void *state); /* NULL: nothing owned */
} exec_agg;

typedef int (*exec_agg_bind_fn)(exec_agg *a, mu_arena *arena, mu_err *err);

enum exec_aggregate_flags {
    /* Sees NULLs itself (count). Without it: rows with a NULL argument are
     * skipped and, if any argument is Nullable, the result is Nullable and
     * NULL when no row was added. */
    EXEC_AGG_NULLS_CUSTOM = 1u << 0,
    EXEC_AGG_CASE_INSENSITIVE = 1u << 1,
    EXEC_AGG_NEEDS_PARAMS = 1u << 2, /* quantile(level)(x): params allowed */
};

struct exec_aggregate {
    const char *name;
    uint32_t flags;
    exec_agg_bind_fn bind;
};

typedef const exec_aggregate *const exec_aggregate_list;

/* Looks up an aggregate by name, combinator suffixes (-If, -State, -Merge,
 * -OrNull, -OrDefault) stripped by exec_agg_bind; NULL if none. */
const exec_aggregate *exec_aggregate_find(const char *name, size_t name_bytes);
/* True when name (with any combinators) names an aggregate function. */
bool exec_is_aggregate_name(const char *name, size_t name_bytes);
/* Binds `name` (with combinators) to argument types and parameters.
 * `a` is filled (pointers into arena). MU_EUNKNOWN_AGGREGATE,
 * MU_ENUMBER_OF_ARGUMENTS, MU_EILLEGAL_TYPE as ClickHouse words them. */
int exec_agg_bind(const exec_context *ctx, mu_arena *arena, const char *name,
                  const ty_type *const *arg_types, uint32_t arg_count,
                  const ty_column *const *params, uint32_t param_count, exec_agg *a,
                  mu_err *err);

#endif /* MUSCLES_EXEC_H */
