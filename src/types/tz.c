/* tz.c: time zones without libc's TZ switching (tzset/localtime_r change
 * process state and are not safe to use from query threads). A zone is
 * read once from its TZif file (RFC 8536, versions 1-4: the 64-bit section
 * when present, and the POSIX TZ footer, expanded into explicit
 * transitions up to the year 2300), then kept for the life of the process
 * in a list guarded by a mutex. A zone is immutable after loading, so
 * conversions need no lock. Zones with leap seconds ("right/...") are
 * refused: their transition instants are not Unix time.
 */
#include "types/types_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TZ_FILE_BYTES_MAX (1u << 20)
#define TZ_NAME_BYTES_MAX 255
#define TZ_TRANSITIONS_MAX (1u << 20)
#define TZ_TYPES_MAX 256
#define TZ_RULE_YEAR_FIRST 1900
#define TZ_RULE_YEAR_LAST 2300
#define TZ_DEFAULT_DIR "/usr/share/zoneinfo"

struct ty_tz {
    char *name;
    uint32_t count;        /* transitions */
    int64_t *utc;          /* transition instants, strictly increasing */
    int64_t *local_switch; /* utc[i] + the offset before transition i */
    int32_t *offset;       /* offset (east of UTC) from utc[i] on */
    int32_t offset_initial;
    struct ty_tz *next;
};

static ty_tz tz_utc_zone = {.name = (char *)"UTC"};
static pthread_mutex_t tz_lock = PTHREAD_MUTEX_INITIALIZER;
static ty_tz *tz_loaded;
static const ty_tz *tz_default_zone = &tz_utc_zone;

/* ------------------------------------------------------------------ */
/* Conversions                                                         */
/* ------------------------------------------------------------------ */

