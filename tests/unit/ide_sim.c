/*
 * The simulated IDE channel of ide_sim.h: ATA/ATAPI-7 register semantics
 * as far as the driver relies on them, and SFF-8038i bus mastering over
 * page_fake.c's memory.  Every PRD table is checked against the rules of
 * SFF-8038i 1.2 (even addresses and counts, no 64 KiB crossing, below
 * 4 GiB, EOT on the last entry, never a 0 count) and its total against the
 * command's sector count; breaches are counted in s_prd_bad.
 */
#include "tests/unit/ide_sim.h"
#include "tests/unit/fakes/page_fake.h"
#include "tests/unit/host/shim.h"
#include "drivers/ata/atareg.h"
#include "kernel/printk.h"
#include "lib/byteorder.h"

#include <stdlib.h>
#include <string.h>

#define ST_READY	(ATA_STATUS_DRDY | ATA_STATUS_DSC)
#define SIM_UDMA_MODES	0x003f		/* word 88: UDMA 0-5 supported ... */
#define SIM_UDMA_ACTIVE(n)	(1u << (8 + (n)))	/* ... and mode n selected */
#define SIM_UDMA_DEFAULT	(SIM_UDMA_MODES | SIM_UDMA_ACTIVE(5))

/* The simulator behind a channel: one at a time, as the tests use it. */
static struct ide_sim *sim_current;

static struct ide_sim *sim_of(struct ide_channel *ch)
{
	if (!sim_current || sim_current->s_ch != ch)
		panic("ide_sim: channel %p has no simulator", (void *)ch);
	return sim_current;
}

static void sim_log(struct ide_sim *s, char op, u16 port, u32 val)
{
	if (s->s_nlog < IDE_SIM_LOG)
		s->s_log[s->s_nlog++] = (struct ide_sim_access){ op, port, val };
}

void ide_sim_log_irq(struct ide_sim *s)
{
	sim_log(s, 'I', 0, 0);
}

u8 *ide_sim_sector(struct ide_sim *s, unsigned unit, u64 lba)
{
	return s->s_data[unit] + (lba % IDE_SIM_WINDOW) * SECTOR_SIZE;
}

bool ide_sim_irq_pending(const struct ide_sim *s)
{
	return s->s_intrq && !(s->s_devctl & ATA_CTL_NIEN);
}

/* The device asserts INTRQ (unless told to lose it); the bus master notes it. */
static void sim_raise(struct ide_sim *s)
{
	s->s_bm_status |= IDE_BM_STATUS_IRQ;
	if (s->s_lose_irq) {
		s->s_lose_irq--;
		return;
	}
	s->s_intrq = true;
}

static void sim_abort(struct ide_sim *s, u64 lba)
{
	s->s_status = ST_READY | ATA_STATUS_ERR;
	s->s_error = ATA_ERROR_ABRT;
	s->s_lbal[0] = (u8)lba;
	s->s_lbam[0] = (u8)(lba >> 8);
	s->s_lbah[0] = (u8)(lba >> 16);
	s->s_lbal[1] = (u8)(lba >> 24);
	s->s_lbam[1] = (u8)(lba >> 32);
	s->s_lbah[1] = (u8)(lba >> 40);
	s->s_device = (u8)((s->s_device & ~ATA_DEVICE_LBA28_MASK) | ((lba >> 24) & 0xf));
	s->s_cmd = 0;
	s->s_dma_armed = false;
	sim_raise(s);
}

static bool sim_bad_in(const struct ide_sim *s, u64 lba, u32 n, u64 *bad)
{
	if (!s->s_bad_set || s->s_bad_lba < lba || s->s_bad_lba >= lba + n)
		return false;
	*bad = s->s_bad_lba;
	return true;
}

