/*
 * xHCI core: taking the controller from the firmware, reset, the data
 * structures the controller reads (DCBAA, scratchpad buffers, command
 * ring, event ring and its segment table), running it, and the interrupt
 * handler that drains the event ring (xHCI 1.2, 4.2 Host Controller
 * Initialization, 4.9.4 Event Ring Management, 4.17 Interrupters).
 *
 * Contract: xhci_attach(sc) with sc_cap mapped and sc_irq installed by
 * the bus glue brings the controller to Run with interrupter 0 enabled,
 * registers its usb_bus (which enumerates the root ports) and returns 0;
 * on failure it undoes its steps and returns -errno.  A Host System
 * Error (USBSTS.HSE) is reported, every device on the bus is failed with
 * -ENODEV and the controller is reset and started again from deferred
 * work.  Every wait is bounded.
 *
 * The interrupt handler acknowledges USBSTS.EINT and IMAN.IP, consumes
 * events (command completions wake their waiter, transfer events finish
 * URBs, port status changes are handed to the USB core's work), moves
 * ERDP, then runs URB completions with sc_lock dropped.
 */
#include "drivers/usb/xhci.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

/* One zeroed lowmem page for the controller (below 4 GiB: 64-bit or not). */
void *xhci_dma_page(dma_addr_t *dma)
{
	void *p = get_zeroed_page(GFP_KERNEL);

	if (p)
		*dma = __pa(p);
	return p;
}

void xhci_dma_free(void *p)
{
	if (p)
		free_pages(p, 0);
}

/* Poll an operational register until (v & mask) == want; -ETIMEDOUT after ms. */
static int xhci_wait_op(struct xhci_softc *sc, unsigned reg, u32 mask, u32 want, u32 ms)
{
	u64 end = ktime_ms() + ms;

	for (;;) {
		if ((xhci_op_read(sc, reg) & mask) == want)
			return 0;
		if (ktime_ms() > end)
			return -ETIMEDOUT;
		udelay(50);
	}
}

/*
 * 4.22.1 / 7.1: ask the firmware to give the controller up (OS Owned
 * semaphore), wait a bounded time for BIOS Owned to clear, take it
 * anyway with a log line if it does not, and turn off SMI sources.
 */
static void xhci_handoff(struct xhci_softc *sc)
{
	unsigned off = XHCI_HCC1_XECP(sc->sc_hcc1) * 4;
	unsigned guard = 0;

	while (off && guard++ < 64) {
		u32 v = readl(sc->sc_cap + off);

		if (XHCI_XCAP_ID(v) == XHCI_XCAP_LEGACY) {
			u64 end = ktime_ms() + XHCI_HANDOFF_MS;

			if (v & XHCI_LEGSUP_BIOS_OWNED) {
				writel(sc->sc_cap + off, v | XHCI_LEGSUP_OS_OWNED);
				while ((readl(sc->sc_cap + off) & XHCI_LEGSUP_BIOS_OWNED) &&
				       ktime_ms() < end)
					mdelay(1);
				if (readl(sc->sc_cap + off) & XHCI_LEGSUP_BIOS_OWNED) {
					pr_warn("%s: firmware kept the controller %u ms; taking it over\n",
						sc->sc_name, XHCI_HANDOFF_MS);
					writel(sc->sc_cap + off,
					       (readl(sc->sc_cap + off) & ~XHCI_LEGSUP_BIOS_OWNED) |
					       XHCI_LEGSUP_OS_OWNED);
				}
			} else {
				writel(sc->sc_cap + off, v | XHCI_LEGSUP_OS_OWNED);
			}
			v = readl(sc->sc_cap + off + XHCI_LEGCTLSTS);
			writel(sc->sc_cap + off + XHCI_LEGCTLSTS,
			       (v & ~XHCI_LEGCTL_SMI_MASK) | XHCI_LEGCTL_SMI_EVENTS);
			return;
		}
		if (!XHCI_XCAP_NEXT(v))
			return;
		off += XHCI_XCAP_NEXT(v) * 4;
	}
}

