#!/usr/bin/env bash
# make bench: petlog beside the peer kit (../shared/bench) in the same run, as ratios.
# Copies the kit into .build/bench-kit, adds petlog's rows to its runner, runs it, and writes
# docs/benchmarks.md from the kit's summary. usage: bench/run.sh [FILTER]   (env as the kit: RUNS, POINTS)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kit_src=${PETLOG_BENCH_KIT:-$root/../shared/bench}
kit=$root/.build/bench-kit
[ -d "$kit_src" ] || { echo "peer kit not found at $kit_src" >&2; exit 66; }

# Peers (gnuplot, matplotlib, ReportLab, hyperfine): installed by the kit's own setup when missing.
if ! command -v gnuplot >/dev/null || ! python3 -c 'import matplotlib, reportlab' 2>/dev/null || ! command -v hyperfine >/dev/null; then
  bash "$kit_src/setup.sh"
fi

# A release petlog with the Swift runtime linked in (about 10 ms less start-up per run).
(cd "$root" && swift build -c release --static-swift-stdlib --product petlog >&2)
petlog=$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path)/petlog

mkdir -p "$kit"
(cd "$kit_src" && tar --exclude=./out --exclude=./results-peers.md -cf - .) | (cd "$kit" && tar -xf -)
mkdir -p "$kit/out/petlog"
export TZ=UTC PETLOG_BIN=$petlog PET=${PET:-42}

# Inputs for petlog (not timed): each series lives in a petlog database as one pet's weights.
POINTS=${POINTS:-"1000 100000 1000000"}
for n in $POINTS; do
  [ -f "$kit/data/series/weight_$n.csv" ] || (cd "$kit" && python3 gen_data.py --series "$n")
  db=$kit/out/petlog/series-$n.sqlite
  if [ ! -f "$db" ]; then
    "$petlog" --db "$db" pet add Rex --species dog >/dev/null
    "$petlog" --db "$db" import "$kit/data/series/weight_$n.csv" --pet Rex >/dev/null
  fi
done

# The report's pet (42 of the shelter set, as the ReportLab peer uses) in its own petlog database.
PET=${PET:-42}
[ -f "$kit/data/shelter/pets.csv" ] || (cd "$kit" && python3 gen_data.py --size shelter)
report_db=$kit/out/petlog/shelter-pet-$PET.sqlite
if [ ! -f "$report_db" ]; then   # the pet's rows of every table, imported (ids kept: an empty database)
  one=$kit/out/petlog/shelter-pet-$PET && mkdir -p "$one"
  for t in pets weights symptoms visits vaccinations expenses; do
    awk -F, -v p="$PET" 'NR == 1 || $0 ~ "^[0-9]+,"p"," || (FILENAME ~ /pets|weights/ && $1 == p)' \
      "$kit/data/shelter/$t.csv" > "$one/$t.csv"
  done
  "$petlog" --db "$report_db" import "$one" >/dev/null
fi
# The spending views' database: every shelter table (56,563 expenses among 959,057 records), imported once.
shelter_db=$kit/out/petlog/shelter-all.sqlite
[ -f "$shelter_db" ] || "$petlog" --db "$shelter_db" import "$kit/data/shelter" >/dev/null
# The export and re-import rows (issue 17): the whole shelter database exported by this petlog, as JSON
# and as a CSV folder, made again each run (untimed) so the import reads what this build writes.
rm -rf "$kit/out/petlog/shelter-all.json" "$kit/out/petlog/shelter-all-csv"
"$petlog" --db "$shelter_db" export -o "$kit/out/petlog/shelter-all.json" >/dev/null
"$petlog" --db "$shelter_db" export --format csv -o "$kit/out/petlog/shelter-all-csv" >/dev/null
# The import benchmark's input: the kit's pets and weights, as its sqlite3 and Python peers load them.
mkdir -p "$kit/out/petlog/shelter-pets-weights"
cp "$kit/data/shelter/pets.csv" "$kit/data/shelter/weights.csv" "$kit/out/petlog/shelter-pets-weights/"

