/* sql.h: the SQL front end's whole interface (prefix sql_): lexer of muscles'
 * ClickHouse dialect, parser of one statement into an AST in the caller's
 * mu_arena, printer back to canonical SQL; no binding or planning. Every node
 * records its source span; AST depth is bounded (TOO_DEEP_AST past the limit);
 * AST strings are unescaped and NUL-terminated, copies in the arena or static
 * constants, never pointers into the input. Rules: src/sql/README.md.
 */
#ifndef MUSCLES_SQL_H
#define MUSCLES_SQL_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Lexer                                                               */
/* ------------------------------------------------------------------ */

typedef enum sql_token_kind {
    SQL_TOK_EOF = 0,
    SQL_TOK_WORD,         /* bare identifier or keyword (case-insensitive) */
    SQL_TOK_QUOTED_IDENT, /* `x` or "x" */
    SQL_TOK_NUMBER,       /* 12, 0x1F, 0b101, 1.5e-3, .5 */
    SQL_TOK_STRING,       /* '...' */
    SQL_TOK_PARAM,        /* {name:Type} */
    SQL_TOK_PLUS, SQL_TOK_MINUS, SQL_TOK_STAR, SQL_TOK_SLASH, SQL_TOK_PERCENT,
    SQL_TOK_CONCAT,       /* || */
    SQL_TOK_EQ,           /* = */
    SQL_TOK_EQEQ,         /* == */
    SQL_TOK_NE,           /* != */
    SQL_TOK_LTGT,         /* <> */
    SQL_TOK_LT, SQL_TOK_LE, SQL_TOK_GT, SQL_TOK_GE,
    SQL_TOK_QUESTION, SQL_TOK_COLON, SQL_TOK_DCOLON, SQL_TOK_ARROW,
    SQL_TOK_DOT, SQL_TOK_COMMA, SQL_TOK_SEMICOLON,
    SQL_TOK_LPAREN, SQL_TOK_RPAREN, SQL_TOK_LBRACKET, SQL_TOK_RBRACKET,
    SQL_TOK_LBRACE, SQL_TOK_RBRACE,
    SQL_TOK_KIND_COUNT
} sql_token_kind;

typedef struct sql_token {
    sql_token_kind kind;
    size_t offset; /* byte offset of the first byte in the input */
    size_t length; /* bytes, including quotes */
} sql_token;

typedef struct sql_lexer {
    const char *text;
    size_t length;
    size_t pos;
    sql_token_kind prev_kind; /* after a name or ')' / ']', ".1" is '.' then 1 */
    size_t prev_end;          /* end offset of the previous token */
} sql_lexer;

void sql_lexer_init(sql_lexer *lx, const char *text, size_t length);
/* Skips whitespace and comments (-- to end of line, nested-free block comments),
 * then delivers the next token; at the end, SQL_TOK_EOF with offset == length.
 * A malformed token (unclosed quote or comment, bad number, stray byte) fails
 * with MU_ESYNTAX and a ClickHouse-style message naming its position. */
int sql_lexer_next(sql_lexer *lx, sql_token *tok, mu_err *err);
const char *sql_token_kind_name(sql_token_kind kind);

/* Decodes a quoted token ('str', `id`, "id") into an arena copy with the
 * escapes \\ \' \" \` \n \t \r \b \f \v \a \0 \e \xHH and doubled quotes resolved;
 * an unknown escape \c keeps both bytes, as ClickHouse does. out is
 * NUL-terminated; *length_out excludes the NUL (strings may hold NUL bytes). */
int sql_unquote(const char *token_text, size_t token_bytes, mu_arena *arena, char **out,
                size_t *length_out, mu_err *err);

/* ------------------------------------------------------------------ */
/* AST                                                                 */
/* ------------------------------------------------------------------ */

typedef struct sql_node sql_node;

/* A string in the AST: unescaped, NUL-terminated, may contain NUL bytes. An
 * absent string has ptr == NULL. */
typedef struct sql_str {
    const char *ptr;
    size_t length;
} sql_str;

typedef struct sql_list {
    sql_node **items;
    size_t count;
} sql_list;

