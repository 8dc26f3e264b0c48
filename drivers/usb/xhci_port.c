/*
 * xHCI root ports (xHCI 1.2, 4.19 Root Hub, 5.4.8 PORTSC, 7.2 Supported
 * Protocol capability): which ports are USB 2 and which USB 3, port
 * power, status for the USB core, and port reset.
 *
 * A USB 3 port trains its link by itself and is enabled when a device
 * connects (4.19.1.2); a USB 2 port needs PORTSC.PR and is enabled when
 * the reset completes (PRC), at the speed PORTSC then reports.  Writes to
 * PORTSC keep the RW/RWS bits and never write 1 to a change bit or PED
 * unless that is the point.
 */
#include "drivers/usb/xhci.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/time.h"

static u32 xhci_portsc(struct xhci_softc *sc, unsigned port)
{
	return xhci_op_read(sc, XHCI_PORTSC(port));
}

/* Write PORTSC with the preserved bits of old plus set (RW1C bits in set clear). */
static void xhci_portsc_write(struct xhci_softc *sc, unsigned port, u32 old, u32 set)
{
	xhci_op_write(sc, XHCI_PORTSC(port), (old & XHCI_PS_PRESERVE) | set);
}

/* 7.2: record the major revision of each port from the Supported Protocol capabilities. */
int xhci_read_protocols(struct xhci_softc *sc)
{
	unsigned off = XHCI_HCC1_XECP(sc->sc_hcc1) * 4, guard = 0, p;

	while (off && guard++ < 64) {
		u32 v = readl(sc->sc_cap + off);

		if (XHCI_XCAP_ID(v) == XHCI_XCAP_PROTOCOL) {
			u32 d2 = readl(sc->sc_cap + off + 8);
			unsigned first = XHCI_PROTO_PORT_OFF(d2), cnt = XHCI_PROTO_PORT_CNT(d2);

			for (p = first; p < first + cnt && p <= sc->sc_nports; p++)
				if (p >= 1)
					sc->sc_port_major[p] = (u8)XHCI_PROTO_MAJOR(v);
		}
		if (!XHCI_XCAP_NEXT(v))
			break;
		off += XHCI_XCAP_NEXT(v) * 4;
	}
	for (p = 1; p <= sc->sc_nports; p++)
		if (!sc->sc_port_major[p])
			sc->sc_port_major[p] = 2;	/* no capability: treat as USB 2 */
	return 0;
}

/* 4.19.4: power every port when the controller has power switches (HCCPARAMS1.PPC). */
void xhci_port_power(struct xhci_softc *sc)
{
	unsigned p;

	if (!(sc->sc_hcc1 & XHCI_HCC1_PPC))
		return;
	for (p = 1; p <= sc->sc_nports; p++) {
		u32 v = xhci_portsc(sc, p);

		if (!(v & XHCI_PS_PP))
			xhci_portsc_write(sc, p, v, XHCI_PS_PP);
	}
	mdelay(20);	/* USB 2.0 7.1.7.3: power good before a connect is trusted */
}

static enum usb_speed xhci_speed(u32 portsc)
{
	switch (XHCI_PS_SPEED(portsc)) {
	case XHCI_SPEED_LOW:
		return USB_SPEED_LOW;
	case XHCI_SPEED_FULL:
		return USB_SPEED_FULL;
	case XHCI_SPEED_HIGH:
		return USB_SPEED_HIGH;
	case XHCI_SPEED_SUPER:
		return USB_SPEED_SUPER;
	case XHCI_SPEED_SUPER_PLUS:
		return USB_SPEED_SUPER_PLUS;
	default:
		return USB_SPEED_UNKNOWN;
	}
}

int xhci_port_status(struct usb_bus *bus, unsigned port, struct usb_port_status *ps)
{
	struct xhci_softc *sc = bus->ub_hcpriv;
	u32 v;

	if (port < 1 || port > sc->sc_nports)
		return -EINVAL;
	v = xhci_portsc(sc, port);
	if (v == 0xffffffff)
		return -ENODEV;
	ps->ps_connected = v & XHCI_PS_CCS;
	ps->ps_enabled = v & XHCI_PS_PED;
	ps->ps_changed = v & XHCI_PS_CSC;
	ps->ps_speed = xhci_speed(v);
	if (v & XHCI_PS_CHANGES)
		xhci_portsc_write(sc, port, v, v & XHCI_PS_CHANGES);
	return 0;
}

/*
 * 4.3.1: a USB 2 port gets PR and we wait (bounded) for PRC; a USB 3
 * port is enabled by link training, which we wait for the same way.
 */
int xhci_port_reset(struct usb_bus *bus, unsigned port, enum usb_speed *speed)
{
	struct xhci_softc *sc = bus->ub_hcpriv;
	u64 end = ktime_ms() + XHCI_PORT_RESET_MS;
	u32 v = xhci_portsc(sc, port);

	if (!(v & XHCI_PS_CCS))
		return -ENODEV;
	if (sc->sc_port_major[port] < 3 || !(v & XHCI_PS_PED)) {
		xhci_portsc_write(sc, port, v, XHCI_PS_PR);
		for (;;) {
			v = xhci_portsc(sc, port);
			if (!(v & XHCI_PS_PR) && (v & (XHCI_PS_PRC | XHCI_PS_PED)))
				break;
			if (!(v & XHCI_PS_CCS))
				return -ENODEV;
			if (ktime_ms() > end)
				return -ETIMEDOUT;
			mdelay(1);
		}
		xhci_portsc_write(sc, port, v, v & (XHCI_PS_PRC | XHCI_PS_WRC | XHCI_PS_CSC));
		mdelay(10);	/* USB 2.0 7.1.7.5: TRSTRCY recovery after reset */
	}
	v = xhci_portsc(sc, port);
	if (!(v & XHCI_PS_PED))
		return (v & XHCI_PS_CCS) ? -EIO : -ENODEV;
	*speed = xhci_speed(v);
	return 0;
}