# PostgreSQL (issue 16): a throwaway PostgreSQL 15 (scripts/pg-test-server.sh) holding the same data as
# the SQLite files above, imported once untimed; skipped where postgresql-15 is not installed.
pg_dir=$kit/out/pg
if [ -x /usr/lib/postgresql/15/bin/initdb ]; then
  [ -f "$pg_dir/data/postmaster.pid" ] && bash "$root/scripts/pg-test-server.sh" stop "$pg_dir" || true
  rm -rf "$pg_dir"
  eval "$(bash "$root/scripts/pg-test-server.sh" start "$pg_dir")"
  trap 'bash "$root/scripts/pg-test-server.sh" stop "$pg_dir"' EXIT
  export PSQL="/usr/lib/postgresql/15/bin/psql -X -q -h $pg_dir -p $PETLOG_PG_PORT -U postgres"
  export PG_URL="postgres://postgres@/DB?host=$pg_dir&port=$PETLOG_PG_PORT"
  for db in shelter report series import copypeer; do /usr/lib/postgresql/15/bin/createdb -h "$pg_dir" -p "$PETLOG_PG_PORT" -U postgres "$db"; done
  "$petlog" --db "${PG_URL/DB/shelter}" import "$kit/out/petlog/shelter-all.json" >/dev/null
  "$petlog" --db "${PG_URL/DB/report}" import "$kit/out/petlog/shelter-pet-$PET" >/dev/null
  "$petlog" --db "${PG_URL/DB/series}" pet add Rex --species dog >/dev/null
  # The 1M-point pet's import (which packs its series, issue 44) and the first chart after it, each run once
  # under /usr/bin/time: write_results.py sets the first chart beside the pg/chart row's later ones.
  /usr/bin/time -f '%e %U %S' -o "$pg_dir/series-import.time" \
    "$petlog" --db "${PG_URL/DB/series}" import "$kit/data/series/weight_1000000.csv" --pet Rex >/dev/null
  /usr/bin/time -f '%e %U %S' -o "$pg_dir/first-chart.time" \
    "$petlog" --db "${PG_URL/DB/series}" chart weight Rex -o "$pg_dir/first-chart.png" >/dev/null
  # The peer: psql's \copy of the same six CSV files into typed tables of their own.
  cat > "$kit/out/pg/copy.sql" <<SQL
DROP SCHEMA IF EXISTS copypeer CASCADE; CREATE SCHEMA copypeer; SET search_path = copypeer;
CREATE TABLE pets (pet_id bigint PRIMARY KEY, name text NOT NULL, species text NOT NULL, breed text, sex text, birth_date date, deceased_on date, neutered smallint, microchip text);
CREATE TABLE weights (pet_id bigint NOT NULL REFERENCES pets, measured_at timestamp NOT NULL, weight_kg numeric NOT NULL);
CREATE TABLE symptoms (symptom_id bigint PRIMARY KEY, pet_id bigint NOT NULL REFERENCES pets, observed_at timestamp NOT NULL, symptom text NOT NULL, severity smallint, note text);
CREATE TABLE visits (visit_id bigint PRIMARY KEY, pet_id bigint NOT NULL REFERENCES pets, visited_on date NOT NULL, clinic text, vet text, reason text, diagnosis text, weight_kg numeric);
CREATE TABLE vaccinations (vaccination_id bigint PRIMARY KEY, pet_id bigint NOT NULL REFERENCES pets, visit_id bigint, given_on date NOT NULL, vaccine text NOT NULL, valid_until date, lot text);
CREATE TABLE expenses (expense_id bigint PRIMARY KEY, pet_id bigint REFERENCES pets, spent_on date NOT NULL, category text NOT NULL, amount numeric NOT NULL, currency text NOT NULL, description text, visit_id bigint);
\\copy pets FROM '$kit/data/shelter/pets.csv' CSV HEADER
\\copy weights FROM '$kit/data/shelter/weights.csv' CSV HEADER
\\copy symptoms FROM '$kit/data/shelter/symptoms.csv' CSV HEADER
\\copy visits FROM '$kit/data/shelter/visits.csv' CSV HEADER
\\copy vaccinations FROM '$kit/data/shelter/vaccinations.csv' CSV HEADER
\\copy expenses FROM '$kit/data/shelter/expenses.csv' CSV HEADER
SQL
  export PG_ROWS=1
else
  export PG_ROWS=0
  echo "PostgreSQL 15 is not installed: the PostgreSQL rows are skipped (make setup installs it)" >&2
fi

# petlog's rows, in the kit's groups, inserted before the kit writes its table.
cat > "$kit/petlog_rows.sh" <<'ROWS'
for n in $POINTS; do
  k=$(label "$n")
  for fmt in png pdf; do
    bench chart/$fmt/$k/petlog "chart $fmt, $k points" "petlog chart weight" "$OUT/charts/$k-petlog.$fmt" \
      "$PETLOG_BIN --db out/petlog/series-$n.sqlite chart weight Rex -o $OUT/charts/$k-petlog.$fmt"
  done
done
bench report/pdf/petlog "report pdf, pet $PET" "petlog report" "$OUT/report-$PET-petlog.pdf" \
  "PETLOG_NOW=2024-12-31T12:00:00Z $PETLOG_BIN --db out/petlog/shelter-pet-$PET.sqlite report $PET --since 2020-01-01 --date 2024-12-31 -o $OUT/report-$PET-petlog.pdf"
