/*
 * drivers/usb/usb_desc.c: a real keyboard's and a SuperSpeed stick's
 * configuration parsed into interfaces and endpoints, and hostile sets:
 * zero and oversized bLength, wTotalLength past the buffer, endpoint 0,
 * duplicate endpoints, too many interfaces, alternate settings, a
 * companion with no endpoint before it; device descriptor checks;
 * paths and ep0 packet sizes.
 */
#include "tests/unit/unit.h"
#include "drivers/usb/usb_desc.h"

static struct usb_device dev;

/* QEMU's usb-kbd, configuration 1 (HID boot keyboard, one interrupt IN). */
static const u8 kbd_cfg[] = {
	9, 2, 34, 0, 1, 1, 4, 0xa0, 50,
	9, 4, 0, 0, 1, 3, 1, 1, 0,
	9, 0x21, 0x11, 1, 0, 1, 0x22, 63, 0,
	7, 5, 0x81, 3, 8, 0, 7,
};

/* A SuperSpeed bulk-only stick: two bulk endpoints with companions. */
static const u8 ss_cfg[] = {
	9, 2, 44, 0, 1, 1, 0, 0x80, 50,
	9, 4, 0, 0, 2, 8, 6, 0x50, 0,
	7, 5, 0x81, 2, 0x00, 0x04, 0,
	6, 0x30, 15, 0, 0, 0,
	7, 5, 0x02, 2, 0x00, 0x04, 0,
	6, 0x30, 15, 0, 0, 0,
};

static void test_keyboard(void)
{
	struct usb_host_endpoint *ep;

	memset(&dev, 0, sizeof(dev));
	CHECK_EQ(usb_parse_config(&dev, kbd_cfg, sizeof(kbd_cfg)), 0);
	CHECK_EQ(dev.ud_config, 1);
	CHECK_EQ(dev.ud_nintf, 1);
	CHECK_EQ(dev.ud_intf[0].intf_class, 3);
	CHECK_EQ(dev.ud_intf[0].intf_subclass, 1);
	CHECK_EQ(dev.ud_intf[0].intf_protocol, 1);
	CHECK_EQ(dev.ud_intf[0].intf_nep, 1);
	ep = usb_find_endpoint(&dev.ud_intf[0], USB_ENDPOINT_XFER_INT, USB_DIR_IN);
	CHECK(ep != NULL);
	if (ep) {
		CHECK_EQ(ep->ep_addr, 0x81);
		CHECK_EQ(ep->ep_maxp, 8);
		CHECK_EQ(ep->ep_interval, 7);
	}
	CHECK(usb_find_endpoint(&dev.ud_intf[0], USB_ENDPOINT_XFER_BULK, USB_DIR_IN) == NULL);
	CHECK(dev.ud_intf[0].intf_dev == &dev);
}

static void test_superspeed_stick(void)
{
	struct usb_host_endpoint *in, *out;

	memset(&dev, 0, sizeof(dev));
	CHECK_EQ(usb_parse_config(&dev, ss_cfg, sizeof(ss_cfg)), 0);
	in = usb_find_endpoint(&dev.ud_intf[0], USB_ENDPOINT_XFER_BULK, USB_DIR_IN);
	out = usb_find_endpoint(&dev.ud_intf[0], USB_ENDPOINT_XFER_BULK, USB_DIR_OUT);
	CHECK(in && out);
	if (in && out) {
		CHECK_EQ(in->ep_maxp, 1024);
		CHECK_EQ(in->ep_burst, 15);
		CHECK_EQ(out->ep_addr, 0x02);
		CHECK_EQ(out->ep_burst, 15);
		CHECK(in == &dev.ud_ep[1][1]);
		CHECK(out == &dev.ud_ep[0][2]);
	}
}

static void test_bad_headers(void)
{
	u8 b[sizeof(kbd_cfg)];

	memset(&dev, 0, sizeof(dev));
	CHECK_EQ(usb_parse_config(&dev, kbd_cfg, 8), -EINVAL);	/* shorter than a header */
	memcpy(b, kbd_cfg, sizeof(b));
	b[1] = USB_DT_DEVICE;
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), -EINVAL);
	memcpy(b, kbd_cfg, sizeof(b));
	b[2] = 4;
	b[3] = 0;						/* wTotalLength < 9 */
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), -EINVAL);
	memcpy(b, kbd_cfg, sizeof(b));
	b[0] = 3;						/* header bLength too small */
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), -EINVAL);
}

static void test_hostile_lengths(void)
{
	u8 b[sizeof(kbd_cfg)];

	/* bLength 0 in the middle: stop there, keep what came before. */
	memcpy(b, kbd_cfg, sizeof(b));
	b[18] = 0;
	memset(&dev, 0, sizeof(dev));
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), 0);
	CHECK_EQ(dev.ud_nintf, 1);
	CHECK_EQ(dev.ud_intf[0].intf_nep, 0);
	/* An endpoint whose bLength runs past the end. */
	memcpy(b, kbd_cfg, sizeof(b));
	b[27] = 200;
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), 0);
	CHECK_EQ(dev.ud_intf[0].intf_nep, 0);
	/* wTotalLength larger than what was read: only the bytes we have. */
	memcpy(b, kbd_cfg, sizeof(b));
	b[2] = 0xff;
	b[3] = 0xff;
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), 0);
	CHECK_EQ(dev.ud_intf[0].intf_nep, 1);
	/* wTotalLength shorter than the set: the endpoint is cut off. */
	memcpy(b, kbd_cfg, sizeof(b));
	b[2] = 30;
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), 0);
	CHECK_EQ(dev.ud_intf[0].intf_nep, 0);
	/* A short interface descriptor (bLength 5) is skipped, not read past. */
	memcpy(b, kbd_cfg, sizeof(b));
	b[9] = 5;
	CHECK_EQ(usb_parse_config(&dev, b, sizeof(b)), 0);
	CHECK_EQ(dev.ud_nintf, 0);
}

