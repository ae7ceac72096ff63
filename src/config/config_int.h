/* config_int.h: private interface between the files of src/config (never
 * included outside this folder, except by its own unit tests).
 * config.c owns the settings table built from settings.def, value.c the
 * grammar of one value (U64, BYTES, BOOL, ENUM, STRING) and yaml.c the
 * reading of muscles.yaml. Every value, whatever its origin (built-in
 * default, YAML, environment), goes through cfg__value_set, so all three
 * accept exactly the same text and report errors in the same words.
 */
#ifndef MUSCLES_CONFIG_INT_H
#define MUSCLES_CONFIG_INT_H

#include "config/config.h"

/* Number of rows in settings.def, as a constant expression. */
enum {
    CFG__SETTING_COUNT = 0
#define S(section, name, type, default_text, constraint, meaning) +1
#include "config/settings.def"
#undef S
};

/* Room for "MUSCLES_<SECTION>_<NAME>" plus its NUL; checked at compile time. */
#define CFG__ENV_NAME_BYTES 64
/* Room for "<path>:<line>" naming where a YAML value came from. */
#define CFG__ORIGIN_BYTES 320
/* A config file larger than this is refused: it is certainly not ours. */
#define CFG__FILE_MAX_BYTES (1024 * 1024)

/* Parses text as a value of setting `info` and, if it is allowed, stores it
 * in `field`, which points to the setting's member of cfg_settings (uint64_t
 * for U64/BYTES, bool for BOOL, char * for STRING/ENUM; a previous string
 * there is freed only once the new one is stored). text[length_bytes] must
 * be NUL; a NUL inside the text is refused. origin names where the text came
 * from ("MUSCLES_HTTP_PORT", "muscles.yaml:12") for the error message:
 *   setting http.port (MUSCLES_HTTP_PORT): "x" is not an unsigned integer;
 *   allowed: 1..65535
 * Returns 0, MU_ECONFIG, or MU_ENOMEM. */
int cfg__value_set(const cfg_setting_info *info, const char *text, size_t length_bytes,
                   const char *origin, void *field, mu_err *err);

/* Writes what setting `info` accepts ("1..65535", "all|data|query|ingest",
 * "any non-empty text") into out, truncating to out_bytes. */
void cfg__value_allowed(const cfg_setting_info *info, char *out, size_t out_bytes);

/* True when the constraint of `info` is well-formed for its type: "min..max"
 * with min <= max for U64 and BYTES, non-empty '|'-separated words for ENUM,
 * "" for BOOL, "" or "nonempty" for STRING. */
bool cfg__constraint_valid(const cfg_setting_info *info);

/* Table helpers of config.c. */
size_t cfg__index_of(const cfg_setting_info *info);
void *cfg__field(cfg_settings *s, size_t index);
size_t cfg__section_count(void);
const char *cfg__section_at(size_t section_index);
/* Index of a section by name, or SIZE_MAX if there is none. */
size_t cfg__section_find(const char *name, size_t length_bytes);
/* Writes "node, log, http, ..." into out. */
void cfg__section_list(char *out, size_t out_bytes);
/* Writes the setting names of one section ("listen_host, port, ...") into out. */
void cfg__section_keys(size_t section_index, char *out, size_t out_bytes);

/* Reads the YAML file at path into *out, which holds defaults (yaml.c). */
int cfg__yaml_load(cfg_settings *out, const char *path, mu_err *err);

#endif /* MUSCLES_CONFIG_INT_H */