# The same report in Korean (Nanum Gothic) and Japanese (M PLUS 2), beside the English one (target 1.2x).
for lang in ko:Korean ja:Japanese; do
  bench report/pdf-${lang%%:*}/petlog "report pdf, pet $PET" "${lang#*:}: petlog --lang ${lang%%:*} report" "$OUT/report-$PET-petlog-${lang%%:*}.pdf" \
    "PETLOG_NOW=2024-12-31T12:00:00Z $PETLOG_BIN --lang ${lang%%:*} --db out/petlog/shelter-pet-$PET.sqlite report $PET --since 2020-01-01 --date 2024-12-31 -o $OUT/report-$PET-petlog-${lang%%:*}.pdf"
done
# Spending views on the whole shelter, in its last full month (target < 50 ms each). `expense list` is
# skipped, not failed, by a petlog that does not have it yet.
MONEY_NOW=2024-12-31T12:00:00Z
bench money/stats/petlog "stats --month, shelter" "petlog stats --month 2024-11" - \
  "PETLOG_NOW=$MONEY_NOW $PETLOG_BIN --db out/petlog/shelter-all.sqlite stats --month 2024-11"
if PETLOG_NOW=$MONEY_NOW $PETLOG_BIN --db out/petlog/shelter-all.sqlite expense list --month 2024-11 >/dev/null 2>&1; then
  bench money/expense-list/petlog "expense list --month, shelter" "petlog expense list --month 2024-11" - \
    "PETLOG_NOW=$MONEY_NOW $PETLOG_BIN --db out/petlog/shelter-all.sqlite expense list --month 2024-11"
else
  echo ">> money/expense-list/petlog: skipped (this petlog has no expense list)" >&2
fi
# Store (issue 17): search, due and check on the whole shelter beside their peer or floor, measured in
# the same run, and pet list beside --help. The file is opened once untimed (an older file is upgraded then).
"$PETLOG_BIN" --db out/petlog/shelter-all.sqlite pet list >/dev/null
STORE_NOW=2024-12-31T12:00:00Z
bench store/list/petlog "search and due, shelter" "peer: petlog pet list" - \
  "$PETLOG_BIN --db out/petlog/shelter-all.sqlite pet list"
bench store/search/petlog "search and due, shelter" "petlog search vomiting" - \
  "$PETLOG_BIN --db out/petlog/shelter-all.sqlite search vomiting"
bench store/due/petlog "search and due, shelter" "petlog due (all pets)" - \
  "PETLOG_NOW=$STORE_NOW $PETLOG_BIN --db out/petlog/shelter-all.sqlite due"
bench store/check/petlog-floor "check, shelter" "floor: sqlite3 integrity_check + sha256sum of the attachments" - \
  "sqlite3 out/petlog/shelter-all.sqlite 'PRAGMA integrity_check' && { find out/petlog/shelter-all.sqlite.attachments -type f 2>/dev/null | xargs -r sha256sum; }"
bench store/check/petlog "check, shelter" "petlog check" - \
  "$PETLOG_BIN --db out/petlog/shelter-all.sqlite check"
bench store/start/petlog-help "pet list process" "peer: petlog --help" - "$PETLOG_BIN --help"
bench store/start/petlog "pet list process" "petlog pet list" - \
  "$PETLOG_BIN --db out/petlog/shelter-all.sqlite pet list"
bench db/load/petlog "$g" "petlog import" out/petlog/import.sqlite \
  "rm -f out/petlog/import.sqlite*; \$PETLOG_BIN --db out/petlog/import.sqlite import out/petlog/shelter-pets-weights"
bench db/load-all/sqlite3-cli "load every shelter table" "sqlite3 shell .import --all" $OUT/db/cli-all.db \
  "peers/sqlite_cli_load.sh $DATA $OUT/db/cli-all.db --all"
bench db/load-all/petlog "load every shelter table" "petlog import" out/petlog/import-all.sqlite \
  "rm -f out/petlog/import-all.sqlite*; \$PETLOG_BIN --db out/petlog/import-all.sqlite import $DATA"
# Transfer (issue 17): export the shelter beside sqlite3's own dump of the same database, and import the
# JSON export into an empty file beside petlog's import of the CSV export of the same data.
bench transfer/export/sqlite3-dump "export the shelter" "sqlite3 .dump" $OUT/petlog-shelter.sql \
  "sqlite3 out/petlog/shelter-all.sqlite .dump > $OUT/petlog-shelter.sql"
bench transfer/export/petlog-json "export the shelter" "petlog export -o all.json" $OUT/petlog-shelter.json \
  "\$PETLOG_BIN --db out/petlog/shelter-all.sqlite export -o $OUT/petlog-shelter.json"
