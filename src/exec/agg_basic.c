/* agg_basic.c: aggregate functions of the "basic" group (being written). */
#include "exec/exec_int.h"

const exec_aggregate *const exec__aggregates_basic[] = {NULL};
