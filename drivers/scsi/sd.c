/*
 * sd: SCSI disks over any transport (drivers/scsi/sd.h).  Probe asks the
 * logical unit what it is, names the disk in the sd sequence the SATA
 * disks use (block/genhd_sd.c), sets up its queue (sd_io.c) and adds the
 * gendisk; remove takes it away when the device goes.
 *
 * Probe, one synchronous command at a time (each bounded):
 *   INQUIRY		a direct-access (or RBC) unit, vendor and product
 *   TEST UNIT READY	up to SD_TUR_TRIES times: the first answers of a
 *			fresh unit are UNIT ATTENTION (power on, reset)
 *   READ CAPACITY (10)	and (16) when (10) says the disk is too big
 *			(SBC-3 5.16.2); the (16) CDBs from then on
 *   MODE SENSE (6)	the write-protect bit; a unit that refuses it is
 *			taken as writable (many sticks do)
 *
 * block_device_operations: open fails once the device is gone; report
 * says vendor, product, revision, transport, block size and counters.
 */
#include "block/bdev.h"
#include "drivers/scsi/sd_priv.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

#define SD_TUR_TRIES		10u	/* TEST UNIT READY attempts at probe */
#define SD_TUR_WAIT_MS		100u	/* ms between them while becoming ready */
#define SD_BUSY_TRIES		5000u	/* 1 ms apart: the transport busy with another unit */

static void sd_sync_done(struct scsi_cmnd *cmd)
{
	struct sd_disk *sd = cmd->sc_priv;

	complete(&sd->sd_sync_done);
}

/*
 * Run the command built in sd->sd_cmd and wait for it (probe only: the
 * queue does not exist yet, so nothing else uses sd_cmd).  Data goes
 * through sd_buf.  Returns scsi_cmd_errno's answer, with the sense in ss.
 */
static int sd_exec(struct sd_disk *sd, struct scsi_sense_hdr *ss)
{
	struct scsi_cmnd *cmd = &sd->sd_cmd;
	unsigned long flags;
	u32 tries;
	int ret;

	KASSERT(cmd->sc_len <= SD_BUF_LEN);
	memset(ss, 0, sizeof(*ss));
	cmd->sc_lun = sd->sd_lun;
	cmd->sc_sg = cmd->sc_len ? &sd->sd_buf_sg : NULL;
	cmd->sc_nsg = cmd->sc_len ? 1 : 0;
	sd->sd_buf_sg.sg_len = cmd->sc_len;
	cmd->sc_timeout_ms = SD_PROBE_TIMEOUT_MS;
	cmd->sc_done = sd_sync_done;
	cmd->sc_priv = sd;
	init_completion(&sd->sd_sync_done);
	for (tries = 0; tries < SD_BUSY_TRIES; tries++) {
		spin_lock_irqsave(&sd->sd_lock, flags);
		ret = sd->sd_ops->sho_queuecommand(sd->sd_host, cmd);
		spin_unlock_irqrestore(&sd->sd_lock, flags);
		if (ret != -EBUSY)
			break;
		mdelay(1);	/* another unit's command is out; it is short */
	}
	if (ret)
		return ret == -EBUSY ? -ETIMEDOUT : ret;
	/* The transport bounds the command itself; this is the backstop. */
	if (wait_for_completion_timeout(&sd->sd_sync_done, 2 * SD_PROBE_TIMEOUT_MS)) {
		spin_lock_irqsave(&sd->sd_lock, flags);
		if (sd->sd_ops->sho_abort)
			sd->sd_ops->sho_abort(sd->sd_host, cmd);
		spin_unlock_irqrestore(&sd->sd_lock, flags);
		wait_for_completion(&sd->sd_sync_done);	/* abort promises the done */
		return -ETIMEDOUT;
	}
	scsi_sense_decode(cmd->sc_sense, cmd->sc_sense_len, ss);
	return scsi_cmd_errno(cmd, ss);
}

