/* fuzz_format_native.c: libFuzzer target for the streaming Native reader
 * (src/formats/binary.c): the same checks as fuzz_format_rowbinary.c
 * (never crash; a failure leaves whole rows; no omitted-value mark past
 * the rows; accepted input writes, re-reads and re-writes to the same
 * bytes), with FORMAT Native. Input: one byte choosing the chunk size, one
 * byte of reader options (bits 2-6 as there: unknown columns refused, NULL
 * not read as default, ...), then the blocks.
 */
#define FUZZ_FORMAT_NATIVE 1
#include "fuzz_format_rowbinary.c"
