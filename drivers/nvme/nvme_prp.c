/*
 * Physical Region Page lists (NVMe 2.0 base, 4.1.1): how a command names
 * the memory it transfers.  Portable: the kernel and the host tests use
 * the same code.
 *
 * PRP1 holds the address of the first byte, with any dword-aligned offset
 * in its page.  When the transfer ends in that page PRP2 is unused (0);
 * when it ends in the next page PRP2 is that page; otherwise PRP2 points
 * to a PRP list whose entries are the addresses of the second and later
 * pages, each page-aligned.  A list here is one block of memory of
 * list_max entries (the driver gives one page: 512 entries, 2 MiB), so
 * no entry ever chains to another list page.
 *
 * Because every entry after the first is a whole page, a scatter/gather
 * list fits only when each segment but the first starts on a page
 * boundary and each segment but the last ends on one.
 */
#include "drivers/nvme/nvme_lib.h"
#include "kernel/errno.h"

bool nvme_prp_ok(const struct scatterlist *sg, u32 nsg, u32 page_size)
{
	u64 mask = page_size - 1;
	u32 i;

	if (!nsg)
		return false;
	for (i = 0; i < nsg; i++) {
		if (!sg[i].sg_len || (sg[i].sg_addr & 3))
			return false;
		if (i > 0 && (sg[i].sg_addr & mask))
			return false;
		if (i + 1 < nsg && ((sg[i].sg_addr + sg[i].sg_len) & mask))
			return false;
	}
	return true;
}

int nvme_prp_build(const struct scatterlist *sg, u32 nsg, u32 page_size, u64 *list,
		   u32 list_max, u64 list_dma, struct nvme_prp *out)
{
	u64 mask = page_size - 1, second = 0;
	u32 i, n = 0, pages = 0;

	if (!page_size || (page_size & mask) || !nvme_prp_ok(sg, nsg, page_size))
		return -EINVAL;
	out->np_prp1 = sg[0].sg_addr;
	out->np_prp2 = 0;
	out->np_nlist = 0;

	/* Every page start after the first byte's page, in order. */
	for (i = 0; i < nsg; i++) {
		u64 a = sg[i].sg_addr, end = a + sg[i].sg_len;
		u64 p = i == 0 ? (a & ~mask) + page_size : a;

		for (; p < end; p += page_size) {
			if (pages++ == 0) {
				second = p;
				continue;
			}
			if (pages == 2) {
				/* More than two pages: the second moves into the list. */
				if (list_max < 2)
					return -E2BIG;
				list[n++] = second;
			}
			if (n >= list_max)
				return -E2BIG;
			list[n++] = p;
		}
	}
	if (pages == 1) {
		out->np_prp2 = second;
	} else if (pages > 1) {
		out->np_prp2 = list_dma;
		out->np_nlist = n;
	}
	return 0;
}