/* Bytes of sd_buf the last command filled. */
static u32 sd_got(const struct sd_disk *sd)
{
	const struct scsi_cmnd *cmd = &sd->sd_cmd;

	return cmd->sc_resid < cmd->sc_len ? cmd->sc_len - cmd->sc_resid : 0;
}

/* TEST UNIT READY until the unit says ready; UNIT ATTENTION and "becoming ready" retried. */
static int sd_wait_ready(struct sd_disk *sd)
{
	struct scsi_sense_hdr ss;
	char line[96];
	u32 i;
	int ret = -EIO;

	for (i = 0; i < SD_TUR_TRIES; i++) {
		scsi_build_tur(&sd->sd_cmd);
		ret = sd_exec(sd, &ss);
		if (ret != -EAGAIN)
			break;
		if (ss.ss_key == SCSI_SK_NOT_READY)
			mdelay(SD_TUR_WAIT_MS);
	}
	if (ret && ss.ss_response) {
		scsi_sense_str(&ss, line, sizeof(line));
		pr_warn("%s: not ready: %s\n", sd->sd_where, line);
	}
	return ret == -EAGAIN ? -EIO : ret;
}

/* READ CAPACITY (10), then (16) if needed, into sd_cap. */
static int sd_read_capacity(struct sd_disk *sd)
{
	struct scsi_sense_hdr ss;
	int ret, tries;

	for (tries = 0; tries < 3; tries++) {
		scsi_build_read_capacity10(&sd->sd_cmd);
		ret = sd_exec(sd, &ss);
		if (ret != -EAGAIN)
			break;
	}
	if (ret)
		return ret;
	ret = scsi_parse_capacity10(sd->sd_buf, sd_got(sd), &sd->sd_cap);
	if (ret || !sd->sd_cap.cap_need16)
		return ret;
	sd->sd_use16 = true;
	scsi_build_read_capacity16(&sd->sd_cmd);
	ret = sd_exec(sd, &ss);
	if (ret)
		return ret;
	return scsi_parse_capacity16(sd->sd_buf, sd_got(sd), &sd->sd_cap);
}

/* Ask the unit its identity, readiness and size.  0 or -errno (reported). */
static int sd_identify(struct sd_disk *sd)
{
	struct scsi_sense_hdr ss;
	int ret, tries;

	for (tries = 0; tries < 3; tries++) {
		scsi_build_inquiry(&sd->sd_cmd, SCSI_INQUIRY_LEN);
		ret = sd_exec(sd, &ss);
		if (ret != -EAGAIN)
			break;
	}
	if (!ret)
		ret = scsi_parse_inquiry(sd->sd_buf, sd_got(sd), &sd->sd_inq);
	if (ret) {
		pr_err("%s: INQUIRY failed (%d)\n", sd->sd_where, ret);
		return ret;
	}
	if (sd->sd_inq.iq_qualifier ||
	    (sd->sd_inq.iq_pdt != SCSI_PDT_DISK && sd->sd_inq.iq_pdt != SCSI_PDT_RBC)) {
		pr_info("%s: lun %u: device type %#x is not a disk; not attached\n",
			sd->sd_where, sd->sd_lun, sd->sd_inq.iq_pdt);
		return -ENODEV;
	}
	ret = sd_wait_ready(sd);
	if (ret)
		return ret;	/* reported */
	ret = sd_read_capacity(sd);
	if (ret) {
		pr_err("%s: READ CAPACITY failed (%d)\n", sd->sd_where, ret);
		return ret;
	}
	if (sd->sd_cap.cap_blocks > (~0ULL >> 9) / sd->sd_cap.cap_block_len) {
		pr_err("%s: capacity out of range\n", sd->sd_where);
		return -EIO;
	}
	sd->sd_lsect = sd->sd_cap.cap_block_len / 512;
	scsi_build_mode_sense6(&sd->sd_cmd, 192);
	if (!sd_exec(sd, &ss) && scsi_parse_mode_sense6_wp(sd->sd_buf, sd_got(sd)) == 1)
		sd->sd_wp = true;
	return 0;
}