static void test_hostile_endpoints(void)
{
	static const u8 cfg[] = {
		9, 2, 62, 0, 1, 1, 0, 0x80, 50,
		6, 0x30, 3, 0, 0, 0,			/* companion before any endpoint */
		7, 5, 0x81, 2, 0x40, 0, 0,		/* endpoint before any interface */
		9, 4, 0, 0, 4, 8, 6, 0x50, 0,
		7, 5, 0x80, 2, 0x40, 0, 0,		/* endpoint 0 */
		7, 5, 0x83, 2, 0x00, 0, 0,		/* max packet 0 */
		7, 5, 0x81, 2, 0x40, 0, 0,		/* good */
		7, 5, 0x81, 3, 0x08, 0, 1,		/* duplicate address */
	};

	memset(&dev, 0, sizeof(dev));
	CHECK_EQ(usb_parse_config(&dev, cfg, sizeof(cfg)), 0);
	CHECK_EQ(dev.ud_nintf, 1);
	CHECK_EQ(dev.ud_intf[0].intf_nep, 1);
	CHECK_EQ(dev.ud_intf[0].intf_ep[0]->ep_addr, 0x81);
	CHECK_EQ(dev.ud_intf[0].intf_ep[0]->ep_type, USB_ENDPOINT_XFER_BULK);
}

static void test_interfaces(void)
{
	u8 cfg[9 + 9 * 12];
	unsigned i;

	/* Twelve interfaces, two of them repeats and one an alternate setting. */
	memcpy(cfg, kbd_cfg, 9);
	cfg[2] = sizeof(cfg);
	for (i = 0; i < 12; i++) {
		u8 *d = cfg + 9 + 9 * i;

		memset(d, 0, 9);
		d[0] = 9;
		d[1] = USB_DT_INTERFACE;
		d[2] = (u8)(i == 3 ? 1 : i);		/* 3 repeats interface 1 */
		d[3] = (u8)(i == 4 ? 1 : 0);		/* 4 is an alternate setting */
		d[5] = 0xff;
	}
	memset(&dev, 0, sizeof(dev));
	CHECK_EQ(usb_parse_config(&dev, cfg, sizeof(cfg)), 0);
	CHECK_EQ(dev.ud_nintf, USB_MAX_INTERFACES);
	for (i = 0; i < dev.ud_nintf; i++)
		CHECK(dev.ud_intf[i].intf_number != 3 && dev.ud_intf[i].intf_number != 4);
}

static void test_device_desc(void)
{
	u8 d[18] = { 18, 1, 0, 2, 0, 0, 0, 64, 0x27, 0x06, 0x01, 0, 0, 0, 1, 2, 0, 1 };

	memset(&dev, 0, sizeof(dev));
	CHECK_EQ(usb_parse_device_desc(&dev, d, 18), 0);
	CHECK_EQ(le16_to_cpu(dev.ud_desc.idVendor), 0x0627);
	CHECK_EQ(usb_parse_device_desc(&dev, d, 17), -EINVAL);
	d[1] = 2;
	CHECK_EQ(usb_parse_device_desc(&dev, d, 18), -EINVAL);
	d[1] = 1;
	d[0] = 12;
	CHECK_EQ(usb_parse_device_desc(&dev, d, 18), -EINVAL);
}

static void test_ep0_and_paths(void)
{
	struct usb_device_descriptor d;
	char path[USB_PATH_LEN];

	memset(&d, 0, sizeof(d));
	d.bMaxPacketSize0 = 64;
	CHECK_EQ(usb_ep0_maxp(&d, USB_SPEED_FULL), 64);
	d.bMaxPacketSize0 = 7;				/* not a legal size */
	CHECK_EQ(usb_ep0_maxp(&d, USB_SPEED_FULL), 8);
	d.bMaxPacketSize0 = 9;
	CHECK_EQ(usb_ep0_maxp(&d, USB_SPEED_SUPER), 512);
	CHECK_EQ(usb_ep0_maxp(&d, USB_SPEED_HIGH), 64);
	CHECK_EQ(usb_ep0_default_maxp(USB_SPEED_LOW), 8);
	usb_make_path(path, sizeof(path), NULL, 5);
	CHECK_STR(path, "5");
	usb_make_path(path, sizeof(path), "5.2", 15);
	CHECK_STR(path, "5.2.15");
	usb_make_path(path, 4, "5.2", 3);		/* truncated, still terminated */
	CHECK_STR(path, "5.2");
	CHECK_STR(usb_speed_name(USB_SPEED_SUPER), "super");
	CHECK_STR(usb_speed_name((enum usb_speed)42), "?");
}

static const struct unit_case cases[] = {
	{ "keyboard", test_keyboard },
	{ "superspeed_stick", test_superspeed_stick },
	{ "bad_headers", test_bad_headers },
	{ "hostile_lengths", test_hostile_lengths },
	{ "hostile_endpoints", test_hostile_endpoints },
	{ "interfaces", test_interfaces },
	{ "device_desc", test_device_desc },
	{ "ep0_and_paths", test_ep0_and_paths },
};

UNIT_MAIN("usb_desc", cases)
