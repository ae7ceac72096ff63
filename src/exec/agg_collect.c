/* agg_collect.c: aggregate functions of the "collect" group (being written). */
#include "exec/exec_int.h"

const exec_aggregate *const exec__aggregates_collect[] = {NULL};
