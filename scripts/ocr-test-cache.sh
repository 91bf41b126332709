#!/usr/bin/env bash
# petlog-ocr as the end-to-end tests run it (PETLOG_OCR, set by Tests/PetlogTestSupport/OCRTestCache.swift; never in
# a user's run): the real helper PETLOG_TEST_OCR_REAL, with a reading it has already given in this test run
# replayed from the folder PETLOG_TEST_OCR_CACHE instead of read again. The key is every argument but the last
# (petlog's --detect and --lang), the bytes of the image (the last argument; not its path, which is each test's
# own), and the real helper's path, size and time. Only a reading (exit 0) is kept: a refusal runs the helper
# every time. docs/testing.md, "Time".
set -u
real=${PETLOG_TEST_OCR_REAL:?the real petlog-ocr}; cache=${PETLOG_TEST_OCR_CACHE:?the cache folder}
[ $# -gt 0 ] && [ -f "${!#}" ] && [ -r "${!#}" ] && mkdir -p "$cache" 2>/dev/null || exec "$real" "$@"
key=$({ printf '%s\0' "${@:1:$#-1}"; printf '\n'; stat -L -c '%n %s %Y' "$real"; sha256sum < "${!#}"; } | sha256sum)
key=${key%% *}
if [ -f "$cache/$key.json" ]; then cat "$cache/$key.json"; exit 0; fi
out=$(mktemp "$cache/.reading.XXXXXX") || exec "$real" "$@"
"$real" "$@" > "$out"; status=$?
cat "$out"
# Renamed into place whole, so another test process never reads half a reading.
if [ $status = 0 ]; then mv -f "$out" "$cache/$key.json"; else rm -f "$out"; fi
exit $status