/* The bus master: walk the PRD table, move the data, end the command. */
static void sim_dma(struct ide_sim *s)
{
	struct ide_channel *ch = s->s_ch;
	bool write = !(s->s_bm_cmd & IDE_BM_CMD_READ);
	u64 want = (u64)s->s_nsect * SECTOR_SIZE, total = 0, bad;
	u32 i, pos = 0;

	s->s_prd_tables++;
	if (s->s_bm_prdt != (u32)ch->ch_prdt_phys || (s->s_bm_prdt & 3))
		s->s_prd_bad++;
	if (write != (s->s_cmd == ATA_CMD_WRITE_DMA || s->s_cmd == ATA_CMD_WRITE_DMA_EXT))
		s->s_prd_bad++;		/* direction bit disagrees with the command */
	for (i = 0; i < IDE_PRDT_ENTRIES; i++) {
		const struct ide_prd *p = &ch->ch_prdt[i];
		u32 addr = le32_to_cpu(p->prd_addr), len = le16_to_cpu(p->prd_count), off = 0;

		if (len == 0 || (len & 1) || (addr & 1) || (addr >> 16) != ((addr + len - 1) >> 16))
			s->s_prd_bad++;
		if (len == 0)
			len = 0x10000;
		while (off < len && total < want) {
			u32 in = (addr + off) & (PAGE_SIZE - 1);
			u32 n = (u32)(PAGE_SIZE - in < len - off ? PAGE_SIZE - in : len - off);
			u8 *mem = (u8 *)host_page_buf(pfn_to_page((addr + off) >> PAGE_SHIFT)) + in;

			while (n) {
				u32 sec = pos / SECTOR_SIZE, boff = pos % SECTOR_SIZE;
				u32 m = SECTOR_SIZE - boff < n ? SECTOR_SIZE - boff : n;
				u8 *disk = ide_sim_sector(s, s->s_unit, s->s_lba + sec) + boff;

				if (write)
					memcpy(disk, mem, m);
				else
					memcpy(mem, disk, m);
				mem += m;
				n -= m;
				off += m;
				pos += m;
				total += m;
			}
		}
		if (le16_to_cpu(p->prd_flags) & IDE_PRD_EOT)
			break;
	}
	if (i == IDE_PRDT_ENTRIES || total != want)
		s->s_prd_bad++;		/* no EOT, or the table's total is not the transfer */
	s->s_bm_status &= ~IDE_BM_STATUS_ACTIVE;
	if (sim_bad_in(s, s->s_lba, s->s_nsect, &bad)) {
		sim_abort(s, bad);
		return;
	}
	if (s->s_icrc) {
		s->s_icrc--;
		sim_abort(s, s->s_lba);
		s->s_error |= ATA_ERROR_ICRC;
		return;
	}
	s->s_status = ST_READY;
	s->s_cmd = 0;
	s->s_dma_armed = false;
	sim_raise(s);
}

/* PIO read: the next sector into the buffer, DRQ and INTRQ; or the end. */
static void sim_pio_next_in(struct ide_sim *s)
{
	u64 bad;

	if (s->s_done == s->s_nsect) {
		s->s_status = ST_READY;
		s->s_cmd = 0;
		return;
	}
	if (sim_bad_in(s, s->s_lba + s->s_done, 1, &bad)) {
		sim_abort(s, bad);
		return;
	}
	memcpy(s->s_buf, ide_sim_sector(s, s->s_unit, s->s_lba + s->s_done), SECTOR_SIZE);
	s->s_buf_pos = 0;
	s->s_status = ST_READY | ATA_STATUS_DRQ;
	sim_raise(s);
}

/* The selected device is busy with something of its own (s_busy_until)? */
static bool sim_busy_inside(const struct ide_sim *s)
{
	return host_now_ns < s->s_busy_until[s->s_unit];
}

