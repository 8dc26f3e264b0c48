/*
 * PCI glue of the IDE driver: binds every PCI IDE controller (class
 * 01h, subclass 01h), works out where each channel's registers and
 * interrupt are, and hands the softc to the bus-independent core
 * (ide_attach in ide_probe.c).
 *
 * Where a channel lives (PCI IDE Controller Specification 1.0, sections
 * 2.1-2.2, and the prog-if bits of its Programming Interface byte):
 *   compatibility mode  0x1F0/0x3F6 on IRQ 14 (primary), 0x170/0x376 on
 *                       IRQ 15 (secondary), whatever the BARs say;
 *   native mode         command block at BAR0/BAR2, control block at
 *                       BAR1/BAR3 (Alt Status at +2), and the function's
 *                       PCI interrupt, shared by both channels.
 * Bus mastering (SFF-8038i) is BAR4 when prog-if bit 7 says the
 * controller has it: 8 bytes per channel.  The command register gets I/O
 * decode and Bus Master enabled (PCI Local Bus 3.0 6.2.2, Command).
 *
 * The quirk table is data: Intel PIIX/ICH functions say in IDETIM
 * whether a channel decodes at all (a BIOS may switch one off), ICH
 * functions say which channels have an 80-conductor cable and let the
 * driver change a drive's Ultra DMA timing (ide_ich_chipset), and
 * controllers whose bus mastering is known broken run PIO only.
 */
#include "drivers/ata/atareg.h"
#include "drivers/ide/ide_priv.h"
#include "drivers/pci/pci.h"
#include "drivers/pci/pcireg.h"
#include "kernel/errno.h"
#include "kernel/init.h"
#include "kernel/io.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/string.h"

#define PCI_VENDOR_INTEL	0x8086
#define PCI_VENDOR_CMD		0x1095
#define PCI_VENDOR_PCTECH	0x1042
#define IDE_BM_BAR_MIN_SIZE	16	/* two channels of 8 registers */

/*
 * Specific functions first (pci_match_id takes the first match), then
 * every other IDE controller by class.
 */
static const struct pci_device_id ide_pci_ids[] = {
	/* Intel PIIX, PIIX3, PIIX4, ICH..ICH7: IDETIM decode enable per channel. */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x1230), .pid_data = IDE_Q_PIIX_DECODE },
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x7010), .pid_data = IDE_Q_PIIX_DECODE },
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x7111), .pid_data = IDE_Q_PIIX_DECODE },
	/* ICH (82801AA) to ICH7: also cable detection and Ultra DMA timing. */
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x2411), .pid_data = IDE_Q_PIIX_DECODE | IDE_Q_ICH },
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x244b), .pid_data = IDE_Q_PIIX_DECODE | IDE_Q_ICH },
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x24cb), .pid_data = IDE_Q_PIIX_DECODE | IDE_Q_ICH },
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x24db), .pid_data = IDE_Q_PIIX_DECODE | IDE_Q_ICH },
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x266f), .pid_data = IDE_Q_PIIX_DECODE | IDE_Q_ICH },
	{ PCI_DEVICE(PCI_VENDOR_INTEL, 0x27df), .pid_data = IDE_Q_PIIX_DECODE | IDE_Q_ICH },
	/* CMD640 and PC-Tech RZ1000: no usable bus master (and known data bugs). */
	{ PCI_DEVICE(PCI_VENDOR_CMD, 0x0640), .pid_data = IDE_Q_NODMA },
	{ PCI_DEVICE(PCI_VENDOR_PCTECH, 0x1000), .pid_data = IDE_Q_NODMA },
	{ PCI_DEVICE(PCI_VENDOR_PCTECH, 0x1001), .pid_data = IDE_Q_NODMA },
	{ PCI_DEVICE_CLASS(PCI_CLASS_STORAGE, PCI_SUBCLASS_STORAGE_IDE, PCI_ANY_ID) },
	{ 0 }
};

/* Port I/O: the registers of a PCI IDE channel, legacy or native. */
static u8 ide_port_in8(struct ide_channel *ch, u16 port) { return inb(port); }
static void ide_port_out8(struct ide_channel *ch, u16 port, u8 v) { outb(port, v); }
static void ide_port_out32(struct ide_channel *ch, u16 port, u32 v) { outl(port, v); }
static void ide_port_in16s(struct ide_channel *ch, u16 port, void *buf, u32 words)
{
	insw(port, buf, words);
}
static void ide_port_out16s(struct ide_channel *ch, u16 port, const void *buf, u32 words)
{
	outsw(port, buf, words);
}

const struct ide_io_ops ide_port_io = {
	.io_in8 = ide_port_in8,
	.io_out8 = ide_port_out8,
	.io_out32 = ide_port_out32,
	.io_in16s = ide_port_in16s,
	.io_out16s = ide_port_out16s,
};

/* ICH IDE_CONFIG: the BIOS's cable detection for the channel (either drive). */
static bool ide_ich_cable80(struct ide_channel *ch)
{
	u16 cfg = pci_read16(ch->ch_sc->sc_pci, IDE_ICH_CONFIG);

	return cfg & IDE_ICH_CONFIG_CBL80(ch->ch_index);
}

