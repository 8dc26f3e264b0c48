/*
 * The gendisk registry (block layer): majors, the list of added disks,
 * partition scanning at add_disk and on request, and the writable= policy.
 * Block devices themselves live in bdev.c.  Contract: block/genhd.h.
 *
 * Scanning reads the disk like any other user of it, with blkdev_pread()
 * on the whole-disk block_device (gd_part0, which add_disk creates before
 * it scans), into a fresh table and fresh partition devices built without
 * the lock; only the swap of old for new happens under it, and only while
 * no partition of the disk is open.
 *
 * The extended container of a dos table gets a device that covers just its
 * first logical block, as in Linux: enough to read the EBR, too little to
 * overwrite the logical partitions inside it by accident.
 *
 * Locking: genhd_lock (genhd_priv.h), taken with interrupts off, never
 * held across I/O or a driver hook.
 */
#include "block/genhd_priv.h"
#include "block/blkdev_io.h"
#include "kernel/errno.h"
#include "kernel/mm/page.h"
#include "kernel/mm/slab.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "lib/bitmap.h"
#include "lib/string.h"

spinlock_t genhd_lock = SPINLOCK_INIT("genhd_lock");
LIST_HEAD(genhd_disks);

static const char *genhd_major_names[BLKDEV_MAJOR_MAX];	/* [r] */

#define GENHD_EXT_MINORS	4096	/* partitions numbered past their disk's minors */
static u32 genhd_ext_used[BITMAP_WORDS(GENHD_EXT_MINORS)];	/* [r] bitmap of BLOCK_EXT_MAJOR minors */

/* Every disk is read-only unless named here: see genhd_writable_allowed(). */
static const char *genhd_writable_list;
PARAM_STR("writable", genhd_writable_list,
	  "disks (or partitions) that may be written: writable=sdb,hda or writable=all");

/* -- majors -- */

int register_blkdev(unsigned int major, const char *name)
{
	unsigned long flags;
	int ret = -EBUSY;

	if (major >= BLKDEV_MAJOR_MAX || !name)
		return -EINVAL;
	spin_lock_irqsave(&genhd_lock, flags);
	if (major == 0) {
		for (major = BLKDEV_DYNAMIC_FIRST; major >= BLKDEV_DYNAMIC_LAST; major--)
			if (!genhd_major_names[major])
				break;
		if (major < BLKDEV_DYNAMIC_LAST)
			goto unlock;
	}
	if (genhd_major_names[major])
		goto unlock;
	genhd_major_names[major] = name;
	ret = (int)major;
unlock:
	spin_unlock_irqrestore(&genhd_lock, flags);
	if (ret < 0)
		pr_warn("register_blkdev: no major for %s\n", name);
	return ret;
}

int unregister_blkdev(unsigned int major, const char *name)
{
	unsigned long flags;
	int ret = -EINVAL;

	if (major == 0 || major >= BLKDEV_MAJOR_MAX)
		return -EINVAL;
	spin_lock_irqsave(&genhd_lock, flags);
	if (genhd_major_names[major] && !strcmp(genhd_major_names[major], name)) {
		genhd_major_names[major] = NULL;
		ret = 0;
	}
	spin_unlock_irqrestore(&genhd_lock, flags);
	return ret;
}

int genhd_ext_minor_alloc(void)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&genhd_lock, flags);
	ret = bitmap_take_lowest(genhd_ext_used, GENHD_EXT_MINORS);
	spin_unlock_irqrestore(&genhd_lock, flags);
	if (ret < 0) {
		pr_warn("genhd: all %u device numbers of major %u in use\n", GENHD_EXT_MINORS,
			BLOCK_EXT_MAJOR);
		return -ENOSPC;
	}
	return ret;
}

void __genhd_ext_minor_free(unsigned int minor)
{
	assert_spin_locked(&genhd_lock);
	KASSERT(minor < GENHD_EXT_MINORS && bitmap_test(genhd_ext_used, minor));
	bitmap_clear(genhd_ext_used, minor);
}

/* -- names and policy -- */

