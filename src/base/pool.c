/* pool.c: mu_pool, a fixed set of named worker threads fed from a bounded
 * FIFO ring of queue_max tasks. One mutex guards ring, running count and
 * state; `task_ready` wakes workers, `became_idle` wakes wait_idle.
 *   running --mu_pool_destroy--> draining (submit refuses, workers empty the
 *   queue) --last worker exits--> joined and freed.
 * A task must not wait for its own pool (wait_idle or destroy): that would
 * deadlock, and is caught by an assertion.
 */
#include "base/base.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Linux thread names hold 15 bytes plus the NUL. */
#define POOL_THREAD_NAME_BYTES 16

typedef struct pool_task {
    mu_pool_fn fn;
    void *arg;
} pool_task;

struct mu_pool {
    char name[POOL_THREAD_NAME_BYTES];
    unsigned thread_count;
    pthread_t *workers;
    pthread_mutex_t lock;
    pthread_cond_t task_ready;
    pthread_cond_t became_idle;
    pool_task *ring; /* queue_max slots */
    size_t queue_max;
    size_t ring_head; /* index of the oldest queued task */
    size_t queued_count;
    unsigned running_count;
    bool draining;
};

/* The pool whose task the current thread is running, to catch self-waits. */
static _Thread_local mu_pool *pool_current;

static void *pool_worker_main(void *arg) {
    mu_pool *pool = arg;
    pool_current = pool;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->queued_count == 0 && !pool->draining) {
            pthread_cond_wait(&pool->task_ready, &pool->lock);
        }
        if (pool->queued_count == 0) break; /* draining and nothing left */
        pool_task task = pool->ring[pool->ring_head];
        pool->ring_head = (pool->ring_head + 1) % pool->queue_max;
        pool->queued_count--;
        pool->running_count++;
        pthread_mutex_unlock(&pool->lock);
        task.fn(task.arg);
        pthread_mutex_lock(&pool->lock);
        pool->running_count--;
        if (pool->queued_count == 0 && pool->running_count == 0) {
            pthread_cond_broadcast(&pool->became_idle);
        }
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

/* Starts workers [0, count); on failure stops and joins those started. */
static int pool_start_workers(mu_pool *pool, unsigned count, mu_err *err) {
    /* Workers inherit this mask. Faults (SIGSEGV...) stay deliverable so that
     * crash handlers and sanitizers still see them on worker threads. */
    sigset_t all, saved;
    sigfillset(&all);
    const int synchronous[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
    for (size_t i = 0; i < MU_ARRAY_LEN(synchronous); i++) sigdelset(&all, synchronous[i]);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    int rc = 0;
    unsigned started = 0;
    for (; started < count; started++) {
        rc = pthread_create(&pool->workers[started], NULL, pool_worker_main, pool);
        if (rc != 0) break;
        char thread_name[POOL_THREAD_NAME_BYTES];
        /* A missing or cut name only makes debugging harder; not an error. */
        if (snprintf(thread_name, sizeof(thread_name), "%.10s-%u", pool->name, started) > 0) {
            (void)pthread_setname_np(pool->workers[started], thread_name);
        }
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc == 0) return 0;
    pthread_mutex_lock(&pool->lock);
    pool->draining = true;
    pthread_cond_broadcast(&pool->task_ready);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < started; i++) pthread_join(pool->workers[i], NULL);
    return MU_ERR_SYS(err, mu_code_from_errno(rc, MU_ENOMEM), rc,
                      "pool %s: cannot start worker thread %u of %u", pool->name, started, count);
}

int mu_pool_create(mu_pool **pool_out, const char *name, unsigned threads, size_t queue_max,
                   mu_err *err) {
    MU_ASSERT(pool_out != NULL);
    MU_ASSERT(name != NULL);
    *pool_out = NULL;
    if (threads == 0 || queue_max == 0) {
        return MU_ERR(err, MU_EINVAL, "pool %s: needs at least one thread and one queue slot "
                      "(got %u threads, %zu slots)", name, threads, queue_max);
    }
    mu_pool *pool = calloc(1, sizeof(*pool));
    if (pool == NULL) return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "pool %s: out of memory", name);
    int rc = 0;
    snprintf(pool->name, sizeof(pool->name), "%s", name);
    pool->thread_count = threads;
    pool->queue_max = queue_max;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->task_ready, NULL);
    pthread_cond_init(&pool->became_idle, NULL);
    pool->workers = calloc(threads, sizeof(*pool->workers));
    pool->ring = calloc(queue_max, sizeof(*pool->ring));
    if (pool->workers == NULL || pool->ring == NULL) {
        rc = MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "pool %s: cannot allocate %u threads and %zu "
                        "queue slots", name, threads, queue_max);
        goto fail;
    }
    rc = pool_start_workers(pool, threads, err);
    if (rc != 0) goto fail;
    *pool_out = pool;
    return 0;
fail:
    pthread_cond_destroy(&pool->became_idle);
    pthread_cond_destroy(&pool->task_ready);
    pthread_mutex_destroy(&pool->lock);
    free(pool->ring);
    free(pool->workers);
    free(pool);
    return rc;
}

int mu_pool_submit(mu_pool *pool, mu_pool_fn fn, void *arg, mu_err *err) {
    MU_ASSERT(pool != NULL);
    MU_ASSERT(fn != NULL);
    int rc = 0;
    pthread_mutex_lock(&pool->lock);
    if (pool->draining) {
        rc = MU_ERR(err, MU_ESHUTDOWN, "pool %s is shutting down", pool->name);
    } else if (pool->queued_count == pool->queue_max) {
        rc = MU_ERR(err, MU_EBUSY, "pool %s: queue is full (%zu tasks pending)", pool->name,
                    pool->queue_max);
    } else {
        size_t tail = (pool->ring_head + pool->queued_count) % pool->queue_max;
        pool->ring[tail] = (pool_task){.fn = fn, .arg = arg};
        pool->queued_count++;
        pthread_cond_signal(&pool->task_ready);
    }
    pthread_mutex_unlock(&pool->lock);
    return rc;
}

void mu_pool_wait_idle(mu_pool *pool) {
    MU_ASSERT(pool != NULL);
    MU_ASSERT(pool_current != pool);
    pthread_mutex_lock(&pool->lock);
    while (pool->queued_count > 0 || pool->running_count > 0) {
        pthread_cond_wait(&pool->became_idle, &pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
}

unsigned mu_pool_threads(const mu_pool *pool) {
    MU_ASSERT(pool != NULL);
    return pool->thread_count;
}

void mu_pool_destroy(mu_pool *pool) {
    if (pool == NULL) return;
    MU_ASSERT(pool_current != pool);
    pthread_mutex_lock(&pool->lock);
    pool->draining = true;
    pthread_cond_broadcast(&pool->task_ready);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->thread_count; i++) pthread_join(pool->workers[i], NULL);
    MU_ASSERT(pool->queued_count == 0);
    pthread_cond_destroy(&pool->became_idle);
    pthread_cond_destroy(&pool->task_ready);
    pthread_mutex_destroy(&pool->lock);
    free(pool->ring);
    free(pool->workers);
    free(pool);
}
