/* arena.c: memory trackers (hierarchical byte accounting with limits) and
 * arenas (bump allocation freed all at once) charged to them.
 * Tracker invariant: used_bytes never exceeds limit_bytes; a charge goes up
 * the parent chain by compare-and-swap and is rolled back if any ancestor
 * refuses, so a failed charge leaves no trace. Arena invariants: each block
 * is charged for exactly its allocated size until freed; the first block
 * lives as long as the arena; allocations are 16-byte aligned. One thread.
 */
#include "base/base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Trackers                                                           */
/* ------------------------------------------------------------------ */

static mu_mem_tracker tracker_global = {.name = "global"};

mu_mem_tracker *mu_mem_tracker_global(void) { return &tracker_global; }

void mu_mem_tracker_init(mu_mem_tracker *t, const char *name, mu_mem_tracker *parent,
                         int64_t limit_bytes) {
    MU_ASSERT(t != NULL);
    MU_ASSERT(limit_bytes >= 0);
    MU_ASSERT(parent != t);
    t->name = name != NULL ? name : "unnamed";
    t->parent = parent;
    t->limit_bytes = limit_bytes;
    atomic_init(&t->used_bytes, 0);
    atomic_init(&t->peak_bytes, 0);
}

/* Adds bytes to one node unless that passes its limit; returns whether it
 * did, and the value it would have reached in *after. */
static bool tracker_add_one(mu_mem_tracker *t, int64_t bytes, int64_t *after) {
    int64_t used = atomic_load_explicit(&t->used_bytes, memory_order_relaxed);
    for (;;) {
        int64_t want;
        if (__builtin_add_overflow(used, bytes, &want)) want = INT64_MAX;
        *after = want;
        if (t->limit_bytes > 0 && want > t->limit_bytes) return false;
        if (atomic_compare_exchange_weak_explicit(&t->used_bytes, &used, want,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            return true;
        }
    }
}

static void tracker_raise_peak(mu_mem_tracker *t) {
    int64_t used = atomic_load_explicit(&t->used_bytes, memory_order_relaxed);
    int64_t peak = atomic_load_explicit(&t->peak_bytes, memory_order_relaxed);
    while (used > peak &&
           !atomic_compare_exchange_weak_explicit(&t->peak_bytes, &peak, used,
                                                  memory_order_relaxed, memory_order_relaxed)) {
    }
}

int mu_mem_tracker_charge(mu_mem_tracker *t, size_t bytes, mu_err *err) {
    MU_ASSERT(t != NULL);
    if (bytes > (size_t)INT64_MAX) {
        return MU_ERR(err, MU_EMEMLIMIT, "memory limit exceeded for tracker %s: %zu bytes "
                      "requested", t->name, bytes);
    }
    int64_t amount = (int64_t)bytes;
    for (mu_mem_tracker *node = t; node != NULL; node = node->parent) {
        int64_t after = 0;
        if (tracker_add_one(node, amount, &after)) continue;
        /* Undo what the nodes below the refusing one already took. */
        for (mu_mem_tracker *undo = t; undo != node; undo = undo->parent) {
            atomic_fetch_sub_explicit(&undo->used_bytes, amount, memory_order_relaxed);
        }
        return MU_ERR(err, MU_EMEMLIMIT,
                      "memory limit exceeded for tracker %s: would use %lld bytes, limit is "
                      "%lld bytes (charging %zu bytes for %s)",
                      node->name, (long long)after, (long long)node->limit_bytes, bytes,
                      t->name);
    }
    for (mu_mem_tracker *node = t; node != NULL; node = node->parent) tracker_raise_peak(node);
    return 0;
}

void mu_mem_tracker_release(mu_mem_tracker *t, size_t bytes) {
    MU_ASSERT(t != NULL);
    MU_ASSERT(bytes <= (size_t)INT64_MAX);
    for (mu_mem_tracker *node = t; node != NULL; node = node->parent) {
        int64_t before =
            atomic_fetch_sub_explicit(&node->used_bytes, (int64_t)bytes, memory_order_relaxed);
        MU_ASSERT(before >= (int64_t)bytes); /* released more than was charged */
    }
}

/* ------------------------------------------------------------------ */
/* Arenas                                                             */
/* ------------------------------------------------------------------ */

#define ARENA_ALIGN 16
#define ARENA_BLOCK_DEFAULT_BYTES (64 * 1024)
#define ARENA_BLOCK_MIN_BYTES 256

typedef struct arena_block {
    struct arena_block *next;
    size_t capacity_bytes; /* usable bytes after the header */
    size_t used_bytes;
    size_t charged_bytes; /* what the tracker holds for this block */
} arena_block;

/* The header is padded so the payload starts 16-byte aligned. */
#define ARENA_HEADER_BYTES ((sizeof(arena_block) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

struct mu_arena {
    mu_mem_tracker *tracker; /* borrowed; NULL = not accounted */
    size_t block_bytes;
    arena_block *head; /* small allocations come from here */
    arena_block *first;
    size_t used_bytes;
};

static inline uint8_t *arena_payload(arena_block *b) {
    return (uint8_t *)b + ARENA_HEADER_BYTES;
}

/* Allocates a block with at least capacity_bytes of payload, charged to the
 * arena's tracker. */
static int arena_block_new(mu_arena *a, size_t capacity_bytes, arena_block **block_out,
                           mu_err *err) {
    size_t total;
    if (!mu_size_add(capacity_bytes, ARENA_HEADER_BYTES, &total) ||
        !mu_size_add(total, ARENA_ALIGN - 1, &total)) {
        return MU_ERR(err, MU_ENOMEM, "arena: allocation of %zu bytes is too large",
                      capacity_bytes);
    }
    total &= ~(size_t)(ARENA_ALIGN - 1);
    if (a->tracker != NULL) {
        int rc = mu_mem_tracker_charge(a->tracker, total, err);
        if (rc != 0) return rc;
    }
    arena_block *b = aligned_alloc(ARENA_ALIGN, total);
    if (b == NULL) {
        if (a->tracker != NULL) mu_mem_tracker_release(a->tracker, total);
        return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "arena: cannot allocate a block of %zu bytes",
                          total);
    }
    b->next = NULL;
    b->capacity_bytes = total - ARENA_HEADER_BYTES;
    b->used_bytes = 0;
    b->charged_bytes = total;
    *block_out = b;
    return 0;
}

