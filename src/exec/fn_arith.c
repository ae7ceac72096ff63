/* fn_arith.c: scalar functions of the "arith" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_arith[] = {NULL};