static int sd_open(struct block_device *bdev, fmode_t mode)
{
	struct sd_disk *sd = bdev->bd_disk->gd_private_data;

	return sd->sd_gone ? -ENXIO : 0;
}

static int sd_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	struct sd_disk *sd = bdev->bd_disk->gd_private_data;
	u64 cyl = sd->sd_cap.cap_blocks * sd->sd_lsect / (255 * 63);

	/* What Linux's sd reports for a disk without a geometry: 255 heads, 63 sectors. */
	geo->hg_heads = 255;
	geo->hg_sectors = 63;
	geo->hg_cylinders = cyl > 0xffff ? 0xffff : (u16)cyl;
	return 0;
}

static int sd_report(struct gendisk *disk, char *buf, size_t len)
{
	struct sd_disk *sd = disk->gd_private_data;
	int n, m = 0;

	if (!len)
		return -EINVAL;
	n = snprintf(buf, len,
		     "vendor %s\nproduct %s\nrevision %s\nlun %u\n"
		     "block %u bytes, %llu blocks, cdb %s\nwrite protect %s\n"
		     "ios %llu errors %llu timeouts %llu\n",
		     sd->sd_inq.iq_vendor, sd->sd_inq.iq_product, sd->sd_inq.iq_revision,
		     sd->sd_lun, sd->sd_cap.cap_block_len,
		     (unsigned long long)sd->sd_cap.cap_blocks, sd->sd_use16 ? "16" : "10",
		     sd->sd_wp ? "on" : "off", (unsigned long long)sd->sd_ios,
		     (unsigned long long)sd->sd_errors, (unsigned long long)sd->sd_timeouts);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return (int)len - 1;
	if (sd->sd_ops->sho_report)
		m = sd->sd_ops->sho_report(sd->sd_host, buf + n, len - (size_t)n);
	return m > 0 ? n + m : n;
}

static const struct block_device_operations sd_disk_ops = {
	.bdo_open	= sd_open,
	.bdo_getgeo	= sd_getgeo,
	.bdo_report	= sd_report,
};

/* Build and add the gendisk.  0 or -errno (reported). */
static int sd_add_disk(struct sd_disk *sd)
{
	dev_t devt = disk_sd_devt((unsigned int)sd->sd_index);
	struct gendisk *disk;
	int ret;

	disk = alloc_disk(DISK_SD_MINORS);
	if (!disk)
		return -ENOMEM;
	str_copy(disk->gd_name, sd->sd_name, sizeof(disk->gd_name));
	disk->gd_major = (int)MAJOR(devt);
	disk->gd_first_minor = (int)MINOR(devt);
	snprintf(disk->gd_model, sizeof(disk->gd_model), "%s%s%s", sd->sd_inq.iq_vendor,
		 sd->sd_inq.iq_vendor[0] ? " " : "", sd->sd_inq.iq_product);
	disk->gd_fops = &sd_disk_ops;
	disk->gd_queue = sd->sd_queue;
	disk->gd_private_data = sd;
	disk->gd_flags = GENHD_FL_EXT_DEVT | (sd->sd_inq.iq_removable ? GENHD_FL_REMOVABLE : 0);
	disk->gd_logical_block_size = sd->sd_cap.cap_block_len;
	disk->gd_physical_block_size = sd->sd_cap.cap_block_len << sd->sd_cap.cap_phys_exp;
	disk->gd_alignment_offset = (sd->sd_cap.cap_lowest_aligned ?
		((1u << sd->sd_cap.cap_phys_exp) - sd->sd_cap.cap_lowest_aligned) %
		(1u << sd->sd_cap.cap_phys_exp) : 0) * sd->sd_cap.cap_block_len;
	set_capacity(disk, sd->sd_cap.cap_blocks * sd->sd_lsect);
	if (sd->sd_wp)
		set_disk_ro(disk, true);
	sd->sd_disk = disk;
	pr_info("%s: %s: %s, %llu MiB, %llu x %u-byte blocks%s%s\n", sd->sd_where, sd->sd_name,
		disk->gd_model[0] ? disk->gd_model : "(no name)",
		(unsigned long long)(sd->sd_cap.cap_blocks * sd->sd_cap.cap_block_len >> 20),
		(unsigned long long)sd->sd_cap.cap_blocks, sd->sd_cap.cap_block_len,
		sd->sd_inq.iq_removable ? ", removable" : "", sd->sd_wp ? ", write protected" : "");
	ret = add_disk(disk);
	if (ret) {
		sd->sd_disk = NULL;
		put_disk(disk);
	}
	return ret;
}

