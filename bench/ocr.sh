#!/usr/bin/env bash
# bench/ocr.sh: OCREngine beside the `tesseract` command on the project's receipts, in the same run,
# both as one process per image with the same page segmentation (6, OCREngine's default) (what `petlog expense scan` and `tesseract IMG -` each pay: start,
# language load, recognition), interleaved image by image; then a 12-megapixel photo.
# usage: bench/ocr.sh [FOLDER]     OCR_VARIANTS=1 also compares the preprocessing choices (docs/ocr.md).
# Writes .build/bench-ocr/results.tsv and prints a Markdown table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/Tests/OCRTests/Fixtures/receipts}
out=$root/.build/bench-ocr
mkdir -p "$out"
command -v tesseract >/dev/null || { echo "tesseract not installed (make setup)" >&2; exit 69; }
(cd "$root" && swift build -c release --product ocr-bench >&2 && swift build -c release --product petlog-ocr >&2)
bench=$(cd "$root" && swift build -c release --show-bin-path)/ocr-bench
helper=$(cd "$root" && swift build -c release --show-bin-path)/petlog-ocr
photo=$out/receipt-12mp.jpg
[ -f "$photo" ] || /usr/bin/python3 "$root/scripts/make-receipts.py" --photo "$photo" >&2
cp "$root/Tests/OCRTests/Fixtures/receipts/ko-01.json" "${photo%.jpg}.json"  # its ground truth: the receipt it shows
phone=$root/.build/receipts-phone/phone-en-12mp.jpg  # the phone photos' 12 MP one (English, perspective, on a wood table)
[ -f "$phone" ] || /usr/bin/python3 "$root/scripts/make-receipts.py" --phone "$(dirname "$phone")" >&2

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
lang_of() {  # the tesseract languages for a receipt, from its ground truth
  local json=${1%.*}.json l=en
  [ -f "$json" ] && l=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["language"])' "$json")
  case $l in ko) echo kor+eng ;; ja) echo jpn+eng ;; *) echo eng ;; esac
}