typedef enum sql_kind {
    /* expressions */
    SQL_LITERAL = 1, SQL_IDENT, SQL_STAR, SQL_PARAM, SQL_FUNC, SQL_UNARY, SQL_BINARY,
    SQL_BETWEEN, SQL_IS_NULL, SQL_TERNARY, SQL_CASE, SQL_CAST, SQL_INTERVAL, SQL_ARRAY,
    SQL_TUPLE, SQL_LAMBDA, SQL_SUBQUERY, SQL_ELEMENT, SQL_TUPLE_ELEMENT, SQL_EXTRACT,
    /* query parts */
    SQL_QUERY,      /* UNION chain of SQL_SELECT, optional FORMAT */
    SQL_SELECT, SQL_CTE, SQL_TABLE, SQL_TABLE_FUNC, SQL_JOIN, SQL_ORDER_ITEM, SQL_SETTING,
    SQL_COLUMN_DEF, SQL_INDEX_DEF,
    /* statements other than SELECT */
    SQL_INSERT, SQL_CREATE_DATABASE, SQL_CREATE_TABLE, SQL_DROP, SQL_TRUNCATE, SQL_RENAME,
    SQL_EXISTS, SQL_ALTER, SQL_ALTER_CMD, SQL_SHOW_DATABASES, SQL_SHOW_TABLES,
    SQL_SHOW_CREATE, SQL_DESCRIBE, SQL_USE, SQL_SET, SQL_OPTIMIZE, SQL_DELETE,
    SQL_SYSTEM_FLUSH_LOGS, SQL_SYSTEM_FLUSH_TABLE, SQL_KILL_QUERY,
    SQL_KIND_COUNT
} sql_kind;

typedef enum sql_literal_kind {
    SQL_LIT_NULL = 1, SQL_LIT_BOOL, SQL_LIT_UINT, SQL_LIT_FLOAT, SQL_LIT_STRING,
} sql_literal_kind;

typedef enum sql_op {
    /* unary */
    SQL_OP_NEG = 1, SQL_OP_NOT,
    /* binary */
    SQL_OP_OR, SQL_OP_AND, SQL_OP_EQ, SQL_OP_NE, SQL_OP_LT, SQL_OP_LE, SQL_OP_GT, SQL_OP_GE,
    SQL_OP_LIKE, SQL_OP_NOT_LIKE, SQL_OP_ILIKE, SQL_OP_NOT_ILIKE, SQL_OP_IN, SQL_OP_NOT_IN,
    SQL_OP_GLOBAL_IN, SQL_OP_GLOBAL_NOT_IN, SQL_OP_CONCAT, SQL_OP_ADD, SQL_OP_SUB,
    SQL_OP_MUL, SQL_OP_DIV, SQL_OP_MOD,
    SQL_OP_COUNT
} sql_op;

typedef enum sql_join_kind {
    SQL_JOIN_COMMA = 1, SQL_JOIN_CROSS, SQL_JOIN_INNER, SQL_JOIN_LEFT, SQL_JOIN_RIGHT,
    SQL_JOIN_FULL, SQL_JOIN_ARRAY, SQL_JOIN_LEFT_ARRAY,
} sql_join_kind;

typedef enum sql_strictness {
    SQL_STRICT_NONE = 0, SQL_STRICT_ANY, SQL_STRICT_ALL, SQL_STRICT_SEMI, SQL_STRICT_ANTI,
    SQL_STRICT_ASOF,
} sql_strictness;

typedef enum sql_nulls { SQL_NULLS_DEFAULT = 0, SQL_NULLS_FIRST, SQL_NULLS_LAST } sql_nulls;

typedef enum sql_default_kind {
    SQL_DEFAULT_NONE = 0, SQL_DEFAULT_DEFAULT, SQL_DEFAULT_MATERIALIZED, SQL_DEFAULT_ALIAS,
    SQL_DEFAULT_EPHEMERAL,
} sql_default_kind;

typedef enum sql_alter_kind {
    SQL_ALTER_ADD_COLUMN = 1, SQL_ALTER_DROP_COLUMN, SQL_ALTER_MODIFY_COLUMN,
    SQL_ALTER_MODIFY_TTL, SQL_ALTER_MODIFY_SETTING,
} sql_alter_kind;

/* One node. `kind` selects the union member; `alias` is set on expressions
 * and table expressions written with `AS name` or `expr name`. */
