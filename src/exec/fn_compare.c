/* fn_compare.c: scalar functions of the "compare" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_compare[] = {NULL};
