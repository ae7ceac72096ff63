/* fn_logic.c: scalar functions of the "logic" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_logic[] = {NULL};