int disk_name_letters(char *buf, size_t size, const char *prefix, unsigned int index)
{
	char letters[8];
	int n = 0, i;
	size_t len = strlen(prefix);

	/* bijective base 26: a..z, aa..zz, aaa.. (sd_format_disk_name in Linux) */
	do {
		letters[n++] = (char)('a' + index % 26);
		index = index / 26;
	} while (index-- > 0 && n < (int)sizeof(letters));
	if (len + (size_t)n + 1 > size)
		return -ENAMETOOLONG;
	memcpy(buf, prefix, len);
	for (i = 0; i < n; i++)
		buf[len + i] = letters[n - 1 - i];
	buf[len + n] = '\0';
	return 0;
}

int disk_part_name(const char *disk_name, u32 partno, char *buf, size_t size)
{
	size_t len = strlen(disk_name);
	bool digit = len > 0 && disk_name[len - 1] >= '0' && disk_name[len - 1] <= '9';
	int n;

	n = snprintf(buf, size, "%s%s%u", disk_name, digit ? "p" : "", partno);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool genhd_writable_allowed(const char *list, const char *name)
{
	size_t n = strlen(name), len;
	const char *p = list, *end;

	if (!list || n == 0)
		return false;
	while (*p) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if ((len == 3 && !strncmp(p, "all", 3)) || (len == n && !strncmp(p, name, n)))
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

const char *genhd_writable_get(void)
{
	return genhd_writable_list;
}

/* -- disks -- */

struct gendisk *alloc_disk(int minors)
{
	struct gendisk *disk;

	if (minors < 1 || minors > (1 << MINORBITS))
		return NULL;
	disk = kzalloc(sizeof(*disk), GFP_KERNEL);
	if (!disk)
		return NULL;
	disk->gd_minors = minors;
	disk->gd_logical_block_size = SECTOR_SIZE;
	disk->gd_refs = 1;
	INIT_LIST_HEAD(&disk->gd_list);
	return disk;
}

u32 disk_max_parts(const struct gendisk *disk)
{
	if (disk->gd_flags & GENHD_FL_EXT_DEVT)
		return max((u32)disk->gd_minors, (u32)DISK_MAX_PARTS);
	return (u32)disk->gd_minors;
}

struct gendisk *get_disk(struct gendisk *disk)
{
	unsigned long flags;

	spin_lock_irqsave(&genhd_lock, flags);
	KASSERT(disk->gd_refs > 0);
	disk->gd_refs++;
	spin_unlock_irqrestore(&genhd_lock, flags);
	return disk;
}

void __put_disk(struct gendisk *disk)
{
	assert_spin_locked(&genhd_lock);
	KASSERT(disk->gd_refs > 0);
	if (--disk->gd_refs > 0)
		return;
	/* the last reference: every device is gone, so is the list link */
	KASSERT(list_empty(&disk->gd_list) && !disk->gd_part0);
	kfree(disk->gd_table);
	kfree(disk->gd_parts);
	kfree(disk);
}

void put_disk(struct gendisk *disk)
{
	unsigned long flags;

	if (!disk)
		return;
	spin_lock_irqsave(&genhd_lock, flags);
	__put_disk(disk);
	spin_unlock_irqrestore(&genhd_lock, flags);
}

void set_capacity(struct gendisk *disk, sector_t sectors)
{
	unsigned long flags;

	spin_lock_irqsave(&genhd_lock, flags);
	write_seqcount_begin(&disk->gd_capacity_seq);
	disk->gd_capacity = sectors;
	write_seqcount_end(&disk->gd_capacity_seq);
	spin_unlock_irqrestore(&genhd_lock, flags);
}

/* Lockless: the submit path checks every bio against it (bdev_remap). */
sector_t get_capacity(struct gendisk *disk)
{
	sector_t s;
	u32 seq;

	do {
		seq = read_seqcount_begin(&disk->gd_capacity_seq);
		s = disk->gd_capacity;
	} while (read_seqcount_retry(&disk->gd_capacity_seq, seq));
	return s;
}

/* Every published device of disk, for __bdev_update_ro.  Lock held. */
static void __disk_update_ro(struct gendisk *disk)
{
	u32 i;

	if (disk->gd_part0)
		__bdev_update_ro(disk->gd_part0);
	for (i = 1; disk->gd_parts && i < disk_max_parts(disk); i++)
		if (disk->gd_parts[i])
			__bdev_update_ro(disk->gd_parts[i]);
}

void genhd_writable_set(const char *list)
{
	struct gendisk *disk;
	unsigned long flags;

	spin_lock_irqsave(&genhd_lock, flags);
	genhd_writable_list = list;
	list_for_each_entry(disk, &genhd_disks, gd_list)
		__disk_update_ro(disk);
	spin_unlock_irqrestore(&genhd_lock, flags);
}

void set_disk_ro(struct gendisk *disk, bool ro)
{
	unsigned long flags;

	spin_lock_irqsave(&genhd_lock, flags);
	disk->gd_driver_ro = ro;
	__disk_update_ro(disk);
	spin_unlock_irqrestore(&genhd_lock, flags);
}

bool disk_is_ro(struct gendisk *disk)
{
	unsigned long flags;
	bool ro;

	spin_lock_irqsave(&genhd_lock, flags);
	ro = disk->gd_driver_ro || disk->gd_policy_ro;
	spin_unlock_irqrestore(&genhd_lock, flags);
	return ro;
}

/* -- partition scanning -- */

/*
 * The partition scan's way to the disk (pp_read): logical block lba of
 * the whole disk into buf (pp_buf, lowmem), through its queue like any
 * other read.  0 or -errno; a block past the end is -EIO.
 */
static int genhd_read_block(void *ctx, u64 lba, void *buf)
{
	struct gendisk *disk = ctx;
	u32 bs = disk->gd_logical_block_size;
	long got;

	KASSERT(disk->gd_part0);
	got = blkdev_pread(disk->gd_part0, buf, bs, lba * bs);
	if (got < 0)
		return (int)got;
	return got == (long)bs ? 0 : -EIO;
}

/* A scanned table and its partition devices, not yet published. */
struct genhd_scan {
	struct parsed_partitions gs_pp;
	struct block_device **gs_bdevs;		/* [partno] */
};

static void genhd_scan_free(struct gendisk *disk, struct genhd_scan *s)
{
	u32 i;

	if (s->gs_bdevs) {
		for (i = 1; i < disk_max_parts(disk); i++)
			if (s->gs_bdevs[i])
				bdev_free_unpublished(s->gs_bdevs[i]);
	}
	kfree(s->gs_bdevs);
	kfree(s->gs_pp.pp_entries);
	if (s->gs_pp.pp_buf)
		free_pages(s->gs_pp.pp_buf, 0);
}

/*
 * Say which partitions do not start on a physical sector of a disk whose
 * physical sectors are larger than its logical ones (512e): every write
 * to them costs the drive a read-modify-write.  fdisk warns the same way;
 * the partitions stay usable.
 */
static void genhd_check_alignment(const struct gendisk *disk, const struct parsed_partitions *pp)
{
	u32 pbs = disk->gd_physical_block_size, i;
	char name[DISK_NAME_LEN];

	if (pbs <= disk->gd_logical_block_size || !is_power_of_2(pbs))
		return;
	for (i = 0; i < pp->pp_nr; i++) {
		const struct part_entry *pe = &pp->pp_entries[i];

		if ((pe->pe_flags & PART_F_EXTENDED) ||
		    ((pe->pe_start << SECTOR_SHIFT) & (pbs - 1)) == (disk->gd_alignment_offset & (pbs - 1)))
			continue;
		if (disk_part_name(disk->gd_name, pe->pe_partno, name, sizeof(name)) < 0)
			continue;
		pr_warn("%s: starts at sector %llu, not on a %u-byte physical sector: "
			"writes to it are read-modify-write\n", name,
			(unsigned long long)pe->pe_start, pbs);
	}
}

/*
 * Read the table of disk into s and build its partition devices.
 * Returns 0 (also for "no table"), or -errno; s is then to be freed
 * with genhd_scan_free either way.  Sleeps.
 */
static int genhd_scan_read(struct gendisk *disk, struct genhd_scan *s)
{
	struct parsed_partitions *pp = &s->gs_pp;
	u32 bs = disk->gd_logical_block_size, limit = disk_max_parts(disk) - 1, i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (limit == 0 || (disk->gd_flags & GENHD_FL_NO_PART_SCAN))
		return 0;
	s->gs_bdevs = kcalloc(limit + 1, sizeof(*s->gs_bdevs), GFP_KERNEL);
	pp->pp_entries = kcalloc(limit, sizeof(*pp->pp_entries), GFP_KERNEL);
	pp->pp_buf = get_free_pages(GFP_KERNEL, 0);	/* lowmem, >= one block: blkdev_io.h */
	if (!s->gs_bdevs || !pp->pp_entries || !pp->pp_buf)
		goto nomem;
	pp->pp_name = disk->gd_name;
	pp->pp_block_size = bs;
	pp->pp_nr_blocks = min(get_capacity(disk) / (bs / SECTOR_SIZE), PART_MAX_BLOCKS);
	pp->pp_read = genhd_read_block;
	pp->pp_ctx = disk;
	pp->pp_limit = limit;

	ret = part_scan(pp);
	if (ret < 0) {
		pr_warn("%s: cannot read the partition table: %s\n", disk->gd_name, errstr(ret));
		return ret;
	}
	genhd_check_alignment(disk, pp);
	for (i = 0; i < pp->pp_nr; i++) {
		const struct part_entry *pe = &pp->pp_entries[i];

		s->gs_bdevs[pe->pe_partno] = bdev_alloc(disk, pe->pe_partno, pe, pp);
		if (!s->gs_bdevs[pe->pe_partno])
			goto nomem;
	}
	return 0;

nomem:
	pr_warn("%s: no memory to scan the partition table\n", disk->gd_name);
	return -ENOMEM;
}

/*
 * Swap the disk's partitions for those of s, unless a partition is open
 * (-EBUSY) or the disk is gone (-ENXIO).  s keeps what it did not hand
 * over, for genhd_scan_free.
 */
static int genhd_scan_install(struct gendisk *disk, struct genhd_scan *s)
{
	struct part_entry *old_table;
	unsigned long flags;
	u32 i;
	int ret = 0;

	spin_lock_irqsave(&genhd_lock, flags);
	if (disk->gd_state & GD_DEAD) {
		ret = -ENXIO;
		goto unlock;
	}
	if (disk->gd_part_openers) {
		ret = -EBUSY;
		goto unlock;
	}
	for (i = 1; i < disk_max_parts(disk); i++) {
		if (disk->gd_parts[i])
			__bdev_detach(disk->gd_parts[i]);
		KASSERT(!disk->gd_parts[i]);
		if (s->gs_bdevs) {
			disk->gd_parts[i] = s->gs_bdevs[i];
			s->gs_bdevs[i] = NULL;
			if (disk->gd_parts[i])
				__bdev_update_ro(disk->gd_parts[i]);
		}
	}
	old_table = disk->gd_table;
	disk->gd_table = s->gs_pp.pp_entries;
	disk->gd_table_nr = s->gs_pp.pp_nr;
	disk->gd_scheme = s->gs_pp.pp_scheme;
	disk->gd_disk_sig = s->gs_pp.pp_disk_sig;
	disk->gd_disk_guid = s->gs_pp.pp_disk_guid;
	s->gs_pp.pp_entries = old_table;	/* freed by genhd_scan_free */
unlock:
	spin_unlock_irqrestore(&genhd_lock, flags);
	return ret;
}

/* Scan and install; the caller holds GD_SCANNING. */
static int genhd_scan(struct gendisk *disk)
{
	struct genhd_scan s;
	int ret;

	ret = genhd_scan_read(disk, &s);
	if (ret == 0)
		ret = genhd_scan_install(disk, &s);
	genhd_scan_free(disk, &s);
	return ret;
}

static void genhd_scan_done(struct gendisk *disk)
{
	unsigned long flags;

	spin_lock_irqsave(&genhd_lock, flags);
	disk->gd_state &= ~GD_SCANNING;
	spin_unlock_irqrestore(&genhd_lock, flags);
}

int disk_rescan(struct gendisk *disk)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&genhd_lock, flags);
	if (!(disk->gd_state & GD_ADDED) || (disk->gd_state & GD_DEAD))
		ret = -ENXIO;
	else if ((disk->gd_state & GD_SCANNING) || disk->gd_part_openers)
		ret = -EBUSY;
	else
		disk->gd_state |= GD_SCANNING;
	spin_unlock_irqrestore(&genhd_lock, flags);
	if (ret)
		return ret;

	if (disk->gd_fops && disk->gd_fops->bdo_revalidate_disk)
		ret = disk->gd_fops->bdo_revalidate_disk(disk);
	if (ret == 0)
		ret = genhd_scan(disk);
	genhd_scan_done(disk);
	return ret;
}

