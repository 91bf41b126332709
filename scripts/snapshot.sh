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
for f in "$work"/*.png "$work"/*.pdf; do [ -e "$f" ] && sha256sum "$f" | sed "s#$work/##"; done > "$out/files/hashes.txt" 2>/dev/null
echo "snapshot in $out ($(ls "$out" | wc -l) entries)"