static void sim_command(struct ide_sim *s, u8 cmd)
{
	bool ext = cmd == ATA_CMD_READ_DMA_EXT || cmd == ATA_CMD_WRITE_DMA_EXT ||
		   cmd == ATA_CMD_READ_SECTORS_EXT || cmd == ATA_CMD_WRITE_SECTORS_EXT;
	unsigned u = s->s_unit;

	if (!s->s_present[u]) {
		s->s_absent_cmds++;
		return;
	}
	if (sim_busy_inside(s)) {
		s->s_busy_writes++;
		return;			/* lost */
	}
	if (ext) {
		s->s_lba = (u64)s->s_lbal[0] | (u64)s->s_lbam[0] << 8 | (u64)s->s_lbah[0] << 16 |
			   (u64)s->s_lbal[1] << 24 | (u64)s->s_lbam[1] << 32 | (u64)s->s_lbah[1] << 40;
		s->s_nsect = (u32)s->s_count[0] | (u32)s->s_count[1] << 8;
		if (!s->s_nsect)
			s->s_nsect = 65536;
	} else {
		s->s_lba = (u64)s->s_lbal[0] | (u64)s->s_lbam[0] << 8 | (u64)s->s_lbah[0] << 16 |
			   (u64)(s->s_device & ATA_DEVICE_LBA28_MASK) << 24;
		s->s_nsect = s->s_count[0] ? s->s_count[0] : 256;
	}
	if (s->s_ncmds < IDE_SIM_CMDLOG)
		s->s_cmds[s->s_ncmds++] = (struct ide_sim_cmd){ (u8)u, cmd, s->s_lba, s->s_nsect };
	s->s_cmd = cmd;
	s->s_done = 0;
	s->s_buf_pos = 0;
	if (s->s_silent && cmd != ATA_CMD_IDENTIFY_DEVICE && cmd != ATA_CMD_SET_FEATURES) {
		s->s_silent--;
		s->s_status = ATA_STATUS_BSY;	/* and nothing more, until a reset */
		s->s_cmd = 0;
		return;
	}
	switch (cmd) {
	case ATA_CMD_READ_DMA:
	case ATA_CMD_READ_DMA_EXT:
	case ATA_CMD_WRITE_DMA:
	case ATA_CMD_WRITE_DMA_EXT:
		s->s_dma_cmds++;
		s->s_dma_armed = true;
		s->s_status = ST_READY;
		break;
	case ATA_CMD_READ_SECTORS:
	case ATA_CMD_READ_SECTORS_EXT:
		sim_pio_next_in(s);
		break;
	case ATA_CMD_WRITE_SECTORS:
	case ATA_CMD_WRITE_SECTORS_EXT:
		s->s_status = ST_READY | ATA_STATUS_DRQ;	/* the first block without INTRQ */
		s->s_drq_at = host_now_ns + s->s_drq_delay_ns;
		break;
	case ATA_CMD_IDENTIFY_DEVICE:
	case ATA_CMD_IDENTIFY_PACKET:
		if (s->s_atapi[u] != (cmd == ATA_CMD_IDENTIFY_PACKET)) {
			sim_abort(s, 0);
			break;
		}
		memcpy(s->s_buf, s->s_id[u], SECTOR_SIZE);
		s->s_nsect = 1;
		s->s_buf_pos = 0;
		s->s_status = ST_READY | ATA_STATUS_DRQ;
		sim_raise(s);
		break;
	case ATA_CMD_SET_FEATURES:
		if (s->s_feature[0] == ATA_SF_SET_XFER_MODE) {
			s->s_xfer[u] = s->s_count[0];
			if ((s->s_count[0] & ATA_XFER_TYPE_MASK) == ATA_XFER_UDMA)
				s->s_id[u][ATA_ID_UDMA] = (u16)(SIM_UDMA_MODES |
					SIM_UDMA_ACTIVE(s->s_count[0] & ATA_XFER_MODE_MASK));
		} else if (s->s_feature[0] == ATA_SF_DISABLE_WCACHE) {
			s->s_wcache_off++;
			s->s_id[u][ATA_ID_CMDSET_ENABLED_1] &= (u16)~ATA_ID_ENABLED_1_WCACHE;
		}
		s->s_status = ST_READY;
		s->s_cmd = 0;
		sim_raise(s);
		break;
	case ATA_CMD_FLUSH_CACHE:
	case ATA_CMD_FLUSH_CACHE_EXT:
		s->s_flushes++;
		s->s_status = ST_READY;
		s->s_cmd = 0;
		sim_raise(s);
		break;
	default:
		sim_abort(s, 0);
		break;
	}
}

