/*
 * Shell commands over the gendisk registry (block layer, kernel only):
 *
 *	lsblk [DEV]	every disk and partition: NAME, MAJ:MIN, SIZE (human and
 *			512-byte sectors), RO, TYPE (disk/part), and the disk
 *			model or the partition name
 *	blkid [DEV]	PTTYPE/PTUUID of disks; PARTUUID, partition type name,
 *			and what a filesystem probe (bdev_register_fs_probe)
 *			says: TYPE, UUID, LABEL
 *	part DEV	the raw partition table of a disk: scheme, disk id, and
 *			each entry's start, end, size, type and flags
 *	diskinfo DEV	what the block layer knows of a disk or partition (size,
 *			block sizes, read-only, CHS geometry) and what its
 *			driver reports (bdev_report), one "key value" a line
 *	rereadpt DISK	scan a disk's partition table again
 *
 * Output goes to the consoles (kprintf), not the log.  The formats are
 * stable: tests compare them with sfdisk and sgdisk.
 * Sizes print like lsblk: binary units, one decimal unless exact.
 */
#include "block/bdev.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "kernel/console.h"
#include "kernel/shell.h"
#include "lib/string.h"

/* "400M", "1.5G", "3T", "512B" for a size in bytes. */
static void blk_human_size(u64 bytes, char *buf, size_t size)
{
	static const char units[] = "BKMGTPE";
	unsigned int u = 0;
	u64 unit = 1, whole, tenths;

	while (u + 1 < sizeof(units) - 1 && bytes / unit >= 1024) {
		unit <<= 10;
		u++;
	}
	whole = bytes / unit;
	/* rounded to the nearest tenth, computed without overflow */
	tenths = ((bytes % unit) * 10 + unit / 2) / unit;
	if (tenths == 10) {
		whole++;
		tenths = 0;
	}
	if (tenths)
		snprintf(buf, size, "%llu.%llu%c", (unsigned long long)whole,
			 (unsigned long long)tenths, units[u]);
	else
		snprintf(buf, size, "%llu%c", (unsigned long long)whole, units[u]);
}

/* The device named by argv[1], referenced, or NULL with a message. */
static struct block_device *blk_arg_dev(const char *cmd, const char *spec)
{
	struct block_device *bdev = bdev_lookup(spec);

	if (!bdev)
		kprintf("%s: %s: no such block device\n", cmd, spec);
	return bdev;
}

/*
 * Run line() on the device named spec, or on every device in bdev_next order
 * when spec is NULL, after header() if there is one.  Returns 0, or
 * -ECANCELED for an unknown name (said on the console before any header).
 */
static int blk_each_dev(const char *cmd, const char *spec, void (*header)(void),
			void (*line)(struct block_device *b))
{
	struct block_device *b;

	if (spec) {
		b = blk_arg_dev(cmd, spec);
		if (!b)
			return -ECANCELED;
		if (header)
			header();
		line(b);
		bdev_put(b);
		return 0;
	}
	if (header)
		header();
	for (b = bdev_next(NULL); b; b = bdev_next(b))
		line(b);
	return 0;
}

static void lsblk_header(void)
{
	kprintf("%-10s %9s %7s %12s %2s %-4s %s\n", "NAME", "MAJ:MIN", "SIZE", "SECTORS", "RO",
	       "TYPE", "MODEL/NAME");
}

static void lsblk_line(struct block_device *b)
{
	char size[16], mm[16];
	sector_t n = bdev_nr_sects(b);
	const char *what;

	blk_human_size(n << SECTOR_SHIFT, size, sizeof(size));
	snprintf(mm, sizeof(mm), "%u:%u", MAJOR(b->bd_dev), MINOR(b->bd_dev));
	what = b->bd_partno ? b->bd_part.pe_name : b->bd_disk->gd_model;
	kprintf("%-10s %9s %7s %12llu %2d %s%s%s\n", b->bd_name, mm, size,
	       (unsigned long long)n, bdev_read_only(b) ? 1 : 0,
	       b->bd_partno ? "part" : "disk", what[0] ? " " : "", what);
}

static int cmd_lsblk(int argc, char **argv)
{
	if (argc > 2)
		return -EINVAL;
	return blk_each_dev("lsblk", argc == 2 ? argv[1] : NULL, lsblk_header, lsblk_line);
}
SHELL_COMMAND("lsblk", cmd_lsblk, "lsblk [DEV]", "list disks and partitions");