/* Greatest i with keys[i] <= x, or -1. */
static int64_t tz_search(const int64_t *keys, uint32_t count, int64_t x) {
    int64_t lo = 0, hi = (int64_t)count; /* answer in [lo - 1, hi - 1] */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (keys[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

int32_t ty_tz_offset_at(const ty_tz *tz, int64_t utc_seconds) {
    MU_ASSERT(tz != NULL);
    int64_t i = tz_search(tz->utc, tz->count, utc_seconds);
    return i < 0 ? tz->offset_initial : tz->offset[i];
}

/* The last transition whose wall-clock switch point (its instant read with
 * the offset before it) is at or before local_seconds decides the offset.
 * In a gap that is the transition itself (the offset after it); in an
 * overlap the transition is not reached yet (the offset before it, i.e.
 * the earlier instant). ClickHouse resolves both cases the same way. */
int64_t ty_tz_local_to_utc(const ty_tz *tz, int64_t local_seconds) {
    MU_ASSERT(tz != NULL);
    int64_t i = tz_search(tz->local_switch, tz->count, local_seconds);
    int32_t offset = i < 0 ? tz->offset_initial : tz->offset[i];
    return local_seconds - offset;
}

const char *ty_tz_name(const ty_tz *tz) { return tz->name; }
const ty_tz *ty_tz_utc(void) { return &tz_utc_zone; }
const ty_tz *ty_tz_default(void) { return tz_default_zone; }

/* ------------------------------------------------------------------ */
/* Transition list under construction                                   */
/* ------------------------------------------------------------------ */

typedef struct tz_builder {
    int64_t *utc;
    int32_t *offset;
    uint32_t count;
    uint32_t capacity;
} tz_builder;

/* Appends a transition; an instant equal to the previous one replaces its
 * offset, an earlier one is ignored (callers check order where it is an
 * error). */
static int tz_builder_push(tz_builder *b, int64_t utc, int32_t offset, mu_err *err) {
    if (b->count > 0 && utc <= b->utc[b->count - 1]) {
        if (utc == b->utc[b->count - 1]) b->offset[b->count - 1] = offset;
        return 0;
    }
    if (b->count == b->capacity) {
        uint32_t capacity = b->capacity ? b->capacity * 2 : 64;
        int64_t *u = realloc(b->utc, capacity * sizeof(*u));
        if (u) b->utc = u;
        int32_t *o = u ? realloc(b->offset, capacity * sizeof(*o)) : NULL;
        if (o) b->offset = o;
        if (!u || !o) return MU_ERR(err, MU_ENOMEM, "time zone: out of memory");
        b->capacity = capacity;
    }
    b->utc[b->count] = utc;
    b->offset[b->count] = offset;
    b->count++;
    return 0;
}

/* ------------------------------------------------------------------ */
/* POSIX TZ rule (TZif footer), e.g. "CET-1CEST,M3.5.0,M10.5.0/3"       */
/* ------------------------------------------------------------------ */

typedef struct tz_rule_date {
    char form;        /* 'J' (1..365, no Feb 29), 'N' (0..365), 'M' (month.week.day) */
    int day;          /* J / N day */
    int month, week, weekday;
    int32_t time_seconds;
} tz_rule_date;

typedef struct tz_rule {
    int32_t std_offset; /* east of UTC */
    int32_t dst_offset;
    bool has_dst;
    tz_rule_date start, end;
} tz_rule;

typedef struct tz_text {
    const char *p;
    const char *end;
} tz_text;

static bool tz_text_number(tz_text *t, int max, int *value_out) {
    int v = 0, digits = 0;
    while (t->p < t->end && *t->p >= '0' && *t->p <= '9' && digits < 4) {
        v = v * 10 + (*t->p++ - '0');
        digits++;
    }
    *value_out = v;
    return digits > 0 && v <= max;
}

static bool tz_rule_name(tz_text *t) {
    const char *start = t->p;
    if (t->p < t->end && *t->p == '<') {
        while (t->p < t->end && *t->p != '>') t->p++;
        if (t->p == t->end) return false;
        t->p++;
        return t->p - start > 2;
    }
    while (t->p < t->end && ((*t->p >= 'A' && *t->p <= 'Z') || (*t->p >= 'a' && *t->p <= 'z')))
        t->p++;
    return t->p - start >= 3;
}

/* [+-]hh[:mm[:ss]] with hours up to hours_max; returns signed seconds. */
static bool tz_rule_hms(tz_text *t, int hours_max, int32_t *seconds_out) {
    int sign = 1, h, m = 0, s = 0;
    if (t->p < t->end && (*t->p == '+' || *t->p == '-')) sign = *t->p++ == '-' ? -1 : 1;
    if (!tz_text_number(t, hours_max, &h)) return false;
    if (t->p < t->end && *t->p == ':') {
        t->p++;
        if (!tz_text_number(t, 59, &m)) return false;
        if (t->p < t->end && *t->p == ':') {
            t->p++;
            if (!tz_text_number(t, 59, &s)) return false;
        }
    }
    *seconds_out = sign * (h * 3600 + m * 60 + s);
    return true;
}

static bool tz_rule_date_parse(tz_text *t, tz_rule_date *d) {
    d->time_seconds = 7200;
    if (t->p < t->end && *t->p == 'M') {
        t->p++;
        d->form = 'M';
        if (!tz_text_number(t, 12, &d->month) || d->month < 1) return false;
        if (t->p == t->end || *t->p++ != '.' || !tz_text_number(t, 5, &d->week) || d->week < 1)
            return false;
        if (t->p == t->end || *t->p++ != '.' || !tz_text_number(t, 6, &d->weekday)) return false;
    } else if (t->p < t->end && *t->p == 'J') {
        t->p++;
        d->form = 'J';
        if (!tz_text_number(t, 365, &d->day) || d->day < 1) return false;
    } else {
        d->form = 'N';
        if (!tz_text_number(t, 365, &d->day)) return false;
    }
    if (t->p < t->end && *t->p == '/') {
        t->p++;
        if (!tz_rule_hms(t, 167, &d->time_seconds)) return false;
    }
    return true;
}

static bool tz_rule_parse(const char *text, size_t n, tz_rule *rule) {
    tz_text t = {text, text + n};
    int32_t posix_offset;
    memset(rule, 0, sizeof(*rule));
    if (!tz_rule_name(&t) || !tz_rule_hms(&t, 24, &posix_offset)) return false;
    rule->std_offset = -posix_offset; /* POSIX counts west of UTC as positive */
    if (t.p == t.end) return true;
    if (!tz_rule_name(&t)) return false;
    rule->has_dst = true;
    rule->dst_offset = rule->std_offset + 3600;
    if (t.p < t.end && *t.p != ',') {
        if (!tz_rule_hms(&t, 24, &posix_offset)) return false;
        rule->dst_offset = -posix_offset;
    }
    if (t.p == t.end) { /* no rule given: the POSIX default, US rules */
        rule->start = (tz_rule_date){'M', 0, 3, 2, 0, 7200};
        rule->end = (tz_rule_date){'M', 0, 11, 1, 0, 7200};
        return true;
    }
    if (*t.p++ != ',' || !tz_rule_date_parse(&t, &rule->start)) return false;
    if (t.p == t.end || *t.p++ != ',' || !tz_rule_date_parse(&t, &rule->end)) return false;
    return t.p == t.end;
}

/* Wall-clock seconds at which the rule date fires in `year`. */
static int64_t tz_rule_date_local(const tz_rule_date *d, int64_t year) {
    int64_t days;
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (d->form == 'J') {
        days = ty_days_from_civil(year, 1, 1) + d->day - 1 + (leap && d->day >= 60 ? 1 : 0);
    } else if (d->form == 'N') {
        days = ty_days_from_civil(year, 1, 1) + d->day;
    } else {
        int64_t first = ty_days_from_civil(year, (unsigned)d->month, 1);
        int64_t next = d->month == 12 ? ty_days_from_civil(year + 1, 1, 1)
                                      : ty_days_from_civil(year, (unsigned)d->month + 1, 1);
        int64_t first_weekday = ty__floor_mod(first + 4, 7); /* 1970-01-01 was a Thursday */
        int64_t day = ty__floor_mod(d->weekday - first_weekday, 7) + (d->week - 1) * 7;
        while (first + day >= next) day -= 7;
        days = first + day;
    }
    return days * 86400 + d->time_seconds;
}

/* Appends the rule's transitions after the last explicit one. */
static int tz_rule_expand(const tz_rule *rule, tz_builder *b, mu_err *err) {
    if (!rule->has_dst) return 0;
    int64_t first_year = TZ_RULE_YEAR_FIRST;
    if (b->count > 0) {
        int64_t year;
        unsigned month, day;
        ty_civil_from_days(ty__floor_div(b->utc[b->count - 1], 86400), &year, &month, &day);
        first_year = MU_MAX(year, (int64_t)TZ_RULE_YEAR_FIRST);
    }
    for (int64_t year = first_year; year <= TZ_RULE_YEAR_LAST; year++) {
        int64_t start = tz_rule_date_local(&rule->start, year) - rule->std_offset;
        int64_t end = tz_rule_date_local(&rule->end, year) - rule->dst_offset;
        bool start_first = start < end;
        int64_t t1 = start_first ? start : end, t2 = start_first ? end : start;
        int32_t o1 = start_first ? rule->dst_offset : rule->std_offset;
        int32_t o2 = start_first ? rule->std_offset : rule->dst_offset;
        int rc = tz_builder_push(b, t1, o1, err);
        if (rc == 0) rc = tz_builder_push(b, t2, o2, err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* TZif files                                                          */
/* ------------------------------------------------------------------ */

typedef struct tzif_header {
    char version; /* 0, '2', '3', '4' */
    uint32_t isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
} tzif_header;

static uint32_t tz_load_u32be(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t tz_load_u64be(const uint8_t *p) {
    return (uint64_t)tz_load_u32be(p) << 32 | tz_load_u32be(p + 4);
}

static int tzif_read_header(const uint8_t *p, size_t n, size_t pos, const char *name,
                            tzif_header *h, mu_err *err) {
    if (n - pos < 44 || memcmp(p + pos, "TZif", 4) != 0)
        return MU_CORRUPT(err, "time zone %s: no TZif header at byte %zu", name, pos);
    h->version = (char)p[pos + 4];
    const uint8_t *c = p + pos + 20;
    h->isutcnt = tz_load_u32be(c);
    h->isstdcnt = tz_load_u32be(c + 4);
    h->leapcnt = tz_load_u32be(c + 8);
    h->timecnt = tz_load_u32be(c + 12);
    h->typecnt = tz_load_u32be(c + 16);
    h->charcnt = tz_load_u32be(c + 20);
    if (h->typecnt == 0 || h->typecnt > TZ_TYPES_MAX || h->timecnt > TZ_TRANSITIONS_MAX ||
        h->leapcnt > TZ_TRANSITIONS_MAX || h->charcnt > 65536 ||
        (h->isutcnt != 0 && h->isutcnt != h->typecnt) ||
        (h->isstdcnt != 0 && h->isstdcnt != h->typecnt))
        return MU_CORRUPT(err, "time zone %s: bad TZif counts at byte %zu", name, pos);
    return 0;
}

/* Size of a data block whose transition times are time_bytes wide. */
static size_t tzif_block_bytes(const tzif_header *h, size_t time_bytes) {
    return (size_t)h->timecnt * (time_bytes + 1) + (size_t)h->typecnt * 6 + h->charcnt +
           (size_t)h->leapcnt * (time_bytes + 4) + h->isstdcnt + h->isutcnt;
}

/* Reads the transitions and the initial offset (time type 0). */
static int tzif_read_block(const uint8_t *p, const tzif_header *h, size_t time_bytes,
                           const char *name, tz_builder *b, int32_t *initial_out,
                           mu_err *err) {
    const uint8_t *times = p, *indexes = p + (size_t)h->timecnt * time_bytes;
    const uint8_t *types = indexes + h->timecnt;
    int32_t offsets[TZ_TYPES_MAX];
    for (uint32_t i = 0; i < h->typecnt; i++) {
        offsets[i] = (int32_t)tz_load_u32be(types + 6 * i);
        if (offsets[i] == INT32_MIN || offsets[i] < -25 * 3600 || offsets[i] > 26 * 3600)
            return MU_CORRUPT(err, "time zone %s: offset %d out of range", name, offsets[i]);
    }
    *initial_out = offsets[0];
    for (uint32_t i = 0; i < h->timecnt; i++) {
        int64_t t = time_bytes == 8 ? (int64_t)tz_load_u64be(times + 8 * i)
                                    : (int64_t)(int32_t)tz_load_u32be(times + 4 * i);
        if (indexes[i] >= h->typecnt)
            return MU_CORRUPT(err, "time zone %s: transition %u has bad type", name, i);
        if (b->count > 0 && t <= b->utc[b->count - 1])
            return MU_CORRUPT(err, "time zone %s: transitions out of order at %u", name, i);
        int rc = tz_builder_push(b, t, offsets[indexes[i]], err);
        if (rc != 0) return rc;
    }
    return 0;
}

/* Parses a whole TZif file into b, including the footer rule. */
static int tzif_parse(const uint8_t *p, size_t n, const char *name, tz_builder *b,
                      int32_t *initial_out, mu_err *err) {
    tzif_header h;
    int rc = tzif_read_header(p, n, 0, name, &h, err);
    if (rc != 0) return rc;
    size_t pos = 44, time_bytes = 4;
    if (h.version >= '2') {
        pos += tzif_block_bytes(&h, 4);
        if (pos > n) return MU_CORRUPT(err, "time zone %s: truncated v1 block", name);
        rc = tzif_read_header(p, n, pos, name, &h, err);
        if (rc != 0) return rc;
        pos += 44;
        time_bytes = 8;
    }
    /* "right/" zones count leap seconds: their instants are not Unix
     * time, so reading them as such would be off by ~30 s. */
    if (h.leapcnt > 0)
        return MU_ERR(err, MU_EINVAL, "time zone %s has leap seconds; not supported", name);
    size_t block = tzif_block_bytes(&h, time_bytes);
    if (block > n - pos) return MU_CORRUPT(err, "time zone %s: truncated data block", name);
    rc = tzif_read_block(p + pos, &h, time_bytes, name, b, initial_out, err);
    if (rc != 0 || time_bytes == 4) return rc;
    pos += block;
    if (pos >= n || p[pos] != '\n') return MU_CORRUPT(err, "time zone %s: no footer", name);
    const uint8_t *footer = p + pos + 1;
    const uint8_t *footer_end = memchr(footer, '\n', n - pos - 1);
    if (footer_end == NULL) return MU_CORRUPT(err, "time zone %s: unterminated footer", name);
    if (footer_end == footer) return 0; /* no rule: the last offset stays */
    tz_rule rule;
    if (!tz_rule_parse((const char *)footer, (size_t)(footer_end - footer), &rule))
        return MU_CORRUPT(err, "time zone %s: cannot read footer rule \"%.*s\"", name,
                          (int)MU_MIN(footer_end - footer, 64), (const char *)footer);
    if (b->count == 0 && !rule.has_dst) *initial_out = rule.std_offset;
    return tz_rule_expand(&rule, b, err);
}

/* Names hold only [A-Za-z0-9_+-/] in non-empty components: no "." or
 * "..", so a name can never leave the zone directory. */
static bool tz_name_valid(const char *name) {
    size_t n = strlen(name);
    if (n == 0 || n > TZ_NAME_BYTES_MAX || name[0] == '/' || name[n - 1] == '/') return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '+' || c == '-' || c == '/';
        if (!ok || (c == '/' && name[i + 1] == '/')) return false;
    }
    return true;
}

static int tz_read_file(const char *name, uint8_t **data_out, size_t *bytes_out, mu_err *err) {
    const char *dir = getenv("TZDIR");
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir && dir[0] ? dir : TZ_DEFAULT_DIR, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return MU_ERR_SYS(err, MU_EINVAL, errno, "unknown time zone '%s' (%s)", name, path);
    uint8_t *data = malloc(TZ_FILE_BYTES_MAX);
    size_t n = 0;
    int rc = 0;
    if (data == NULL) {
        rc = MU_ERR(err, MU_ENOMEM, "time zone %s: out of memory", name);
        goto fail;
    }
    while (n < TZ_FILE_BYTES_MAX) {
        ssize_t got = read(fd, data + n, TZ_FILE_BYTES_MAX - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            rc = MU_ERR_SYS(err, MU_EINVAL, errno, "unknown time zone '%s' (%s)", name, path);
            goto fail;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    *data_out = data;
    *bytes_out = n;
    return 0;
fail:
    free(data);
    close(fd);
    return rc;
}

static void tz_free(ty_tz *tz) {
    if (tz == NULL) return;
    free(tz->name);
    free(tz->utc);
    free(tz->local_switch);
    free(tz->offset);
    free(tz);
}

/* Reads and parses zone `name` into a new, fully built zone. */
static int tz_load(const char *name, ty_tz **tz_out, mu_err *err) {
    uint8_t *data = NULL;
    size_t bytes = 0;
    tz_builder b = {0};
    ty_tz *tz = NULL;
    int32_t initial = 0;
    int rc = tz_read_file(name, &data, &bytes, err);
    if (rc != 0) return rc;
    rc = tzif_parse(data, bytes, name, &b, &initial, err);
    if (rc != 0) goto fail;
    tz = calloc(1, sizeof(*tz));
    if (tz == NULL || (tz->name = strdup(name)) == NULL) {
        rc = MU_ERR(err, MU_ENOMEM, "time zone %s: out of memory", name);
        goto fail;
    }
    tz->local_switch = malloc((b.count ? b.count : 1) * sizeof(int64_t));
    if (tz->local_switch == NULL) {
        rc = MU_ERR(err, MU_ENOMEM, "time zone %s: out of memory", name);
        goto fail;
    }
    for (uint32_t i = 0; i < b.count; i++)
        tz->local_switch[i] = b.utc[i] + (i == 0 ? initial : b.offset[i - 1]);
    tz->utc = b.utc;
    tz->offset = b.offset;
    tz->count = b.count;
    tz->offset_initial = initial;
    free(data);
    *tz_out = tz;
    return 0;
fail:
    tz_free(tz);
    free(b.utc);
    free(b.offset);
    free(data);
    return rc;
}

int ty_tz_get(const char *name, const ty_tz **tz_out, mu_err *err) {
    MU_ASSERT(name != NULL && tz_out != NULL);
    if (strcmp(name, "UTC") == 0) {
        *tz_out = &tz_utc_zone;
        return 0;
    }
    if (!tz_name_valid(name)) return MU_ERR(err, MU_EINVAL, "invalid time zone name '%.64s'", name);
    int rc = 0;
    pthread_mutex_lock(&tz_lock);
    ty_tz *tz = tz_loaded;
    while (tz != NULL && strcmp(tz->name, name) != 0) tz = tz->next;
    if (tz == NULL) {
        rc = tz_load(name, &tz, err);
        if (rc == 0) {
            tz->next = tz_loaded;
            tz_loaded = tz;
        }
    }
    pthread_mutex_unlock(&tz_lock);
    if (rc == 0) *tz_out = tz;
    return rc;
}

int ty_tz_set_default(const char *name, mu_err *err) {
    const ty_tz *tz;
    int rc = ty_tz_get(name, &tz, err);
    if (rc == 0) tz_default_zone = tz;
    return rc;
}
