/* libFuzzer target: the dos (MBR/EBR) parser, block/partitions/msdos.c. */
#include "tests/fuzz/fuzz_disk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_disk_run(data, size, &part_format_msdos);
}