int sd_probe(const struct scsi_host_ops *ops, void *host, const struct scsi_host_limits *lim,
	     u8 lun, const char *where, struct sd_disk **out)
{
	struct sd_disk *sd;
	int ret;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	spin_lock_init(&sd->sd_lock, "sd_lock");
	sd->sd_ops = ops;
	sd->sd_host = host;
	sd->sd_lim = *lim;
	sd->sd_lun = lun;
	sd->sd_index = -1;
	str_copy(sd->sd_where, where, sizeof(sd->sd_where));
	if (!sd->sd_lim.shl_max_segments || sd->sd_lim.shl_max_sectors < 8) {
		ret = -EINVAL;
		goto free_sd;
	}
	sd->sd_buf = get_free_pages(GFP_KERNEL, 0);	/* lowmem: DMA-reachable */
	if (!sd->sd_buf) {
		ret = -ENOMEM;
		goto free_sd;
	}
	sd->sd_buf_sg.sg_addr = __pa(sd->sd_buf);
	ret = sd_identify(sd);
	if (ret)
		goto free_buf;		/* reported */
	ret = disk_sd_get(sd->sd_name, sizeof(sd->sd_name));
	if (ret < 0)
		goto free_buf;
	sd->sd_index = ret;
	ret = sd_setup_queue(sd);
	if (ret)
		goto put_name;
	ret = sd_add_disk(sd);
	if (ret)
		goto cleanup_queue;
	*out = sd;
	return 0;

cleanup_queue:
	blk_cleanup_queue(sd->sd_queue);
	kfree(sd->sd_sg);
put_name:
	disk_sd_put((unsigned int)sd->sd_index);
free_buf:
	free_pages(sd->sd_buf, 0);
free_sd:
	if (ret != -ENODEV)
		pr_err("%s: lun %u: no disk (%d)\n", where, lun, ret);
	kfree(sd);
	return ret;
}

void sd_remove(struct sd_disk *sd)
{
	struct gendisk *disk = sd->sd_disk;
	unsigned long flags;
	bool held;

	pr_info("%s: %s: device gone\n", sd->sd_where, sd->sd_name);
	sd_io_kill(sd);
	del_gendisk(disk);
	disk_sd_put((unsigned int)sd->sd_index);
	/*
	 * Whoever still has the disk open (a mount, a running stress) holds
	 * the gendisk and may still reach its queue: the queue is marked dead
	 * (new bios fail -ENODEV at submit, queued ones in sd_request_fn) and
	 * kept, with sd, whose lock it uses.  Only an unused disk is freed.
	 */
	spin_lock_irqsave(&sd->sd_lock, flags);
	sd->sd_queue->q_flags |= QUEUE_FLAG_DEAD;
	spin_unlock_irqrestore(&sd->sd_lock, flags);
	held = disk->gd_refs > 1;	/* [r], read unlocked: one CPU, and only we drop ours */
	put_disk(disk);
	if (held) {
		pr_warn("%s: still open: its queue is kept until reboot\n", sd->sd_name);
		return;
	}
	blk_cleanup_queue(sd->sd_queue);
	kfree(sd->sd_sg);
	free_pages(sd->sd_buf, 0);
	kfree(sd);
}

struct gendisk *sd_gendisk(struct sd_disk *sd)
{
	return sd ? sd->sd_disk : NULL;
}
