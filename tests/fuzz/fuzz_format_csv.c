/* fuzz_format_csv.c: libFuzzer target for the streaming CSV reader
 * (src/formats/read.c): the same input layout (options byte, chunk byte,
 * body) and checks as fuzz_format_tsv.c (never crash; no mark past the
 * rows; accepted input writes, re-reads and re-writes to the same bytes),
 * with the CSV family. */
#define FUZZ_FORMAT_NAME "CSV"
#include "fuzz_format_tsv.c"
