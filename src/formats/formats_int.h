/* formats_int.h: declarations shared by the files of src/formats and not
 * part of the public interface (formats.h).
 */
#ifndef MUSCLES_FORMATS_INT_H
#define MUSCLES_FORMATS_INT_H

#include "formats/formats.h"

/* JSONEachRow rows of the batch's visible rows (json_each_row.c). */
int fmt__write_json_each_row(const ty_batch *batch, mu_buf *out, mu_err *err);

#endif /* MUSCLES_FORMATS_INT_H */
