/* fn_json.c: scalar functions of the "json" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_json[] = {NULL};
