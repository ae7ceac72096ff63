/* fn_string_int.h: what fn_string.c and fn_string2.c share, private to
 * the two of them: the UTF-8 and argument helpers fn_string.c defines, the
 * binding macros both use, and the functions fn_string2.c defines, which
 * fn_string.c lists in exec__functions_string (the registry walks that one
 * list for both files).
 */
#ifndef MUSCLES_EXEC_FN_STRING_INT_H
#define MUSCLES_EXEC_FN_STRING_INT_H

#include "exec/exec_int.h"

/* Registers `alias_name` as another name of `canonical`: bind re-points the
 * call at the canonical entry so error messages name it, as ClickHouse's
 * aliases do. */
#define STR_ALIAS(var, alias_name, alias_flags, canonical)                                  \
    static int var##_bind(exec_call *call, mu_arena *arena, mu_err *err) {                  \
        call->function = &canonical;                                                        \
        return canonical.bind(call, arena, err);                                            \
    }                                                                                       \
    static const exec_function var = {alias_name, alias_flags, var##_bind}

/* As STR_ALIAS, for an alias another file lists (extern). */
#define STR_ALIAS_EXTERN(var, alias_name, alias_flags, canonical)                           \
    static int var##_bind(exec_call *call, mu_arena *arena, mu_err *err) {                  \
        call->function = &canonical;                                                        \
        return canonical.bind(call, arena, err);                                            \
    }                                                                                       \
    const exec_function var = {alias_name, alias_flags, var##_bind}

#define STR_CI EXEC_FN_CASE_INSENSITIVE

/* A bind that forwards to common(call, mode, err) / common(call, arena, mode, err). */
#define STR_BIND_MODE(name, common, mode)                                                 \
    static int name(exec_call *call, mu_arena *arena, mu_err *err) {                      \
        (void)arena;                                                                      \
        return common(call, mode, err);                                                   \
    }
#define STR_BIND_ARENA(name, common, ...)                                                 \
    static int name(exec_call *call, mu_arena *arena, mu_err *err) {                      \
        return common(call, arena, __VA_ARGS__, err);                                     \
    }

static inline bool str_type_is_string(const ty_type *t) {
    return t->kind == TY_STRING || t->kind == TY_FIXED_STRING;
}

/* The bytes of row `row` of a String/FixedString argument. */
static inline const uint8_t *str_row(const exec_arg *a, uint32_t row, size_t *bytes_out) {
    return ty_column_row_bytes(a->column, exec_arg_row(a, row), bytes_out);
}

/* ---- helpers defined in fn_string.c ---------------------------------- */

/* Checks that argument index is String, or FixedString too if fixed_ok. */
int exec__str_check_string_arg(const exec_call *call, uint32_t index, bool fixed_ok,
                               mu_err *err);
/* Checks that argument index is an integer (or Bool). */
int exec__str_check_int_arg(const exec_call *call, uint32_t index, mu_err *err);
/* Code points in p[0..n) (bytes that are not continuation bytes). */
size_t exec__str_utf8_count(const uint8_t *p, size_t n);
/* Decodes one code point at p[0..n) (n >= 1); invalid UTF-8 gives U+FFFD,
 * *valid_out false and its maximal valid prefix (at least one byte). */
size_t exec__str_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp_out, bool *valid_out);
/* MU_ENOT_SUPPORTED unless Unicode case mapping is available. */
int exec__str_need_unicode(const exec_call *call, mu_err *err);
/* Appends the lowercase UTF-8 of p[0..n) to out (invalid bytes kept). */
int exec__str_fold_utf8(const uint8_t *p, size_t n, mu_buf *out, mu_err *err);
/* Byte offset of n units into p[0..len): bytes, or code points (utf8). */
size_t exec__str_pos_advance(const uint8_t *p, size_t len, uint64_t n, bool utf8);

/* ---- functions defined in fn_string2.c ------------------------------- */

extern const exec_function exec__fn_base64_encode, exec__fn_base64_decode,
    exec__fn_try_base64_decode, exec__fn_base64_url_encode, exec__fn_base64_url_decode,
    exec__fn_try_base64_url_decode, exec__fn_to_base64, exec__fn_from_base64, exec__fn_hex,
    exec__fn_unhex, exec__fn_to_valid_utf8, exec__fn_is_valid_utf8,
    exec__fn_append_trailing_char, exec__fn_format, exec__fn_count_substrings,
    exec__fn_count_substrings_ci, exec__fn_count_substrings_ci_utf8, exec__fn_multi_search_any,
    exec__fn_multi_search_any_ci, exec__fn_multi_search_any_utf8,
    exec__fn_multi_search_any_ci_utf8, exec__fn_multi_search_first_position,
    exec__fn_multi_search_first_position_ci, exec__fn_multi_search_first_position_utf8,
    exec__fn_multi_search_first_position_ci_utf8, exec__fn_multi_search_first_index,
    exec__fn_multi_search_first_index_ci, exec__fn_multi_search_first_index_utf8,
    exec__fn_multi_search_first_index_ci_utf8, exec__fn_multi_search_all_positions,
    exec__fn_multi_search_all_positions_ci, exec__fn_multi_search_all_positions_utf8,
    exec__fn_multi_search_all_positions_ci_utf8;

#endif /* MUSCLES_EXEC_FN_STRING_INT_H */