/* 4.2 steps 1-2 and 5.4.1: stop, wait for HCH, reset, wait for HCRST and CNR. */
static int xhci_reset(struct xhci_softc *sc)
{
	int ret;

	xhci_op_write(sc, XHCI_USBCMD, xhci_op_read(sc, XHCI_USBCMD) & ~(XHCI_CMD_RS | XHCI_CMD_INTE));
	ret = xhci_wait_op(sc, XHCI_USBSTS, XHCI_STS_HCH, XHCI_STS_HCH, XHCI_HALT_MS);
	if (ret) {
		pr_err("%s: does not halt\n", sc->sc_name);
		return ret;
	}
	xhci_op_write(sc, XHCI_USBCMD, XHCI_CMD_HCRST);
	ret = xhci_wait_op(sc, XHCI_USBCMD, XHCI_CMD_HCRST, 0, XHCI_RESET_MS);
	if (!ret)
		ret = xhci_wait_op(sc, XHCI_USBSTS, XHCI_STS_CNR, 0, XHCI_RESET_MS);
	if (ret)
		pr_err("%s: reset does not complete\n", sc->sc_name);
	return ret;
}

/* Scratchpad buffers (4.20): an array of page pointers in DCBAA[0]. */
static int xhci_alloc_scratchpad(struct xhci_softc *sc)
{
	dma_addr_t dma;
	unsigned i;

	sc->sc_nspad = XHCI_HCS2_SPB(sc->sc_hcs2);
	if (!sc->sc_nspad)
		return 0;
	if (sc->sc_nspad > PAGE_SIZE / sizeof(u64))
		return -EINVAL;
	sc->sc_spad = xhci_dma_page(&dma);
	if (!sc->sc_spad)
		return -ENOMEM;
	sc->sc_dcbaa[0] = dma;
	for (i = 0; i < sc->sc_nspad; i++) {
		void *p = xhci_dma_page(&dma);

		if (!p)
			return -ENOMEM;		/* xhci_free_mem releases what was taken */
		sc->sc_spad[i] = dma;
	}
	return 0;
}

static void xhci_free_mem(struct xhci_softc *sc)
{
	unsigned i;

	if (sc->sc_spad) {
		for (i = 0; i < sc->sc_nspad; i++)
			if (sc->sc_spad[i])
				xhci_dma_free(__va(sc->sc_spad[i]));
		xhci_dma_free(sc->sc_spad);
		sc->sc_spad = NULL;
	}
	xhci_dma_free(sc->sc_erst);
	sc->sc_erst = NULL;
	if (sc->sc_evr.xr_trbs)
		xhci_dma_free(sc->sc_evr.xr_trbs);
	if (sc->sc_cmdr.xr_trbs)
		xhci_dma_free(sc->sc_cmdr.xr_trbs);
	sc->sc_evr.xr_trbs = sc->sc_cmdr.xr_trbs = NULL;
	xhci_dma_free(sc->sc_dcbaa);
	sc->sc_dcbaa = NULL;
}

static int xhci_alloc_mem(struct xhci_softc *sc)
{
	struct xhci_trb *t;
	dma_addr_t dma;
	int ret = -ENOMEM;

	sc->sc_dcbaa = xhci_dma_page(&sc->sc_dcbaa_dma);
	if (!sc->sc_dcbaa)
		goto fail;
	t = xhci_dma_page(&dma);
	if (!t)
		goto fail;
	xhci_ring_init(&sc->sc_cmdr, t, dma, XHCI_RING_TRBS, true);
	t = xhci_dma_page(&dma);
	if (!t)
		goto fail;
	xhci_ring_init(&sc->sc_evr, t, dma, XHCI_EVENT_TRBS, false);
	sc->sc_erst = xhci_dma_page(&sc->sc_erst_dma);
	if (!sc->sc_erst)
		goto fail;
	sc->sc_erst[0].erst_base = sc->sc_evr.xr_dma;
	sc->sc_erst[0].erst_size = XHCI_EVENT_TRBS;
	ret = xhci_alloc_scratchpad(sc);
	if (ret)
		goto fail;
	return 0;
fail:
	xhci_free_mem(sc);
	return ret;
}

/*
 * 4.2 steps 3-8: program MaxSlotsEn, DCBAAP, CRCR, interrupter 0's event
 * ring, enable interrupts and run.  The rings start empty.
 */
static int xhci_start(struct xhci_softc *sc)
{
	int ret;

	xhci_op_write(sc, XHCI_CONFIG, XHCI_CONFIG_MAXSLOTSEN(sc->sc_maxslots));
	xhci_op_write64(sc, XHCI_DCBAAP, sc->sc_dcbaa_dma);
	xhci_op_write64(sc, XHCI_CRCR, sc->sc_cmdr.xr_dma | XHCI_CRCR_RCS);
	xhci_ir_write(sc, XHCI_ERSTSZ, 1);
	xhci_ir_write64(sc, XHCI_ERDP, sc->sc_evr.xr_dma);
	xhci_ir_write64(sc, XHCI_ERSTBA, sc->sc_erst_dma);	/* last: 5.5.2.3.2 */
	xhci_ir_write(sc, XHCI_IMOD, 160);			/* 40 us, in 250 ns units */
	xhci_ir_write(sc, XHCI_IMAN, XHCI_IMAN_IE | XHCI_IMAN_IP);
	xhci_op_write(sc, XHCI_USBSTS, XHCI_STS_EINT | XHCI_STS_PCD | XHCI_STS_HSE);
	xhci_op_write(sc, XHCI_USBCMD, XHCI_CMD_RS | XHCI_CMD_INTE | XHCI_CMD_HSEE);
	ret = xhci_wait_op(sc, XHCI_USBSTS, XHCI_STS_HCH, 0, XHCI_HALT_MS);
	if (ret)
		pr_err("%s: does not run\n", sc->sc_name);
	return ret;
}