# OMP_DYNAMIC=true gives the tesseract command the thread policy OCREngine sets (docs/ocr.md): the fair peer.
# petlog-ocr --detect eng: what `expense scan` runs under a C locale: orientation and script detection, then
# the read in the language found (and a second look on a badly read page), against tesseract told the language.
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
printf 'image\tlang\ttesseract_ms\ttesseract_omp_dynamic_ms\tocr_engine_ms\tratio_to_dynamic\tdetect_ms\tdetect_ratio_to_tesseract\tdetect_ratio_to_dynamic\n' > "$out/results.tsv"
cli_sum=0; dyn_sum=0; lib_sum=0; det_sum=0; n=0
for img in "$dir"/*.jpg "$photo" "$phone"; do
  lang=$(lang_of "$img"); [ "$img" = "$photo" ] && lang=kor+eng  # the photo is receipt ko-01
  t0=$(now_ms); tesseract "$img" - -l "$lang" --psm 6 >/dev/null 2>&1; t1=$(now_ms)
  OMP_DYNAMIC=true tesseract "$img" - -l "$lang" --psm 6 >/dev/null 2>&1; t2=$(now_ms)
  "$bench" --fresh --lang "$lang" "$img" >/dev/null; t3=$(now_ms)
  "$helper" --detect eng "$img" >/dev/null; t4=$(now_ms)
  cli=$((t1 - t0)); dyn=$((t2 - t1)); lib=$((t3 - t2)); det=$((t4 - t3))
  printf '%s\t%s\t%d\t%d\t%d\t%.2f\t%d\t%.2f\t%.2f\n' "$(basename "$img")" "$lang" "$cli" "$dyn" "$lib" "$(echo "$lib / $dyn" | bc -l)" \
    "$det" "$(echo "$det / $cli" | bc -l)" "$(echo "$det / $dyn" | bc -l)" >> "$out/results.tsv"
  if [ "$img" != "$photo" ] && [ "$img" != "$phone" ]; then cli_sum=$((cli_sum + cli)); dyn_sum=$((dyn_sum + dyn)); lib_sum=$((lib_sum + lib)); det_sum=$((det_sum + det)); n=$((n + 1)); fi
done

echo "Load average (1, 5, 15 min) at the start: $load_start, at the end: $(cut -d' ' -f1-3 /proc/loadavg), on $(nproc) cores;"
echo "other builds share the machine: compare the ratios of one run, not absolute times between runs."
echo
echo "| ms per image | tesseract IMG - -l LANG --psm 6 | same, OMP_DYNAMIC=true | OCREngine (ocr-bench --fresh) | OCREngine ÷ OMP_DYNAMIC tesseract |"
echo "|---|---:|---:|---:|---:|"
printf '| mean of %d receipts | %d | %d | %d | %.2f |\n' "$n" $((cli_sum / n)) $((dyn_sum / n)) $((lib_sum / n)) "$(echo "$lib_sum / $dyn_sum" | bc -l)"
for l in kor+eng jpn+eng eng; do
  awk -F'\t' -v l="$l" '$2 == l && $1 !~ /12mp/ { c += $3; d += $4; o += $5; k++ } END { if (k) printf "| %s (%d receipts) | %d | %d | %d | %.2f |\n", l, k, c / k, d / k, o / k, o / d }' "$out/results.tsv"
done
awk -F'\t' '$1 ~ /12mp/ { printf "| 12 MP photo %s (4000×3000, %s) | %d | %d | %d | %.2f |\n", $1, $2, $3, $4, $5, $6 }' "$out/results.tsv"
echo
echo "Language and turn found from the image (petlog-ocr --detect eng, what expense scan runs under a C locale; docs/ocr.md):"
echo
echo "| ms per image | tesseract told the language | petlog-ocr --detect | ÷ tesseract (target ≤ 1.5) | ÷ OMP_DYNAMIC tesseract |"
echo "|---|---:|---:|---:|---:|"
printf '| mean of %d receipts | %d | %d | %.2f | %.2f |\n' "$n" $((cli_sum / n)) $((det_sum / n)) "$(echo "$det_sum / $cli_sum" | bc -l)" "$(echo "$det_sum / $dyn_sum" | bc -l)"
for l in kor+eng jpn+eng eng; do
  awk -F'\t' -v l="$l" '$2 == l && $1 !~ /12mp/ { c += $3; d += $4; t += $7; k++ } END { if (k) printf "| %s (%d receipts) | %d | %d | %.2f | %.2f |\n", l, k, c / k, t / k, t / c, t / d }' "$out/results.tsv"
done
awk -F'\t' '$1 ~ /12mp/ { printf "| 12 MP photo %s (target < 3000 ms) | %d | %d | %.2f | %.2f |\n", $1, $3, $7, $8, $9 }' "$out/results.tsv"
echo
echo "Text read by OCREngine with the default options (one engine per language, reused):"
"$bench" "$dir" > "$out/text.tsv"
tail -n 1 "$out/text.tsv"
echo "12 MP photo: $("$bench" --lang kor+eng "$photo" | sed -n 2p)"
echo
echo "| receipts | character error | total read | merchant read |"
echo "|---|---:|---:|---:|"
awk -F'\t' '
  BEGIN { split("ko,ja,en,clean,turned 2–4°,blurred,JPEG q30–40,low contrast,photo on a table", order, ",") }
  function add(k) { c[k] += $4; n[k]++; t[k] += ($5 == "yes"); m[k] += ($6 == "yes") }
  $4 != "-" && $1 ~ /^(ko|ja|en)-/ {
    split($1, p, /[-.]/); add(p[1]); i = p[2] + 0
    add(i <= 2 ? "clean" : i <= 4 ? "turned 2–4°" : i <= 6 ? "blurred" : i <= 8 ? "JPEG q30–40" : i <= 10 ? "low contrast" : "photo on a table") }
  END { for (j = 1; j <= 9; j++) { k = order[j]; if (n[k]) printf "| %s (%d) | %.1f %% | %d/%d | %d/%d |\n", k, n[k], 100 * c[k] / n[k], t[k], n[k], m[k], n[k] } }' "$out/text.tsv"

if [ "${OCR_VARIANTS:-0}" = 1 ]; then
  echo
  echo "| preprocessing | ms/image | mean CER | total read | merchant read |"
  echo "|---|---:|---:|---:|---:|"
  for v in "" "--no-deskew" "--binarize otsuAdaptive" "--binarize sauvola" "--psm 3" "--psm 4"; do
    # shellcheck disable=SC2086
    "$bench" $v "$dir" | tail -n 1 | awk -F'\t' -v v="${v:-psm 6, deskew, no binarization (default)}" '{
      gsub(/ms\/image /, "", $3); gsub(/mean CER /, "", $4); gsub(/total read /, "", $5); gsub(/merchant read /, "", $6);
      printf "| %s | %s | %s | %s | %s |\n", v, $3, $4, $5, $6 }'
  done
fi
