#!/usr/bin/env bash
# snapshot.sh OUT_DIR [PETLOG_BIN]: every read command's output on the pinned demo household, in
# en/ko/ja, plus charts (SVG as written, PNG/PDF as hashes and pdftotext). Two snapshots of two builds
# are compared with `diff -r A B`: a refactor that changes no behaviour shows no difference.
set -u
out=${1:?usage: snapshot.sh OUT_DIR [PETLOG_BIN]}
bin=${2:-$(swift build --show-bin-path)/petlog}
rm -rf "$out"; mkdir -p "$out/files"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export TZ=Asia/Seoul PETLOG_NOW=2026-11-23T10:00:00+09:00 NO_COLOR=1 HOME=$work LANG=C.UTF-8
db=$work/demo.sqlite
"$bin" --db "$db" demo 2>&1 | sed "s#$work#WORK#g" > "$out/demo.txt"
n=0
run() {  # run NAME ARGS...: stdout, stderr and the exit code of one command
  local name=$1; shift
  "$bin" --db "$db" "$@" > "$out/$name.out" 2> "$out/$name.err"; echo "rc=$?" >> "$out/$name.err"
  sed -i "s#$work#WORK#g" "$out/$name.out" "$out/$name.err"
}
for lang in en ko ja; do
  L=(--lang "$lang")
  run "$lang-pet-list" "${L[@]}" pet list
  run "$lang-pet-list-json" "${L[@]}" pet list --json
  for p in Coco Nabi Mochi; do
    run "$lang-pet-show-$p" "${L[@]}" pet show "$p"
    run "$lang-stats-$p" "${L[@]}" stats "$p"
    run "$lang-stats-$p-json" "${L[@]}" stats "$p" --json
    run "$lang-due-$p" "${L[@]}" due "$p" --within 400d
    run "$lang-med-list-$p" "${L[@]}" med list "$p"
    run "$lang-log-$p" "${L[@]}" log "$p" --since 60d
    run "$lang-chart-weight-text-$p" "${L[@]}" chart weight "$p" --since 1y
    run "$lang-chart-symptoms-svg-$p" "${L[@]}" chart symptoms "$p" -o "$work/s-$lang-$p.svg"
    cp "$work/s-$lang-$p.svg" "$out/files/" 2>/dev/null
    run "$lang-report-$p" "${L[@]}" report "$p" --since 1y -o "$work/r-$lang-$p.pdf"
    pdftotext -layout "$work/r-$lang-$p.pdf" "$out/files/r-$lang-$p.txt" 2>/dev/null
    run "$lang-report-dated-$p" "${L[@]}" report "$p" --since 1y --date 2026-06-30 -o "$work/rd-$lang-$p.pdf"
    pdftotext -layout "$work/rd-$lang-$p.pdf" "$out/files/rd-$lang-$p.txt" 2>/dev/null
  done
  run "$lang-due" "${L[@]}" due --within 60d
  run "$lang-due-json" "${L[@]}" due --within 60d --json
  run "$lang-calendar" "${L[@]}" calendar --month 2026-11
  run "$lang-log-json" "${L[@]}" log --since 30d --json
  run "$lang-search" "${L[@]}" search vomit
  run "$lang-starred" "${L[@]}" starred
  run "$lang-stats-all" "${L[@]}" stats
  run "$lang-check" "${L[@]}" check
  run "$lang-chart-expenses" "${L[@]}" chart expenses -o "$work/e-$lang.svg"
  cp "$work/e-$lang.svg" "$out/files/" 2>/dev/null
  run "$lang-chart-weight-svg" "${L[@]}" chart weight Coco Nabi --since 1y -o "$work/w-$lang.svg"
  cp "$work/w-$lang.svg" "$out/files/" 2>/dev/null
  run "$lang-ics" "${L[@]}" due --ics -