struct sql_node {
    sql_kind kind;
    size_t offset; /* source span in the parsed text */
    size_t length;
    sql_str alias;
    union {
        struct {
            sql_literal_kind kind;
            sql_str text;  /* number token text, or the unescaped string */
            uint64_t u64;  /* SQL_LIT_UINT; SQL_LIT_BOOL: 0 or 1 */
            double f64;    /* SQL_LIT_FLOAT (also inf, nan, integers past 2^64) */
        } literal;
        struct { sql_str *parts; size_t count; } ident;           /* a.b.c */
        struct { sql_node *qualifier; } star;                     /* SQL_IDENT or NULL */
        struct { sql_str name; sql_str type; } param;             /* {name:Type} */
        struct {
            sql_str name;
            sql_list params;  /* quantile(0.5)(x): params = [0.5] */
            sql_list args;
            bool has_params;
            bool distinct;
        } func;
        struct { sql_op op; sql_node *operand; } unary;
        struct { sql_op op; sql_node *left; sql_node *right; } binary;
        struct { sql_node *expr; sql_node *low; sql_node *high; bool negated; } between;
        struct { sql_node *expr; bool negated; } is_null;
        struct { sql_node *cond; sql_node *then_expr; sql_node *else_expr; } ternary;
        struct {
            sql_node *operand; /* CASE x WHEN ...; NULL for searched CASE */
            sql_list whens;
            sql_list thens;
            sql_node *else_expr;
        } case_expr;
        struct { sql_node *expr; sql_str type; bool operator_form; } cast; /* type text */
        struct { sql_node *value; sql_str unit; } interval;   /* unit upper-cased */
        struct { sql_list items; } array;                      /* also SQL_TUPLE */
        struct { sql_list params; sql_node *body; } lambda;    /* params: SQL_IDENT */
        struct { sql_node *query; } subquery;                  /* SQL_QUERY */
        struct { sql_node *expr; sql_node *index; } element;   /* x[i], x.1 */
        struct { sql_str unit; sql_node *expr; } extract;
        struct {
            sql_list selects; /* SQL_SELECT, in order */
            sql_str format;
        } query;
        struct {
            sql_list with;    /* expressions with alias, or SQL_CTE */
            bool distinct;
            bool union_distinct; /* joined to the previous SELECT by UNION DISTINCT */
            sql_list columns;
            sql_node *from;   /* SQL_TABLE, SQL_TABLE_FUNC, SQL_SUBQUERY or SQL_JOIN */
            sql_node *prewhere;
            sql_node *where;
            sql_list group_by;
            bool with_totals;
            sql_node *having;
            sql_list order_by; /* SQL_ORDER_ITEM */
            sql_node *limit_by_count;
            sql_node *limit_by_offset;
            sql_list limit_by;
            sql_node *limit;
            sql_node *offset;
            sql_list settings; /* SQL_SETTING */
        } select;
        struct { sql_str name; sql_node *query; } cte;        /* name AS (query) */
        struct { sql_str database; sql_str name; bool final; } table;
        struct { sql_node *func; } table_func;                /* SQL_FUNC */
        struct {
            sql_join_kind kind;
            sql_strictness strictness;
            bool global;
            sql_node *left;
            sql_node *right;    /* NULL for ARRAY JOIN */
            sql_node *on;
            sql_list using_list; /* USING columns, or ARRAY JOIN expressions */
        } join;
        struct { sql_node *expr; bool desc; sql_nulls nulls; } order_item;
        struct { sql_str name; sql_node *value; } setting;
        struct {
            sql_str name;
            sql_str type;            /* type text, absent when only a default is given */
            sql_default_kind default_kind;
            sql_node *default_expr;
            sql_node *codec;         /* SQL_FUNC CODEC(...) or NULL */
            sql_node *ttl;
            sql_str comment;
        } column_def;
        struct { sql_str name; sql_node *expr; sql_node *type; sql_node *granularity; } index_def;
        struct {
            sql_str database;
            sql_str table;
            sql_list columns;     /* SQL_IDENT */
            sql_node *select;     /* SQL_QUERY for INSERT ... SELECT */
            sql_str format;       /* FORMAT name, or "Values" for VALUES */
            size_t data_offset;   /* first data byte when format is set */
        } insert;
        struct {
            bool if_not_exists;
            sql_str database;
            sql_str name;
            sql_list columns;     /* SQL_COLUMN_DEF */
            sql_list indexes;     /* SQL_INDEX_DEF */
            sql_node *engine;     /* SQL_FUNC (args may be empty, has_params false) */
            sql_node *order_by;
            sql_node *partition_by;
            sql_node *primary_key;
            sql_list ttl;
            sql_list settings;
            sql_str comment;
            sql_node *as_select;  /* SQL_QUERY */
        } create;                 /* SQL_CREATE_TABLE and SQL_CREATE_DATABASE */
        struct {
            bool is_database;
            bool if_exists;
            sql_str database;
            sql_str name;
        } object;                 /* DROP, TRUNCATE, EXISTS, SHOW CREATE, DESCRIBE,
                                   * OPTIMIZE (final in flag), USE, SYSTEM FLUSH t */
        struct { sql_list from; sql_list to; } rename;  /* SQL_IDENT lists, same count */
        struct {
            sql_str database;
            sql_str table;
            sql_list commands; /* SQL_ALTER_CMD */
        } alter;
        struct {
            sql_alter_kind kind;
            bool if_flag;        /* IF NOT EXISTS / IF EXISTS */
            sql_node *column;    /* SQL_COLUMN_DEF for ADD/MODIFY */
            sql_str name;        /* DROP COLUMN name */
            sql_str after;       /* ADD COLUMN ... AFTER name */
            bool first;          /* ADD COLUMN ... FIRST */
            sql_list exprs;      /* MODIFY TTL list, MODIFY SETTING list */
        } alter_cmd;
        struct {
            sql_str from_database;
            sql_str like;
            bool not_like;
        } show;
        struct { sql_list settings; } set;
        struct { sql_str database; sql_str table; sql_node *where; } delete_stmt;
        struct { sql_node *where; sql_str mode; } kill;
    };
    /* Statement-level FORMAT for SHOW/DESCRIBE/EXISTS (SELECT keeps it in query),
     * and OPTIMIZE ... FINAL (flag). */
    sql_str format;
    bool flag;
};

