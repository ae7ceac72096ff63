/* config.h: muscles.yaml plus MUSCLES_* environment overrides, resolved once
 * at start into one immutable cfg_settings. Owns the settings table
 * (settings.def) and everything derived from it: the struct, validation,
 * the generated muscles.yaml.example and `muscles help settings`.
 *
 * Precedence, lowest to highest: built-in default, the YAML file (--config
 * PATH or MUSCLES_CONFIG), MUSCLES_<SECTION>_<NAME> variables. An unknown
 * YAML key, a bad value or an unreadable file is an error (MU_ECONFIG) that
 * names the key or file and what is allowed. Unknown MUSCLES_* variables are
 * reported as warnings only, because Kubernetes injects MUSCLES_SERVICE_*
 * and MUSCLES_PORT_* variables for a Service named "muscles".
 */
#ifndef MUSCLES_CONFIG_H
#define MUSCLES_CONFIG_H

#include "base/base.h"

#define CFG__FIELD_U64 uint64_t
#define CFG__FIELD_BYTES uint64_t
#define CFG__FIELD_BOOL bool
#define CFG__FIELD_STRING char *
#define CFG__FIELD_ENUM char *

typedef struct cfg_settings {
#define S(section, name, type, default_text, constraint, meaning) \
    CFG__FIELD_##type section##_##name;
#include "config/settings.def"
#undef S
} cfg_settings;

/* Variables that are not settings but are read by name. */
#define CFG_ENV_CONFIG "MUSCLES_CONFIG"
#define CFG_ENV_FAILPOINTS "MUSCLES_FAILPOINTS"

enum cfg_type { CFG_U64, CFG_BYTES, CFG_BOOL, CFG_STRING, CFG_ENUM };

typedef struct cfg_setting_info {
    const char *section;
    const char *name;
    const char *key;      /* "http.port" */
    const char *env_name; /* "MUSCLES_HTTP_PORT" */
    enum cfg_type type;
    const char *default_text;
    const char *constraint;
    const char *meaning;
} cfg_setting_info;

size_t cfg_setting_count(void);
const cfg_setting_info *cfg_setting_at(size_t index);
/* Finds by dotted key ("http.port"); NULL if unknown. */
const cfg_setting_info *cfg_setting_find(const char *key);

/* Fills *out with the built-in defaults. */
int cfg_defaults(cfg_settings *out, mu_err *err);
/* Defaults, then yaml_path (NULL: none), then the MUSCLES_* entries of envp
 * (a NULL-terminated "NAME=value" array, normally `environ`; NULL: none).
 * Warnings about unknown variables go to the log. On error *out is left
 * freed. The caller picks the path (--config or MUSCLES_CONFIG): cfg_load
 * does not look for CFG_ENV_CONFIG in envp. If a name appears twice in envp
 * the first entry wins, as with getenv(3). */
int cfg_load(cfg_settings *out, const char *yaml_path, char *const *envp, mu_err *err);
/* Frees the strings of a loaded or defaulted settings struct. */
void cfg_free(cfg_settings *s);

/* Resolved directories: the explicit setting, or <data_dir>/wal|parts.
 * Returned strings are owned by the caller (free). */
char *cfg_wal_dir(const cfg_settings *s);
char *cfg_parts_dir(const cfg_settings *s);

/* Writes the commented YAML listing every setting with its default and
 * meaning (the content of muscles.yaml.example). */
int cfg_render_example(mu_buf *out, mu_err *err);

#endif /* MUSCLES_CONFIG_H */