static u8 sim_status(struct ide_sim *s)
{
	if (!s->s_present[s->s_unit])
		return 0;
	if (s->s_unit == 1 && s->s_slave_busy) {
		s->s_slave_busy--;
		return ATA_STATUS_BSY;
	}
	if (s->s_srst_polls) {
		if (!s->s_stuck_busy)
			s->s_srst_polls--;
		return ATA_STATUS_BSY;
	}
	if (sim_busy_inside(s))
		return ST_READY | ATA_STATUS_BSY;
	if ((s->s_cmd == ATA_CMD_WRITE_SECTORS || s->s_cmd == ATA_CMD_WRITE_SECTORS_EXT) &&
	    !s->s_done && host_now_ns < s->s_drq_at)
		return ST_READY | ATA_STATUS_BSY;
	return s->s_status;
}

/*
 * Reads that do not come from the shared registers: nothing on the bus
 * (all ones), an absent device selected beside a present one (zeros, as
 * QEMU does; or, with s_dev0_answers, device 0's registers but Status
 * 00h), and the answering device's own signature after a reset.
 * Returns true with *v set when one of those applies.
 */
static bool sim_taskfile_override(struct ide_sim *s, u16 port, u8 *v)
{
	unsigned u = s->s_unit;

	if (!s->s_present[0] && !s->s_present[1]) {
		*v = 0xff;
		return true;
	}
	if (u == 1 && s->s_present[1] && s->s_slave_busy && port != IDE_SIM_CMD + IDE_REG_STATUS) {
		*v = ATA_STATUS_BSY;	/* while BSY every register reads as Status */
		return true;
	}
	if (!s->s_present[u] && s->s_dev0_answers && u == 1) {
		if (port == IDE_SIM_CMD + IDE_REG_STATUS) {
			*v = 0;
			return true;
		}
		u = 0;
	} else if (!s->s_present[u]) {
		*v = 0;
		return true;
	}
	if (port < IDE_SIM_CMD + IDE_REG_COUNT || port > IDE_SIM_CMD + IDE_REG_LBA_HIGH ||
	    !(s->s_sig_valid & 1u << (port - IDE_SIM_CMD)))
		return false;
	switch (port) {
	case IDE_SIM_CMD + IDE_REG_COUNT: *v = 1; break;
	case IDE_SIM_CMD + IDE_REG_LBA_LOW: *v = 1; break;
	case IDE_SIM_CMD + IDE_REG_LBA_MID: *v = s->s_atapi[u] ? ATA_SIG_ATAPI_LBAMID : 0; break;
	default: *v = s->s_atapi[u] ? ATA_SIG_ATAPI_LBAHIGH : 0; break;
	}
	return true;
}