#define SQL_DEPTH_MAX_DEFAULT 1000

typedef struct sql_parse_options {
    unsigned depth_max; /* 0 = SQL_DEPTH_MAX_DEFAULT */
} sql_parse_options;

/* Parses exactly one statement from text[0..length) (a trailing ';' is
 * allowed; a second statement is a syntax error). Nodes go into arena. For
 * INSERT with VALUES or FORMAT the tail after the keyword/format name is not
 * lexed: insert.data_offset says where it starts. Errors: MU_ESYNTAX with
 * "Syntax error: failed at position N ('tok'): excerpt. Expected one of: ...",
 * MU_ETOO_DEEP past the depth limit, MU_EMEMLIMIT/MU_ENOMEM from the arena,
 * MU_ETOO_LARGE for a type name longer than 1 MiB. */
int sql_parse(const char *text, size_t length, mu_arena *arena,
              const sql_parse_options *options, sql_node **stmt_out, mu_err *err);
/* Parses one expression (for DEFAULT expressions and tests). */
int sql_parse_expr(const char *text, size_t length, mu_arena *arena,
                   const sql_parse_options *options, sql_node **expr_out, mu_err *err);

/* Appends canonical SQL for node (a statement, query part or expression):
 * upper-case keywords, single spaces, identifiers back-quoted only when
 * needed, strings re-escaped, parentheses only where precedence needs them.
 * Parsing the output yields an AST that formats to the same bytes. */
int sql_ast_format(const sql_node *node, mu_buf *out, mu_err *err);

const char *sql_kind_name(sql_kind kind);
const char *sql_op_text(sql_op op);
/* True when a word is reserved (must be back-quoted to be an identifier). */
bool sql_word_is_reserved(const char *word, size_t length);
bool sql_str_eq(sql_str a, const char *text);
bool sql_str_ieq(sql_str a, const char *text);

/* ------------------------------------------------------------------ */
/* Executing statements (query engine: query_int.h and the sql_*.c     */
/* files behind it)                                                    */
/* ------------------------------------------------------------------ */

struct storage;

/* The node's running queries, recent query log and counters
 * (system.processes, system.query_log, system.metrics, system.events);
 * thread-safe. */
typedef struct sql_activity sql_activity;
int sql_activity_create(sql_activity **out, mu_err *err);
void sql_activity_destroy(sql_activity *a); /* accepts NULL */

/* What every query of a node shares. */
typedef struct sql_engine {
    struct storage *storage;
    const char *version;       /* version() and error bodies */
    const char *hostname;      /* hostName() */
    const char *display_name;  /* displayName(), X-ClickHouse-Server-Display-Name; NULL: hostname */
    int64_t start_time_s;      /* uptime() counts from here */
    sql_activity *activity;    /* may be NULL (tools, tests) */
} sql_engine;

#define SQL_SESSION_SETTINGS_MAX 128
#define SQL_SETTING_NAME_BYTES 64
#define SQL_SETTING_VALUE_BYTES 256

/* State that lasts across the statements of one session (or one HTTP
 * request): the current database (USE) and settings (SET). */
#define SQL_SESSION_LIMITS_MAX 8

