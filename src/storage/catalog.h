/* catalog.h: the durable catalog of databases and tables and its whole
 * interface (prefix catalog_). It owns catalog.json under the data dir: one
 * JSON document, replaced atomically (tmp file, fsync, rename, fsync dir),
 * carrying a format version and the crc32c of its canonical content, so a
 * damaged file is refused (MU_ECORRUPT naming it), never loaded wrong.
 * Format, field by field: docs/formats/catalog.md. Readers see immutable,
 * refcounted snapshots; every mutation validates, persists, then swaps.
 */
#ifndef MUSCLES_CATALOG_H
#define MUSCLES_CATALOG_H

#include "base/base.h"
#include "io/io.h"
#include "types/types.h"

/* ------------------------------------------------------------------ */
/* Limits and file names                                               */
/* ------------------------------------------------------------------ */

#define CATALOG_FILE_NAME "catalog.json"
#define CATALOG_TMP_FILE_NAME "catalog.json.tmp"
#define CATALOG_FORMAT_NAME "muscles-catalog"
#define CATALOG_FORMAT_VERSION 1

#define CATALOG_NAME_BYTES_MAX 255          /* database, table, column, index, setting */
#define CATALOG_TEXT_BYTES_MAX (1u << 20)   /* SQL text, type text, comments */
#define CATALOG_COLUMNS_MAX 4096            /* as many as a batch carries */
#define CATALOG_KEY_ELEMENTS_MAX 4096       /* ORDER BY / PRIMARY KEY elements */
#define CATALOG_SETTINGS_MAX 1024           /* SETTINGS pairs of one table */
#define CATALOG_INDEXES_MAX 1024            /* skip indexes of one table */
#define CATALOG_DATABASES_MAX 10000
#define CATALOG_TABLES_MAX 100000           /* live and dropped-not-purged together */
#define CATALOG_FILE_BYTES_MAX (256u << 20) /* catalog.json; larger: MU_ETOO_LARGE */

/* Failpoints and crash points of the persist sequence (test builds). The io
 * calls also evaluate the generic io.* names. */
#define CATALOG_FP_OPEN_TMP "catalog.open_tmp"
#define CATALOG_FP_WRITE "catalog.write"
#define CATALOG_FP_FSYNC "catalog.fsync"
#define CATALOG_FP_RENAME "catalog.rename"
#define CATALOG_FP_FSYNC_DIR "catalog.fsync_dir"
#define CATALOG_CP_AFTER_TMP_WRITE "catalog.after_tmp_write"
#define CATALOG_CP_AFTER_RENAME "catalog.after_rename"

/* ------------------------------------------------------------------ */
/* UUIDs                                                               */
/* ------------------------------------------------------------------ */

/* 16 bytes in text order (byte 0 = the first two hex digits), as TY_UUID. */
typedef struct catalog_uuid {
    uint8_t bytes[16];
} catalog_uuid;

#define CATALOG_UUID_TEXT_BYTES 37 /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" + NUL */

/* Writes the lowercase 8-4-4-4-12 form into out and returns out. */
char *catalog_uuid_format(const catalog_uuid *uuid, char out[CATALOG_UUID_TEXT_BYTES]);
/* Parses the 8-4-4-4-12 form (either case); anything else is MU_EINVAL. */
int catalog_uuid_parse(const char *text, catalog_uuid *uuid_out, mu_err *err);
/* A random version 4 UUID from getrandom(2); MU_EIO if it fails. */
int catalog_uuid_generate(catalog_uuid *uuid_out, mu_err *err);
bool catalog_uuid_equal(const catalog_uuid *a, const catalog_uuid *b);
bool catalog_uuid_is_nil(const catalog_uuid *uuid);

/* ------------------------------------------------------------------ */
/* Content model                                                       */
/*                                                                     */
/* The *_def structs are what a caller passes in (strings borrowed for  */
/* the call; NULL optional text means ""). The catalog validates and    */
/* copies them; stored objects reuse the same structs with every string */
/* owned by the catalog, never NULL, and valid while the snapshot (or a */
/* catalog_table_acquire reference) that returned them is held.         */
/* ------------------------------------------------------------------ */

