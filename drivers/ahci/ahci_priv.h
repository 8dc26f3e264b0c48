/*
 * The AHCI driver's private declarations: register access and the calls
 * between its files.  Included only by the .c files of drivers/ahci and
 * the driver's host tests; everything other code may use is in ahcivar.h.
 *
 *	ahci.c		HBA bring-up, attach/detach, the interrupt
 *	ahci_port.c	port memory and primitives (stop, start, COMRESET)
 *	ahci_io.c	request path
 *	ahci_eh.c	error recovery and timeouts
 *	ahci_disk.c	the gendisk operations (open, geometry, report)
 *	ahci_cmd.c	command tables and FIS (pure)
 *	ahci_link.c	link health (pure)
 *	ahci_cmds.c	shell commands
 */
#ifndef DRIVERS_AHCI_AHCI_PRIV_H
#define DRIVERS_AHCI_AHCI_PRIV_H

#include "drivers/ahci/ahcivar.h"

/* Register accessors (STYLE 22): uncached MMIO, in order on x86. */
static inline u32 ahci_read(struct ahci_softc *sc, unsigned reg)
{
	return readl(sc->sc_regs + reg);
}
static inline void ahci_write(struct ahci_softc *sc, unsigned reg, u32 v)
{
	writel(sc->sc_regs + reg, v);
}
static inline u32 ahci_pread(struct ahci_port *ap, unsigned reg)
{
	return readl(ap->ap_regs + reg);
}
static inline void ahci_pwrite(struct ahci_port *ap, unsigned reg, u32 v)
{
	writel(ap->ap_regs + reg, v);
}

/* ahci_port.c: port primitives shared by bring-up and recovery. */
int ahci_wait_clear(struct ahci_port *ap, unsigned reg, u32 mask, u32 ms);
int ahci_port_init(struct ahci_port *ap);
int ahci_port_stop(struct ahci_port *ap);
int ahci_port_start(struct ahci_port *ap);
int ahci_port_comreset(struct ahci_port *ap);
int ahci_port_comreset_begin(struct ahci_port *ap);
void ahci_port_comreset_end(struct ahci_port *ap);
int ahci_port_prepare(struct ahci_port *ap);
bool ahci_port_wants_comreset(struct ahci_port *ap);
int ahci_port_clo(struct ahci_port *ap);
int ahci_port_wait_link(struct ahci_port *ap, u32 ms);
int ahci_port_wait_ready(struct ahci_port *ap, u32 ms);
void ahci_port_clear_errors(struct ahci_port *ap);
void ahci_port_enable_intr(struct ahci_port *ap);
int ahci_port_poll_cmd(struct ahci_port *ap, const struct ata_taskfile *tf, u32 bytes,
		       u32 ms);
void ahci_port_link_up(struct ahci_port *ap);
int ahci_port_stop_all(struct ahci_port *ap);
int ahci_port_exec(struct ata_dev *ad, const struct ata_taskfile *tf, u16 *buf);
struct ahci_port *ahci_port_alloc(struct ahci_softc *sc, unsigned num);
int ahci_port_alloc_ccbs(struct ahci_port *ap);
void ahci_port_free_ccbs(struct ahci_port *ap);
void ahci_port_free(struct ahci_port *ap);

/* ahci.c: HBA bring-up. */
int ahci_hba_reset(struct ahci_softc *sc);
int ahci_port_attach(struct ahci_port *ap);
int ahci_port_add_disk(struct ahci_port *ap);

/* ahci_late.c: ports whose presence window outlives attach. */
void ahci_late_start(struct ahci_softc *sc);

/* ahci_io.c: the request path (the rest is in ahcivar.h). */
void ahci_request_fn(struct request_queue *q);
void ahci_port_intr(struct ahci_port *ap);
void ahci_ccb_put(struct ahci_port *ap, struct ahci_ccb *ccb);
void __ahci_end_request(struct ahci_port *ap, struct request *rq, int error);

/* ahci_eh.c: error recovery and timeouts. */
void ahci_eh_schedule(struct ahci_port *ap, u32 is);
void ahci_eh_timer(struct timer_list *t);
void ahci_eh_work(struct work *w);
enum blk_eh_timer_return ahci_timed_out(struct request *rq);

/* ahci_cmd.c: pure construction of what the HBA reads (host-tested). */
int ahci_fill_prdt(struct ahci_prd *prd, u32 max_prds, const struct scatterlist *sg,
		   u32 nsg, bool dma64, u32 *bytes);
void ahci_fill_hdr(struct ahci_cmd_hdr *hdr, dma_addr_t table, u32 prdtl, bool write);
void ahci_fis_set_tag(void *cfis, unsigned tag);
int ahci_eh_pick(u32 outstanding, bool log_ok, bool log_nq, unsigned log_tag,
		 u32 *failed, u32 *requeue);

/*
 * ahci_link.c: the link's health (pure, host-tested).  ahci_link_error:
 * did the trouble come from the link (PxIS, PxSERR, PxTFD)?
 * ahci_link_slower: the PxSCTL.SPD limit one step below the speed in
 * PxSSTS (or below the limit held already); 0 when there is none lower.
 * ahci_link_speed_name: "3.0 Gbps" for 2.
 */
#define AHCI_LINK_ERR_WINDOW_MS	(10 * 60 * 1000)	/* two link errors in this: slower */
bool ahci_link_error(u32 is, u32 serr, u32 tfd);
u32 ahci_link_slower(u32 ssts, u32 limit);
const char *ahci_link_speed_name(u32 spd);

/* ahci_io.c: the port's request queue, limits from the HBA.  0 or -ENOMEM. */
int ahci_port_setup_queue(struct ahci_port *ap);
/* ahci_disk.c: the disks' block_device_operations. */
extern const struct block_device_operations ahci_disk_ops;

#endif
