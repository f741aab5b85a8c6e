// SPDX-License-Identifier: GPL-2.0-only
/* Inline-SVG helpers (src/output/svg.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eatrace/escape.h"
#include "output/svg.h"

void svg_esc(FILE *f, const char *s)
{
	ea_esc_html(f, s);
}

static const char *const cat[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

const char *svg_cat(int i)
{
	return cat[(i < 0 ? 0 : i) % (int)(sizeof(cat) / sizeof(cat[0]))];
}

static void mix(char *buf, const int a[3], const int b[3], int j, int n)
{
	double t = n > 1 ? (double)j / (n - 1) : 1.0;

	snprintf(buf, 8, "#%02x%02x%02x",
		 (int)(a[0] + (b[0] - a[0]) * t) & 0xff,
		 (int)(a[1] + (b[1] - a[1]) * t) & 0xff,
		 (int)(a[2] + (b[2] - a[2]) * t) & 0xff);
}

void svg_warm(char *buf, int j, int n)
{
	static const int lo[3] = {0xfd, 0xd4, 0x9e}, hi[3] = {0xb3, 0x00, 0x00};

	mix(buf, lo, hi, j, n);
}

void svg_cool(char *buf, int j, int n)
{
	static const int lo[3] = {0xc6, 0xdb, 0xef}, hi[3] = {0x08, 0x45, 0x94};

	mix(buf, lo, hi, j, n);
}

const char *svg_num(char *buf, double v)
{
	double a = fabs(v);

	if (a == 0)
		snprintf(buf, 32, "0");
	else if (a >= 100)
		snprintf(buf, 32, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, 32, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, 32, "%.2f", v);
	else
		snprintf(buf, 32, "%.3g", v);
	return buf;
}

double svg_px(const struct svg_plot *p, double x)
{
	double r = p->xmax > p->xmin ? (x - p->xmin) / (p->xmax - p->xmin) : 0;

	return p->x + r * p->w;
}

double svg_py(const struct svg_plot *p, double y)
{
	double r = p->ymax > p->ymin ? (y - p->ymin) / (p->ymax - p->ymin) : 0;

	return p->y + p->h - r * p->h;
}

static double nice_step(double range, int n)
{
	double raw = range / n, mag, f;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1	   ? 1
		: f <= 2   ? 2
		: f <= 2.5 ? 2.5
		: f <= 5   ? 5
			   : 10) *
	       mag;
}

double svg_nice_max(double v)
{
	double s;

	if (!(v > 0))
		return 1;
	s = nice_step(v, 5);
	return ceil(v / s - 1e-9) * s;
}

void svg_axes(FILE *f, const struct svg_plot *p, const char *xlabel,
	      const char *ylabel)
{
	double xs = nice_step(p->xmax - p->xmin, 8);
	double ys = nice_step(p->ymax - p->ymin, 5);
	char b[32];

	fprintf(f, "<g class=\"axis\">\n");
	for (double y = p->ymin; y <= p->ymax + ys * 1e-6; y += ys) {
		double py = svg_py(p, y);

		fprintf(f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n",
			p->x, py, p->x + p->w, py, p->x - 6, py + 4,
			svg_num(b, y));
	}
	for (double x = ceil(p->xmin / xs) * xs; x <= p->xmax + xs * 1e-6;
	     x += xs) {
		double px = svg_px(p, x);

		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n",
			px, p->y + p->h, px, p->y + p->h + 5, px,
			p->y + p->h + 18, svg_num(b, x));
	}
	fprintf(f,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		p->x, p->y, p->x, p->y + p->h, p->x, p->y + p->h, p->x + p->w,
		p->y + p->h);
	fprintf(f,
		"<text class=\"label\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"middle\">",
		p->x + p->w / 2, p->y + p->h + 36);
	svg_esc(f, xlabel);
	fprintf(f,
		"</text>\n<text class=\"label\" "
		"transform=\"translate(%.1f,%.1f) rotate(-90)\" "
		"text-anchor=\"middle\">",
		p->x - 48, p->y + p->h / 2);
	svg_esc(f, ylabel);
	fputs("</text>\n</g>\n", f);
}

/*
 * printf()'s "%.1f" of v at q; the end. v x 10 is exact in a long double
 * of 64 bits of mantissa (53 + 4 bits) and rintl() rounds it as printf()
 * rounds the exact value (to nearest, ties to even), so the digits are
 * the same; other values (huge, not finite, or long double no wider than
 * double) go through snprintf().
 */
#define F1_MAX 320 /* the longest put_f1() */

static char *put_f1(char *q, double v)
{
#if LDBL_MANT_DIG >= 64
	if (fabs(v) < 1e15) {
		long double r = rintl((long double)fabs(v) * 10);
		unsigned long long n = (unsigned long long)r;
		char d[24];
		int k = 0;

		if (signbit(v))
			*q++ = '-';
		d[k++] = (char)('0' + n % 10);
		d[k++] = '.';
		n /= 10;
		do {
			d[k++] = (char)('0' + n % 10);
			n /= 10;
		} while (n);
		while (k)
			*q++ = d[--k];
		return q;
	}
#endif
	{
		char t[F1_MAX + 8]; /* DBL_MAX: 309 digits and ".0" */
		int n = snprintf(t, sizeof(t), "%.1f", v);

		memcpy(q, t, (size_t)n);
		return q + n;
	}
}

void svg_stack(FILE *f, const struct svg_plot *p, const double *x,
	       const double *vals, int nseries, int nb,
	       const char *const *colors)
{
	double lo[nb > 0 ? nb : 1], hi[nb > 0 ? nb : 1];
	char b3[3 * F1_MAX + 8], *q;

	for (int b = 0; b < nb; b++)
		lo[b] = 0;
	for (int s = 0; s < nseries; s++) {
		for (int b = 0; b < nb; b++)
			hi[b] = lo[b] + vals[s * nb + b];
		fprintf(f, "<path fill=\"%s\" stroke=\"none\" d=\"M",
			colors[s]);
		/* "%s%.1f %.1f H%.1f" by hand (put_f1()) */
		for (int b = 0; b < nb; b++) {
			q = b3;
			if (b) {
				*q++ = ' ';
				*q++ = 'L';
			}
			q = put_f1(q, svg_px(p, x[b]));
			*q++ = ' ';
			q = put_f1(q, svg_py(p, hi[b]));
			*q++ = ' ';
			*q++ = 'H';
			q = put_f1(q, svg_px(p, x[b + 1]));
			fwrite(b3, 1, (size_t)(q - b3), f);
		}
		/* " L%.1f %.1f H%.1f" */
		for (int b = nb - 1; b >= 0; b--) {
			q = b3;
			*q++ = ' ';
			*q++ = 'L';
			q = put_f1(q, svg_px(p, x[b + 1]));
			*q++ = ' ';
			q = put_f1(q, svg_py(p, lo[b]));
			*q++ = ' ';
			*q++ = 'H';
			q = put_f1(q, svg_px(p, x[b]));
			fwrite(b3, 1, (size_t)(q - b3), f);
		}
		fputs(" Z\"/>\n", f);
		for (int b = 0; b < nb; b++)
			lo[b] = hi[b];
	}
}

double svg_legend_item(FILE *f, double x, double y, const char *color,
		       const char *label)
{
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
		"fill=\"%s\" stroke=\"#888\" stroke-width=\"0.5\"/>"
		"<text x=\"%.1f\" y=\"%.1f\">",
		x, y - 10, color, x + 16, y);
	svg_esc(f, label);
	fputs("</text>\n", f);
	return x + 16 + 7.0 * (double)strlen(label) + 16;
}