typedef enum catalog_engine {
    CATALOG_ENGINE_MERGE_TREE,            /* no parameters */
    CATALOG_ENGINE_REPLACING_MERGE_TREE,  /* [ver [, is_deleted]] */
    CATALOG_ENGINE_SUMMING_MERGE_TREE,    /* [(columns)] */
    CATALOG_ENGINE_AGGREGATING_MERGE_TREE, /* no parameters */
    CATALOG_ENGINE_COUNT
} catalog_engine;

/* "MergeTree", ...; NULL for a value out of range. */
const char *catalog_engine_name(catalog_engine engine);
/* Exact (case-sensitive) engine name; MU_EINVAL naming it otherwise. */
int catalog_engine_parse(const char *name, catalog_engine *engine_out, mu_err *err);

typedef enum catalog_default_kind {
    CATALOG_DEFAULT_NONE,         /* no default expression: the type's default */
    CATALOG_DEFAULT_DEFAULT,
    CATALOG_DEFAULT_MATERIALIZED,
    CATALOG_DEFAULT_ALIAS,
    CATALOG_DEFAULT_KIND_COUNT
} catalog_default_kind;

/* "" for NONE, else "DEFAULT" / "MATERIALIZED" / "ALIAS"; NULL out of range. */
const char *catalog_default_kind_name(catalog_default_kind kind);

typedef struct catalog_column {
    const char *name;               /* unique in the table */
    const char *type;               /* ClickHouse type; stored in canonical form */
    catalog_default_kind default_kind;
    const char *default_expression; /* SQL text; "" exactly when kind is NONE */
    const char *codec;              /* "Delta(4), ZSTD(1)" or "" */
    const char *comment;
} catalog_column;

typedef struct catalog_setting {
    const char *name;  /* unique in the table */
    const char *value; /* SQL literal text, e.g. "8192" or "'abc'" */
} catalog_setting;

typedef struct catalog_index {
    const char *name;       /* unique in the table */
    const char *expression; /* SQL text */
    const char *type;       /* "minmax", "set(100)", "tokenbf_v1(256, 2, 0)" */
    uint32_t granularity;   /* >= 1 */
} catalog_index;

typedef struct catalog_table_def {
    const char *database;
    const char *name;
    catalog_engine engine;
    const char *engine_params;       /* SQL text inside the parentheses, or "" */
    const catalog_column *columns;   /* at least one, not all ALIAS */
    uint32_t column_count;
    const char *const *order_by;     /* expression texts; none = ORDER BY tuple() */
    uint32_t order_by_count;
    const char *const *primary_key;  /* a prefix of order_by (text equality); none = same */
    uint32_t primary_key_count;
    const char *partition_by;        /* SQL text or "" */
    const char *ttl;                 /* SQL text or "" */
    const catalog_setting *settings; /* in the order given */
    uint32_t setting_count;
    const catalog_index *indexes;
    uint32_t index_count;
    const char *comment;
} catalog_table_def;

typedef struct catalog_table {
    catalog_uuid uuid;
    catalog_table_def def;                /* database and name are the current ones */
    const char *const *column_names;      /* def.columns[i].name, for table_options */
    const ty_type *const *column_types;   /* parsed def.columns[i].type */
    uint64_t metadata_version;            /* 1 at creation, +1 on every ALTER */
    int64_t created_at_ns;                /* wall clock, ns since the epoch */
    bool dropped;                         /* waiting for catalog_purge_table */
    int64_t dropped_at_ns;                /* 0 unless dropped */
} catalog_table;

typedef struct catalog_database_def {
    const char *name;
    const char *engine;  /* NULL or "Atomic"; others: MU_ENOT_SUPPORTED */
    const char *comment;
} catalog_database_def;