typedef struct sql_session {
    char database[256];
    uint32_t setting_count;
    struct {
        char name[SQL_SETTING_NAME_BYTES];
        char value[SQL_SETTING_VALUE_BYTES];
    } settings[SQL_SESSION_SETTINGS_MAX];
    /* The user's limits (users file): a setting here may not be set above
     * max, nor to 0 (unlimited). */
    uint32_t limit_count;
    struct {
        char name[SQL_SETTING_NAME_BYTES];
        char text[32];
        double max;
    } limits[SQL_SESSION_LIMITS_MAX];
} sql_session;

void sql_session_init(sql_session *s);
/* Sets a known setting (MU_EUNKNOWN_SETTING names an unknown one). */
int sql_session_set(sql_session *s, const char *name, const char *value, mu_err *err);
/* Sets a numeric setting as the user's limit: its value now, and the most
 * any later sql_session_set may give it (MU_ESETTING_CONSTRAINT above it
 * or at 0). */
int sql_session_limit(sql_session *s, const char *name, const char *value, mu_err *err);
/* The value set in the session, or NULL. */
const char *sql_session_get(const sql_session *s, const char *name);
/* True when name is a setting sql_session_set accepts. */
bool sql_setting_known(const char *name);

/* Values for {name:Type} query parameters (param_<name> over HTTP). */
typedef struct sql_query_params {
    uint32_t count;
    const char *const *names;
    const char *const *values;
} sql_query_params;

/* A running statement's counters, as progress reports carry them. */
typedef struct sql_progress {
    uint64_t read_rows;          /* rows read from tables and table functions so far */
    uint64_t written_rows;       /* rows an INSERT took so far (all stored at its end) */
    uint64_t total_rows_to_read; /* rows its sources hold, known when they open */
    uint64_t result_rows;        /* result rows produced so far */
} sql_progress;

/* The statement's input (INSERT data after the query text) and output. */
typedef struct sql_io {
    void *ctx;
    /* More INSERT data; *read_out == 0 at the end. NULL: none. */
    int (*read)(void *ctx, void *buf, size_t capacity, size_t *read_out, mu_err *err);
    /* Called once before the first output byte. */
    int (*begin)(void *ctx, const char *format_name, const char *content_type, mu_err *err);
    int (*write)(void *ctx, const void *data, size_t bytes, mu_err *err);
    const char *default_format;      /* NULL: TabSeparated */
    const sql_query_params *params;
    bool readonly;                   /* only statements that change nothing (HTTP GET) */
    bool has_session;                /* SET and USE need one (THERE_IS_NO_SESSION) */
    const char *allowed_databases;   /* the user's databases, comma-separated; NULL: all */
    const char *query_id;            /* NULL or "": a random UUID is assigned */
    const char *user;                /* NULL: "default" */
    uint64_t client_protocol_version; /* client_protocol_version URL parameter (Native) */
    /* http_write_exception_in_output_format=1: an error after output began
     * ends a JSON format's document with it (ClickHouse's "exception"),
     * and sql_execute sets exception_written. */
    bool exception_in_format;
    bool exception_written;
    char query_id_out[64];           /* the query's id, filled by sql_execute */
    /* Progress reports, on the statement's thread, as rows are read or
     * written: the first progress_interval_ms after the start, then at most
     * once per progress_interval_ms (0: whenever read or written rows
     * moved), never twice with the same rows. An error stops the statement
     * with it. NULL: no reports, and no clock is read. */
    int (*progress)(void *ctx, const sql_progress *progress, mu_err *err);
    uint64_t progress_interval_ms;
    /* Filled by sql_execute; result_rows counts as rows are produced, and
     * rows_read and total_rows_to_read are brought up to date before each
     * call of begin (for a head sent mid-statement). */
    uint64_t rows_read;
    uint64_t rows_written;
    uint64_t result_rows;
    uint64_t total_rows_to_read;
} sql_io;

/* The Prometheus text exposition of the node's counters (queries, rows,
 * errors by ClickHouse code) and storage gauges (tables, parts, rows,
 * bytes) for GET /metrics. */
int sql_metrics_prometheus(const sql_engine *engine, mu_buf *out, mu_err *err);

/* The compiler of PARTITION BY / ORDER BY expressions the storage engine
 * takes in storage_options.key_compiler (sql_table_keys.c). */
struct storage_key_compiler;
const struct storage_key_compiler *sql_key_compiler(void);

/* Parses and runs one statement. Errors carry ClickHouse codes through
 * errors.def; nothing is written to io before `begin` is called. */
int sql_execute(const sql_engine *engine, sql_session *session, const char *text,
                size_t text_bytes, sql_io *io, mu_err *err);

#endif /* MUSCLES_SQL_H */