static void blkid_line(struct block_device *b)
{
	struct bdev_fs_info fs;
	struct part_guid guid;
	enum part_scheme scheme;
	const char *tname;
	char g[PART_GUID_STR_LEN + 1];
	u32 nr, sig;

	kprintf("%s:", b->bd_name);
	if (b->bd_partno == 0) {
		scheme = disk_copy_table(b->bd_disk, NULL, 0, &nr, &sig, &guid);
		if (scheme == PART_SCHEME_GPT) {
			part_guid_format(&guid, g);
			kprintf(" PTUUID=\"%s\" PTTYPE=\"gpt\"", g);
		} else if (scheme == PART_SCHEME_DOS) {
			kprintf(" PTUUID=\"%08x\" PTTYPE=\"dos\"", sig);
		}
	} else {
		kprintf(" PARTUUID=\"%s\"", b->bd_partuuid);
		if (b->bd_part.pe_sys_ind) {
			tname = part_dos_type_name(b->bd_part.pe_sys_ind);
			kprintf(" PART_TYPE=\"0x%02x\"", b->bd_part.pe_sys_ind);
		} else {
			tname = part_gpt_type_name(&b->bd_part.pe_type);
			part_guid_format(&b->bd_part.pe_type, g);
			kprintf(" PART_TYPE=\"%s\"", g);
		}
		if (tname)
			kprintf(" PART_TYPE_NAME=\"%s\"", tname);
		if (b->bd_part.pe_name[0])
			kprintf(" PARTLABEL=\"%s\"", b->bd_part.pe_name);
	}
	if (bdev_probe_fs(b, &fs) == 1) {
		kprintf(" TYPE=\"%s\"", fs.fi_type);
		if (fs.fi_uuid[0])
			kprintf(" UUID=\"%s\"", fs.fi_uuid);
		if (fs.fi_label[0])
			kprintf(" LABEL=\"%s\"", fs.fi_label);
	}
	kprintf("\n");
}

static int cmd_blkid(int argc, char **argv)
{
	if (argc > 2)
		return -EINVAL;
	return blk_each_dev("blkid", argc == 2 ? argv[1] : NULL, NULL, blkid_line);
}
SHELL_COMMAND("blkid", cmd_blkid, "blkid [DEV]",
	      "partition UUIDs and types, and filesystem type, UUID and label");

static void part_entry_line(enum part_scheme scheme, const struct part_entry *pe)
{
	char type[PART_GUID_STR_LEN + 1], flags[24] = "";
	const char *tname;

	if (scheme == PART_SCHEME_GPT) {
		part_guid_format(&pe->pe_type, type);
		tname = part_gpt_type_name(&pe->pe_type);
	} else {
		snprintf(type, sizeof(type), "%02x", pe->pe_sys_ind);
		tname = part_dos_type_name(pe->pe_sys_ind);
	}
	if (pe->pe_flags & PART_F_BOOTABLE)
		str_copy(flags, "boot", sizeof(flags));
	if (pe->pe_flags & PART_F_EXTENDED)
		str_copy(flags, "extended", sizeof(flags));
	if (pe->pe_flags & PART_F_LOGICAL)
		str_copy(flags, "logical", sizeof(flags));
	if (scheme == PART_SCHEME_GPT && pe->pe_attrs)
		snprintf(flags, sizeof(flags), "attrs=%llx", (unsigned long long)pe->pe_attrs);
	kprintf("%3u %12llu %12llu %12llu %s (%s)%s%s%s%s%s\n", pe->pe_partno,
	       (unsigned long long)pe->pe_start,
	       (unsigned long long)(pe->pe_start + pe->pe_nr_sects - 1),
	       (unsigned long long)pe->pe_nr_sects, type, tname ? tname : "unknown",
	       flags[0] ? " " : "", flags,
	       pe->pe_name[0] ? " \"" : "", pe->pe_name, pe->pe_name[0] ? "\"" : "");
}

