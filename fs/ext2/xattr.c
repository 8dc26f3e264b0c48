/*
 * In-inode extended attributes, read only, as far as inline data needs
 * them (ext4 wiki "Extended Attributes", "Inode Extended Attributes").
 *
 * A large inode's slot continues after the 128-byte base inode and its
 * i_extra_isize bytes of extra fields with the attribute area: a le32
 * magic (EXT4_XATTR_MAGIC), then entries (struct ext4_xattr_entry, each
 * padded to 4 bytes) up to a zero word; each entry's value lies at
 * e_value_offs from the first entry.  Everything is checked against the
 * slot before use: the area inside the slot, each entry and its name
 * inside the area, values inside it, the walk capped by the area's size.
 * Values kept in other inodes (ea_inode) are not supported.
 */
#include "fs/ext2/ext2.h"
#include "fs/ext2/htree_fs.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

static int ext2_xattr_bad(struct ext2_inode_info *ei, const char *why)
{
	ext2_error(ei->ei_fs, "xattr", "inode %u: in-inode attributes: %s", ei->ei_ino, why);
	return -EUCLEAN;
}

/**
 * ext2_xattr_ibody_get - find attribute @index:@name in the in-inode area
 * @ei: the inode (for reports)
 * @slot: its whole on-disk slot, fs_inode_size bytes
 * @value: set to the value inside @slot
 * Returns the value's size, -ENODATA when the inode has no such attribute
 * (or no attribute area), -EUCLEAN when the area is malformed (reported).
 */
int ext2_xattr_ibody_get(struct ext2_inode_info *ei, const u8 *slot, u8 index,
			 const char *name, const u8 **value)
{
	struct ext2_fs *fs = ei->ei_fs;
	const struct ext2_inode *raw = (const struct ext2_inode *)slot;
	u32 extra, start, size, off, nlen = (u32)strlen(name);
	const u8 *area;

	if (fs->fs_inode_size <= EXT2_GOOD_OLD_INODE_SIZE)
		return -ENODATA;
	extra = le16_to_cpu(raw->i_extra_isize);
	if (extra % 4 || EXT2_GOOD_OLD_INODE_SIZE + extra > fs->fs_inode_size)
		return ext2_xattr_bad(ei, "i_extra_isize out of range");
	start = EXT2_GOOD_OLD_INODE_SIZE + extra;
	if (start + 2 * sizeof(le32) > fs->fs_inode_size ||
	    le32_to_cpu(*(const le32 *)(slot + start)) != EXT4_XATTR_MAGIC)
		return -ENODATA;
	area = slot + start + sizeof(le32);	/* the first entry; values count from here */
	size = fs->fs_inode_size - start - (u32)sizeof(le32);
	for (off = 0; off + sizeof(le32) <= size && *(const le32 *)(area + off);) {
		const struct ext4_xattr_entry *e = (const struct ext4_xattr_entry *)(area + off);
		u32 voff, vsize, len;

		if (off + sizeof(*e) > size)
			return ext2_xattr_bad(ei, "entry crosses the end of the inode");
		len = EXT4_XATTR_LEN(e->e_name_len);
		if (off + len > size)
			return ext2_xattr_bad(ei, "name crosses the end of the inode");
		voff = le16_to_cpu(e->e_value_offs);
		vsize = le32_to_cpu(e->e_value_size);
		if (le32_to_cpu(e->e_value_inum))
			return ext2_xattr_bad(ei, "value in an inode (ea_inode)");
		if (vsize && (voff < off + len || voff > size || vsize > size - voff))
			return ext2_xattr_bad(ei, "value outside the attribute area");
		if (e->e_name_index == index && e->e_name_len == nlen &&
		    !memcmp(e->e_name, name, nlen)) {
			*value = area + voff;
			return (int)vsize;
		}
		off += len;
	}
	return -ENODATA;
}
