/* The interface of bench/extent_iova_rb.c, the Linux IOVA allocator replica
 * that bench/suite_extent.c measures against. */
#ifndef BENCH_EXTENT_IOVA_RB_H
#define BENCH_EXTENT_IOVA_RB_H

#include <stddef.h>

struct iova_domain;
struct iova;
struct iova_domain *iova_rb_new(unsigned long start_pfn,
                                unsigned long dma_32bit_pfn);
void iova_rb_delete(struct iova_domain *d);
struct iova *iova_rb_alloc(struct iova_domain *d, unsigned long size,
                           unsigned long limit_pfn, int size_aligned);
void iova_rb_free(struct iova_domain *d, struct iova *iova);
struct iova *iova_rb_find(struct iova_domain *d, unsigned long pfn);
struct iova *iova_rb_reserve(struct iova_domain *d, unsigned long pfn_lo,
                             unsigned long pfn_hi);
unsigned long iova_rb_lo(const struct iova *iova);
unsigned long iova_rb_hi(const struct iova *iova);
size_t iova_rb_node_bytes(void);
size_t iova_rb_head_bytes(void);

#endif
