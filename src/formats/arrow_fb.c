/* arrow_fb.c: a FlatBuffers builder just large enough for the Arrow IPC
 * metadata arrow.c writes (tables of scalars and offsets, strings, vectors
 * of offsets and of structs; unions are a u8 type field plus an offset).
 * Wire rules and the back-to-front building order: arrow_int.h. Owns one
 * growable byte array; nothing here knows Arrow's schema.
 */
#include "formats/arrow_int.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "FlatBuffers are little-endian; scalars are copied in host order");

#define FB_CAPACITY_MIN 256u

void fmt__fb_init(fmt__fb *b, size_t max_bytes) {
    memset(b, 0, sizeof(*b));
    b->max_bytes = max_bytes;
}

void fmt__fb_deinit(fmt__fb *b) {
    if (b == NULL) return;
    free(b->data);
    memset(b, 0, sizeof(*b));
}

void fmt__fb_reset(fmt__fb *b, mu_err *err) {
    b->head = b->capacity;
    b->align_max = 1;
    b->field_count = 0;
    b->in_table = false;
    b->rc = 0;
    b->err = err;
}

static size_t fb_size(const fmt__fb *b) { return b->capacity - b->head; }

/* Room for n more bytes in front of the built ones: a larger array with
 * the built bytes moved to its end. */
static bool fb_grow(fmt__fb *b, size_t n) {
    if (b->rc != 0) return false;
    if (b->head >= n) return true;
    size_t used = fb_size(b), capacity = MU_MAX(b->capacity * 2, (size_t)FB_CAPACITY_MIN);
    while (capacity - used < n) capacity *= 2;
    if (b->max_bytes != 0 && capacity > b->max_bytes) {
        if (used + n > b->max_bytes) {
            b->rc = MU_ERR(b->err, MU_ETOO_LARGE, "Arrow metadata larger than %zu bytes",
                           b->max_bytes);
            return false;
        }
        capacity = b->max_bytes;
    }
    uint8_t *data = malloc(capacity);
    if (data == NULL) {
        b->rc = MU_ERR(b->err, MU_ENOMEM, "out of memory for %zu bytes of Arrow metadata",
                       capacity);
        return false;
    }
    if (used > 0) memcpy(data + capacity - used, b->data + b->head, used);
    free(b->data);
    b->data = data;
    b->head = capacity - used;
    b->capacity = capacity;
    return true;
}

static void fb_push(fmt__fb *b, const void *p, size_t n) {
    if (n == 0 || !fb_grow(b, n)) return;
    b->head -= n;
    memcpy(b->data + b->head, p, n);
}

/* Zero bytes in front so that `length` more bytes end `align`-aligned
 * (the FlatBuffers library's PreAlign). */
static void fb_prealign(fmt__fb *b, size_t length, size_t align) {
    MU_ASSERT(align != 0 && (align & (align - 1)) == 0 && align <= 8);
    if (align > b->align_max) b->align_max = align;
    size_t pad = (size_t)(-(fb_size(b) + length)) & (align - 1);
    if (pad == 0 || !fb_grow(b, pad)) return;
    b->head -= pad;
    memset(b->data + b->head, 0, pad);
}

/* A u32 offset to `ref`, written at the front: relative to its own position. */
static void fb_push_offset(fmt__fb *b, fmt__fb_ref ref) {
    fb_prealign(b, 4, 4);
    MU_ASSERT(b->rc != 0 || (ref != 0 && ref <= fb_size(b)));
    uint32_t v = (uint32_t)(fb_size(b) + 4 - ref);
    fb_push(b, &v, 4);
}

fmt__fb_ref fmt__fb_string(fmt__fb *b, const char *s, size_t length_bytes) {
    MU_ASSERT(!b->in_table);
    MU_ASSERT(length_bytes <= UINT32_MAX);
    uint8_t nul = 0;
    uint32_t n = (uint32_t)length_bytes;
    fb_prealign(b, length_bytes + 1, 4);
    fb_push(b, &nul, 1);
    fb_push(b, s, length_bytes);
    fb_push(b, &n, 4);
    return b->rc == 0 ? (fmt__fb_ref)fb_size(b) : 0;
}

fmt__fb_ref fmt__fb_vector_refs(fmt__fb *b, const fmt__fb_ref *refs, size_t count) {
    MU_ASSERT(!b->in_table);
    MU_ASSERT(count <= UINT32_MAX / 4);
    uint32_t n = (uint32_t)count;
    fb_prealign(b, count * 4, 4);
    for (size_t i = count; i-- > 0;) fb_push_offset(b, refs[i]);
    fb_push(b, &n, 4);
    return b->rc == 0 ? (fmt__fb_ref)fb_size(b) : 0;
}

