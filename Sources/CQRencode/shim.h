#ifndef PETLOG_CQRENCODE_SHIM_H
#define PETLOG_CQRENCODE_SHIM_H
// The only C the QRCode module sees: libqrencode (Debian libqrencode-dev), which turns bytes into a QR symbol.
#include <qrencode.h>
#endif
