/* config.c: the settings table (settings.def) and the loading of one
 * immutable cfg_settings from defaults, muscles.yaml and MUSCLES_* variables.
 * Owns the table's derived data (dotted keys, environment names, section
 * list), the environment overrides and the rendering of
 * muscles.yaml.example. The table is checked once, on first use: every
 * constraint well-formed, keys and environment names unique; a broken table
 * is a programming error and aborts. Rules: src/config/README.md.
 */
#include "config/config_int.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static cfg_setting_info cfg__table[CFG__SETTING_COUNT] = {
#define S(section, name, type, default_text, constraint, meaning) \
    {#section, #name, #section "." #name, NULL, CFG_##type, default_text, constraint, meaning},
#include "config/settings.def"
#undef S
};

static const size_t cfg__offsets[CFG__SETTING_COUNT] = {
#define S(section, name, type, default_text, constraint, meaning) \
    offsetof(cfg_settings, section##_##name),
#include "config/settings.def"
#undef S
};

#define S(section, name, type, default_text, constraint, meaning)                  \
    _Static_assert(sizeof("MUSCLES_" #section "_" #name) <= CFG__ENV_NAME_BYTES, \
                   "environment name of " #section "." #name " is too long");
#include "config/settings.def"
#undef S

/* MUSCLES_* variables that are not settings but are read by name, so they
 * draw no warning: the config path, failpoints, and the test harness's
 * variables (tests/CMakeLists.txt, tests/unit/CMakeLists.txt). */
static const char *const cfg__env_reserved[] = {
    CFG_ENV_CONFIG, CFG_ENV_FAILPOINTS, "MUSCLES_BIN", "MUSCLES_FAILPOINTS_BUILD",
    "MUSCLES_SOURCE_DIR",
};

/* Filled once by cfg__init, read-only afterwards. */
static char cfg__env_names[CFG__SETTING_COUNT][CFG__ENV_NAME_BYTES];
static const char *cfg__sections[CFG__SETTING_COUNT];
static size_t cfg__sections_used;
static pthread_once_t cfg__once = PTHREAD_ONCE_INIT;

static void cfg__init_once(void)
{
    for (size_t i = 0; i < CFG__SETTING_COUNT; i++) {
        cfg_setting_info *info = &cfg__table[i];
        char *env = cfg__env_names[i];
        int n = snprintf(env, CFG__ENV_NAME_BYTES, "MUSCLES_%s_%s", info->section, info->name);
        MU_ASSERT(n > 0 && n < CFG__ENV_NAME_BYTES);
        for (char *p = env; *p != '\0'; p++) {
            if (*p >= 'a' && *p <= 'z') {
                *p = (char)(*p - 'a' + 'A');
            }
        }
        info->env_name = env;
        MU_ASSERT(cfg__constraint_valid(info));
        for (size_t j = 0; j < i; j++) {
            MU_ASSERT(strcmp(cfg__table[j].key, info->key) != 0);
            MU_ASSERT(strcmp(cfg__table[j].env_name, info->env_name) != 0);
        }
        size_t s = 0;
        while (s < cfg__sections_used && strcmp(cfg__sections[s], info->section) != 0) {
            s++;
        }
        if (s == cfg__sections_used) {
            cfg__sections[cfg__sections_used++] = info->section;
        }
    }
}

static void cfg__init(void)
{
    int rc = pthread_once(&cfg__once, cfg__init_once);
    MU_ASSERT(rc == 0);
}

size_t cfg_setting_count(void)
{
    return CFG__SETTING_COUNT;
}

const cfg_setting_info *cfg_setting_at(size_t index)
{
    MU_ASSERT(index < CFG__SETTING_COUNT);
    cfg__init();
    return &cfg__table[index];
}

const cfg_setting_info *cfg_setting_find(const char *key)
{
    MU_ASSERT(key != NULL);
    cfg__init();
    for (size_t i = 0; i < CFG__SETTING_COUNT; i++) {
        if (strcmp(cfg__table[i].key, key) == 0) {
            return &cfg__table[i];
        }
    }
    return NULL;
}

size_t cfg__index_of(const cfg_setting_info *info)
{
    MU_ASSERT(info >= cfg__table && info < cfg__table + CFG__SETTING_COUNT);
    return (size_t)(info - cfg__table);
}

void *cfg__field(cfg_settings *s, size_t index)
{
    MU_ASSERT(s != NULL);
    MU_ASSERT(index < CFG__SETTING_COUNT);
    return (char *)s + cfg__offsets[index];
}

size_t cfg__section_count(void)
{
    cfg__init();
    return cfg__sections_used;
}

const char *cfg__section_at(size_t section_index)
{
    cfg__init();
    MU_ASSERT(section_index < cfg__sections_used);
    return cfg__sections[section_index];
}

size_t cfg__section_find(const char *name, size_t length_bytes)
{
    cfg__init();
    for (size_t s = 0; s < cfg__sections_used; s++) {
        if (strlen(cfg__sections[s]) == length_bytes &&
            memcmp(cfg__sections[s], name, length_bytes) == 0) {
            return s;
        }
    }
    return SIZE_MAX;
}

/* Appends "a, b, c" to out (of out_bytes), truncating silently. */
static void cfg__list_append(char *out, size_t out_bytes, const char *word)
{
    size_t used = strlen(out);
    if (used < out_bytes) {
        snprintf(out + used, out_bytes - used, "%s%s", used > 0 ? ", " : "", word);
    }
}

void cfg__section_list(char *out, size_t out_bytes)
{
    MU_ASSERT(out_bytes > 0);
    cfg__init();
    out[0] = '\0';
    for (size_t s = 0; s < cfg__sections_used; s++) {
        cfg__list_append(out, out_bytes, cfg__sections[s]);
    }
}

void cfg__section_keys(size_t section_index, char *out, size_t out_bytes)
{
    MU_ASSERT(out_bytes > 0);
    const char *section = cfg__section_at(section_index);
    out[0] = '\0';
    for (size_t i = 0; i < CFG__SETTING_COUNT; i++) {
        if (strcmp(cfg__table[i].section, section) == 0) {
            cfg__list_append(out, out_bytes, cfg__table[i].name);
        }
    }
}

void cfg_free(cfg_settings *s)
{
    if (s == NULL) {
        return;
    }
    for (size_t i = 0; i < CFG__SETTING_COUNT; i++) {
        if (cfg__table[i].type == CFG_STRING || cfg__table[i].type == CFG_ENUM) {
            char **field = cfg__field(s, i);
            free(*field);
            *field = NULL;
        }
    }
}

int cfg_defaults(cfg_settings *out, mu_err *err)
{
    MU_ASSERT(out != NULL);
    cfg__init();
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < CFG__SETTING_COUNT; i++) {
        const cfg_setting_info *info = &cfg__table[i];
        int rc = cfg__value_set(info, info->default_text, strlen(info->default_text),
                                "built-in default", cfg__field(out, i), err);
        if (rc != 0) {
            cfg_free(out);
            return rc;
        }
    }
    return 0;
}

/* The value of the first envp entry named `name`, as getenv(3) would pick. */
static const char *cfg__env_find(char *const *envp, const char *name)
{
    size_t name_bytes = strlen(name);
    for (size_t i = 0; envp[i] != NULL; i++) {
        if (strncmp(envp[i], name, name_bytes) == 0 && envp[i][name_bytes] == '=') {
            return envp[i] + name_bytes + 1;
        }
    }
    return NULL;
}

/* True when the variable named by entry[0..name_bytes) is read by muscles. */
static bool cfg__env_known(const char *entry, size_t name_bytes)
{
    for (size_t i = 0; i < CFG__SETTING_COUNT; i++) {
        const char *known = cfg__table[i].env_name;
        if (strlen(known) == name_bytes && memcmp(known, entry, name_bytes) == 0) {
            return true;
        }
    }
    for (size_t i = 0; i < MU_ARRAY_LEN(cfg__env_reserved); i++) {
        const char *known = cfg__env_reserved[i];
        if (strlen(known) == name_bytes && memcmp(known, entry, name_bytes) == 0) {
            return true;
        }
    }
    return false;
}

/* Warns about each MUSCLES_* variable that is neither a setting nor reserved.
 * A warning, not an error: Kubernetes injects MUSCLES_SERVICE_HOST,
 * MUSCLES_PORT=tcp://... and the like for a Service named "muscles". The
 * value is not logged: it may be a secret meant for another program. */
static void cfg__env_warn_unknown(char *const *envp)
{
    static const char prefix[] = "MUSCLES_";
    for (size_t i = 0; envp[i] != NULL; i++) {
        const char *entry = envp[i];
        const char *equals = strchr(entry, '=');
        if (strncmp(entry, prefix, sizeof prefix - 1) != 0 || equals == NULL) {
            continue;
        }
        size_t name_bytes = (size_t)(equals - entry);
        if (cfg__env_known(entry, name_bytes)) {
            continue;
        }
        char name[CFG__ENV_NAME_BYTES * 2];
        char quoted[sizeof name + 8];
        snprintf(name, sizeof name, "%.*s", (int)MU_MIN(name_bytes, sizeof name - 1), entry);
        mu_log_quote(name, quoted, sizeof quoted);
        mu_log_warn("config.env_unknown",
                    "variable=%s note=\"not a muscles setting, ignored\"", quoted);
    }
}

/* Applies every MUSCLES_<SECTION>_<NAME> entry of envp over *out. */
static int cfg__env_apply(cfg_settings *out, char *const *envp, mu_err *err)
{
    for (size_t i = 0; i < CFG__SETTING_COUNT; i++) {
        const cfg_setting_info *info = &cfg__table[i];
        const char *value = cfg__env_find(envp, info->env_name);
        if (value == NULL) {
            continue;
        }
        int rc = cfg__value_set(info, value, strlen(value), info->env_name,
                                cfg__field(out, i), err);
        if (rc != 0) {
            return rc;
        }
    }
    cfg__env_warn_unknown(envp);
    return 0;
}

int cfg_load(cfg_settings *out, const char *yaml_path, char *const *envp, mu_err *err)
{
    MU_ASSERT(out != NULL);
    int rc = cfg_defaults(out, err);
    if (rc != 0) {
        return rc;
    }
    if (yaml_path != NULL) {
        rc = cfg__yaml_load(out, yaml_path, err);
        if (rc != 0) {
            goto fail;
        }
    }
    if (envp != NULL) {
        rc = cfg__env_apply(out, envp, err);
        if (rc != 0) {
            goto fail;
        }
    }
    MU_ASSERT(out->storage_data_dir != NULL);
    return 0;
fail:
    cfg_free(out);
    return rc;
}

/* "<data_dir>/<leaf>" unless `explicit_dir` is set; NULL on OOM. */
static char *cfg__dir_resolve(const char *explicit_dir, const char *data_dir, const char *leaf)
{
    MU_ASSERT(data_dir != NULL);
    if (explicit_dir != NULL && explicit_dir[0] != '\0') {
        return strdup(explicit_dir);
    }
    size_t dir_bytes = strlen(data_dir);
    while (dir_bytes > 1 && data_dir[dir_bytes - 1] == '/') {
        dir_bytes--; /* "./data/" gives "./data/wal", "/" gives "/wal". */
    }
    if (dir_bytes == 1 && data_dir[0] == '/') {
        dir_bytes = 0;
    }
    char *path = NULL;
    if (asprintf(&path, "%.*s/%s", (int)dir_bytes, data_dir, leaf) < 0) {
        return NULL;
    }
    return path;
}

char *cfg_wal_dir(const cfg_settings *s)
{
    MU_ASSERT(s != NULL);
    return cfg__dir_resolve(s->storage_wal_dir, s->storage_data_dir, "wal");
}

char *cfg_parts_dir(const cfg_settings *s)
{
    MU_ASSERT(s != NULL);
    return cfg__dir_resolve(s->storage_parts_dir, s->storage_data_dir, "parts");
}

/* ------------------------------------------------------------------ */
/* muscles.yaml.example                                               */
/* ------------------------------------------------------------------ */

#define CFG__EXAMPLE_COLUMNS 78

static const char cfg__example_header[] =
    "# muscles.yaml.example: every setting of muscles with its default value.\n"
    "#\n"
    "# Generated from src/config/settings.def, and a unit test keeps the two\n"
    "# identical: do not edit by hand (see src/config/README.md). Copy it to\n"
    "# muscles.yaml and keep only what you change; a setting left out keeps its\n"
    "# default.\n"
    "#\n"
    "# Precedence, lowest to highest: the built-in default, this file (--config\n"
    "# PATH or MUSCLES_CONFIG=PATH), then the environment. The setting\n"
    "# <section>.<name> is also read from the variable MUSCLES_<SECTION>_<NAME>\n"
    "# in upper case: http.port from MUSCLES_HTTP_PORT. An unknown key in this\n"
    "# file is an error; an unknown MUSCLES_* variable only logs a warning.\n"
    "#\n"
    "# Values: integers are plain decimal. Sizes are decimal bytes with an\n"
    "# optional KiB, MiB, GiB or TiB suffix (powers of 1024; KB, MB and GB are\n"
    "# refused as ambiguous). Booleans are true/false, yes/no, on/off or 1/0.\n";

/* Appends text as "  # ..." lines of at most CFG__EXAMPLE_COLUMNS columns
 * (a longer single word gets a line of its own). */
static int cfg__render_comment(mu_buf *out, const char *text, mu_err *err)
{
    size_t column = 0;
    const char *p = text;
    int rc = 0;
    while (rc == 0) {
        p += strspn(p, " ");
        size_t word_bytes = strcspn(p, " ");
        if (word_bytes == 0) {
            break;
        }
        if (column > 0 && column + 1 + word_bytes > CFG__EXAMPLE_COLUMNS) {
            rc = mu_buf_append_str(out, "\n", err);
            column = 0;
        }
        if (rc == 0 && column == 0) {
            rc = mu_buf_append_str(out, "  #", err);
            column = 3;
        }
        if (rc == 0) {
            rc = mu_buf_printf(out, err, " %.*s", (int)word_bytes, p);
        }
        column += 1 + word_bytes;
        p += word_bytes;
    }
    if (rc == 0 && column > 0) {
        rc = mu_buf_append_str(out, "\n", err);
    }
    return rc;
}

/* True when text reads back from a YAML plain scalar as this same string,
 * for us and for other YAML tools: not empty, no indicator first, no
 * comment or mapping marks, no control bytes, not a null, boolean or number
 * under YAML 1.1 or 1.2 rules. Over-quoting is harmless; under-quoting not. */
static bool cfg__yaml_plain_safe(const char *text)
{
    static const char *const resolved[] = {"null", "~", "true", "false", "yes", "no",
                                           "on",   "off", "y", "n"};
    size_t length_bytes = strlen(text);
    if (length_bytes == 0 || strchr("-?:,[]{}#&*!|>'\"%@` ", text[0]) != NULL ||
        text[length_bytes - 1] == ' ') {
        return false;
    }
    for (const char *p = text; *p != '\0'; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c == 0x7f || c == ':' || c == '#') {
            return false;
        }
    }
    for (size_t i = 0; i < MU_ARRAY_LEN(resolved); i++) {
        if (strcasecmp(text, resolved[i]) == 0) {
            return false;
        }
    }
    char *end = NULL;
    (void)strtod(text, &end);
    return *end != '\0';
}

/* Appends the default of info as a YAML scalar: plain when safe, else in
 * double quotes with \" \\ and \xNN escapes. */
static int cfg__render_value(mu_buf *out, const cfg_setting_info *info, mu_err *err)
{
    const char *text = info->default_text;
    if (info->type != CFG_STRING || cfg__yaml_plain_safe(text)) {
        return mu_buf_append_str(out, text, err);
    }
    int rc = mu_buf_append_str(out, "\"", err);
    for (const char *p = text; *p != '\0' && rc == 0; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            rc = mu_buf_printf(out, err, "\\%c", c);
        } else if (c < 0x20 || c == 0x7f) {
            rc = mu_buf_printf(out, err, "\\x%02x", c);
        } else {
            rc = mu_buf_append_u8(out, c, err);
        }
    }
    return rc != 0 ? rc : mu_buf_append_str(out, "\"", err);
}

