/*
 * The kernel command line: split into parameters and handed to their
 * owners (kernel/param.h), before any initcall runs.
 *
 * Syntax: words separated by spaces; a word is NAME, NAME=VALUE,
 * NAME="VALUE WITH SPACES" or "NAME=VALUE WITH SPACES" (GRUB's way of
 * passing on a menu entry's NAME="A B").  The first word is dropped when it is the
 * kernel's own path, which GRUB and QEMU put there.  Values stay in a
 * private copy of the line, so string parameters may point into it.
 *
 * A line longer than BOOT_CMDLINE_MAX - 1 bytes arrives cut (multiboot.c).
 * The cut is reported, and a last word it split -- writable=sd cut to
 * writable=s, or a quoted run= list missing its end -- is not applied:
 * better an option missing, and said so, than a different one.
 */
#include "kernel/param.h"
#include "kernel/bootinfo.h"
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "lib/string.h"


static char cmdline_copy[BOOT_CMDLINE_MAX];
static char cmdline_words[BOOT_CMDLINE_MAX];

const char *cmdline_get(void)
{
	return cmdline_copy;
}

int param_set_bool(const char *val, void *arg)
{
	bool *b = arg;

	if (!val || !strcmp(val, "1") || !str_casecmp(val, "y") ||
	    !str_casecmp(val, "yes") || !str_casecmp(val, "on"))
		*b = true;
	else if (!strcmp(val, "0") || !str_casecmp(val, "n") ||
		 !str_casecmp(val, "no") || !str_casecmp(val, "off"))
		*b = false;
	else
		return -EINVAL;
	return 0;
}

int param_set_u64(const char *val, void *arg)
{
	return val ? str_to_u64(val, arg, false) : -EINVAL;
}

int param_set_uint(const char *val, void *arg)
{
	u64 v;
	int err;

	if (!val)
		return -EINVAL;
	err = str_to_u64(val, &v, false);
	if (err)
		return err;
	if (v > 0xffffffffu)
		return -ERANGE;
	*(unsigned *)arg = (unsigned)v;
	return 0;
}

int param_set_size(const char *val, void *arg)
{
	return val ? str_to_u64(val, arg, true) : -EINVAL;
}

int param_set_str(const char *val, void *arg)
{
	if (!val)
		return -EINVAL;
	*(const char **)arg = val;
	return 0;
}

static void apply(const char *name, const char *val)
{
	const struct kernel_param *p;
	int err;

	for (p = __params_start; p < __params_end; p++) {
		if (strcmp(p->kp_name, name) != 0)
			continue;
		err = p->kp_set(val, p->kp_arg);
		if (err)
			pr_warn("cmdline: bad value for %s: \"%s\" (%s); ignored\n",
				name, val ? val : "", errstr(err));
		return;
	}
	pr_warn("cmdline: unknown parameter \"%s\"; ignored\n", name);
}

/*
 * Say what the loader's line lost to the limit, in one warning: name and
 * val are the word the cut split (name NULL if none).
 */
static void cmdline_report_cut(const char *name, const char *val)
{
	if (name)
		pr_warn("cmdline: longer than the %u bytes kept: the last %u bytes dropped, "
			"and \"%s%s%.60s\", cut short, ignored\n", BOOT_CMDLINE_MAX - 1,
			boot_info.cmdline_dropped, name, val ? "=" : "", val ? val : "");
	else
		pr_warn("cmdline: longer than the %u bytes kept: the last %u bytes dropped\n",
			BOOT_CMDLINE_MAX - 1, boot_info.cmdline_dropped);
}

/* Split the copy in place: each word NUL-terminated, quotes removed. */
void cmdline_parse(void)
{
	char *p = cmdline_words, *name, *val, *out;
	const char *cut_name = NULL, *cut_val = NULL;
	bool first = true, open_quote, last;

	str_copy(cmdline_copy, boot_info.cmdline, sizeof(cmdline_copy));
	str_copy(cmdline_words, boot_info.cmdline, sizeof(cmdline_words));
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		name = out = p;
		val = NULL;
		open_quote = false;
		/*
		 * Quotes hold spaces in: NAME="A B", or "NAME=A B" as GRUB
		 * writes a word with spaces in it.
		 */
		while (*p && (open_quote || (*p != ' ' && *p != '\t'))) {
			if (*p == '"') {
				open_quote = !open_quote;
				p++;
				continue;
			}
			if (*p == '=' && !val) {
				*out++ = '\0';
				val = out;
				p++;
				continue;
			}
			*out++ = *p++;
		}
		last = !*p;
		if (*p)
			p++;
		*out = '\0';
		if (last && boot_info.cmdline_dropped &&
		    (boot_info.cmdline_cut_in_word || open_quote)) {
			cut_name = name;	/* the cut ran through this word */
			cut_val = val;
		} else if (first && !val && strchr(name, '/')) {
			;	/* the loader's path of the kernel image */
		} else if (*name) {
			apply(name, val);
		}
		first = false;
	}
	if (boot_info.cmdline_dropped)
		cmdline_report_cut(cut_name, cut_val);
}
