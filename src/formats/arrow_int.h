/* arrow_int.h: private to src/formats: the small FlatBuffers builder that
 * arrow.c writes the Arrow IPC metadata (Schema, RecordBatch,
 * DictionaryBatch, Message, Footer) with. Implemented in arrow_fb.c.
 *
 * FlatBuffers wire rules kept here (flatbuffers.dev "internals"): a buffer
 * starts with a u32 offset to the root table; a table starts with an i32
 * "vtable position = table position - value", followed by its fields; a
 * vtable is u16 vtable bytes, u16 table bytes, then one u16 per field id:
 * the field's offset from the table start, 0 = absent (default). Offsets
 * to strings, vectors and tables are u32 from the offset's own position and
 * point forward; vectors are u32 count + elements, strings u32 length +
 * bytes + NUL. Every scalar is aligned to its size from the buffer start,
 * and the buffer's length is a multiple of its largest alignment. All
 * little-endian.
 *
 * The builder writes back to front, as the FlatBuffers library does:
 * children first, then the object that refers to them, so every offset
 * points forward. An object is named by its "ref": the number of bytes
 * from its first byte to the end of the buffer (never 0).
 */
#ifndef MUSCLES_FORMATS_ARROW_INT_H
#define MUSCLES_FORMATS_ARROW_INT_H

#include "formats/formats_int.h"

#define FMT__FB_FIELDS_MAX 8u /* field ids per table (Arrow's tables have at most 7) */

typedef uint32_t fmt__fb_ref; /* 0 = no object */

typedef struct fmt__fb {
    uint8_t *data;       /* the built bytes are data[head .. capacity) */
    size_t capacity;
    size_t head;
    size_t max_bytes;    /* growth past this fails with MU_ETOO_LARGE */
    size_t align_max;    /* the largest alignment used so far */
    /* The table being built: ref of each field's value, 0 = absent. */
    fmt__fb_ref fields[FMT__FB_FIELDS_MAX];
    unsigned field_count; /* highest field id set + 1 */
    size_t table_start;   /* built bytes when the table was started */
    bool in_table;
    int rc;               /* first failure, sticky; `err` was filled then */
    mu_err *err;
} fmt__fb;

/* Failures (out of memory, past max_bytes) are sticky: every call after one
 * does nothing and returns ref 0; fmt__fb_finish reports the first. */
void fmt__fb_init(fmt__fb *b, size_t max_bytes);
void fmt__fb_deinit(fmt__fb *b);
/* Starts a new buffer (keeps the memory); errors go to err. */
void fmt__fb_reset(fmt__fb *b, mu_err *err);

fmt__fb_ref fmt__fb_string(fmt__fb *b, const char *s, size_t length_bytes);
/* A vector of offsets to objects built before (tables or strings). */
fmt__fb_ref fmt__fb_vector_refs(fmt__fb *b, const fmt__fb_ref *refs, size_t count);
/* A vector of `count` structs (or scalars) of element_bytes each, given as
 * their little-endian bytes, aligned to `align` (a power of two). */
fmt__fb_ref fmt__fb_vector_raw(fmt__fb *b, const void *elements, size_t count,
                               size_t element_bytes, size_t align);

/* Tables: start, add fields (no other object may be built in between),
 * end. Scalars are always stored, even when equal to the default. */
void fmt__fb_table_start(fmt__fb *b);
void fmt__fb_add_u8(fmt__fb *b, unsigned id, uint8_t v);
void fmt__fb_add_i16(fmt__fb *b, unsigned id, int16_t v);
void fmt__fb_add_i32(fmt__fb *b, unsigned id, int32_t v);
void fmt__fb_add_i64(fmt__fb *b, unsigned id, int64_t v);
/* An offset field; ref 0 leaves the field absent. */
void fmt__fb_add_ref(fmt__fb *b, unsigned id, fmt__fb_ref ref);
fmt__fb_ref fmt__fb_table_end(fmt__fb *b);

/* Writes the root offset; *data / *length_bytes are the finished buffer
 * (valid until the next reset). Returns the first failure or 0. */
int fmt__fb_finish(fmt__fb *b, fmt__fb_ref root, const uint8_t **data, size_t *length_bytes);

#endif /* MUSCLES_FORMATS_ARROW_INT_H */
