/*
 * parttool: the kernel's partition parsers (block/partitions/) built on
 * the host, run over a disk image file.  It prints what the parsers found
 * in a stable, tab-separated form that tests/host/partitions.sh compares
 * with sfdisk's view of the same image:
 *
 *	scheme	gpt|dos|none
 *	id	DISK-GUID | 0xSSSSSSSS
 *	part	N  START  SIZE  TYPE  PARTUUID  ATTRS  FLAGS  NAME
 *	warnings	N
 *
 * START and SIZE are 512-byte sectors, TYPE a GUID or two hex digits,
 * ATTRS hex, FLAGS a comma list of boot/ext/logical or "-".  Warnings go
 * to stderr as the kernel would log them.
 *
 * usage: parttool [-b BLOCK_SIZE] [-l LIMIT] IMAGE
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "block/partitions/check.h"
#include "tests/unit/host/shim.h"

struct img {
	int		fd;
	u32		bs;
};

static int img_read(void *ctx, u64 lba, void *buf)
{
	struct img *im = ctx;
	ssize_t n = pread(im->fd, buf, im->bs, (off_t)(lba * im->bs));

	return n == (ssize_t)im->bs ? 0 : -EIO;
}

int main(int argc, char **argv)
{
	struct parsed_partitions pp;
	struct part_entry *entries;
	struct img im = { -1, 512 };
	char guid[PART_GUID_STR_LEN + 1];
	u32 limit = 255, i;
	struct stat st;
	int c, ret;

	while ((c = getopt(argc, argv, "b:l:")) != -1) {
		if (c == 'b')
			im.bs = (u32)strtoul(optarg, NULL, 0);
		else if (c == 'l')
			limit = (u32)strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind + 1 != argc || (im.bs != 512 && im.bs != 4096) || limit == 0) {
		fprintf(stderr, "usage: parttool [-b 512|4096] [-l LIMIT] IMAGE\n");
		return 2;
	}
	im.fd = open(argv[optind], O_RDONLY);
	if (im.fd < 0 || fstat(im.fd, &st) < 0) {
		perror(argv[optind]);
		return 2;
	}
	host_printk_quiet = false;
	entries = calloc(limit, sizeof(*entries));
	memset(&pp, 0, sizeof(pp));
	pp.pp_name = "img";
	pp.pp_block_size = im.bs;
	pp.pp_nr_blocks = (u64)st.st_size / im.bs;
	pp.pp_read = img_read;
	pp.pp_ctx = &im;
	pp.pp_buf = malloc(im.bs);
	pp.pp_entries = entries;
	pp.pp_limit = limit;

	ret = part_scan(&pp);
	if (ret < 0) {
		fprintf(stderr, "parttool: scan failed: %d\n", ret);
		return 1;
	}
	printf("scheme\t%s\n", part_scheme_names[pp.pp_scheme]);
	if (pp.pp_scheme == PART_SCHEME_GPT) {
		part_guid_format(&pp.pp_disk_guid, guid);
		printf("id\t%s\n", guid);
	} else if (pp.pp_scheme == PART_SCHEME_DOS) {
		printf("id\t0x%08x\n", pp.pp_disk_sig);
	}
	for (i = 0; i < pp.pp_nr; i++) {
		const struct part_entry *pe = &pp.pp_entries[i];
		char type[PART_GUID_STR_LEN + 1], flags[32] = "";

		if (pp.pp_scheme == PART_SCHEME_GPT)
			part_guid_format(&pe->pe_type, type);
		else
			snprintf(type, sizeof(type), "%02x", pe->pe_sys_ind);
		part_uuid_format(&pp, pe, guid);
		if (pe->pe_flags & PART_F_BOOTABLE)
			strcat(flags, ",boot");
		if (pe->pe_flags & PART_F_EXTENDED)
			strcat(flags, ",ext");
		if (pe->pe_flags & PART_F_LOGICAL)
			strcat(flags, ",logical");
		printf("part\t%u\t%llu\t%llu\t%s\t%s\t0x%llx\t%s\t%s\n", pe->pe_partno,
		       (unsigned long long)pe->pe_start, (unsigned long long)pe->pe_nr_sects,
		       type, guid, (unsigned long long)pe->pe_attrs,
		       flags[0] ? flags + 1 : "-", pe->pe_name);
	}
	printf("warnings\t%u\n", pp.pp_warnings);
	free(pp.pp_buf);
	free(entries);
	close(im.fd);
	return 0;
}
