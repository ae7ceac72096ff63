/* exec_int.h: private interface of src/exec: the per-file function and
 * aggregate lists the registry walks, and the helpers every bind and
 * kernel shares (ClickHouse-worded argument errors, constant access,
 * bulk loads of numeric columns into machine arrays). Nothing outside
 * src/exec includes it.
 */
#ifndef MUSCLES_EXEC_INT_H
#define MUSCLES_EXEC_INT_H

#include "exec/exec.h"

/* One list per source file, NULL-terminated (registry.c walks them). */
extern const exec_function *const exec__functions_arith[];
extern const exec_function *const exec__functions_compare[];
extern const exec_function *const exec__functions_logic[];
extern const exec_function *const exec__functions_null[];
extern const exec_function *const exec__functions_convert[];
extern const exec_function *const exec__functions_math[];
extern const exec_function *const exec__functions_string[];
extern const exec_function *const exec__functions_regex[];
extern const exec_function *const exec__functions_hash[];
extern const exec_function *const exec__functions_json[];
extern const exec_function *const exec__functions_date[];
extern const exec_function *const exec__functions_array[];
extern const exec_function *const exec__functions_misc[];
extern const exec_function *const exec__functions_lambda[];

extern const exec_aggregate *const exec__aggregates_basic[];
extern const exec_aggregate *const exec__aggregates_stats[];
extern const exec_aggregate *const exec__aggregates_collect[];

/* "Number of arguments for function f doesn't match: passed N, should be
 * <expected>" (MU_ENUMBER_OF_ARGUMENTS). */
int exec__error_arg_count(const exec_call *call, const char *expected, mu_err *err);
/* "Illegal type T of argument N of function f" (MU_EILLEGAL_TYPE); index is
 * 0-based, the message 1-based as ClickHouse's. */
int exec__error_arg_type(const exec_call *call, uint32_t index, mu_err *err);
/* "Illegal types of arguments (A, B) of function f". */
int exec__error_arg_types(const exec_call *call, mu_err *err);
/* Checks min <= arg_count <= max. */
int exec__check_arg_count(const exec_call *call, uint32_t min, uint32_t max, mu_err *err);

/* A constant argument's value: true and the value when argument index is a
 * constant of the asked kind (String for _string; any number for _i64,
 * _u64, _f64), false otherwise. */
bool exec__const_string(const exec_call *call, uint32_t index, const char **data_out,
                        size_t *bytes_out);
bool exec__const_i64(const exec_call *call, uint32_t index, int64_t *value_out);
bool exec__const_f64(const exec_call *call, uint32_t index, double *value_out);

/* Loads rows values of a numeric-like argument (see exec_get_*) into a
 * machine array (a constant is replicated). */
void exec__load_f64(const exec_arg *a, uint32_t rows, double *out);
void exec__load_i64(const exec_arg *a, uint32_t rows, int64_t *out);
void exec__load_u64(const exec_arg *a, uint32_t rows, uint64_t *out);
/* Appends rows values converted (C casts, wrapping) to out's integer,
 * float, Bool, Date or DateTime kind. */
int exec__store_f64(ty_column *out, const double *values, uint32_t rows, mu_err *err);
int exec__store_i64(ty_column *out, const int64_t *values, uint32_t rows, mu_err *err);
int exec__store_u64(ty_column *out, const uint64_t *values, uint32_t rows, mu_err *err);

/* Scratch arrays of rows elements for kernels (malloc; NULL on failure
 * with err filled). */
void *exec__scratch(size_t count, size_t size, mu_err *err);

#endif /* MUSCLES_EXEC_INT_H */
