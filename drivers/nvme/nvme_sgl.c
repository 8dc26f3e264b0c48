/*
 * Scatter Gather Lists (NVMe 2.0 base, 4.1.2): the other way a command
 * names its memory, where the controller offers it (Identify Controller
 * SGLS).  Portable: the kernel and the host tests use the same code.
 *
 * A PRP entry covers at most one memory page, so a 512 KiB transfer from
 * contiguous memory takes 128 of them, and the controller walks them one
 * by one (QEMU's NVMe maps each as its own piece of guest memory).  An
 * SGL Data Block descriptor covers any contiguous run: the same transfer
 * is one descriptor, carried in the command itself.  Several segments go
 * in one list, named by a Last Segment descriptor; a list here is one
 * block of list_max descriptors (the driver gives one page: 256), never
 * chained.
 */
#include "drivers/nvme/nvme_lib.h"
#include "kernel/errno.h"

static void sgl_desc(struct nvme_sgl_desc *d, u64 addr, u32 len, u8 id)
{
	d->addr = addr;
	d->len = len;
	d->rsvd[0] = d->rsvd[1] = d->rsvd[2] = 0;
	d->id = id;
}

int nvme_sgl_build(const struct scatterlist *sg, u32 nsg, bool dword, struct nvme_sgl_desc *list,
		   u32 list_max, u64 list_dma, struct nvme_sgl_desc *out)
{
	u32 i;

	if (!nsg)
		return -EINVAL;
	for (i = 0; i < nsg; i++)
		if (!sg[i].sg_len || (dword && ((sg[i].sg_addr | sg[i].sg_len) & 3)))
			return -EINVAL;
	if (nsg == 1) {
		sgl_desc(out, sg[0].sg_addr, sg[0].sg_len, NVME_SGL_DATA_BLOCK);
		return 0;
	}
	if (nsg > list_max)
		return -E2BIG;
	for (i = 0; i < nsg; i++)
		sgl_desc(&list[i], sg[i].sg_addr, sg[i].sg_len, NVME_SGL_DATA_BLOCK);
	sgl_desc(out, list_dma, nsg * (u32)sizeof(*list), NVME_SGL_LAST_SEGMENT);
	return 0;
}
