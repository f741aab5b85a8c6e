// SPDX-License-Identifier: GPL-2.0-only
/*
 * XML text parsed by libxml2 with its limits set for hostile files, errors
 * in one line "FILE:LINE: cause" (for the power_profile.xml importer).
 *
 * Limits: no network, no DTD loaded, no entity substituted (a document
 * with a DOCTYPE is refused as the parser meets it, before its
 * declarations), libxml2's default depth (256) and text-node size limits
 * (no XML_PARSE_HUGE); the callers cap the input at EA_MODEL_MAX_FILE.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "model/import-priv.h"
#include "model/import.h"

/*
 * The first error libxml2 reports. "--" inside a comment is let through
 * (parsed in recovery mode), as the reader before libxml2 did: profiles
 * have it (our fixtures: "--voltage").
 */
struct xerr {
	const char *what;	/* the kind of file, for messages */
	bool set;
	int code, line, int2;
	char str1[64], str2[64], msg[200];
};

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_err_t;
#else
typedef xmlErrorPtr xml_err_t;
#endif

static void on_xml_error(void *ctx, xml_err_t e)
{
	struct xerr *x = ctx;
	size_t n;

	if (x->set || e->level == XML_ERR_WARNING ||
	    e->code == XML_ERR_HYPHEN_IN_COMMENT)
		return;
	x->set = true;
	x->code = e->code;
	x->line = e->line;
	x->int2 = e->int2;
	snprintf(x->str1, sizeof(x->str1), "%s", e->str1 ? e->str1 : "?");
	snprintf(x->str2, sizeof(x->str2), "%s", e->str2 ? e->str2 : "?");
	snprintf(x->msg, sizeof(x->msg), "%s", e->message ? e->message : "error");
	n = strlen(x->msg);
	while (n && (x->msg[n - 1] == '\n' || x->msg[n - 1] == ' '))
		x->msg[--n] = '\0';
}

/* A DOCTYPE: refused before any of its declarations is read. */
static void on_doctype(void *ctxp, const xmlChar *name, const xmlChar *eid,
		       const xmlChar *sid)
{
	xmlParserCtxtPtr ctx = ctxp;
	struct xerr *x = ctx->_private;

	if (!x->set) {
		x->set = true;
		x->code = -1;
		x->line = ctx->input ? ctx->input->line : 0;
		snprintf(x->msg, sizeof(x->msg), "a DOCTYPE (DTD) is not accepted in %s", x->what);
	}
	xmlStopParser(ctx);
}

/* Where the last "<!--" without "-->" after it starts (for messages). */
static int open_comment_line(const char *text)
{
	const char *c = NULL, *q = text;
	int line = 1;

	while ((q = strstr(q, "<!--"))) {
		const char *e = strstr(q + 4, "-->");

		if (!e) {
			c = q;
			break;
		}
		q = e + 3;
	}
	for (const char *s = text; c && s < c; s++)
		line += *s == '\n';
	return line;
}

/* The error as one line, in plain words where they exist. */
static void xml_fail(const char *src, const char *text, const struct xerr *x,
		     struct ea_err *err)
{
	switch (x->code) {
	case XML_ERR_TAG_NOT_FINISHED:
		ea_err_set(err, "%s:%d: unterminated <%s>", src,
			   x->int2 > 0 ? x->int2 : x->line, x->str1);
		break;
	case XML_ERR_TAG_NAME_MISMATCH:
		ea_err_set(err, "%s:%d: </%s> closes <%s> (line %d): expected </%s>",
			   src, x->line, x->str2, x->str1, x->int2, x->str1);
		break;
	case -1:
		ea_err_set(err, "%s:%d: %s", src, x->line, x->msg);
		break;
	case XML_ERR_COMMENT_NOT_FINISHED:
		ea_err_set(err, "%s:%d: unterminated comment", src, open_comment_line(text));
		break;
	default:
		ea_err_set(err, "%s:%d: XML: %s", src, x->line, x->msg);
	}
}

/* TEXT (len bytes, from SRC) as a document; NULL with err set. */
xmlDoc *ea_xml_read(const char *src, const char *text, size_t len,
		    const char *what, struct ea_err *err)
{
	const int opts = XML_PARSE_NONET | XML_PARSE_NOERROR |
			 XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES |
			 XML_PARSE_NOCDATA | XML_PARSE_RECOVER;
	struct xerr x = { .what = what };
	xmlParserCtxtPtr ctx;
	xmlDoc *doc;

	if (len > INT_MAX) {
		ea_err_set(err, "%s: too large", src);
		return NULL;
	}
	ctx = xmlNewParserCtxt();
	if (!ctx) {
		ea_err_set(err, "%s: out of memory", src);
		return NULL;
	}
	ctx->_private = &x;
	ctx->sax->internalSubset = on_doctype;
	xmlSetStructuredErrorFunc(&x, on_xml_error);
	doc = xmlCtxtReadMemory(ctx, text, (int)len, src, NULL, opts);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (x.set || !doc) {
		if (!x.set)
			snprintf(x.msg, sizeof(x.msg), "not well-formed");
		xml_fail(src, text, &x, err);
		xmlFreeDoc(doc);
		doc = NULL;
	} else if (doc->intSubset || doc->extSubset) {	/* on_doctype() stops first */
		ea_err_set(err, "%s: a DOCTYPE (DTD) is not accepted in %s", src, what);
		xmlFreeDoc(doc);
		doc = NULL;
	}
	xmlFreeParserCtxt(ctx);
	return doc;
}
