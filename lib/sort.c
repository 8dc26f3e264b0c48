/*
 * Heapsort (Williams, 1964): build a max-heap, then repeatedly move the
 * root to the end.  Elements are swapped a byte at a time, which keeps it
 * generic; the callers sort small arrays of pointers.
 */
#include "lib/sort.h"

static void swap_bytes(u8 *a, u8 *b, size_t size)
{
	while (size--) {
		u8 t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

static void sift_down(u8 *base, size_t root, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0)
			child++;
		if (cmp(base + root * size, base + child * size) >= 0)
			return;
		swap_bytes(base + root * size, base + child * size, size);
		root = child;
	}
}

void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	u8 *b = base;
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (i = n - 1; i > 0; i--) {
		swap_bytes(b, b + i * size, size);
		sift_down(b, 0, i, size, cmp);
	}
}
