/*
 * The NVMe driver's portable parts, built into the kernel and into host
 * unit tests alike: PRP and SGL building (nvme_prp.c, nvme_sgl.c),
 * completion status decoding (nvme_status.c) and Identify parsing
 * (nvme_ident.c).  Nothing here touches a register, allocates or sleeps.
 */
#ifndef DRIVERS_NVME_NVME_LIB_H
#define DRIVERS_NVME_NVME_LIB_H

#include "block/blkdev.h"
#include "drivers/nvme/nvmereg.h"

/* What nvme_prp_build() produced for one command's data pointer. */
struct nvme_prp {
	u64	np_prp1;	/* first data byte (dword aligned) */
	u64	np_prp2;	/* second page, or the PRP list, or 0 */
	u32	np_nlist;	/* entries written to the list */
};

/**
 * nvme_prp_build - the PRP entries of a scatter/gather list
 * @sg, @nsg: the segments in transfer order (blk_rq_map_sg)
 * @page_size: the controller's memory page size (CC.MPS), a power of two
 * @list, @list_max: where PRP list entries go, and how many fit
 * @list_dma: the bus address of @list, for PRP2
 * @out: the result
 *
 * NVMe 2.0 base 4.1.1: PRP1 may start anywhere dword aligned; every
 * later entry is a whole page.  So every segment but the first must start
 * on a page boundary and every segment but the last must end on one.
 * Returns 0; -EINVAL for a shape PRPs cannot describe (the caller copies
 * through an aligned buffer instead), an odd address or an empty list;
 * -E2BIG when the list would need more than @list_max entries.
 */
int nvme_prp_build(const struct scatterlist *sg, u32 nsg, u32 page_size, u64 *list,
		   u32 list_max, u64 list_dma, struct nvme_prp *out);

/* True when nvme_prp_build() would accept the shape of @sg. */
bool nvme_prp_ok(const struct scatterlist *sg, u32 nsg, u32 page_size);

/**
 * nvme_sgl_build - the SGL of a scatter/gather list (NVMe 2.0 base, 4.1.2)
 * @sg, @nsg: the segments in transfer order
 * @dword: the controller wants data blocks dword aligned and sized (SGLS 10b)
 * @list, @list_max: where the descriptors go when there are several
 * @list_dma: the bus address of @list
 * @out: SGL1, the descriptor for the command's DPTR
 *
 * One segment is one Data Block descriptor, in the command itself; more
 * are a Last Segment descriptor there, naming @list, which holds one Data
 * Block descriptor per segment.  Any segment shape will do: unlike PRPs,
 * SGLs have no page rules, and a run of physically contiguous memory is
 * one descriptor however long it is.
 * Returns 0; -EINVAL for no segments, an empty one, or (with @dword) an
 * odd address or length; -E2BIG for more than @list_max segments.
 */
int nvme_sgl_build(const struct scatterlist *sg, u32 nsg, bool dword, struct nvme_sgl_desc *list,
		   u32 list_max, u64 list_dma, struct nvme_sgl_desc *out);

/* The Status Field of a CQE without its phase bit: 0 is success. */
static inline u16 nvme_status_field(u16 status) { return status & (u16)~NVME_CQE_PHASE; }

/* The spec's name for a status ("Unrecovered Read Error"), never NULL. */
const char *nvme_status_name(u16 status);
/* The errno a failed command ends its request with (-EIO, -ENOSPC, ...). */
int nvme_status_errno(u16 status);
/* True when the command may be retried: an error, DNR clear. */
bool nvme_status_retryable(u16 status);
/* "READ", "WRITE", "IDENTIFY", ...: admin opcodes when @admin. */
const char *nvme_opcode_name(u8 opc, bool admin);
/**
 * nvme_format_status - one readable line for a failed command
 * @buf, @size: where it goes (always NUL terminated)
 * @who: "nvme0n1", "nvme0"; @opc, @admin: the command
 * @lba, @nlb: its range, printed when @nlb is not 0
 * @status: the CQE status (phase bit ignored)
 *
 * Example: "nvme0n1: READ lba 2048 len 8: Unrecovered Read Error (sct 2
 * sc 0x81, DNR)".  Returns the length written.
 */
int nvme_format_status(char *buf, size_t size, const char *who, u8 opc, bool admin,
		       u64 lba, u32 nlb, u16 status);

/* nvme_ident.c: copy an ASCII, space-padded Identify field, trimmed. */
void nvme_id_string(char *dst, size_t size, const char *src, size_t len);
/*
 * The logical block size shift of a namespace's formatted LBA format:
 * 9 or 12; -EOPNOTSUPP for any other size or a format with metadata,
 * -EINVAL for an index past NLBAF or a zero-sized namespace.
 */
int nvme_ns_lba_shift(const struct nvme_id_ns *id);
/*
 * Maximum transfer in bytes from MDTS (in units of the minimum memory
 * page size CAP.MPSMIN) capped at @cap bytes; MDTS 0 means no limit.
 */
u32 nvme_mdts_bytes(u8 mdts, u32 mpsmin_bytes, u32 cap);

#endif
