/*
 * Allocation flags: which zones may serve an allocation and how hard to try.
 *
 * Zones are tried from the highest the flags allow down to DMA:
 * __GFP_HIGHMEM allows HIGHMEM, NORMAL and DMA; no zone flag allows NORMAL
 * and DMA; __GFP_DMA allows only DMA (below 16 MiB).
 *
 * Nothing here ever sleeps to reclaim memory; there is no reclaim.  An
 * allocation that cannot be served returns NULL, except mempool_alloc()
 * with __GFP_WAIT, which waits for an element to come back to the pool.
 */
#ifndef KERNEL_MM_GFP_H
#define KERNEL_MM_GFP_H

typedef unsigned gfp_t;

#define __GFP_DMA	0x01u	/* only the DMA zone */
#define __GFP_HIGHMEM	0x02u	/* highmem is fine (the caller uses kmap) */
#define __GFP_ZERO	0x04u	/* return zeroed memory */
#define __GFP_WAIT	0x08u	/* mempools: may wait for an element */
#define __GFP_IO	0x10u	/* may start I/O (there is no reclaim yet) */
#define __GFP_NOWARN	0x20u	/* do not log a failure */
#define __GFP_ATOMIC	0x40u	/* interrupt context: may use the last reserve */

#define GFP_ATOMIC	(__GFP_ATOMIC)
#define GFP_NOIO	(__GFP_WAIT)		/* the I/O path: no recursion into I/O */
#define GFP_KERNEL	(__GFP_WAIT | __GFP_IO)
#define GFP_DMA		(__GFP_DMA)
#define GFP_HIGHUSER	(GFP_KERNEL | __GFP_HIGHMEM)

#endif
