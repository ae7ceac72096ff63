/* fuzz_format_csv.c: libFuzzer target for the streaming CSV reader
 * (src/formats/read.c): the same checks as fuzz_format_tsv.c (never
 * crash; accepted input writes, re-reads and re-writes to the same
 * bytes), with the CSV format. */
#define FUZZ_FORMAT_NAME "CSV"
#include "fuzz_format_tsv.c"
