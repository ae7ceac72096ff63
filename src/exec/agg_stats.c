/* agg_stats.c: aggregate functions of the "stats" group (being written). */
#include "exec/exec_int.h"

const exec_aggregate *const exec__aggregates_stats[] = {NULL};