static int cfg__render_setting(mu_buf *out, const cfg_setting_info *info, mu_err *err)
{
    char allowed[256];
    cfg__value_allowed(info, allowed, sizeof allowed);
    int rc = cfg__render_comment(out, info->meaning, err);
    if (rc == 0) {
        /* Lines stay within 78 columns: a long pair goes on two lines. */
        if (strlen(info->env_name) + strlen(allowed) + 20 <= 78)
            rc = mu_buf_printf(out, err, "  # env: %s; allowed: %s\n  %s: ", info->env_name,
                               allowed, info->name);
        else
            rc = mu_buf_printf(out, err, "  # env: %s\n  # allowed: %s\n  %s: ", info->env_name,
                               allowed, info->name);
    }
    if (rc == 0) {
        rc = cfg__render_value(out, info, err);
    }
    return rc != 0 ? rc : mu_buf_append_str(out, "\n", err);
}

int cfg_render_example(mu_buf *out, mu_err *err)
{
    MU_ASSERT(out != NULL);
    cfg__init();
    int rc = mu_buf_append_str(out, cfg__example_header, err);
    for (size_t s = 0; s < cfg__sections_used && rc == 0; s++) {
        rc = mu_buf_printf(out, err, "\n%s:\n", cfg__sections[s]);
        bool first = true;
        for (size_t i = 0; i < CFG__SETTING_COUNT && rc == 0; i++) {
            if (strcmp(cfg__table[i].section, cfg__sections[s]) != 0) {
                continue;
            }
            if (!first) {
                rc = mu_buf_append_str(out, "\n", err);
            }
            first = false;
            if (rc == 0) {
                rc = cfg__render_setting(out, &cfg__table[i], err);
            }
        }
    }
    return rc;
}