done
run export-json export -o -
run export-csv-record export --format csv --table record -o -
run bad-pet pet show Nobody
run bad-month calendar --month 2026-13
# Every --json view (and the odd values: decimals, a foreign currency, hostile text, nulls, empty lists),
# the writing commands on a copy of the demo so the read views above stay as they were.
for lang in en ko; do
  L=(--lang "$lang")
  run "$lang-pet-show-json" "${L[@]}" pet show Coco --json
  run "$lang-calendar-json" "${L[@]}" calendar --month 2026-11 --json
  run "$lang-calendar-spending-json" "${L[@]}" calendar --month 2026-11 --spending --json
  run "$lang-budget-list-json" "${L[@]}" budget list --json
  run "$lang-budget-show-json" "${L[@]}" budget show --json
  run "$lang-expense-list-json" "${L[@]}" expense list --json
  run "$lang-expense-list-day-json" "${L[@]}" expense list --day 2026-11-20 --json
  run "$lang-expense-list-starred-json" "${L[@]}" expense list --starred --json
  run "$lang-med-list-json" "${L[@]}" med list --all --json
  run "$lang-chart-weight-json" "${L[@]}" chart weight Coco Nabi --since 1y --json
  run "$lang-chart-symptoms-json" "${L[@]}" chart symptoms Coco --json
  run "$lang-chart-symptoms-kind-json" "${L[@]}" chart symptoms Coco --by kind --json
  run "$lang-chart-activity-json" "${L[@]}" chart activity Coco --json
  run "$lang-chart-expenses-json" "${L[@]}" chart expenses --json
  run "$lang-check-json" "${L[@]}" check --json
  run "$lang-undo-list-json" "${L[@]}" undo --list --json
  run "$lang-stats-json-oct" "${L[@]}" stats --month 2026-10 --json
  run "$lang-search-json" "${L[@]}" search vomit --json
  run "$lang-starred-json" "${L[@]}" starred --json
  run "$lang-due-all-json" "${L[@]}" due --within 400d --json
  run "$lang-config-list-json" "${L[@]}" config list --json
  run "$lang-rates-list-none-json" "${L[@]}" rates list --json
  run "$lang-budget-daily-json" "${L[@]}" budget show 1 --daily --json
  run "$lang-chart-expenses-budget-json" "${L[@]}" chart expenses --budget 1 --json
done
keep=$db
db=$work/copy.sqlite; cp "$keep" "$db"
fixtures=$(cd "$(dirname "$0")/.." && pwd)/Tests/petlogTests/Fixtures
run rates-import-json rates import "$fixtures/ecb/eurofxref-hist-90d.xml" --json
run rates-import-again-json rates import "$fixtures/ecb/eurofxref-daily.xml" --json
run rates-list-json rates list --json
run rates-list-date-json rates list --date 2026-01-01 --json
run rates-list-usd-json rates list --currency USD --json
hostile=$'Ev\u202eil "$(x)" \\ /slash\x01\x7f\xc2\x85\xc2\x9b 한글 🐶'   # notes take control characters
pname='Ev "$(x)" \ /slash 한글 🐶 é'                                           # names, breeds, merchants do not
run add-hostile-json pet add "$pname" --species dog --breed "$pname" --notes "$hostile" --json
run add-plain-json pet add Plain --json
run edit-pet-json pet edit Plain --breed "" --notes $'line\nbreak' --json
run weight-hostile-json weight "$pname" 4.25kg --note "$hostile" --json
run expense-usd-json expense "$pname" "12.34 USD" --merchant "$pname" --note "$hostile" --json
run expense-krw-json expense Plain 9990KRW --category food --items "kibble, chews" --json
run expense-list-usd-json expense list --json
run edit-record-json edit 1 --note "$hostile" --json
run stats-hostile-json stats --json
run log-hostile-json log --since 2d --json
run pet-list-all-json pet list --all --json
run calendar-spending-usd-json calendar --spending --currency USD --json
run chart-expenses-usd-json chart expenses --currency USD --json
run budget-set-json budget set 123.45 USD --json
run budget-list-usd-json budget list --json
run undo-list-after-json undo --list --json
run undo-json undo --json
run export-copy-json export -o -
"$bin" --db "$db" export -o "$work/copy.json" 2>/dev/null
db=$work/imported.sqlite
run import-json import "$work/copy.json" --json
run import-again-json import "$work/copy.json" --json
ocr=$work/fake-ocr; printf '#!/bin/sh\ncat <<"EOF"\n{"lines":[{"text":"PET CLINIC","confidence":91.5,"box":{"x":1,"y":2,"width":30,"height":8}},{"text":"2026-11-20 14:05","confidence":88,"box":{"x":1,"y":12,"width":30,"height":8}},{"text":"TOTAL 12,000","confidence":77.25,"box":{"x":1,"y":22,"width":30,"height":8}}],"width":640,"height":480,"deskewAngle":0.5,"language":"kor+eng","layout":{"rotation":0,"orientationConfidence":9.5,"script":"Hangul","scriptConfidence":3}}\nEOF\n' > "$ocr"; chmod +x "$ocr"
printf 'not really a picture' > "$work/receipt.jpg"
db=$work/copy.sqlite
PETLOG_OCR=$ocr run scan-json expense scan "$work/receipt.jpg" --json
PETLOG_OCR=$ocr run scan-yes-json expense scan "$work/receipt.jpg" Coco --amount "12.50 USD" --items "kibble, chews" --yes --json
db=$keep
for f in "$work"/*.png "$work"/*.pdf; do [ -e "$f" ] && sha256sum "$f" | sed "s#$work/##"; done > "$out/files/hashes.txt" 2>/dev/null
echo "snapshot in $out ($(ls "$out" | wc -l) entries)"
