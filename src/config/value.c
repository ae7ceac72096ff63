/* value.c: the grammar of one setting value and its check against the
 * setting's type and constraint (settings.def). The built-in defaults, the
 * YAML file and the environment all pass through cfg__value_set, so they
 * accept the same text and fail with the same message shape:
 *   setting <key> (<origin>): "<value>" <problem>; allowed: <constraint>
 * Grammar: U64 is plain decimal (no sign, spaces, leading zero or hex);
 * BYTES is the same followed by an optional KiB/MiB/GiB/TiB (powers of 1024);
 * BOOL is true|false|yes|no|on|off|1|0 in any case; ENUM is exactly one of
 * the constraint's words; STRING is any text ("nonempty" refuses "").
 */
#include "config/config_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Room for a quoted value in a message; longer values are truncated. */
#define CFG__QUOTED_BYTES 96

enum cfg__number {
    CFG__NUMBER_OK,
    CFG__NUMBER_SYNTAX,
    CFG__NUMBER_LEADING_ZERO,
    CFG__NUMBER_UNIT,
    CFG__NUMBER_OVERFLOW,
};

/* 1000-based units (KB, MB) are refused rather than guessed: "64MB" meaning
 * 64 MiB or 64,000,000 bytes is exactly the ambiguity a config should not
 * resolve silently. Units are case-sensitive for the same reason (Mb). */
static const struct {
    const char *unit;
    unsigned shift;
} cfg__units[] = {{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};

static const char *const cfg__bool_true[] = {"true", "yes", "on", "1"};
static const char *const cfg__bool_false[] = {"false", "no", "off", "0"};

/* Parses decimal digits, then (if with_unit) an optional unit suffix. The
 * whole text must be used; *value_out is set only on CFG__NUMBER_OK. */
static enum cfg__number cfg__number_parse(const char *text, size_t length_bytes,
                                          bool with_unit, uint64_t *value_out)
{
    size_t digits = 0;
    while (digits < length_bytes && text[digits] >= '0' && text[digits] <= '9') {
        digits++;
    }
    if (digits == 0) {
        return CFG__NUMBER_SYNTAX;
    }
    unsigned shift = 0;
    const char *rest = text + digits;
    size_t rest_bytes = length_bytes - digits;
    if (rest_bytes > 0) {
        if (!with_unit) {
            return CFG__NUMBER_SYNTAX;
        }
        for (size_t i = 0; i < rest_bytes; i++) {
            char c = rest[i];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                return CFG__NUMBER_SYNTAX;
            }
        }
        size_t u = 0;
        while (u < MU_ARRAY_LEN(cfg__units) &&
               !(strlen(cfg__units[u].unit) == rest_bytes &&
                 memcmp(cfg__units[u].unit, rest, rest_bytes) == 0)) {
            u++;
        }
        if (u == MU_ARRAY_LEN(cfg__units)) {
            return CFG__NUMBER_UNIT;
        }
        shift = cfg__units[u].shift;
    }
    if (digits > 1 && text[0] == '0') {
        return CFG__NUMBER_LEADING_ZERO;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < digits; i++) {
        if (__builtin_mul_overflow(v, 10u, &v) ||
            __builtin_add_overflow(v, (uint64_t)(text[i] - '0'), &v)) {
            return CFG__NUMBER_OVERFLOW;
        }
    }
    if (shift > 0 && v > (UINT64_MAX >> shift)) {
        return CFG__NUMBER_OVERFLOW;
    }
    *value_out = v << shift;
    return CFG__NUMBER_OK;
}

/* Splits a "min..max" constraint; false when it is not well-formed. */
static bool cfg__range_parse(const cfg_setting_info *info, uint64_t *min_out,
                             uint64_t *max_out)
{
    bool with_unit = info->type == CFG_BYTES;
    const char *dots = strstr(info->constraint, "..");
    if (dots == NULL) {
        return false;
    }
    const char *max_text = dots + 2;
    size_t min_bytes = (size_t)(dots - info->constraint);
    return cfg__number_parse(info->constraint, min_bytes, with_unit, min_out) ==
               CFG__NUMBER_OK &&
           cfg__number_parse(max_text, strlen(max_text), with_unit, max_out) ==
               CFG__NUMBER_OK &&
           *min_out <= *max_out;
}

/* Finds text among the '|'-separated words of an ENUM constraint. */
static bool cfg__enum_contains(const char *words, const char *text, size_t length_bytes)
{
    const char *p = words;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t word_bytes = bar != NULL ? (size_t)(bar - p) : strlen(p);
        if (word_bytes == length_bytes && memcmp(p, text, length_bytes) == 0) {
            return true;
        }
        if (bar == NULL) {
            return false;
        }
        p = bar + 1;
    }
}

bool cfg__constraint_valid(const cfg_setting_info *info)
{
    MU_ASSERT(info != NULL);
    MU_ASSERT(info->constraint != NULL);
    uint64_t min = 0;
    uint64_t max = 0;
    const char *c = info->constraint;
    switch (info->type) {
    case CFG_U64:
    case CFG_BYTES:
        return cfg__range_parse(info, &min, &max);
    case CFG_BOOL:
        return c[0] == '\0';
    case CFG_STRING:
        return c[0] == '\0' || strcmp(c, "nonempty") == 0;
    case CFG_ENUM:
        /* No empty word: not at the start, the end, or between two bars. */
        return c[0] != '\0' && c[0] != '|' && c[strlen(c) - 1] != '|' &&
               strstr(c, "||") == NULL;
    }
    return false;
}