typedef struct catalog_database {
    const char *name;
    catalog_uuid uuid;
    const char *engine;  /* "Atomic" */
    const char *comment;
    int64_t created_at_ns;
} catalog_database;

/* Names of databases that exist virtually and may not be created, dropped or
 * hold stored tables: "system", "information_schema", "INFORMATION_SCHEMA". */
bool catalog_database_name_reserved(const char *name);

/* ------------------------------------------------------------------ */
/* Opening                                                             */
/* ------------------------------------------------------------------ */

typedef struct catalog catalog;
typedef struct catalog_snapshot catalog_snapshot;

/* Creates data_dir if missing, deletes a leftover catalog.json.tmp (the
 * unfinished write of a crashed mutation, never acknowledged), and loads
 * catalog.json; without one, creates and persists a catalog holding the
 * database "default". A damaged file is MU_ECORRUPT naming it and what is
 * wrong; a newer format version is MU_ENOT_SUPPORTED; I/O errors from io. */
int catalog_open(catalog **catalog_out, const char *data_dir, mu_err *err);
/* Frees the catalog. No mutation may be in flight; snapshots still held stay
 * valid until released. Accepts NULL. */
void catalog_close(catalog *cat);
/* Path of catalog.json (for messages). */
const char *catalog_file_path(const catalog *cat);

/* ------------------------------------------------------------------ */
/* Snapshots: thread-safe, lock-free to read once acquired             */
/* ------------------------------------------------------------------ */

/* The current state, immutable; the caller releases it. Never fails. */
catalog_snapshot *catalog_snapshot_acquire(catalog *cat);
void catalog_snapshot_release(catalog_snapshot *snapshot); /* accepts NULL */
/* Increases by one with every mutation; persisted. */
uint64_t catalog_snapshot_generation(const catalog_snapshot *snapshot);

/* Databases, sorted by name (strcmp). */
size_t catalog_snapshot_database_count(const catalog_snapshot *snapshot);
const catalog_database *catalog_snapshot_database_at(const catalog_snapshot *snapshot,
                                                     size_t index);
const catalog_database *catalog_snapshot_find_database(const catalog_snapshot *snapshot,
                                                       const char *name);

/* Live (not dropped) tables, sorted by (database, name) with strcmp, so the
 * tables of one database are contiguous. */
size_t catalog_snapshot_table_count(const catalog_snapshot *snapshot);
const catalog_table *catalog_snapshot_table_at(const catalog_snapshot *snapshot, size_t index);
/* The live tables of `database`: returns their count and the index of the
 * first in *first_index_out (0 tables: count 0). */
size_t catalog_snapshot_tables_of(const catalog_snapshot *snapshot, const char *database,
                                  size_t *first_index_out);
/* NULL if there is no live table database.name. */
const catalog_table *catalog_snapshot_find_table(const catalog_snapshot *snapshot,
                                                 const char *database, const char *name);
/* As find, with MU_EUNKNOWN_DATABASE / MU_EUNKNOWN_TABLE naming the object. */
int catalog_snapshot_lookup_table(const catalog_snapshot *snapshot, const char *database,
                                  const char *name, const catalog_table **table_out,
                                  mu_err *err);
/* A live or dropped table by UUID; NULL if none (or purged). */
const catalog_table *catalog_snapshot_find_table_by_uuid(const catalog_snapshot *snapshot,
                                                         const catalog_uuid *uuid);
/* Dropped tables not yet purged, sorted by UUID bytes: at startup the owner
 * finishes each interrupted purge (delete data, then catalog_purge_table). */
size_t catalog_snapshot_dropped_count(const catalog_snapshot *snapshot);
const catalog_table *catalog_snapshot_dropped_at(const catalog_snapshot *snapshot,
                                                 size_t index);

/* Keeps one table (from a held snapshot) alive beyond that snapshot, e.g. for
 * an open table that borrows column_names/column_types. Returns table. */
const catalog_table *catalog_table_acquire(const catalog_table *table);
void catalog_table_release(const catalog_table *table); /* accepts NULL */

