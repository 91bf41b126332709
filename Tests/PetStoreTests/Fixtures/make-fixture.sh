#!/bin/bash
# make-fixture.sh VERSION (run from the repo root when a schema version ships) — the fixture database for a schema version, made with the current debug build.
set -eu
v=$1; out=Tests/PetStoreTests/Fixtures/$v; tmp=$(mktemp -d)
export PETLOG_NOW=2026-11-23T10:00:00+09:00 TZ=Asia/Seoul
B=.build/debug/petlog; D="--db $tmp/$v.sqlite"
$B $D demo >/dev/null
printf 'P3\n2 2\n255\n0 0 0 255 255 255 1 2 3 9 9 9\n' > $tmp/photo.ppm
$B $D diary Coco "Sleeping on the sofa, \"very\" happy; 눈이 와요" --photo $tmp/photo.ppm --mood happy >/dev/null
$B $D pet add Bori --species rabbit --born 2018 >/dev/null
$B $D weight Bori 1.8kg --at 2026-10-01 >/dev/null
$B $D pet archive Bori --reason passed-away --on 2026-11-01 >/dev/null
$B $D med start Nabi Amoxicillin --times 08:00,20:00 --dose "50 mg" >/dev/null
$B $D med give Nabi Amoxicillin >/dev/null
$B $D walk Coco 2.4km 35min --note "river path" >/dev/null
echo "correct horse battery" | $B $D user add Mina --role owner --password-stdin >/dev/null
$B $D pet edit Coco --photo $tmp/photo.ppm >/dev/null
$B $D user feed-reset Mina >/dev/null 2>&1
$B $D star 1 >/dev/null
$B $D delete 7 >/dev/null
rm $tmp/photo.ppm
sqlite3 $tmp/$v.sqlite "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
rm -f $tmp/$v.sqlite-wal $tmp/$v.sqlite-shm
rm -rf $out; mkdir -p $(dirname $out); cp -r $tmp $out; rm -rf $tmp
find $out -type f