/* Fresh rings and an empty DCBAA (after a reset), the scratchpad kept. */
static void xhci_clear_state(struct xhci_softc *sc)
{
	u64 spad = sc->sc_dcbaa[0];

	memset(sc->sc_dcbaa, 0, PAGE_SIZE);
	sc->sc_dcbaa[0] = spad;
	xhci_ring_init(&sc->sc_cmdr, sc->sc_cmdr.xr_trbs, sc->sc_cmdr.xr_dma, XHCI_RING_TRBS, true);
	xhci_ring_init(&sc->sc_evr, sc->sc_evr.xr_trbs, sc->sc_evr.xr_dma, XHCI_EVENT_TRBS, false);
	memset(sc->sc_cmd_wait, 0, sizeof(sc->sc_cmd_wait));
}

/*
 * HSE (5.4.2): the controller stopped.  Fail every device and command,
 * reset, start again and let the core enumerate the ports anew.
 */
static void xhci_hse_work(struct work *w)
{
	struct xhci_softc *sc = container_of(w, struct xhci_softc, sc_hse_work);
	unsigned p;

	pr_err("%s: host system error (USBSTS %#x); resetting the controller\n",
	       sc->sc_name, xhci_op_read(sc, XHCI_USBSTS));
	xhci_cmd_fail_all(sc);
	for (p = 1; p <= sc->sc_bus.ub_nports; p++)
		if (sc->sc_bus.ub_root[p - 1])
			usb_disconnect(sc->sc_bus.ub_root[p - 1]);
	if (xhci_reset(sc))
		return;			/* error already printed; the bus stays dead */
	xhci_clear_state(sc);
	sc->sc_dead = false;
	if (xhci_start(sc))
		return;
	xhci_port_power(sc);
	for (p = 1; p <= sc->sc_nports; p++)
		usb_bus_port_event(&sc->sc_bus, p);
}

/* 4.2: read parameters, take over, reset, allocate, start, enumerate. */
int xhci_attach(struct xhci_softc *sc)
{
	int ret;

	spin_lock_init(&sc->sc_lock, "xhci");
	work_init(&sc->sc_hse_work, xhci_hse_work);
	work_init(&sc->sc_cancel_work, xhci_cancel_work);
	/* CAPLENGTH and HCIVERSION share dword 0; read it whole (5.3). */
	sc->sc_op = sc->sc_cap + (xhci_cap_read(sc, XHCI_CAPLENGTH) & 0xff);
	sc->sc_rt = sc->sc_cap + (xhci_cap_read(sc, XHCI_RTSOFF) & ~0x1fu);
	sc->sc_db = sc->sc_cap + (xhci_cap_read(sc, XHCI_DBOFF) & ~0x3u);
	sc->sc_hcs1 = xhci_cap_read(sc, XHCI_HCSPARAMS1);
	sc->sc_hcs2 = xhci_cap_read(sc, XHCI_HCSPARAMS2);
	sc->sc_hcc1 = xhci_cap_read(sc, XHCI_HCCPARAMS1);
	sc->sc_maxslots = XHCI_HCS1_MAXSLOTS(sc->sc_hcs1);
	sc->sc_nports = XHCI_HCS1_MAXPORTS(sc->sc_hcs1);
	sc->sc_ctxsize = (sc->sc_hcc1 & XHCI_HCC1_CSZ) ? 64 : 32;
	if (sc->sc_nports > XHCI_MAX_PORTS) {
		pr_warn("%s: %u ports, using the first %u\n", sc->sc_name, sc->sc_nports,
			XHCI_MAX_PORTS);
		sc->sc_nports = XHCI_MAX_PORTS;
	}

	xhci_handoff(sc);
	ret = xhci_wait_op(sc, XHCI_USBSTS, XHCI_STS_CNR, 0, XHCI_RESET_MS);
	if (!ret)
		ret = xhci_reset(sc);
	if (ret)
		return ret;
	if (xhci_op_read(sc, XHCI_PAGESIZE) & 1) {
		/* 4 KiB pages supported: our rings and contexts assume them. */
	} else {
		pr_err("%s: no 4 KiB page size\n", sc->sc_name);
		return -ENODEV;
	}
	ret = xhci_read_protocols(sc);
	if (ret)
		return ret;
	ret = xhci_alloc_mem(sc);
	if (ret) {
		pr_err("%s: no memory for its rings\n", sc->sc_name);
		return ret;
	}
	ret = xhci_start(sc);
	if (ret)
		goto free_mem;
	xhci_port_power(sc);

	pr_info("%s: xHCI %x.%02x, %u ports, %u slots, %u-byte contexts, %u scratchpads, irq %d\n",
		sc->sc_name, xhci_cap_read(sc, XHCI_CAPLENGTH) >> 24,
		(xhci_cap_read(sc, XHCI_CAPLENGTH) >> 16) & 0xff, sc->sc_nports, sc->sc_maxslots,
		sc->sc_ctxsize, sc->sc_nspad, sc->sc_irq);

	sc->sc_bus.ub_name = sc->sc_name;
	sc->sc_bus.ub_ops = &xhci_bus_ops;
	sc->sc_bus.ub_hcpriv = sc;
	sc->sc_bus.ub_nports = sc->sc_nports;
	ret = usb_bus_register(&sc->sc_bus);
	if (ret)
		goto stop;
	return 0;
stop:
	xhci_reset(sc);
free_mem:
	xhci_free_mem(sc);
	return ret;
}