static int cmd_part(int argc, char **argv)
{
	struct block_device *b;
	struct part_entry *tab = NULL;
	struct part_guid guid;
	enum part_scheme scheme;
	char g[PART_GUID_STR_LEN + 1];
	u32 nr, sig, i, max;
	int ret = 0;

	if (argc != 2)
		return -EINVAL;
	b = blk_arg_dev("part", argv[1]);
	if (!b)
		return -ECANCELED;
	if (b->bd_partno) {
		kprintf("part: %s is a partition; name its disk\n", b->bd_name);
		ret = -ECANCELED;
		goto put;
	}
	max = disk_max_parts(b->bd_disk) - 1;
	if (max) {
		tab = kcalloc(max, sizeof(*tab), GFP_KERNEL);
		if (!tab) {
			ret = -ENOMEM;
			goto put;
		}
	}
	scheme = disk_copy_table(b->bd_disk, tab, max, &nr, &sig, &guid);
	if (scheme == PART_SCHEME_GPT)
		part_guid_format(&guid, g);
	else
		snprintf(g, sizeof(g), "0x%08x", sig);
	kprintf("%s: scheme %s, disk id %s, %u entries, sectors of 512 bytes\n", b->bd_name,
	       part_scheme_names[scheme], scheme == PART_SCHEME_NONE ? "-" : g, nr);
	if (nr)
		kprintf("%3s %12s %12s %12s %s\n", "NR", "START", "END", "SECTORS", "TYPE FLAGS NAME");
	for (i = 0; i < nr; i++)
		part_entry_line(scheme, &tab[i]);
	kfree(tab);
put:
	bdev_put(b);
	return ret;
}
SHELL_COMMAND("part", cmd_part, "part DEV", "show the raw partition table of a disk");

#define DISKINFO_REPORT_MAX	1024	/* bytes of driver report shown */

static int cmd_diskinfo(int argc, char **argv)
{
	struct block_device *b;
	struct gendisk *disk;
	struct hd_geometry geo;
	char *report;
	char size[16];
	u32 lbs;
	int n;

	if (argc != 2)
		return -EINVAL;
	b = blk_arg_dev("diskinfo", argv[1]);
	if (!b)
		return -ECANCELED;
	disk = b->bd_disk;
	blk_human_size(bdev_nr_sects(b) << SECTOR_SHIFT, size, sizeof(size));
	kprintf("name %s\n", b->bd_name);
	if (b->bd_partno)
		kprintf("disk %s partition %u start %llu\n", disk->gd_name, b->bd_partno,
			(unsigned long long)b->bd_start);
	kprintf("model %s\n", disk->gd_model[0] ? disk->gd_model : "-");
	kprintf("size %s sectors %llu\n", size, (unsigned long long)bdev_nr_sects(b));
	lbs = disk->gd_logical_block_size ? disk->gd_logical_block_size : SECTOR_SIZE;
	kprintf("logical block %u physical block %u\n", lbs,
		disk->gd_physical_block_size ? disk->gd_physical_block_size : lbs);
	kprintf("read-only %s\n", bdev_read_only(b) ? "yes" : "no");
	if (bdev_ioctl(b, FMODE_READ, HDIO_GETGEO, (unsigned long)&geo) == 0)
		kprintf("geometry %u/%u/%u (C/H/S)\n", geo.hg_cylinders, geo.hg_heads,
			geo.hg_sectors);
	report = kmalloc(DISKINFO_REPORT_MAX, GFP_KERNEL);
	if (!report) {
		bdev_put(b);
		return -ENOMEM;
	}
	n = bdev_report(b, report, DISKINFO_REPORT_MAX);
	if (n > 0)
		kprintf("%s", report);
	else if (n == -ENOTTY)
		kprintf("driver report: none (%s)\n", disk->gd_fops ? "not given" : "memory disk");
	else
		kprintf("driver report: error %d\n", n);
	kfree(report);
	bdev_put(b);
	return 0;
}
SHELL_COMMAND("diskinfo", cmd_diskinfo, "diskinfo DEV",
	      "a disk's sizes, geometry and its driver's report (link, queue, cache, mode)");

static int cmd_rereadpt(int argc, char **argv)
{
	struct block_device *b;
	int ret;

	if (argc != 2)
		return -EINVAL;
	b = blk_arg_dev("rereadpt", argv[1]);
	if (!b)
		return -ECANCELED;
	ret = bdev_ioctl(b, FMODE_READ, BLKRRPART, 0);
	bdev_put(b);
	return ret;
}
SHELL_COMMAND("rereadpt", cmd_rereadpt, "rereadpt DISK",
	      "read a disk's partition table again (fails while a partition is open)");