/* Is name, or the device range of disk, already in use?  Registry lock held. */
static bool __genhd_conflict(const struct gendisk *disk)
{
	const struct gendisk *d;

	assert_spin_locked(&genhd_lock);
	list_for_each_entry(d, &genhd_disks, gd_list) {
		if (!strcmp(d->gd_name, disk->gd_name))
			return true;
		if (d->gd_major == disk->gd_major &&
		    disk->gd_first_minor < d->gd_first_minor + d->gd_minors &&
		    d->gd_first_minor < disk->gd_first_minor + disk->gd_minors)
			return true;
	}
	return false;
}

int add_disk(struct gendisk *disk)
{
	struct block_device *part0;
	unsigned long flags;
	int ret;

	if (!disk->gd_name[0] || (disk->gd_logical_block_size != 512 &&
				  disk->gd_logical_block_size != 4096) ||
	    disk->gd_state || disk->gd_first_minor < 0 ||
	    (u64)disk->gd_first_minor + (u64)disk->gd_minors > (1ULL << MINORBITS))
		return -EINVAL;
	disk->gd_parts = kcalloc(disk_max_parts(disk), sizeof(*disk->gd_parts), GFP_KERNEL);
	part0 = disk->gd_parts ? bdev_alloc(disk, 0, NULL, NULL) : NULL;
	if (!part0) {
		ret = -ENOMEM;
		goto free_parts;
	}

	spin_lock_irqsave(&genhd_lock, flags);
	if (__genhd_conflict(disk)) {
		spin_unlock_irqrestore(&genhd_lock, flags);
		ret = -EEXIST;
		goto free_part0;
	}
	disk->gd_policy_ro = !genhd_writable_allowed(genhd_writable_list, disk->gd_name);
	disk->gd_state = GD_ADDED | GD_SCANNING;
	disk->gd_part0 = part0;
	__bdev_update_ro(part0);
	list_add_tail(&disk->gd_list, &genhd_disks);
	spin_unlock_irqrestore(&genhd_lock, flags);

	/*
	 * A failed scan is not a failed add: the disk stays, without
	 * partitions, and the scan has said why (error already printed).
	 */
	(void)genhd_scan(disk);
	genhd_scan_done(disk);
	return 0;

free_part0:
	bdev_free_unpublished(part0);
free_parts:
	kfree(disk->gd_parts);
	disk->gd_parts = NULL;
	return ret;
}

