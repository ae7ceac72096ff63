/* failpoint.c: named fault-injection points for crash and I/O-fault tests
 * (spec grammar in base.h). The configuration is an immutable table behind
 * one atomic pointer: mu_failpoint_eval reads it lock-free, configure builds
 * a new table and swaps it in. A replaced table is kept on a retired list,
 * never freed, because an evaluating thread may still hold it; at ~100 bytes
 * per entry and a few thousand reconfigurations per test run, that waste
 * buys a lock-free hot path (and reachable memory keeps leak checkers quiet).
 */
#include "base/base.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define FP_NAME_MAX_BYTES 64
#define FP_ENTRIES_MAX 64
#define FP_SPEC_LIST_MAX_BYTES 4096
#define FP_SLEEP_MAX_MS 3600000
#define FP_ALLOWED                                                                      \
    "allowed: name=ACTION[@N][xK] with ACTION one of error, error:EIO, error:ENOSPC, " \
    "error:SHORT, crash, sleep:MS; N >= 1 is the first hit that fires, K >= 1 how often"

typedef enum fp_action { FP_ACTION_ERROR, FP_ACTION_CRASH, FP_ACTION_SLEEP } fp_action;

typedef struct fp_entry {
    char name[FP_NAME_MAX_BYTES];
    fp_action action;
    int error_value; /* EIO, ENOSPC or MU_FAILPOINT_SHORT */
    int64_t sleep_ms;
    uint64_t first_hit;  /* 1-based hit number of the first fire */
    uint64_t fire_count; /* fires this often, then stays off; 0 = forever */
    _Atomic uint64_t hits;
} fp_entry;

typedef struct fp_table {
    struct fp_table *retired_next;
    size_t count;
    size_t capacity; /* entries allocated: the list's comma count + 1 */
    fp_entry entries[];
} fp_table;

static _Atomic(fp_table *) fp_current;
static pthread_mutex_t fp_config_lock = PTHREAD_MUTEX_INITIALIZER;
static fp_table *fp_retired; /* guarded by fp_config_lock */

bool mu_failpoints_compiled_in(void) {
#ifdef MUSCLES_FAILPOINTS
    return true;
#else
    return false;
#endif
}

/* Reads decimal digits from *pp (before end) into *out; at least one digit,
 * no sign, no overflow. Advances *pp past the digits. */
static bool fp_parse_u64(const char **pp, const char *end, uint64_t *out) {
    const char *p = *pp;
    uint64_t v = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v)) {
            return false;
        }
        p++;
    }
    if (p == *pp) return false;
    *pp = p;
    *out = v;
    return true;
}

static bool fp_take(const char **pp, const char *end, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(end - *pp) < n || memcmp(*pp, word, n) != 0) return false;
    *pp += n;
    return true;
}

/* Parses ACTION at *pp into e; returns false if it is none of the actions. */
static bool fp_parse_action(const char **pp, const char *end, fp_entry *e) {
    uint64_t ms = 0;
    e->error_value = 0;
    e->sleep_ms = 0;
    if (fp_take(pp, end, "error:EIO")) {
        e->action = FP_ACTION_ERROR;
        e->error_value = EIO;
    } else if (fp_take(pp, end, "error:ENOSPC")) {
        e->action = FP_ACTION_ERROR;
        e->error_value = ENOSPC;
    } else if (fp_take(pp, end, "error:SHORT")) {
        e->action = FP_ACTION_ERROR;
        e->error_value = MU_FAILPOINT_SHORT;
    } else if (fp_take(pp, end, "error")) {
        e->action = FP_ACTION_ERROR;
        e->error_value = EIO;
    } else if (fp_take(pp, end, "crash")) {
        e->action = FP_ACTION_CRASH;
    } else if (fp_take(pp, end, "sleep:") && fp_parse_u64(pp, end, &ms) &&
               ms <= FP_SLEEP_MAX_MS) {
        e->action = FP_ACTION_SLEEP;
        e->sleep_ms = (int64_t)ms;
    } else {
        return false;
    }
    return true;
}

static bool fp_name_valid(const char *name, size_t length_bytes) {
    if (length_bytes == 0 || length_bytes >= FP_NAME_MAX_BYTES) return false;
    for (size_t i = 0; i < length_bytes; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '-';
        if (!ok) return false;
    }
    return true;
}

/* Parses one "name=ACTION[@N][xK]" entry of length_bytes at text. */
static int fp_parse_entry(const char *text, size_t length_bytes, fp_entry *e, mu_err *err) {
    const char *end = text + length_bytes;
    const char *eq = memchr(text, '=', length_bytes);
    int shown = (int)MU_MIN(length_bytes, (size_t)80);
    if (eq == NULL || !fp_name_valid(text, (size_t)(eq - text))) {
        return MU_ERR(err, MU_EINVAL, "failpoint entry \"%.*s\": expected name=ACTION with a "
                      "name of 1-63 characters [A-Za-z0-9._-]; " FP_ALLOWED, shown, text);
    }
    memset(e, 0, sizeof(*e));
    memcpy(e->name, text, (size_t)(eq - text));
    e->first_hit = 1;
    const char *p = eq + 1;
    bool ok = fp_parse_action(&p, end, e);
    if (ok && p < end && *p == '@') {
        p++;
        ok = fp_parse_u64(&p, end, &e->first_hit) && e->first_hit >= 1;
    }
    if (ok && p < end && *p == 'x') {
        p++;
        ok = fp_parse_u64(&p, end, &e->fire_count) && e->fire_count >= 1;
    }
    if (!ok || p != end) {
        return MU_ERR(err, MU_EINVAL, "failpoint entry \"%.*s\" is invalid; " FP_ALLOWED, shown,
                      text);
    }
    atomic_init(&e->hits, 0);
    return 0;
}

