/* registry.c: the one registry of scalar and aggregate functions: every
 * source file exports a NULL-terminated list and this file walks them.
 * Lookups happen at bind time only, never per row.
 */
#include "exec/exec_int.h"

#include <strings.h>
#include <string.h>

static const exec_function *const *const registry_function_lists[] = {
    exec__functions_arith,  exec__functions_compare, exec__functions_logic,
    exec__functions_null,   exec__functions_convert, exec__functions_math,
    exec__functions_string, exec__functions_regex,   exec__functions_hash,
    exec__functions_json,   exec__functions_date,    exec__functions_array,
    exec__functions_misc,   exec__functions_lambda,
};

static const exec_aggregate *const *const registry_aggregate_lists[] = {
    exec__aggregates_basic, exec__aggregates_stats, exec__aggregates_collect,
};

#define REGISTRY_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool registry_name_matches(const char *registered, bool case_insensitive,
                                  const char *name, size_t name_bytes) {
    if (strlen(registered) != name_bytes) return false;
    return case_insensitive ? strncasecmp(registered, name, name_bytes) == 0
                            : memcmp(registered, name, name_bytes) == 0;
}

const exec_function *exec_function_find(const char *name, size_t name_bytes) {
    for (size_t l = 0; l < REGISTRY_COUNT(registry_function_lists); l++)
        for (const exec_function *const *f = registry_function_lists[l]; *f; f++)
            if (registry_name_matches((*f)->name, (*f)->flags & EXEC_FN_CASE_INSENSITIVE, name,
                                      name_bytes))
                return *f;
    return NULL;
}

const exec_aggregate *exec_aggregate_find(const char *name, size_t name_bytes) {
    for (size_t l = 0; l < REGISTRY_COUNT(registry_aggregate_lists); l++)
        for (const exec_aggregate *const *a = registry_aggregate_lists[l]; *a; a++)
            if (registry_name_matches((*a)->name, (*a)->flags & EXEC_AGG_CASE_INSENSITIVE, name,
                                      name_bytes))
                return *a;
    return NULL;
}

void exec_function_foreach(void (*fn)(void *ctx, const char *name, bool is_aggregate,
                                      bool case_insensitive),
                           void *ctx) {
    for (size_t l = 0; l < REGISTRY_COUNT(registry_function_lists); l++)
        for (const exec_function *const *f = registry_function_lists[l]; *f; f++)
            fn(ctx, (*f)->name, false, ((*f)->flags & EXEC_FN_CASE_INSENSITIVE) != 0);
    for (size_t l = 0; l < REGISTRY_COUNT(registry_aggregate_lists); l++)
        for (const exec_aggregate *const *a = registry_aggregate_lists[l]; *a; a++)
            fn(ctx, (*a)->name, true, ((*a)->flags & EXEC_AGG_CASE_INSENSITIVE) != 0);
}
