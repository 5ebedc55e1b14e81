/*
** clients/bench/svg.c — the single-client run as an SVG chart, written by
** hand (no plotting library): per query a bar of the server's median time
** (the client's median when the server gave no figures), a whisker from
** the client's fastest to its slowest run, and a mark at each floor, PCIe
** and device memory. The time axis is logarithmic: at SF 100 a resident
** query's device-memory floor is a thousandth of its PCIe floor, and both
** must show. The file is one self-contained, well-formed XML document;
** every text that comes from outside (query names, the device's name) is
** escaped.
**
** INTERFACE ROUTINES
**   bench_svg_write      draw the chart into a file
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

/* The chart's geometry, in SVG user units. */
#define SVG_HEIGHT 440
#define SVG_LEFT 80        /* room for the axis labels */
#define SVG_RIGHT 30
#define SVG_TOP 70         /* room for the title */
#define SVG_BOTTOM 80      /* room for the query names and the legend */
#define SVG_SLOT 56        /* per query */

#define SVG_BAR "#4e79a7"
#define SVG_PCIE "#e15759"
#define SVG_DEVICE "#59a14f"

/* Appends z with XML's five special characters escaped. */
static void svg_text(strbuf *s, const char *z) {
  for (; *z; z++) {
    switch (*z) {
      case '&': strbuf_puts(s, "&amp;"); break;
      case '<': strbuf_puts(s, "&lt;"); break;
      case '>': strbuf_puts(s, "&gt;"); break;
      case '"': strbuf_puts(s, "&quot;"); break;
      case '\'': strbuf_puts(s, "&apos;"); break;
      default:
        /* XML 1.0 allows no control characters but tab, newline and CR. */
        if ((unsigned char)*z < 0x20 && *z != '\t' && *z != '\n' && *z != '\r') strbuf_puts(s, "?");
        else strbuf_append(s, z, 1);
    }
  }
}

/* The value the bar of p shows: the server's median, else the client's. */
static double svg_bar_value(const bench_row *p) { return isnan(p->rServer) ? p->rClientMedian : p->rServer; }

/* The vertical scale: log10 of the lowest and highest times shown. */
typedef struct svg_scale svg_scale;
struct svg_scale {
  double rLo, rHi;         /* log10 seconds, whole decades */
  double yTop, yBottom;
};

/* Widens [*pLo, *pHi] to take r, when r is a positive time. */
static void svg_span(double r, double *pLo, double *pHi) {
  if (!(r > 0) || isinf(r)) return;
  if (r < *pLo) *pLo = r;
  if (r > *pHi) *pHi = r;
}

/* Returns the y of time r (seconds) on the scale. */
static double svg_y(const svg_scale *p, double r) {
  return p->yBottom - (log10(r) - p->rLo) / (p->rHi - p->rLo) * (p->yBottom - p->yTop);
}

/* Draws one query's bar, whisker, floor marks and name. */
static void svg_query(strbuf *s, const svg_scale *pSc, const bench_row *p, double cx, double rSlot) {
  double r = svg_bar_value(p), w = rSlot * 0.5;
  char zA[32], zB[32], zC[32];
  if (r > 0 && !isinf(r)) {
    double y = svg_y(pSc, r);
    strbuf_printf(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"" SVG_BAR "\">",
                  cx - w / 2, y, w, pSc->yBottom - y);
    strbuf_puts(s, "<title>");
    svg_text(s, p->zName);
    strbuf_printf(s, ": %s %s ms, client %s–%s ms</title></rect>\n", isnan(p->rServer) ? "client median" : "server",
                  bench_fmt(zA, sizeof(zA), r, 1e3, 3), bench_fmt(zB, sizeof(zB), p->rClientMin, 1e3, 3),
                  bench_fmt(zC, sizeof(zC), p->rClientMax, 1e3, 3));
  }
  if (p->rClientMin > 0 && p->rClientMax > 0) {
    double yMin = svg_y(pSc, p->rClientMin), yMax = svg_y(pSc, p->rClientMax);
    strbuf_printf(s, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"#222\" "
                  "stroke-width=\"1.2\" fill=\"none\"/>\n", cx, yMin, yMax, cx - w / 4, yMin, cx + w / 4,
                  cx - w / 4, yMax, cx + w / 4);
  }
  if (p->rPcieFloor > 0) {
    strbuf_printf(s, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" SVG_PCIE
                  "\" stroke-width=\"2.5\"/>\n", cx - rSlot * 0.42, cx + rSlot * 0.42,
                  svg_y(pSc, p->rPcieFloor), svg_y(pSc, p->rPcieFloor));
  }
  if (p->rDevFloor > 0) {
    strbuf_printf(s, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" SVG_DEVICE
                  "\" stroke-width=\"2.5\" stroke-dasharray=\"4 2\"/>\n", cx - rSlot * 0.42, cx + rSlot * 0.42,
                  svg_y(pSc, p->rDevFloor), svg_y(pSc, p->rDevFloor));
  }
  strbuf_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\"%s>", cx,
                pSc->yBottom + 16, p->bOk ? "" : " fill=\"" SVG_PCIE "\"");
  svg_text(s, p->zName);
  strbuf_puts(s, p->bOk ? "</text>\n" : " ✗</text>\n");
}