static u8 sim_in8(struct ide_channel *ch, u16 port)
{
	struct ide_sim *s = sim_of(ch);
	bool hob;
	u8 v = 0;

	hob = (s->s_devctl & ATA_CTL_HOB) != 0;
	if (port >= IDE_SIM_CMD + IDE_REG_ERROR && port <= IDE_SIM_CMD + IDE_REG_STATUS &&
	    port != IDE_SIM_CMD + IDE_REG_DEVICE && sim_taskfile_override(s, port, &v)) {
		sim_log(s, 'r', port, v);
		return v;
	}
	if (port == IDE_SIM_CTL + IDE_REG_ALTSTATUS && !s->s_present[0] && !s->s_present[1]) {
		sim_log(s, 'r', port, 0xff);
		return 0xff;
	}
	switch (port) {
	case IDE_SIM_CMD + IDE_REG_ERROR: v = s->s_error; break;
	case IDE_SIM_CMD + IDE_REG_COUNT: v = s->s_count[hob]; break;
	case IDE_SIM_CMD + IDE_REG_LBA_LOW: v = s->s_lbal[hob]; break;
	case IDE_SIM_CMD + IDE_REG_LBA_MID: v = s->s_lbam[hob]; break;
	case IDE_SIM_CMD + IDE_REG_LBA_HIGH: v = s->s_lbah[hob]; break;
	case IDE_SIM_CMD + IDE_REG_DEVICE: v = s->s_device; break;
	case IDE_SIM_CMD + IDE_REG_STATUS:
		v = sim_status(s);
		s->s_intrq = false;
		break;
	case IDE_SIM_CTL + IDE_REG_ALTSTATUS: v = sim_status(s); break;
	case IDE_SIM_BM + IDE_BM_CMD: v = s->s_bm_cmd; break;
	case IDE_SIM_BM + IDE_BM_STATUS: v = s->s_bm_status; break;
	default: v = 0xff; break;
	}
	sim_log(s, 'r', port, v);
	return v;
}

static void sim_out8(struct ide_channel *ch, u16 port, u8 v)
{
	struct ide_sim *s = sim_of(ch);
	u8 *reg = NULL;

	sim_log(s, 'w', port, v);
	switch (port) {
	case IDE_SIM_CMD + IDE_REG_FEATURE: reg = s->s_feature; break;
	case IDE_SIM_CMD + IDE_REG_COUNT: reg = s->s_count; break;
	case IDE_SIM_CMD + IDE_REG_LBA_LOW: reg = s->s_lbal; break;
	case IDE_SIM_CMD + IDE_REG_LBA_MID: reg = s->s_lbam; break;
	case IDE_SIM_CMD + IDE_REG_LBA_HIGH: reg = s->s_lbah; break;
	case IDE_SIM_CMD + IDE_REG_DEVICE:
		if (s->s_present[s->s_unit] && sim_busy_inside(s))
			s->s_busy_writes++;
		s->s_device = v;
		s->s_unit = (v & ATA_DEVICE_DEV) ? 1 : 0;
		break;
	case IDE_SIM_CMD + IDE_REG_COMMAND:
		s->s_devctl &= ~ATA_CTL_HOB;
		sim_command(s, v);
		break;
	case IDE_SIM_CTL + IDE_REG_DEVCTL:
		if ((v & ATA_CTL_SRST) && !(s->s_devctl & ATA_CTL_SRST)) {
			s->s_resets++;
			if (s->s_reset_defaults) {
				s->s_id[0][ATA_ID_UDMA] = SIM_UDMA_DEFAULT;
				s->s_id[1][ATA_ID_UDMA] = SIM_UDMA_DEFAULT;
			}
			s->s_cmd = 0;
			s->s_dma_armed = false;
			s->s_intrq = false;
			s->s_status = ST_READY;
			s->s_error = 1;
			s->s_busy_until[0] = s->s_busy_until[1] = 0;
		}
		if (!(v & ATA_CTL_SRST) && (s->s_devctl & ATA_CTL_SRST)) {
			s->s_srst_polls = 3;
			s->s_slave_busy = s->s_slave_reset_polls;
			s->s_sig_valid = IDE_SIM_SIG_ALL;
			s->s_status = ST_READY;
		}
		s->s_devctl = v;
		break;
	case IDE_SIM_BM + IDE_BM_CMD:
		if ((v & IDE_BM_CMD_START) && !(s->s_bm_cmd & IDE_BM_CMD_START)) {
			s->s_bm_cmd = v;
			s->s_bm_status |= IDE_BM_STATUS_ACTIVE;
			if (s->s_dma_armed)
				sim_dma(s);
			return;
		}
		s->s_bm_cmd = v;
		break;
	case IDE_SIM_BM + IDE_BM_STATUS:
		s->s_bm_status = (u8)((s->s_bm_status & ~(v & (IDE_BM_STATUS_IRQ | IDE_BM_STATUS_ERROR))) &
				      ~(IDE_BM_STATUS_DMA0 | IDE_BM_STATUS_DMA1)) |
				 (v & (IDE_BM_STATUS_DMA0 | IDE_BM_STATUS_DMA1));
		break;
	default:
		break;
	}
	if (reg) {
		s->s_sig_valid &= ~(1u << (port - IDE_SIM_CMD));
		reg[1] = reg[0];
		reg[0] = v;
		s->s_devctl &= ~ATA_CTL_HOB;
	}
}