/*
 * ICH Ultra DMA timing for a drive (the datasheets' SDMA_CNT, SDMA_TIM
 * and IDE_CONFIG clock bits; the same values as Linux's ata_piix
 * do_pata_set_dmamode): enable and time Ultra DMA modes 0-5, or turn
 * Ultra DMA off for that drive (multiword DMA or PIO then run at the
 * IDETIM timing the firmware set).  Returns 0 or -EINVAL for UDMA/6.
 */
static int ide_ich_set_mode(struct ide_channel *ch, unsigned unit, int mode)
{
	static const u8 ct[6] = { 0, 1, 2, 1, 2, 1 };	/* SDMA_TIM per UDMA mode */
	struct pci_dev *dev = ch->ch_sc->sc_pci;
	unsigned n = 2 * ch->ch_index + unit, udma = (unsigned)mode & ATA_XFER_MODE_MASK;
	u8 cnt = pci_read8(dev, IDE_ICH_SDMA_CNT) & (u8)~(1u << n);
	u16 tim, cfg;

	if (mode < 0 || (mode & ATA_XFER_TYPE_MASK) != ATA_XFER_UDMA) {
		pci_write8(dev, IDE_ICH_SDMA_CNT, cnt);
		return 0;
	}
	if (udma >= ARRAY_SIZE(ct))
		return -EINVAL;
	tim = pci_read16(dev, IDE_ICH_SDMA_TIM);
	tim &= (u16)~(IDE_ICH_SDMA_TIM_MASK << IDE_ICH_SDMA_TIM_SHIFT(n));
	tim |= (u16)(ct[udma] << IDE_ICH_SDMA_TIM_SHIFT(n));
	pci_write16(dev, IDE_ICH_SDMA_TIM, tim);
	cfg = pci_read16(dev, IDE_ICH_CONFIG);
	cfg &= (u16)~(IDE_ICH_CONFIG_CLK66(n) | IDE_ICH_CONFIG_CLK100(n));
	if (udma == 5)
		cfg |= IDE_ICH_CONFIG_CLK100(n);
	else if (udma > 2)
		cfg |= IDE_ICH_CONFIG_CLK66(n);
	pci_write16(dev, IDE_ICH_CONFIG, cfg);
	pci_write8(dev, IDE_ICH_SDMA_CNT, (u8)(cnt | 1u << n));
	return 0;
}

static const struct ide_chipset ide_ich_chipset = {
	.cs_cable80 = ide_ich_cable80,
	.cs_set_mode = ide_ich_set_mode,
};

const struct pci_device_id *ide_pci_match(const struct pci_dev *dev)
{
	return pci_match_id(ide_pci_ids, dev);
}

/* Controllers bound so far: the next one's drive names start 4 letters on. */
static unsigned ide_pci_nr;

/* A native-mode I/O BAR's base port, or 0 if it is not a usable I/O BAR. */
static u16 ide_pci_io_bar(const struct pci_dev *dev, unsigned bar, u64 min_size)
{
	const struct pci_bar *b = &dev->pd_bar[bar];

	if (b->pb_type != PCI_BAR_IO || !b->pb_base || b->pb_base > 0xffff ||
	    b->pb_size < min_size)
		return 0;
	return (u16)b->pb_base;
}

/* Fill in channel i's ports and IRQ; leaves ch_cmd 0 for a channel that is off. */
static void ide_pci_channel(struct ide_softc *sc, unsigned i, u16 bm)
{
	struct pci_dev *dev = sc->sc_pci;
	struct ide_channel *ch = &sc->sc_chan[i];
	u8 native_bit = i ? PCI_IDE_PROGIF_SEC_NATIVE : PCI_IDE_PROGIF_PRI_NATIVE;
	int irq;

	ch->ch_sc = sc;
	ch->ch_index = (u8)i;
	ch->ch_irq = -1;
	ch->ch_io = &ide_port_io;
	if (sc->sc_quirks & IDE_Q_PIIX_DECODE) {
		u16 idetim = pci_read16(dev, i ? IDE_PIIX_IDETIM_SEC : IDE_PIIX_IDETIM_PRI);

		if (!(idetim & IDE_PIIX_IDETIM_DECODE)) {
			pr_info("%s: channel %u disabled by the firmware\n", sc->sc_name, i);
			return;
		}
	}
	ch->ch_native = (dev->pd_progif & native_bit) != 0;
	if (ch->ch_native) {
		u16 cmd = ide_pci_io_bar(dev, i ? IDE_PCI_BAR_SEC_CMD : IDE_PCI_BAR_PRI_CMD,
					 IDE_CMD_BLOCK_SIZE);
		u16 ctl = ide_pci_io_bar(dev, i ? IDE_PCI_BAR_SEC_CTL : IDE_PCI_BAR_PRI_CTL,
					 IDE_CTL_BLOCK_SIZE);

		irq = pci_intx_irq(dev);
		if (!cmd || !ctl || irq < 0) {
			pr_warn("%s: native channel %u has no %s: skipped\n", sc->sc_name, i,
				irq < 0 ? "interrupt" : "I/O ports");
			return;
		}
		ch->ch_cmd = cmd;
		ch->ch_ctl = ctl;
		ch->ch_irq = irq;
	} else {
		ch->ch_cmd = i ? IDE_SEC_CMD_BASE : IDE_PRI_CMD_BASE;
		ch->ch_ctl = i ? IDE_SEC_CTL_BASE : IDE_PRI_CTL_BASE;
		ch->ch_irq = i ? IDE_SEC_IRQ : IDE_PRI_IRQ;
	}
	ch->ch_bm = bm ? (u16)(bm + i * IDE_BM_CHANNEL_STRIDE) : 0;
}