/* ------------------------------------------------------------------ */
/* Mutations: serialized; each validates (nothing changes on bad input),  */
/* persists the new state durably, then swaps it in. If persisting fails  */
/* the old snapshot stays in force and catalog.json keeps the old state,  */
/* except after a failed fsync of the directory following the rename:     */
/* then the rename may or may not survive a crash, so the catalog turns    */
/* read-only (MU_EREADONLY for every later mutation, until a restart       */
/* loads whichever file is on disk; neither was acknowledged as changed).  */
/* ------------------------------------------------------------------ */

/* MU_EDATABASE_EXISTS (0 with if_not_exists), MU_EINVAL for a bad or
 * reserved name, MU_ENOT_SUPPORTED for an engine other than Atomic. */
int catalog_create_database(catalog *cat, const catalog_database_def *def, bool if_not_exists,
                            mu_err *err);
/* Removes the database. A database holding live tables is refused (MU_EINVAL)
 * unless cascade, which marks each of them dropped. MU_EUNKNOWN_DATABASE
 * (0 with if_exists); reserved names: MU_EINVAL. */
int catalog_drop_database(catalog *cat, const char *name, bool if_exists, bool cascade,
                          mu_err *err);
/* Validates def (names, canonical types via ty_type_parse with its error,
 * keys, settings, indexes) and adds the table with a new random UUID, given
 * in *uuid_out (may be NULL). MU_EEXISTS (0 with if_not_exists, *uuid_out =
 * the existing table's), MU_EUNKNOWN_DATABASE, MU_EINVAL. */
int catalog_create_table(catalog *cat, const catalog_table_def *def, bool if_not_exists,
                         catalog_uuid *uuid_out, mu_err *err);
/* Marks the table dropped (its data stays until catalog_purge_table) and
 * gives its UUID in *uuid_out (may be NULL; nil when if_exists found none).
 * MU_EUNKNOWN_DATABASE / MU_EUNKNOWN_TABLE (0 with if_exists). */
int catalog_drop_table(catalog *cat, const char *database, const char *name, bool if_exists,
                       catalog_uuid *uuid_out, mu_err *err);
/* Forgets a dropped table, after its owner removed its data. MU_EUNKNOWN_TABLE
 * if no table has the UUID, MU_EINVAL if that table is not dropped. */
int catalog_purge_table(catalog *cat, const catalog_uuid *uuid, mu_err *err);
/* Renames database.name to new_database.new_name (databases may differ). The
 * UUID, and so the data directories, stay. MU_EUNKNOWN_DATABASE,
 * MU_EUNKNOWN_TABLE, MU_EEXISTS, MU_EINVAL. */
int catalog_rename_table(catalog *cat, const char *database, const char *name,
                         const char *new_database, const char *new_name, mu_err *err);
/* Replaces the definition of live table `uuid` with def (validated as for
 * create; def->database and def->name must be NULL or the current ones) and
 * bumps metadata_version. With expected_metadata_version != 0, a table whose
 * version differs (a concurrent ALTER) is MU_EBUSY and nothing changes. */
int catalog_alter_table(catalog *cat, const catalog_uuid *uuid, const catalog_table_def *def,
                        uint64_t expected_metadata_version, mu_err *err);

/* ------------------------------------------------------------------ */
/* Table directories                                                   */
/* ------------------------------------------------------------------ */

/* A table's data lives in <parts_dir>/<uuid> and its log in <wal_dir>/<uuid>
 * (no trailing slash), so renames never move files. */
typedef struct catalog_table_paths {
    char data_dir[IO_PATH_MAX_BYTES];
    char wal_dir[IO_PATH_MAX_BYTES];
} catalog_table_paths;

/* Formats both paths; MU_EINVAL for an empty or too long directory. */
int catalog_table_paths_format(const char *parts_dir, const char *wal_dir,
                               const catalog_uuid *uuid, catalog_table_paths *paths_out,
                               mu_err *err);

#endif /* MUSCLES_CATALOG_H */
