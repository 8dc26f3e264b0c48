#!/usr/bin/env bash
# The one image (build/kernel.iso, its own GRUB menu) boots to the shell:
# under 64-bit OVMF on q35 as a USB stick on xHCI and as a CD, under
# 32-bit OVMF as a CD, and under SeaBIOS on pc and q35 as stick and CD.
# Under OVMF the self-tests pass too.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/uefi-lib.bash"

prompt='Type help for the list of commands'
iso=build/kernel.iso
if [ -f $iso ] && xorriso -indev $iso -find /efi.img 2>/dev/null | grep -q efi.img; then
	ok "image/has-efi-boot-image"
else
	notok "image/has-efi-boot-image" "no /efi.img in $iso (grub-efi-amd64-bin missing?)"
fi

for medium in usb cd; do
	opt=$([ $medium = usb ] && echo --usb)
	boot_until uefi-image-ovmf-$medium "$prompt" 120 --iso $opt --firmware uefi --machine q35
	expect_rc "image/ovmf/q35/$medium/shell" 0
	expect_out "image/ovmf/q35/$medium/efi64" 'boot: multiboot2, firmware efi64'
	for m in pc q35; do
		boot_until uefi-image-seabios-$m-$medium "$prompt" 60 --iso $opt --machine $m
		expect_rc "image/seabios/$m/$medium/shell" 0
		expect_out "image/seabios/$m/$medium/multiboot2" 'boot: multiboot2, firmware bios'
	done
done

boot_until uefi-image-ovmf32-cd "$prompt" 120 --iso --firmware uefi32 --machine q35
expect_rc "image/ovmf32/q35/cd/shell" 0
expect_out "image/ovmf32/q35/cd/efi32" 'boot: multiboot2, firmware efi32'

boot uefi-image-selftest --iso --mb2 --firmware uefi --machine q35 --timeout 300 \
	--cmdline 'selftest=kernel/*'
expect_rc "image/ovmf/selftests" 0
expect_out "image/ovmf/selftests-summary" '^selftest: [1-9][0-9]* passed, 0 failed'
