/* fn_regex.c: scalar functions of the "regex" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_regex[] = {NULL};