static void sim_out32(struct ide_channel *ch, u16 port, u32 v)
{
	struct ide_sim *s = sim_of(ch);

	sim_log(s, 'w', port, v);
	if (port == IDE_SIM_BM + IDE_BM_PRDT)
		s->s_bm_prdt = v;
}

static void sim_in16s(struct ide_channel *ch, u16 port, void *buf, u32 words)
{
	struct ide_sim *s = sim_of(ch);
	u8 *out = buf;

	sim_log(s, 'r', port, words);
	while (words--) {
		if (s->s_buf_pos >= SECTOR_SIZE || !(s->s_status & ATA_STATUS_DRQ)) {
			*out++ = 0xff;
			*out++ = 0xff;
			continue;
		}
		*out++ = s->s_buf[s->s_buf_pos++];
		*out++ = s->s_buf[s->s_buf_pos++];
		if (s->s_buf_pos == SECTOR_SIZE) {
			s->s_done++;
			sim_pio_next_in(s);
		}
	}
}

static void sim_out16s(struct ide_channel *ch, u16 port, const void *buf, u32 words)
{
	struct ide_sim *s = sim_of(ch);
	const u8 *in = buf;
	u64 bad;

	sim_log(s, 'w', port, words);
	while (words--) {
		if (!(s->s_status & ATA_STATUS_DRQ) || s->s_buf_pos >= SECTOR_SIZE) {
			in += 2;
			continue;
		}
		s->s_buf[s->s_buf_pos++] = *in++;
		s->s_buf[s->s_buf_pos++] = *in++;
		if (s->s_buf_pos < SECTOR_SIZE)
			continue;
		if (sim_bad_in(s, s->s_lba + s->s_done, 1, &bad)) {
			sim_abort(s, bad);
			continue;
		}
		memcpy(ide_sim_sector(s, s->s_unit, s->s_lba + s->s_done), s->s_buf, SECTOR_SIZE);
		s->s_buf_pos = 0;
		if (++s->s_done == s->s_nsect) {
			s->s_status = ST_READY;
			s->s_cmd = 0;
		} else {
			s->s_status = ST_READY | ATA_STATUS_DRQ;
		}
		sim_raise(s);
	}
}

const struct ide_io_ops ide_sim_io = {
	.io_in8 = sim_in8,
	.io_out8 = sim_out8,
	.io_out32 = sim_out32,
	.io_in16s = sim_in16s,
	.io_out16s = sim_out16s,
};

void ide_sim_init(struct ide_sim *s, struct ide_channel *ch)
{
	memset(s, 0, sizeof(*s));
	s->s_ch = ch;
	sim_current = s;
	s->s_status = ST_READY;
	s->s_xfer[0] = s->s_xfer[1] = -1;
	ch->ch_io = &ide_sim_io;
	ch->ch_cmd = IDE_SIM_CMD;
	ch->ch_ctl = IDE_SIM_CTL;
	ch->ch_bm = IDE_SIM_BM;
}

