/*
 * Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c): a byte reader
 * that decodes the fuzzer's input as an operation stream, and FZ_CHECK,
 * which reports and abort()s on any disagreement with the model, so
 * libFuzzer records the input as a crash.
 *
 * Each harness runs the same input on several instances in turn (a small
 * KPN that splits and merges leaves after a few operations, the defaults on
 * the counting allocator of test_common.h, the defaults on the library's
 * own pool), each against a fresh model, so one instance's -ENOMEM never
 * makes the models diverge. Running out of bytes ends the stream: every
 * input is valid.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/test_common.h"

#define FZ_CHECK(cond)                                                \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "%s:%d: [%s] op %lu: check failed: %s\n", \
                    __FILE__, __LINE__, fz_label, fz_op, #cond);      \
            abort();                                                  \
        }                                                             \
    } while (0)

/* What is running, for FZ_CHECK's message. */
static const char *fz_label = "";
static unsigned long fz_op;

struct fz_in {
    const uint8_t *p;
    size_t n, i;
};

static inline void fz_in_init(struct fz_in *in, const uint8_t *p, size_t n)
{
    in->p = p;
    in->n = n;
    in->i = 0;
}

static inline bool fz_more(const struct fz_in *in)
{
    return in->i < in->n;
}

/* Next byte, 0 once the input is exhausted. */
static inline uint8_t fz_u8(struct fz_in *in)
{
    return in->i < in->n ? in->p[in->i++] : 0;
}

static inline uint16_t fz_u16(struct fz_in *in)
{
    uint16_t lo = fz_u8(in);
    return (uint16_t)(lo | (uint16_t)(fz_u8(in) << 8));
}

static inline uint64_t fz_u64(struct fz_in *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)fz_u8(in) << (8 * i);
    return v;
}

/* A map key: mostly one of 48 small values (so keys collide and repeat),
 * else one at or next to the type's limits. The map harnesses share it so
 * that one corpus byte means the same key in each. */
static inline uint64_t fz_map_key(struct fz_in *in)
{
    static const uint64_t special[8] = {0,
                                        1,
                                        UINT64_MAX,
                                        UINT64_MAX - 1,
                                        UINT64_C(1) << 63,
                                        (UINT64_C(1) << 63) - 1,
                                        47,
                                        48};
    uint8_t b = fz_u8(in);
    return b < 224 ? b % 48u : special[b & 7];
}

/* checkfn(sl, why, len) must be 0, else its message and abort(). */
#define FZ_LIST_OK(checkfn, sl)                                            \
    do {                                                                   \
        char why_[256] = "";                                               \
        if ((checkfn)((sl), why_, sizeof(why_)) != 0) {                    \
            fprintf(stderr, "%s:%d: [%s] op %lu: check(): %s\n", __FILE__, \
                    __LINE__, fz_label, fz_op, why_);                      \
            abort();                                                       \
        }                                                                  \
    } while (0)

/* Arm the counting allocator so its next call fails (when the instance
 * uses it); failures then show up as ta->failures moving. */
static inline void fz_fail_next(struct tc_alloc *ta, bool counted)
{
    if (counted)
        tc_alloc_fail_at(ta, 1);
}

/* Start of one instance's run over the input: a fresh counting allocator
 * and reader, and the label FZ_CHECK reports. */
static inline void fz_begin(struct tc_alloc *ta, struct fz_in *in,
                            const char *label, const uint8_t *data, size_t size)
{
    tc_alloc_init(ta);
    fz_in_init(in, data, size);
    fz_label = label;
    fz_op = 0;
}

/* The libFuzzer entry point: run(ops, counted, data, size) on the small-KPN
 * instance and on the defaults, counting allocator then library pool. */
#define FZ_ENTRY(run, small_ops, def_ops)                         \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)  \
    {                                                             \
        run(&(small_ops), true, data, size);                      \
        run(&(def_ops), true, data, size);                        \
        run(&(def_ops), false, data, size);                       \
        return 0;                                                 \
    }

/* End of an input: nothing live, every free matched its allocation. */
static inline void fz_alloc_done(const struct tc_alloc *ta, bool counted)
{
    if (!counted)
        return;
    FZ_CHECK(ta->live == 0);
    FZ_CHECK(ta->live_bytes == 0);
    FZ_CHECK(ta->bad_frees == 0);
}

#endif /* FUZZ_COMMON_H */