/* Draws the decade grid lines and their labels. */
static void svg_grid(strbuf *s, const svg_scale *pSc, double x0, double x1) {
  for (double d = pSc->rLo; d <= pSc->rHi + 1e-9; d += 1) {
    double y = svg_y(pSc, pow(10, d));
    strbuf_printf(s, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0, x1, y, y);
    strbuf_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%g ms</text>\n", x0 - 6,
                  y + 4, pow(10, d) * 1e3);
  }
  strbuf_printf(s, "<path d=\"M%.1f %.1fV%.1fH%.1f\" stroke=\"#444\" fill=\"none\"/>\n", x0, pSc->yTop,
                pSc->yBottom, x1);
}

/* Draws the legend along the bottom, starting at x. */
static void svg_legend(strbuf *s, double x, double y, int bServer) {
  strbuf_printf(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"" SVG_BAR "\"/>", x, y - 9);
  strbuf_printf(s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s median</text>\n", x + 16, y,
                bServer ? "server" : "client");
  x += 110;
  strbuf_printf(s, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#222\"/>", x + 6, y - 10, y + 1);
  strbuf_printf(s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">client min–max</text>\n", x + 14, y);
  x += 115;
  strbuf_printf(s, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" SVG_PCIE
                "\" stroke-width=\"2.5\"/>", x, x + 16, y - 4, y - 4);
  strbuf_printf(s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">PCIe floor</text>\n", x + 20, y);
  x += 90;
  strbuf_printf(s, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" SVG_DEVICE
                "\" stroke-width=\"2.5\" stroke-dasharray=\"4 2\"/>", x, x + 16, y - 4, y - 4);
  strbuf_printf(s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">device-memory floor</text>\n", x + 20, y);
}

/* Appends the whole document to s. */
static void svg_render(strbuf *s, const bench_server *pSrv, const bench_row *aRow, int nQ) {
  double rSlot = SVG_SLOT, x0 = SVG_LEFT, w, lo = INFINITY, hi = 0;
  svg_scale sc;
  int bServer = 0;
  char zA[32], zB[32];
  w = x0 + rSlot * nQ + SVG_RIGHT;
  if (w < 560) {
    rSlot = (560 - x0 - SVG_RIGHT) / (nQ > 0 ? nQ : 1);
    w = 560;
  }
  for (int i = 0; i < nQ; i++) {
    svg_span(svg_bar_value(&aRow[i]), &lo, &hi);
    svg_span(aRow[i].rClientMin, &lo, &hi);
    svg_span(aRow[i].rClientMax, &lo, &hi);
    svg_span(aRow[i].rPcieFloor, &lo, &hi);
    svg_span(aRow[i].rDevFloor, &lo, &hi);
    bServer |= !isnan(aRow[i].rServer);
  }
  if (hi <= 0) lo = 1e-3, hi = 1;   /* nothing to draw: a one-decade frame */
  sc.rLo = floor(log10(lo));
  sc.rHi = ceil(log10(hi));
  if (sc.rHi <= sc.rLo) sc.rHi = sc.rLo + 1;
  sc.yTop = SVG_TOP;
  sc.yBottom = SVG_HEIGHT - SVG_BOTTOM;
  strbuf_printf(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
                "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
                w, SVG_HEIGHT, w, SVG_HEIGHT);
  strbuf_printf(s, "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"16\">starq-bench: time per "
                "query against the floors</text>\n<text x=\"%.1f\" y=\"46\" text-anchor=\"middle\" "
                "font-size=\"11\">", w / 2, w / 2);
  if (!pSrv->bKnown) {
    strbuf_puts(s, "no server figures: client times only");
  } else {
    svg_text(s, pSrv->zBackend);
    strbuf_puts(s, ", ");
    svg_text(s, pSrv->zDevice);
    if (pSrv->rZeroCopyBw > 0 || pSrv->rDeviceBw > 0) {
      strbuf_printf(s, "; PCIe %s GB/s, device memory %s GB/s", bench_fmt(zA, sizeof(zA), pSrv->rZeroCopyBw, 1e-9, 1),
                    bench_fmt(zB, sizeof(zB), pSrv->rDeviceBw, 1e-9, 1));
    } else {
      strbuf_puts(s, "; floors unknown");
    }
  }
  strbuf_puts(s, "; log scale</text>\n");
  svg_grid(s, &sc, x0, w - SVG_RIGHT);
  for (int i = 0; i < nQ; i++) svg_query(s, &sc, &aRow[i], x0 + rSlot * (i + 0.5), rSlot);
  svg_legend(s, x0, SVG_HEIGHT - 24, bServer);
  strbuf_puts(s, "</svg>\n");
}

int bench_svg_write(const char *zPath, const bench_server *pSrv, const bench_row *aRow, int nQ, char *zErr,
                    size_t nErr) {
  strbuf s;
  FILE *f;
  int bBad;
  strbuf_init(&s);
  svg_render(&s, pSrv, aRow, nQ);
  if (strbuf_error(&s)) {
    strbuf_free(&s);
    return (snprintf(zErr, nErr, "%s: out of memory", zPath), -1);
  }
  if ((f = fopen(zPath, "wb")) == NULL) {
    snprintf(zErr, nErr, "cannot create %s: %s", zPath, strerror(errno));
    strbuf_free(&s);
    return -1;
  }
  bBad = fwrite(s.z, 1, s.n, f) != s.n;
  bBad |= fclose(f) != 0;
  strbuf_free(&s);
  if (bBad) return (snprintf(zErr, nErr, "cannot write %s: %s", zPath, strerror(errno)), -1);
  return 0;
}