/* The model string into IDENTIFY words 27-46, two characters per word, first in the high byte. */
static void ata_sim_model(u16 *id, const char *model)
{
	char m[ATA_ID_MODEL_WORDS * 2];
	unsigned i;

	memset(m, ' ', sizeof(m));
	memcpy(m, model, strlen(model));
	for (i = 0; i < ATA_ID_MODEL_WORDS; i++)
		id[ATA_ID_MODEL + i] = (u16)((u8)m[2 * i] << 8 | (u8)m[2 * i + 1]);
}

/* IDENTIFY DEVICE of a QEMU-like disk: LBA48, DMA (UDMA/5 selected), write cache, FLUSH EXT. */
static void ata_sim_identify(u16 *id, u64 sectors)
{
	u64 lba28 = sectors < ATA_LBA28_LIMIT ? sectors : ATA_LBA28_LIMIT - 1;

	memset(id, 0, ATA_ID_WORDS * sizeof(*id));
	id[ATA_ID_CONFIG] = 0x0040;
	ata_sim_model(id, "SIM HARDDISK");
	id[ATA_ID_CAPABILITY] = ATA_ID_CAP_LBA | ATA_ID_CAP_DMA;
	id[ATA_ID_FIELD_VALID] = ATA_ID_FIELD_VALID_64_70 | ATA_ID_FIELD_VALID_88;
	id[ATA_ID_LBA28_CAPACITY] = (u16)lba28;
	id[ATA_ID_LBA28_CAPACITY + 1] = (u16)(lba28 >> 16);
	id[ATA_ID_MWDMA] = 0x0007;
	id[ATA_ID_CMDSET_1] = ATA_ID_CMDSET_1_WCACHE;
	id[ATA_ID_CMDSET_2] = ATA_ID_VALID_VALUE | ATA_ID_CMDSET_2_LBA48 | ATA_ID_CMDSET_2_FLUSH |
			      ATA_ID_CMDSET_2_FLUSH_EXT;
	id[ATA_ID_CMDSET_3] = ATA_ID_VALID_VALUE;
	id[ATA_ID_CMDSET_ENABLED_1] = ATA_ID_ENABLED_1_WCACHE;
	id[ATA_ID_CMDSET_ENABLED_2] = ATA_ID_ENABLED_2_LBA48;
	id[ATA_ID_CMDSET_ENABLED_3] = ATA_ID_VALID_VALUE;
	id[ATA_ID_UDMA] = SIM_UDMA_DEFAULT;
	id[ATA_ID_HW_RESET] = 0x6001;		/* as QEMU: an 80-conductor cable */
	id[ATA_ID_LBA48_CAPACITY] = (u16)sectors;
	id[ATA_ID_LBA48_CAPACITY + 1] = (u16)(sectors >> 16);
	id[ATA_ID_LBA48_CAPACITY + 2] = (u16)(sectors >> 32);
	id[ATA_ID_SECTOR_SIZE] = ATA_ID_VALID_VALUE;
}

void ide_sim_add_disk(struct ide_sim *s, unsigned unit, u64 sectors)
{
	s->s_present[unit] = true;
	s->s_sectors[unit] = sectors;
	s->s_data[unit] = calloc(IDE_SIM_WINDOW, SECTOR_SIZE);
	ata_sim_identify(s->s_id[unit], sectors);
}

void ide_sim_add_atapi(struct ide_sim *s, unsigned unit)
{
	s->s_present[unit] = true;
	s->s_atapi[unit] = true;
	s->s_id[unit][ATA_ID_CONFIG] = 0x85c0;	/* ATAPI, CD-ROM, removable */
	ata_sim_model(s->s_id[unit], "SIM DVD-ROM");
}

void ide_sim_free(struct ide_sim *s)
{
	free(s->s_data[0]);
	free(s->s_data[1]);
}