fmt__fb_ref fmt__fb_vector_raw(fmt__fb *b, const void *elements, size_t count,
                               size_t element_bytes, size_t align) {
    MU_ASSERT(!b->in_table);
    MU_ASSERT(element_bytes > 0 && count <= UINT32_MAX / element_bytes);
    uint32_t n = (uint32_t)count;
    fb_prealign(b, count * element_bytes, 4);
    fb_prealign(b, count * element_bytes, align);
    fb_push(b, elements, count * element_bytes);
    fb_push(b, &n, 4);
    return b->rc == 0 ? (fmt__fb_ref)fb_size(b) : 0;
}

void fmt__fb_table_start(fmt__fb *b) {
    MU_ASSERT(!b->in_table);
    b->in_table = true;
    memset(b->fields, 0, sizeof(b->fields));
    b->field_count = 0;
    b->table_start = fb_size(b);
}

static void fb_add_scalar(fmt__fb *b, unsigned id, const void *v, size_t n) {
    MU_ASSERT(b->in_table);
    MU_ASSERT(id < FMT__FB_FIELDS_MAX);
    fb_prealign(b, n, n);
    fb_push(b, v, n);
    b->fields[id] = (fmt__fb_ref)fb_size(b);
    if (id + 1 > b->field_count) b->field_count = id + 1;
}

void fmt__fb_add_u8(fmt__fb *b, unsigned id, uint8_t v) { fb_add_scalar(b, id, &v, 1); }
void fmt__fb_add_i16(fmt__fb *b, unsigned id, int16_t v) { fb_add_scalar(b, id, &v, 2); }
void fmt__fb_add_i32(fmt__fb *b, unsigned id, int32_t v) { fb_add_scalar(b, id, &v, 4); }
void fmt__fb_add_i64(fmt__fb *b, unsigned id, int64_t v) { fb_add_scalar(b, id, &v, 8); }

void fmt__fb_add_ref(fmt__fb *b, unsigned id, fmt__fb_ref ref) {
    MU_ASSERT(b->in_table);
    MU_ASSERT(id < FMT__FB_FIELDS_MAX);
    if (ref == 0) return;
    fb_push_offset(b, ref);
    b->fields[id] = (fmt__fb_ref)fb_size(b);
    if (id + 1 > b->field_count) b->field_count = id + 1;
}

/* The i32 in front of the fields, then the vtable in front of the table
 * (so the i32 is positive: the vtable lies before the table). */
fmt__fb_ref fmt__fb_table_end(fmt__fb *b) {
    MU_ASSERT(b->in_table);
    b->in_table = false;
    int32_t placeholder = 0;
    fb_prealign(b, 4, 4);
    fb_push(b, &placeholder, 4);
    if (b->rc != 0) return 0;
    fmt__fb_ref table = (fmt__fb_ref)fb_size(b);
    MU_ASSERT(table - b->table_start <= UINT16_MAX);
    for (unsigned id = b->field_count; id-- > 0;) {
        uint16_t offset = b->fields[id] ? (uint16_t)(table - b->fields[id]) : 0;
        fb_push(b, &offset, 2);
    }
    uint16_t table_bytes = (uint16_t)(table - b->table_start);
    uint16_t vtable_bytes = (uint16_t)(4 + 2 * b->field_count);
    fb_push(b, &table_bytes, 2);
    fb_push(b, &vtable_bytes, 2);
    if (b->rc != 0) return 0;
    int32_t to_vtable = (int32_t)(fb_size(b) - table);
    memcpy(b->data + b->capacity - table, &to_vtable, 4);
    return table;
}

int fmt__fb_finish(fmt__fb *b, fmt__fb_ref root, const uint8_t **data, size_t *length_bytes) {
    MU_ASSERT(!b->in_table);
    if (b->rc == 0 && root == 0) b->rc = MU_ERR(b->err, MU_EINTERNAL, "FlatBuffer without root");
    fb_prealign(b, 4, b->align_max);
    if (b->rc == 0) fb_push_offset(b, root);
    if (b->rc != 0) return b->rc;
    *data = b->data + b->head;
    *length_bytes = fb_size(b);
    MU_ASSERT(*length_bytes % b->align_max == 0);
    return 0;
}