/* A bare channel at the legacy ports (idevar.h): for polled commands only. */
int ide_polled_channel(struct ide_channel *ch, unsigned index)
{
	memset(ch, 0, sizeof(*ch));
	ch->ch_index = (u8)index;
	ch->ch_irq = -1;
	ch->ch_io = &ide_port_io;
	ch->ch_cmd = index ? IDE_SEC_CMD_BASE : IDE_PRI_CMD_BASE;
	ch->ch_ctl = index ? IDE_SEC_CTL_BASE : IDE_PRI_CTL_BASE;
	ch->ch_selected = 0xff;
	if (ide_read(ch, IDE_REG_STATUS) == IDE_STATUS_FLOATING)
		return -ENODEV;
	ide_devctl(ch, ATA_CTL_NIEN);
	return 0;
}

/**
 * ide_pci_setup - where a PCI IDE function's channels are, from its class,
 * prog-if, BARs, interrupt and quirks
 * @sc: zeroed; gets its name, quirks, sc_nodma and both channels' ports
 *	and IRQs (ch_cmd 0 for a channel that is off)
 * @quirks: IDE_Q_* from the match table
 *
 * Also turns on I/O decode, and bus mastering when DMA will be used.
 * Returns 0, or -ENODEV for a function that is not an IDE controller.
 */
int ide_pci_setup(struct ide_softc *sc, struct pci_dev *dev, unsigned long quirks, unsigned index)
{
	u16 bm = 0;
	unsigned i;

	if (dev->pd_class != PCI_CLASS_STORAGE || dev->pd_subclass != PCI_SUBCLASS_STORAGE_IDE)
		return -ENODEV;
	sc->sc_pci = dev;
	sc->sc_index = index;
	snprintf(sc->sc_name, sizeof(sc->sc_name), "pciide%u", index);
	sc->sc_quirks = quirks;
	if (quirks & IDE_Q_ICH)
		sc->sc_chipset = &ide_ich_chipset;
	if (dev->pd_progif & PCI_IDE_PROGIF_MASTER)
		bm = ide_pci_io_bar(dev, IDE_PCI_BAR_BMIDE, IDE_BM_BAR_MIN_SIZE);
	if (!bm || (sc->sc_quirks & IDE_Q_NODMA))
		sc->sc_nodma = true;
	for (i = 0; i < IDE_CHANNELS; i++)
		ide_pci_channel(sc, i, sc->sc_nodma ? 0 : bm);
	pci_set_command(dev, PCI_COMMAND_IO | (sc->sc_nodma ? 0 : PCI_COMMAND_MASTER), 0);
	return 0;
}

static int ide_pci_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	struct ide_softc *sc;
	int err;

	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		return -ENOMEM;
	err = ide_pci_setup(sc, dev, id->pid_data, ide_pci_nr);
	if (err) {
		kfree(sc);
		return err;
	}
	pr_info("%s: %04x:%04x prog-if %02x, %s/%s, bus master %s\n", sc->sc_name,
		dev->pd_vendor, dev->pd_device, dev->pd_progif,
		sc->sc_chan[0].ch_native ? "native" : "legacy",
		sc->sc_chan[1].ch_native ? "native" : "legacy",
		sc->sc_nodma ? "off" : "on");
	ide_pci_nr++;
	err = ide_attach(sc);
	if (err) {
		kfree(sc);
		return err;	/* already printed by ide_attach */
	}
	dev->pd_drvdata = sc;
	return 0;
}

static void ide_pci_remove(struct pci_dev *dev)
{
	struct ide_softc *sc = dev->pd_drvdata;

	ide_detach(sc);
	pci_set_command(dev, 0, PCI_COMMAND_MASTER);
	dev->pd_drvdata = NULL;
	kfree(sc);
}

static const struct pci_driver ide_pci_driver = {
	.name = "ide",
	.id_table = ide_pci_ids,
	.probe = ide_pci_probe,
	.remove = ide_pci_remove,
};

static bool ide_off;
PARAM_BOOL("ide.off", ide_off, "IDE: leave IDE controllers unbound (for tools that poke the ports)");

static int ide_pci_init(void)
{
	if (ide_off)
		return -ENODEV;
	return pci_register_driver(&ide_pci_driver);
}
device_initcall(ide_pci_init);