static void arena_block_free(mu_arena *a, arena_block *b) {
    if (a->tracker != NULL) mu_mem_tracker_release(a->tracker, b->charged_bytes);
    free(b);
}

int mu_arena_create(mu_arena **arena_out, mu_mem_tracker *tracker, size_t block_bytes,
                    mu_err *err) {
    MU_ASSERT(arena_out != NULL);
    *arena_out = NULL;
    mu_arena *a = calloc(1, sizeof(*a));
    if (a == NULL) return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "arena: cannot allocate arena");
    a->tracker = tracker;
    if (block_bytes == 0) block_bytes = ARENA_BLOCK_DEFAULT_BYTES;
    a->block_bytes = MU_MAX(block_bytes, (size_t)ARENA_BLOCK_MIN_BYTES);
    int rc = arena_block_new(a, a->block_bytes, &a->first, err);
    if (rc != 0) goto fail;
    a->head = a->first;
    *arena_out = a;
    return 0;
fail:
    free(a);
    return rc;
}

void mu_arena_destroy(mu_arena *arena) {
    if (arena == NULL) return;
    arena_block *b = arena->head;
    while (b != NULL) {
        arena_block *next = b->next;
        arena_block_free(arena, b);
        b = next;
    }
    free(arena);
}

void *mu_arena_alloc(mu_arena *arena, size_t bytes, mu_err *err) {
    MU_ASSERT(arena != NULL);
    MU_ASSERT(arena->head != NULL);
    size_t rounded;
    if (!mu_size_add(MU_MAX(bytes, (size_t)1), ARENA_ALIGN - 1, &rounded)) {
        MU_ERR(err, MU_ENOMEM, "arena: allocation of %zu bytes is too large", bytes);
        return NULL;
    }
    rounded &= ~(size_t)(ARENA_ALIGN - 1);
    arena_block *head = arena->head;
    if (head->capacity_bytes - head->used_bytes >= rounded) {
        void *p = arena_payload(head) + head->used_bytes;
        head->used_bytes += rounded;
        arena->used_bytes += rounded;
        return p;
    }
    /* A big request gets a block of its own, linked behind the head so the
     * head keeps serving small requests; otherwise start a fresh head. */
    bool dedicated = rounded > arena->block_bytes / 4;
    arena_block *b = NULL;
    if (arena_block_new(arena, dedicated ? rounded : arena->block_bytes, &b, err) != 0) {
        return NULL;
    }
    if (dedicated) {
        b->next = head->next;
        head->next = b;
    } else {
        b->next = head;
        arena->head = b;
    }
    MU_ASSERT(b->capacity_bytes >= rounded);
    b->used_bytes = rounded;
    arena->used_bytes += rounded;
    return arena_payload(b);
}

void *mu_arena_calloc(mu_arena *arena, size_t count, size_t size, mu_err *err) {
    size_t bytes;
    if (!mu_size_mul(count, size, &bytes)) {
        MU_ERR(err, MU_ENOMEM, "arena: calloc of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    void *p = mu_arena_alloc(arena, bytes, err);
    if (p != NULL) memset(p, 0, bytes);
    return p;
}

char *mu_arena_strndup(mu_arena *arena, const char *s, size_t length_bytes, mu_err *err) {
    MU_ASSERT(s != NULL || length_bytes == 0);
    size_t n = length_bytes == 0 ? 0 : strnlen(s, length_bytes);
    char *copy = mu_arena_alloc(arena, n + 1, err);
    if (copy == NULL) return NULL;
    if (n > 0) memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

void mu_arena_reset(mu_arena *arena) {
    MU_ASSERT(arena != NULL);
    arena_block *b = arena->head;
    while (b != NULL) {
        arena_block *next = b->next;
        if (b != arena->first) arena_block_free(arena, b);
        b = next;
    }
    arena->first->next = NULL;
    arena->first->used_bytes = 0;
    arena->head = arena->first;
    arena->used_bytes = 0;
}

size_t mu_arena_used_bytes(const mu_arena *arena) {
    MU_ASSERT(arena != NULL);
    return arena->used_bytes;
}