bench transfer/export/petlog-csv "export the shelter" "petlog export --format csv" $OUT/petlog-shelter-csv \
  "rm -rf $OUT/petlog-shelter-csv; \$PETLOG_BIN --db out/petlog/shelter-all.sqlite export --format csv -o $OUT/petlog-shelter-csv"
bench transfer/import/petlog-csv "import the shelter export" "petlog import (CSV folder)" out/petlog/reimport-csv.sqlite \
  "rm -f out/petlog/reimport-csv.sqlite*; \$PETLOG_BIN --db out/petlog/reimport-csv.sqlite import out/petlog/shelter-all-csv"
bench transfer/import/petlog-json "import the shelter export" "petlog import all.json" out/petlog/reimport-json.sqlite \
  "rm -f out/petlog/reimport-json.sqlite*; \$PETLOG_BIN --db out/petlog/reimport-json.sqlite import out/petlog/shelter-all.json"
# PostgreSQL (issue 16): the shelter imported into a server beside psql's \copy of the same CSVs, and
# log, report and a 1M-point chart read from the server beside the same on the SQLite file.
if [ "$PG_ROWS" = 1 ]; then
  bench pg/import/psql-copy "import the shelter into PostgreSQL" "psql \\copy of the six CSVs" - \
    "$PSQL -d copypeer -f out/pg/copy.sql"
  bench pg/import/petlog "import the shelter into PostgreSQL" "petlog import (PostgreSQL)" - \
    "$PSQL -d import -c 'DROP SCHEMA IF EXISTS petlog CASCADE' && \$PETLOG_BIN --db '${PG_URL/DB/import}' import $DATA"
  bench pg/log/sqlite "log of a pet, shelter" "petlog log 42 (SQLite file)" - \
    "$PETLOG_BIN --db out/petlog/shelter-all.sqlite log 42 --since 2024-01-01"
  bench pg/log/postgres "log of a pet, shelter" "petlog log 42 (PostgreSQL)" - \
    "$PETLOG_BIN --db '${PG_URL/DB/shelter}' log 42 --since 2024-01-01"
  bench pg/report/sqlite "report pdf on each store" "petlog report (SQLite file)" - \
    "PETLOG_NOW=2024-12-31T12:00:00Z $PETLOG_BIN --db out/petlog/shelter-pet-$PET.sqlite report $PET --since 2020-01-01 --date 2024-12-31 -o $OUT/report-sqlite.pdf"
  bench pg/report/postgres "report pdf on each store" "petlog report (PostgreSQL)" - \
    "PETLOG_NOW=2024-12-31T12:00:00Z $PETLOG_BIN --db '${PG_URL/DB/report}' report $PET --since 2020-01-01 --date 2024-12-31 -o $OUT/report-postgres.pdf"
  # check of the whole shelter on the server, beside store/check/petlog's on the file (issue 44: ≤ 3×).
  bench pg/check/postgres "check on the server, shelter" "petlog check (PostgreSQL)" - \
    "$PETLOG_BIN --db '${PG_URL/DB/shelter}' check"
  bench pg/chart/sqlite "chart png, 1M points, each store" "petlog chart weight (SQLite file)" - \
    "$PETLOG_BIN --db out/petlog/series-1000000.sqlite chart weight Rex -o $OUT/charts/1M-sqlite.png"
  bench pg/chart/postgres "chart png, 1M points, each store" "petlog chart weight (PostgreSQL)" - \
    "$PETLOG_BIN --db '${PG_URL/DB/series}' chart weight Rex -o $OUT/charts/1M-postgres.png"
fi
ROWS
# Each row's 1-minute load average at its start and end, into out/hf/ID.load (write_results.py prints it beside the row).
sed -e 's|^"\$PY" summarize.py|source ./petlog_rows.sh\n&|' \
  -e 's|^\(  echo ">> \$id" >&2\)$|\1; cut -d" " -f1 /proc/loadavg > "$f.load"|' \
  -e 's|^\(  /usr/bin/time -v -o "\$f.rss" .*\)$|\1; cut -d" " -f1 /proc/loadavg >> "$f.load"|' \
  "$kit/run_peers.sh" > "$kit/run_with_petlog.sh"
grep -q petlog_rows "$kit/run_with_petlog.sh" || { echo "could not hook into run_peers.sh" >&2; exit 70; }
(cd "$kit" && POINTS="$POINTS" bash run_with_petlog.sh "${1:-}")
# The web rows (issue 44): petlog serve beside datasette under wrk, on copies of shelter-all.sqlite (bench/web.sh).
WEB_FROM_RUN=1 PETLOG_BIN=$petlog bash "$root/bench/web.sh" "${1:-}"

python3 "$root/bench/write_results.py" "$kit/results-peers.md" "$root/docs/benchmarks.md"
echo "wrote docs/benchmarks.md" >&2
