/*
 * The NVMe driver's private declarations: register access and the calls
 * between its files.  Included only by the .c files of drivers/nvme.
 *
 *	nvme.c		controller bring-up, disable, shutdown, reset
 *	nvme_queue.c	queue pair memory, submission, completion reaping
 *	nvme_admin.c	admin commands (polled): identify, features, queues, abort
 *	nvme_io.c	the blk-mq operations: commands from requests
 *	nvme_ns.c	namespaces, gendisks and their operations
 *	nvme_pci.c	PCI glue: BAR, interrupts, probe, options
 *	nvme_prp.c, nvme_status.c, nvme_ident.c	portable (nvme_lib.h)
 */
#ifndef DRIVERS_NVME_NVME_PRIV_H
#define DRIVERS_NVME_NVME_PRIV_H

#include "drivers/nvme/nvme_lib.h"
#include "drivers/nvme/nvmevar.h"
#include "kernel/io.h"
#include "kernel/irq.h"


/* Register accessors (STYLE 22): uncached MMIO, in order on x86. */
static inline u32 nvme_read(struct nvme_ctrl *c, unsigned reg)
{
	return readl(c->c_regs + reg);
}
static inline void nvme_write(struct nvme_ctrl *c, unsigned reg, u32 v)
{
	writel(c->c_regs + reg, v);
}
static inline u64 nvme_read64(struct nvme_ctrl *c, unsigned reg)
{
	u64 lo = readl(c->c_regs + reg);

	return lo | (u64)readl(c->c_regs + reg + 4) << 32;
}
static inline void nvme_write64(struct nvme_ctrl *c, unsigned reg, u64 v)
{
	writel(c->c_regs + reg, (u32)v);
	writel(c->c_regs + reg + 4, (u32)(v >> 32));
}

/* nvme.c */
int nvme_ctrl_start(struct nvme_ctrl *c);
int nvme_ctrl_disable(struct nvme_ctrl *c);
void nvme_schedule_reset(struct nvme_ctrl *c, const char *why);
bool nvme_ctrl_fatal(struct nvme_ctrl *c);

/* nvme_queue.c */
int nvme_queue_alloc(struct nvme_ctrl *c, struct nvme_queue *q, u16 qid, u16 depth,
		     u16 vector, bool io);
void nvme_queue_free(struct nvme_queue *q);
void nvme_queue_reset(struct nvme_queue *q);
void __nvme_submit(struct nvme_queue *q, const struct nvme_sqe *cmd, bool ring);
void __nvme_ring(struct nvme_queue *q);
void nvme_queue_dbbuf(struct nvme_queue *q, u32 *dbs, u32 *eis, bool intx);
int nvme_reap(struct nvme_queue *q);
irqreturn_t nvme_intr(unsigned irq, void *data);
irqreturn_t nvme_queue_intr(unsigned irq, void *data);

/* nvme_admin.c */
int nvme_admin_exec(struct nvme_ctrl *c, struct nvme_sqe *cmd, u32 *result, u32 ms);
void nvme_admin_complete(struct nvme_ctrl *c, const struct nvme_cqe *cqe);
int nvme_identify(struct nvme_ctrl *c, u32 nsid, u32 cns, void *buf);
int nvme_set_queues(struct nvme_ctrl *c, u32 want, u32 *granted);
int nvme_create_io_queue(struct nvme_ctrl *c, struct nvme_queue *q);
int nvme_abort(struct nvme_ctrl *c, u16 sqid, u16 cid, bool *aborted);
int nvme_dbbuf_config(struct nvme_ctrl *c, u64 dbs_dma, u64 eis_dma);

/* nvme_io.c */
extern const struct blk_mq_ops nvme_mq_ops;
struct request *nvme_io_complete(struct nvme_queue *q, const struct nvme_cqe *cqe, int *err);
int nvme_io_init_set(struct nvme_ctrl *c);

/* nvme_ns.c */
int nvme_ns_scan(struct nvme_ctrl *c);
extern const struct block_device_operations nvme_disk_ops;

#endif
