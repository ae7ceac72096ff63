/* sql_settings.c: the query-level settings muscles knows (SET, SETTINGS
 * clauses, URL parameters) and the session that keeps them. Names and
 * defaults are ClickHouse's; a setting listed here either changes what
 * muscles does (max_block_size, session_timezone, readonly, ...) or is
 * accepted for compatibility because clients send it and its ClickHouse
 * meaning is already what muscles does (listed with that meaning).
 */
#include "sql/query_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const sql_setting_info settings_table[] = {
    {"max_block_size", "UInt64", "65536", "Maximum rows in a block read or produced"},
    {"max_threads", "MaxThreads", "0",
     "Threads for a query (SELECTs run on one today; INSERT data is parsed on up to this many)"},
    {"max_memory_usage", "UInt64", "0", "Memory limit of a query (0: unlimited)"},
    {"max_execution_time", "Seconds", "0", "Time limit of a query (0: unlimited)"},
    {"max_result_rows", "UInt64", "0", "Limit on result rows (0: unlimited)"},
    {"max_result_bytes", "UInt64", "0",
     "Limit on the result's bytes in memory before formatting (0: unlimited)"},
    {"result_overflow_mode", "OverflowMode", "throw",
     "Past max_result_rows/bytes: throw, or break (return what was produced)"},
    {"max_rows_to_read", "UInt64", "0", "Limit on rows read from tables (0: unlimited)"},
    {"limit", "UInt64", "0", "Rows of a SELECT's result at most, as if wrapped in "
                              "SELECT * FROM (query) LIMIT n (0: no limit)"},
    {"offset", "UInt64", "0", "Rows of a SELECT's result skipped, as if wrapped in "
                               "SELECT * FROM (query) OFFSET n"},
    {"readonly", "UInt64", "0", "1: only reads; 2: reads and settings"},
    {"session_timezone", "Timezone", "", "Time zone of the session (empty: the server's)"},
    {"timezone", "Timezone", "", "Alias of session_timezone kept for old clients"},
    {"output_format_decimal_trailing_zeros", "Bool", "0", "Print trailing zeros of Decimals"},
    {"input_format_skip_unknown_fields", "Bool", "1",
     "Skip input columns the table lacks (JSON keys, WithNames headers, Native); 0: an error"},
    {"input_format_null_as_default", "Bool", "1",
     "NULL into a non-Nullable column gives its default; 0: an error (TSV/CSV: read as text)"},
    {"input_format_allow_errors_num", "UInt64", "0",
     "Bad rows of TSV/CSV/JSON*EachRow input skipped; fatal once this and the ratio are passed"},
    {"input_format_allow_errors_ratio", "Float", "0",
     "Share of bad input rows skipped; fatal once this and the number are passed"},
    {"input_format_with_names_use_header", "Bool", "1",
     "WithNames input: map columns by the header's names; 0: ignore the names"},
    {"input_format_with_types_use_header", "Bool", "1",
     "WithNamesAndTypes input: check the header's types; 0: ignore them"},
    {"input_format_defaults_for_omitted_fields", "Bool", "1",
     "Input values left out (or NULL as default) get the column's DEFAULT expression"},
    {"input_format_parallel_parsing", "Bool", "1",
     "Cut TabSeparated and JSON*EachRow INSERT data into runs of rows parsed on several threads"},
    {"date_time_input_format", "DateTimeInputFormat", "basic",
     "DateTime text in input: basic, best_effort or best_effort_us"},
    {"insert_deduplication_token", "String", "", "Token making an insert idempotent"},
    {"join_use_nulls", "Bool", "0", "Unmatched JOIN rows get defaults (0) or NULLs (1)"},
    {"send_progress_in_http_headers", "Bool", "0",
     "Send X-ClickHouse-Progress headers while no body byte was sent"},
    {"http_headers_progress_interval_ms", "UInt64", "100",
     "Send X-ClickHouse-Progress headers no more often than this"},
    {"wait_end_of_query", "Bool", "0", "Buffer the whole result before answering"},
    {"http_write_exception_in_output_format", "Bool", "1",
     "An error after output began ends a JSON format's document with an \"exception\" (other "
     "formats frame it with X-ClickHouse-Exception-Tag)"},
    {"enable_http_compression", "Bool", "0", "Compress HTTP responses"},
    {"http_zlib_compression_level", "Int64", "3", "Compression level of HTTP responses"},
    {"output_format_json_quote_64bit_integers", "Bool", "1", "Quote 64-bit integers in JSON"},
    {"output_format_arrow_compression_method", "ArrowCompression", "lz4_frame",
     "Arrow body compression: lz4_frame, zstd or none"},
    {"output_format_arrow_string_as_string", "Bool", "1", "Arrow Utf8 (not Binary) for String"},
    {"output_format_arrow_fixed_string_as_fixed_byte_array", "Bool", "1",
     "Arrow FixedSizeBinary (not Binary) for FixedString"},
    {"output_format_arrow_low_cardinality_as_dictionary", "Bool", "0",
     "LowCardinality as Arrow dictionary-encoded fields"},
    {"output_format_arrow_use_signed_indexes_for_dictionary", "Bool", "1",
     "Signed Arrow dictionary indexes"},
    {"output_format_arrow_use_64_bit_indexes_for_dictionary", "Bool", "0",
     "64-bit Arrow dictionary indexes"},
    {"output_format_arrow_date_as_uint16", "Bool", "0", "Date as Arrow UInt16 (not Date32)"},
    {"output_format_arrow_unsupported_types_as_binary", "Bool", "1",
     "Types without an Arrow form (Nothing) as Binary instead of an error"},
    {"output_format_arrow_uuid_as_fixed_byte_array", "Bool", "0",
     "UUID as plain Arrow FixedSizeBinary(16), without the arrow.uuid extension (chdb's)"},
    {"allow_experimental_analyzer", "Bool", "1", "Accepted for compatibility"},
    {"enable_positional_arguments", "Bool", "1", "GROUP BY 1 / ORDER BY 1 refer to SELECT items"},
    {"prefer_column_name_to_alias", "Bool", "0", "Accepted; aliases win as in ClickHouse"},
    {"log_queries", "Bool", "1", "Log queries to system.query_log"},
    {"max_query_size", "UInt64", "262144", "Bytes of query text parsed"},
    {"connect_timeout", "Seconds", "10", "Accepted for compatibility"},
    {"receive_timeout", "Seconds", "300", "Accepted for compatibility"},
    {"send_timeout", "Seconds", "300", "Accepted for compatibility"},
    {"async_insert", "Bool", "0", "Accepted; inserts are acknowledged after fsync"},
    {"wait_for_async_insert", "Bool", "1", "Accepted for compatibility"},
    {"database", "String", "", "Current database (HTTP parameter)"},
    {"default_format", "String", "TabSeparated", "Output format when the query names none"},
    {"max_insert_block_size", "UInt64", "1048576", "Rows per block of an INSERT"},
    {"extremes", "Bool", "0", "Accepted; extremes are not computed yet"},
    {"mutations_sync", "UInt64", "0", "Accepted for compatibility"},
    {"optimize_throw_if_noop", "Bool", "0", "Accepted for compatibility"},
};

