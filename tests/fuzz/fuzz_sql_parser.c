/* fuzz_sql_parser.c: libFuzzer target for the SQL lexer and parser
 * (src/sql). Parsing arbitrary bytes must never crash, hang or recurse past
 * the depth limit, and may fail only with a syntax or depth error. An
 * accepted statement must format to canonical SQL that parses again and
 * formats to the same bytes (format -> parse -> format is a fixed point).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql.h"

static int fuzz_format(const char *text, size_t length, mu_arena *arena, mu_buf *out,
                       mu_err *err) {
    sql_node *stmt = NULL;
    sql_parse_options options = {.depth_max = 200};
    int rc = sql_parse(text, length, arena, &options, &stmt, err);
    if (rc == 0) rc = sql_ast_format(stmt, out, err);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mu_arena *arena;
    mu_err err;
    if (mu_arena_create(&arena, NULL, 64 * 1024, &err) != 0) abort();
    mu_buf first, second;
    mu_buf_init(&first, 0);
    mu_buf_init(&second, 0);
    int rc = fuzz_format((const char *)data, size, arena, &first, &err);
    if (rc != 0 && rc != MU_ESYNTAX && rc != MU_ETOO_DEEP) abort();
    if (rc == 0) {
        rc = fuzz_format((const char *)first.data, first.length_bytes, arena, &second, &err);
        /* Canonical text never nests deeper than the tree it came from, but
         * a depth error stays an acceptable outcome. */
        if (rc != 0 && rc != MU_ETOO_DEEP) abort();
        if (rc == 0 && (first.length_bytes != second.length_bytes ||
                        memcmp(first.data, second.data, first.length_bytes) != 0))
            abort();
    }
    mu_buf_deinit(&second);
    mu_buf_deinit(&first);
    mu_arena_destroy(arena);
    return 0;
}
