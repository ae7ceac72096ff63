/* fn_array.c: scalar functions of the "array" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_array[] = {NULL};