int del_gendisk(struct gendisk *disk)
{
	unsigned long flags;
	u32 i;
	int ret = 0;

	spin_lock_irqsave(&genhd_lock, flags);
	if (!(disk->gd_state & GD_ADDED) || (disk->gd_state & GD_DEAD)) {
		ret = -EINVAL;
		goto unlock;
	}
	disk->gd_state |= GD_DEAD;
	list_del_init(&disk->gd_list);
	for (i = 1; i < disk_max_parts(disk); i++)
		if (disk->gd_parts[i])
			__bdev_detach(disk->gd_parts[i]);
	__bdev_detach(disk->gd_part0);
unlock:
	spin_unlock_irqrestore(&genhd_lock, flags);
	return ret;
}

enum part_scheme disk_copy_table(struct gendisk *disk, struct part_entry *out, u32 max,
				 u32 *nr, u32 *sig, struct part_guid *guid)
{
	enum part_scheme scheme;
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&genhd_lock, flags);
	n = min(max, disk->gd_table_nr);
	if (n)
		memcpy(out, disk->gd_table, n * sizeof(*out));
	*nr = n;
	*sig = disk->gd_disk_sig;
	*guid = disk->gd_disk_guid;
	scheme = disk->gd_scheme;
	spin_unlock_irqrestore(&genhd_lock, flags);
	return scheme;
}