size_t sql__setting_count(void) { return sizeof(settings_table) / sizeof(settings_table[0]); }

const sql_setting_info *sql__setting_at(size_t index) {
    return index < sql__setting_count() ? &settings_table[index] : NULL;
}

const sql_setting_info *sql__setting_find(const char *name) {
    for (size_t i = 0; i < sql__setting_count(); i++)
        if (strcmp(settings_table[i].name, name) == 0) return &settings_table[i];
    return NULL;
}

bool sql_setting_known(const char *name) { return sql__setting_find(name) != NULL; }

void sql_session_init(sql_session *s) {
    memset(s, 0, sizeof(*s));
    snprintf(s->database, sizeof(s->database), "default");
}

/* A number setting's value, or -1 when it is not a plain number. */
static double session_number(const char *value) {
    char *end;
    double v = strtod(value, &end);
    return end != value && *end == '\0' && v >= 0 ? v : -1;
}

int sql_session_set(sql_session *s, const char *name, const char *value, mu_err *err) {
    if (!sql_setting_known(name))
        return MU_ERR(err, MU_EUNKNOWN_SETTING, "Setting %s is neither a builtin setting nor "
                      "started with the prefix 'custom_' registered for user-defined settings",
                      name);
    for (uint32_t i = 0; i < s->limit_count; i++) {
        if (strcmp(s->limits[i].name, name) != 0) continue;
        double v = session_number(value);
        if (v <= 0 || v > s->limits[i].max)
            return MU_ERR(err, MU_ESETTING_CONSTRAINT, "Setting %s shouldn't be greater than %s "
                          "(the user's limit; 0 would mean unlimited)", name,
                          s->limits[i].text);
    }
    if (strlen(value) >= SQL_SETTING_VALUE_BYTES)
        return MU_ERR(err, MU_EINVAL, "value of setting %s is longer than %d bytes", name,
                      SQL_SETTING_VALUE_BYTES - 1);
    for (uint32_t i = 0; i < s->setting_count; i++) {
        if (strcmp(s->settings[i].name, name) == 0) {
            snprintf(s->settings[i].value, sizeof(s->settings[i].value), "%s", value);
            return 0;
        }
    }
    if (s->setting_count >= SQL_SESSION_SETTINGS_MAX)
        return MU_ERR(err, MU_EINVAL, "more than %d settings in one session",
                      SQL_SESSION_SETTINGS_MAX);
    snprintf(s->settings[s->setting_count].name, SQL_SETTING_NAME_BYTES, "%s", name);
    snprintf(s->settings[s->setting_count].value, SQL_SETTING_VALUE_BYTES, "%s", value);
    s->setting_count++;
    return 0;
}

int sql_session_limit(sql_session *s, const char *name, const char *value, mu_err *err) {
    double v = session_number(value);
    if (v <= 0)
        return MU_ERR(err, MU_EINVAL, "limit %s=%s: a positive number is needed", name, value);
    uint32_t i = 0;
    while (i < s->limit_count && strcmp(s->limits[i].name, name) != 0) i++;
    if (i == s->limit_count) {
        if (s->limit_count == SQL_SESSION_LIMITS_MAX)
            return MU_ERR(err, MU_EINVAL, "more than %d limits", SQL_SESSION_LIMITS_MAX);
        s->limit_count++;
    }
    snprintf(s->limits[i].name, sizeof(s->limits[i].name), "%s", name);
    snprintf(s->limits[i].text, sizeof(s->limits[i].text), "%s", value);
    s->limits[i].max = v;
    return sql_session_set(s, name, value, err);
}

const char *sql_session_get(const sql_session *s, const char *name) {
    for (uint32_t i = 0; i < s->setting_count; i++)
        if (strcmp(s->settings[i].name, name) == 0) return s->settings[i].value;
    return NULL;
}
