/*
 * JBD2 on-disk format: the journal superblock, the block header every
 * journal metadata block starts with, descriptor blocks and their tags,
 * commit blocks and revoke blocks.  Layouts only, no code.  Every field
 * is big-endian (the journal's byte order, unlike ext2's).
 *
 * Source: the ext4 wiki, "Ext4 Disk Layout", section "Journal (jbd2)"
 * (subsections "Layout", "Block Header", "Super Block", "Descriptor
 * Block", "Data Block", "Revocation Block", "Commit Block").
 *
 * The log: blocks [s_first, s_maxlen) of the journal (inode 8's blocks,
 * logical numbering) form a ring.  A transaction is one or more
 * descriptor blocks, each followed by the data blocks its tags name (the
 * copies to write home), optional revoke blocks, then a commit block; all
 * of them carry the transaction's sequence number in their header.  A
 * data block whose first four bytes equal the magic is stored with them
 * zeroed and its tag flagged ESCAPE.  s_start == 0 means the log is empty
 * (clean); otherwise recovery begins at s_start with sequence s_sequence.
 */
#ifndef FS_JBD2_JBD2_FS_H
#define FS_JBD2_JBD2_FS_H

#include "kernel/compiler.h"
#include "lib/byteorder.h"

#define JBD2_MAGIC_NUMBER	0xC03B3998u

/* h_blocktype ("Block Header") */
#define JBD2_DESCRIPTOR_BLOCK	1
#define JBD2_COMMIT_BLOCK	2
#define JBD2_SUPERBLOCK_V1	3
#define JBD2_SUPERBLOCK_V2	4
#define JBD2_REVOKE_BLOCK	5

/* Every journal metadata block begins with this (12 bytes). */
struct jbd2_header {
	be32	h_magic;
	be32	h_blocktype;
	be32	h_sequence;		/* transaction id */
};
_Static_assert(sizeof(struct jbd2_header) == 12, "jbd2_header");

/* Journal superblock ("Super Block"): block 0 of the journal, 1024 bytes used. */
struct jbd2_superblock {
	struct jbd2_header s_header;
	be32	s_blocksize;		/* must equal the filesystem's */
	be32	s_maxlen;		/* blocks in the journal */
	be32	s_first;		/* first block of the log */
	be32	s_sequence;		/* first transaction expected in the log */
	be32	s_start;		/* block of that transaction; 0: log empty */
	be32	s_errno;
	be32	s_feature_compat;
#define JBD2_FEATURE_COMPAT_CHECKSUM		0x1	/* v1 checksums in commit blocks */
	be32	s_feature_incompat;
#define JBD2_FEATURE_INCOMPAT_REVOKE		0x1
#define JBD2_FEATURE_INCOMPAT_64BIT		0x2
#define JBD2_FEATURE_INCOMPAT_ASYNC_COMMIT	0x4
#define JBD2_FEATURE_INCOMPAT_CSUM_V2		0x8
#define JBD2_FEATURE_INCOMPAT_CSUM_V3		0x10
#define JBD2_FEATURE_INCOMPAT_FAST_COMMIT	0x20
	be32	s_feature_ro_compat;
	u8	s_uuid[16];
	be32	s_nr_users;
	be32	s_dynsuper;
	be32	s_max_transaction;
	be32	s_max_trans_data;
	u8	s_checksum_type;
#define JBD2_CRC32C_CHKSUM	4
	u8	s_padding2[3];
	be32	s_num_fc_blks;
	be32	s_head;
	be32	s_padding[40];
	be32	s_checksum;		/* crc32c of this struct with this field 0 */
	u8	s_users[16 * 48];
};
_Static_assert(sizeof(struct jbd2_superblock) == 1024, "jbd2_superblock");
_Static_assert(offsetof(struct jbd2_superblock, s_uuid) == 0x30, "s_uuid");
_Static_assert(offsetof(struct jbd2_superblock, s_checksum_type) == 0x50, "s_checksum_type");
_Static_assert(offsetof(struct jbd2_superblock, s_checksum) == 0xFC, "s_checksum");

/* Tag flags ("Descriptor Block") */
#define JBD2_FLAG_ESCAPE	0x1	/* first 4 bytes of the copy were the magic */
#define JBD2_FLAG_SAME_UUID	0x2	/* no 16-byte UUID follows this tag */
#define JBD2_FLAG_DELETED	0x4
#define JBD2_FLAG_LAST_TAG	0x8	/* last tag of the descriptor */

/* A tag with csum_v3: 16 bytes. */
struct jbd2_tag3 {
	be32	t_blocknr;
	be32	t_flags;
	be32	t_blocknr_high;		/* 64bit only, else 0 */
	be32	t_checksum;		/* crc32c(seed, seq, block) */
};
_Static_assert(sizeof(struct jbd2_tag3) == 16, "jbd2_tag3");

/*
 * A tag without csum_v3: 8 bytes, +4 (t_blocknr_high) with 64bit, +2 more
 * with csum_v2 (the tag then ends with 2 bytes of padding).
 */
struct jbd2_tag {
	be32	t_blocknr;
	be16	t_checksum;		/* csum_v2: low 16 bits of the crc32c */
	be16	t_flags;
	be32	t_blocknr_high;
};
_Static_assert(sizeof(struct jbd2_tag) == 12, "jbd2_tag");

/* The last 4 bytes of descriptor and revoke blocks with csum_v2/v3. */
struct jbd2_block_tail {
	be32	t_checksum;
};
_Static_assert(sizeof(struct jbd2_block_tail) == 4, "jbd2_block_tail");

/* Revoke block ("Revocation Block"): the header, then block numbers. */
struct jbd2_revoke_header {
	struct jbd2_header r_header;
	be32	r_count;		/* bytes used in this block, header included */
};
_Static_assert(sizeof(struct jbd2_revoke_header) == 16, "jbd2_revoke_header");

/* Commit block ("Commit Block"). */
struct jbd2_commit_header {
	struct jbd2_header h_header;
	u8	h_chksum_type;
	u8	h_chksum_size;
	u8	h_padding[2];
	be32	h_chksum[8];		/* csum_v2/v3: h_chksum[0] is the block's crc32c */
	be32	h_commit_sec[2];	/* be64 seconds, as two halves: high, low */
	be32	h_commit_nsec;
};
_Static_assert(sizeof(struct jbd2_commit_header) == 60, "jbd2_commit_header");
_Static_assert(offsetof(struct jbd2_commit_header, h_chksum) == 16, "h_chksum");

#define JBD2_UUID_BYTES		16

#endif
