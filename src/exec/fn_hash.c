/* fn_hash.c: scalar functions of the "hash" group (being written). */
#include "exec/exec_int.h"

const exec_function *const exec__functions_hash[] = {NULL};
