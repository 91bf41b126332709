#ifndef PETLOG_CCAIRO_SHIM_H
#define PETLOG_CCAIRO_SHIM_H
// The only C the Swift code sees: cairo with its PDF and SVG back ends, and Pango drawing through cairo.
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
// The report's own font set (Cairo/DocumentFontSet.swift): a private FcConfig on a Pango fontconfig font map.
#include <fontconfig/fontconfig.h>
#include <pango/pangofc-fontmap.h>
// The allocator settings of FontSubsetMemory (mallopt, madvise).
#include <malloc.h>
#include <sys/mman.h>
// zlib (which cairo links already) for the chart's own PNG encoder (Cairo/PNGEncoder.swift).
#include <zlib.h>
#endif