void cfg__value_allowed(const cfg_setting_info *info, char *out, size_t out_bytes)
{
    MU_ASSERT(info != NULL);
    MU_ASSERT(out_bytes > 0);
    const char *text = info->constraint;
    if (info->type == CFG_BOOL) {
        text = "true|false|yes|no|on|off|1|0";
    } else if (info->type == CFG_STRING) {
        text = info->constraint[0] != '\0' ? "any non-empty text" : "any text";
    }
    snprintf(out, out_bytes, "%s", text);
}

/* Fills err with the one message shape every bad value gets. */
static int cfg__value_fail(const cfg_setting_info *info, const char *text, const char *origin,
                           const char *problem, mu_err *err)
{
    char quoted[CFG__QUOTED_BYTES];
    char allowed[256];
    mu_log_quote(text, quoted, sizeof quoted);
    cfg__value_allowed(info, allowed, sizeof allowed);
    return MU_ERR(err, MU_ECONFIG, "setting %s (%s): %s %s; allowed: %s", info->key, origin,
                  quoted, problem, allowed);
}

/* Checks a U64 or BYTES value; returns the problem, or NULL and *value_out. */
static const char *cfg__number_check(const cfg_setting_info *info, const char *text,
                                     size_t length_bytes, uint64_t *value_out)
{
    bool with_unit = info->type == CFG_BYTES;
    uint64_t min = 0;
    uint64_t max = 0;
    bool range_ok = cfg__range_parse(info, &min, &max);
    MU_ASSERT(range_ok); /* The table is checked once at start (config.c). */
    switch (cfg__number_parse(text, length_bytes, with_unit, value_out)) {
    case CFG__NUMBER_OK:
        break;
    case CFG__NUMBER_SYNTAX:
        return with_unit ? "is not a size (decimal digits, optionally followed by KiB, "
                           "MiB, GiB or TiB)"
                         : "is not an unsigned integer";
    case CFG__NUMBER_LEADING_ZERO:
        return "has a leading zero";
    case CFG__NUMBER_UNIT:
        return "has an unknown unit (only KiB, MiB, GiB and TiB, powers of 1024, "
               "are accepted)";
    case CFG__NUMBER_OVERFLOW:
        return "does not fit in 64 bits";
    }
    if (*value_out < min || *value_out > max) {
        return "is out of range";
    }
    return NULL;
}

/* Checks a BOOL value; returns the problem, or NULL and *value_out. */
static const char *cfg__bool_check(const char *text, bool *value_out)
{
    for (size_t i = 0; i < MU_ARRAY_LEN(cfg__bool_true); i++) {
        if (strcasecmp(text, cfg__bool_true[i]) == 0) {
            *value_out = true;
            return NULL;
        }
        if (strcasecmp(text, cfg__bool_false[i]) == 0) {
            *value_out = false;
            return NULL;
        }
    }
    return "is not a boolean";
}

/* Replaces the string in *field by a copy of text. */
static int cfg__string_store(const cfg_setting_info *info, const char *text,
                             size_t length_bytes, char **field, mu_err *err)
{
    char *copy = strndup(text, length_bytes);
    if (copy == NULL) {
        return MU_ERR(err, MU_ENOMEM, "setting %s: out of memory copying its value", info->key);
    }
    free(*field);
    *field = copy;
    return 0;
}

int cfg__value_set(const cfg_setting_info *info, const char *text, size_t length_bytes,
                   const char *origin, void *field, mu_err *err)
{
    MU_ASSERT(info != NULL);
    MU_ASSERT(text != NULL && text[length_bytes] == '\0');
    MU_ASSERT(origin != NULL);
    MU_ASSERT(field != NULL);
    const char *problem = NULL;
    uint64_t number = 0;
    bool flag = false;
    if (strlen(text) != length_bytes) {
        return cfg__value_fail(info, text, origin, "contains a NUL byte", err);
    }
    switch (info->type) {
    case CFG_U64:
    case CFG_BYTES:
        problem = cfg__number_check(info, text, length_bytes, &number);
        if (problem == NULL) {
            *(uint64_t *)field = number;
        }
        break;
    case CFG_BOOL:
        problem = cfg__bool_check(text, &flag);
        if (problem == NULL) {
            *(bool *)field = flag;
        }
        break;
    case CFG_ENUM:
        if (!cfg__enum_contains(info->constraint, text, length_bytes)) {
            problem = "is not one of the allowed words";
            break;
        }
        return cfg__string_store(info, text, length_bytes, (char **)field, err);
    case CFG_STRING:
        if (length_bytes == 0 && info->constraint[0] != '\0') {
            problem = "is empty";
            break;
        }
        return cfg__string_store(info, text, length_bytes, (char **)field, err);
    }
    return problem != NULL ? cfg__value_fail(info, text, origin, problem, err) : 0;
}
