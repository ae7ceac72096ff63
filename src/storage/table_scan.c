/* table_scan.c: scan helpers over a table version's parts that the query
 * engine builds on. Granule pruning by a column's value range uses a part's
 * minmax skip index when it has one; an index is advisory: a missing or
 * damaged index is logged and every granule is kept, so an index can cost
 * speed but never change a result.
 */
#include <stdlib.h>

#include "storage/table_int.h"

int table_part_prune(const part *p, uint32_t column_index, const ty_column *bounds,
                     uint8_t *keep_out, mu_err *err) {
    MU_ASSERT(p != NULL && bounds != NULL && keep_out != NULL);
    MU_ASSERT(ty_column_row_count(bounds) == 2);
    const part_info *info = part_get_info(p);
    for (uint32_t g = 0; g < info->granule_count; g++) keep_out[g] = 1;
    if (!part_column_has_minmax(p, column_index)) return 0;
    part_minmax mm = {0};
    mu_err why;
    int rc = part_minmax_load(p, column_index, &mm, &why);
    if (rc != 0) {
        char reason[600];
        mu_log_warn("table.skip_index_ignored", "part=%s column=%s reason=%s", info->name,
                    part_column_name(p, column_index),
                    mu_log_quote(why.message, reason, sizeof(reason)));
        return 0;
    }
    if (mm.granule_count != info->granule_count) {
        part_minmax_deinit(&mm);
        return MU_ERR(err, MU_EINTERNAL, "part %s: minmax index of %u granules, part has %u",
                      info->name, mm.granule_count, info->granule_count);
    }
    for (uint32_t g = 0; g < mm.granule_count; g++) {
        if (!(mm.flags[g] & PART_MINMAX_HAS_VALUES)) {
            keep_out[g] = 0; /* only NULLs: no value lies in a range */
            continue;
        }
        bool below = ty_column_compare_rows(mm.max, g, bounds, 0) < 0;
        bool above = ty_column_compare_rows(mm.min, g, bounds, 1) > 0;
        keep_out[g] = !(below || above);
    }
    part_minmax_deinit(&mm);
    return 0;
}
