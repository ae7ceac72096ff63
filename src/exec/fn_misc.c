/* fn_misc.c: scalar functions of the "misc" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_misc[] = {NULL};