void xhci_detach(struct xhci_softc *sc)
{
	xhci_reset(sc);
	xhci_free_mem(sc);
}

/* A Port Status Change event: the core reads PORTSC from its work. */
static void xhci_port_event(struct xhci_softc *sc, const struct xhci_trb *ev)
{
	unsigned port = (unsigned)(ev->trb_param >> 24) & 0xff;

	if (port >= 1 && port <= sc->sc_nports)
		usb_bus_port_event(&sc->sc_bus, port);
}

irqreturn_t xhci_intr(unsigned irq, void *data)
{
	struct xhci_softc *sc = data;
	const struct xhci_trb *ev;
	struct list_head done;
	unsigned long flags;
	unsigned n = 0;
	u32 sts;

	sts = xhci_op_read(sc, XHCI_USBSTS);
	if (sts == 0xffffffff)
		return IRQ_NONE;		/* gone from the bus */
	if (!(sts & (XHCI_STS_EINT | XHCI_STS_HSE | XHCI_STS_PCD)) &&
	    !(xhci_ir_read(sc, XHCI_IMAN) & XHCI_IMAN_IP))
		return IRQ_NONE;		/* a shared line's other device */
	xhci_op_write(sc, XHCI_USBSTS, sts & (XHCI_STS_EINT | XHCI_STS_PCD));
	xhci_ir_write(sc, XHCI_IMAN, XHCI_IMAN_IE | XHCI_IMAN_IP);

	INIT_LIST_HEAD(&done);
	spin_lock_irqsave(&sc->sc_lock, flags);
	if ((sts & XHCI_STS_HSE) && !sc->sc_dead) {
		sc->sc_dead = true;
		schedule_work(&sc->sc_hse_work);
	}
	while ((ev = xhci_event_peek(&sc->sc_evr)) != NULL && n++ < XHCI_EVENT_TRBS) {
		switch (XHCI_TRB_GET_TYPE(ev->trb_control)) {
		case XHCI_TRB_EV_TRANSFER:
			xhci_xfer_event(sc, ev, &done);
			break;
		case XHCI_TRB_EV_CMD_COMPLETE:
			xhci_cmd_event(sc, ev);
			break;
		case XHCI_TRB_EV_PORT_STATUS:
			xhci_port_event(sc, ev);
			break;
		case XHCI_TRB_EV_HOST_CTRL:
			if (XHCI_EVT_CC(ev->trb_status) == XHCI_CC_EVENT_RING_FULL)
				pr_warn("%s: event ring full\n", sc->sc_name);
			break;
		default:
			break;
		}
		xhci_event_pop(&sc->sc_evr);
		sc->sc_events++;
	}
	xhci_ir_write64(sc, XHCI_ERDP, xhci_ring_dma(&sc->sc_evr, sc->sc_evr.xr_deq) | XHCI_ERDP_EHB);
	spin_unlock_irqrestore(&sc->sc_lock, flags);
	xhci_urbs_complete(&done);
	return IRQ_HANDLED;
}