static bool fp_is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Parses a comma-separated spec list into t. Empty entries are skipped. */
static int fp_parse_list(const char *spec_list, fp_table *t, mu_err *err) {
    const char *p = spec_list;
    while (*p != '\0') {
        const char *start = p;
        while (*p != '\0' && *p != ',') p++;
        const char *stop = p;
        if (*p == ',') p++;
        while (start < stop && fp_is_space(*start)) start++;
        while (stop > start && fp_is_space(stop[-1])) stop--;
        if (start == stop) continue;
        MU_ASSERT(t->count < t->capacity);
        fp_entry *e = &t->entries[t->count];
        int rc = fp_parse_entry(start, (size_t)(stop - start), e, err);
        if (rc != 0) return rc;
        for (size_t i = 0; i < t->count; i++) {
            if (strcmp(t->entries[i].name, e->name) == 0) {
                return MU_ERR(err, MU_EINVAL, "failpoint %s is configured twice", e->name);
            }
        }
        t->count++;
    }
    return 0;
}

static bool fp_list_blank(const char *spec_list) {
    for (const char *p = spec_list; *p != '\0'; p++) {
        if (!fp_is_space(*p) && *p != ',') return false;
    }
    return true;
}

int mu_failpoints_configure(const char *spec_list, mu_err *err) {
    if (spec_list == NULL) spec_list = "";
    size_t list_bytes = strnlen(spec_list, FP_SPEC_LIST_MAX_BYTES + 1);
    if (list_bytes > FP_SPEC_LIST_MAX_BYTES) {
        return MU_ERR(err, MU_EINVAL, "failpoint list is %zu bytes, longer than the %d allowed",
                      strlen(spec_list), FP_SPEC_LIST_MAX_BYTES);
    }
    bool blank = fp_list_blank(spec_list);
    if (!blank && !mu_failpoints_compiled_in()) {
        return MU_ERR(err, MU_EINVAL, "failpoints are compiled only into test builds (build "
                      "with -DMUSCLES_FAILPOINTS=ON); refusing \"%.80s\"", spec_list);
    }
    fp_table *t = NULL;
    if (!blank) {
        size_t capacity = 1;
        for (const char *p = spec_list; *p != '\0'; p++) capacity += *p == ',';
        if (capacity > FP_ENTRIES_MAX) {
            return MU_ERR(err, MU_EINVAL, "failpoint list has %zu entries, more than the %d "
                          "allowed", capacity, FP_ENTRIES_MAX);
        }
        t = calloc(1, sizeof(*t) + capacity * sizeof(fp_entry));
        if (t == NULL) return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "failpoints: out of memory");
        t->capacity = capacity;
        int rc = fp_parse_list(spec_list, t, err);
        if (rc != 0) {
            free(t);
            return rc;
        }
    }
    pthread_mutex_lock(&fp_config_lock);
    fp_table *old = atomic_exchange_explicit(&fp_current, t, memory_order_acq_rel);
    if (old != NULL) {
        old->retired_next = fp_retired;
        fp_retired = old;
    }
    pthread_mutex_unlock(&fp_config_lock);
    return 0;
}

int mu_failpoints_configure_from_env(mu_err *err) {
    const char *spec_list = getenv("MUSCLES_FAILPOINTS");
    if (spec_list == NULL) return 0;
    int rc = mu_failpoints_configure(spec_list, err);
    if (rc != 0) mu_err_prefix(err, "MUSCLES_FAILPOINTS");
    return rc;
}

static fp_entry *fp_find(fp_table *t, const char *name) {
    if (t == NULL) return NULL;
    for (size_t i = 0; i < t->count; i++) {
        if (strcmp(t->entries[i].name, name) == 0) return &t->entries[i];
    }
    return NULL;
}

int mu_failpoint_eval(const char *name) {
    MU_ASSERT(name != NULL);
    fp_entry *e = fp_find(atomic_load_explicit(&fp_current, memory_order_acquire), name);
    if (e == NULL) return 0;
    uint64_t hit = atomic_fetch_add_explicit(&e->hits, 1, memory_order_relaxed) + 1;
    if (hit < e->first_hit) return 0;
    if (e->fire_count != 0 && hit - e->first_hit >= e->fire_count) return 0;
    switch (e->action) {
    case FP_ACTION_CRASH:
        mu_log_info("failpoint.crash", "name=%s hit=%llu", name, (unsigned long long)hit);
        raise(SIGKILL);
        abort(); /* not reached: SIGKILL cannot be caught */
    case FP_ACTION_SLEEP:
        mu_log_debug("failpoint.sleep", "name=%s hit=%llu ms=%lld", name,
                     (unsigned long long)hit, (long long)e->sleep_ms);
        mu_sleep_ms(e->sleep_ms);
        return 0;
    case FP_ACTION_ERROR:
        mu_log_debug("failpoint.error", "name=%s hit=%llu value=%d", name,
                     (unsigned long long)hit, e->error_value);
        return e->error_value;
    }
    MU_ASSERT(!"unknown failpoint action");
    return 0;
}

uint64_t mu_failpoint_hits(const char *name) {
    MU_ASSERT(name != NULL);
    fp_entry *e = fp_find(atomic_load_explicit(&fp_current, memory_order_acquire), name);
    return e == NULL ? 0 : atomic_load_explicit(&e->hits, memory_order_relaxed);
}
