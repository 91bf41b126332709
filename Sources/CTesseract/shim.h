#ifndef PETLOG_CTESSERACT_SHIM_H
#define PETLOG_CTESSERACT_SHIM_H
// The only C the OCR module sees: tesseract's C API and leptonica, which loads and prepares images.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#endif
