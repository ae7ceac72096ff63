/* fn_date_int.h: what fn_date.c and fn_date_format.c share (private to
 * the two files): the session zone and clock, zone arguments, DateTime
 * result types, the best-effort reader, and the functions fn_date_format.c
 * defines and fn_date.c's registry lists.
 */
#ifndef MU_EXEC_FN_DATE_INT_H
#define MU_EXEC_FN_DATE_INT_H

#include "exec/exec_int.h"

/* Defined in fn_date.c. */
const ty_tz *exec__date_session_zone(const exec_call *call);
int64_t exec__date_now_us(const exec_call *call);
/* Argument `index` as a constant zone name (ClickHouse's errors otherwise);
 * *name_out (may be NULL) is an arena copy of the name. */
int exec__date_zone_arg(const exec_call *call, uint32_t index, mu_arena *arena,
                        const ty_tz **tz_out, const char **name_out, mu_err *err);
/* DateTime / DateTime64(precision) carrying zone_name (NULL: no zone). */
int exec__date_type_datetime(mu_arena *arena, const char *zone_name, const ty_tz *tz,
                             const ty_type **out, mu_err *err);
int exec__date_type_datetime64(mu_arena *arena, unsigned precision, const char *zone_name,
                               const ty_tz *tz, const ty_type **out, mu_err *err);

/* Defined in fn_date_format.c: ClickHouse's parseDateTime64BestEffort at
 * scale 0 reading s[0..n) in zone `local` (trailing text is ignored, as
 * toWeek and toYearWeek read String arguments). MU_EPARSE_DATETIME when
 * nothing readable is there. */
int exec__date_parse_best_effort(const exec_call *call, const char *s, size_t n,
                                 const ty_tz *local, int64_t *seconds_out, mu_err *err);

/* Defined in fn_date_format.c, listed by fn_date.c. */
extern const exec_function exec__date_fn_format_datetime;
extern const exec_function exec__date_fn_date_format;
extern const exec_function exec__date_fn_from_unixtime;
extern const exec_function exec__date_fn_from_unix_timestamp;
/* parseDateTime[64]BestEffort[US][OrNull|OrZero], in that order. */
extern const exec_function exec__date_fn_parse[12];

#endif
