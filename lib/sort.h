/*
 * In-place heapsort of an array: O(n log n) always, no recursion, no
 * allocation.  cmp returns <0, 0, >0 as for qsort.
 */
#ifndef LIB_SORT_H
#define LIB_SORT_H

#include "kernel/types.h"

void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
