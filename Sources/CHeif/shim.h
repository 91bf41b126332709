#ifndef PETLOG_CHEIF_SHIM_H
#define PETLOG_CHEIF_SHIM_H
// libheif's C API (Debian libheif-dev): the OCR module decodes HEIC/HEIF photos with it, leptonica cannot.
#include <libheif/heif.h>
#endif
