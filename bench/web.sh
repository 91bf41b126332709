#!/usr/bin/env bash
# make bench's web rows (issue 44): `petlog serve` beside datasette 0.65.5 under wrk, 16 connections, on two copies
# of the bench's shelter file (shelter-all.sqlite: every shelter table, 500 pets). Called by bench/run.sh; runs alone
# too (it makes what it needs that run.sh would have made). Writes .build/bench-kit/out/web/results-web.json, which
# bench/write_results.py turns into the web rows of docs/benchmarks.md.
# usage: bench/web.sh [FILTER]   rows whose id contains FILTER (web/pet, web/home, web/chart, web/soak); a FILTER
#                                that names no web row runs nothing
# env: WEB_SECONDS=10 (each measured wrk run), WEB_ROUNDS=2 (petlog and datasette taken in turn, back to back),
#      WEB_SOAK=100000 (requests of the memory run; WEB_SOAK_MAX_SECONDS=600 at most), PET=42, PETLOG_BIN (else the static release build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kit_src=${PETLOG_BENCH_KIT:-$root/../shared/bench}
kit=$root/.build/bench-kit
out=$kit/out/web
FILTER=${1:-}
SECONDS_EACH=${WEB_SECONDS:-10} ROUNDS=${WEB_ROUNDS:-2} SOAK=${WEB_SOAK:-100000} PET=${PET:-42}
ids="web/pet web/home web/chart web/soak"
wanted() { [[ -z $FILTER || $FILTER == petlog || $1 == *"$FILTER"* ]]; }   # run.sh's `petlog`: all of them
any=0; for id in $ids; do wanted "$id" && any=1; done
[ "$any" = 1 ] || exit 0

# --- the web rows' setup: wrk (Debian) and datasette in a venv of its own under .build, pinned -------------------
if ! command -v wrk >/dev/null; then
  echo "installing wrk" >&2
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; fi
fi
venv=$root/.build/bench-web-venv
if ! "$venv/bin/datasette" --version 2>/dev/null | grep -q '0\.65\.5$'; then
  echo "installing datasette 0.65.5 into $venv" >&2
  rm -rf "$venv" && mkdir -p "$root/.build"
  { python3 -m venv "$venv" && "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-warn-conflicts \
      --root-user-action=ignore -r "$root/bench/web-requirements.txt"; } > "$root/.build/pip-bench-web.log" 2>&1 ||
    { cat "$root/.build/pip-bench-web.log" >&2; exit 1; }
fi

# --- inputs (not timed): the release petlog and the shelter file, as bench/run.sh makes them -----------------------
if [ -z "${PETLOG_BIN:-}" ]; then
  (cd "$root" && swift build -c release --static-swift-stdlib --product petlog >&2)
  PETLOG_BIN=$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path)/petlog
fi
shelter_db=$kit/out/petlog/shelter-all.sqlite
if [ ! -f "$shelter_db" ]; then
  [ -d "$kit_src" ] || { echo "peer kit not found at $kit_src" >&2; exit 66; }
  mkdir -p "$kit/out/petlog"
  [ -f "$kit/gen_data.py" ] || (cd "$kit_src" && tar --exclude=./out --exclude=./results-peers.md -cf - .) | (cd "$kit" && tar -xf -)
  [ -f "$kit/data/shelter/pets.csv" ] || (cd "$kit" && python3 gen_data.py --size shelter)
  "$PETLOG_BIN" --db "$shelter_db" import "$kit/data/shelter" >/dev/null
fi
"$PETLOG_BIN" --db "$shelter_db" pet list >/dev/null   # an older file is upgraded here, not in a copy's first request
mkdir -p "$out" && rm -f "$out"/*.sqlite* "$out/runs.jsonl" "$out/cookies"
sqlite3 "$shelter_db" ".backup '$out/petlog.sqlite'"
sqlite3 "$shelter_db" ".backup '$out/shelter.sqlite'"
pets=$(sqlite3 "$out/petlog.sqlite" "SELECT count(*) FROM pet WHERE archived_on IS NULL")
name=$(sqlite3 "$out/petlog.sqlite" "SELECT name FROM pet WHERE id = $PET")

# Both servers see the shelter's last day as today (as the due and money rows do); stopped when this script ends.
export TZ=UTC PETLOG_NOW=2024-12-31T12:00:00Z
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 1 300); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "no answer from $1" >&2; exit 69; }

# petlog serve on its copy, a viewer signed in as a browser would (the login form's token, then its cookie).
password=$(head -c 12 /dev/urandom | base64 | tr -d '/+=')
printf '%s\n' "$password" | "$PETLOG_BIN" --db "$out/petlog.sqlite" user add bench-viewer --role viewer --password-stdin >/dev/null
petlog_port=$(free_port)
"$PETLOG_BIN" --db "$out/petlog.sqlite" serve --listen "127.0.0.1:$petlog_port" 2> "$out/petlog-serve.log" &
petlog_pid=$!; pids+=("$petlog_pid")
petlog_url=http://127.0.0.1:$petlog_port
wait_for "$petlog_url/healthz"
csrf=$(curl -fsS -c "$out/cookies" "$petlog_url/login" | sed -n 's/.*name="csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
curl -fsS -o /dev/null -b "$out/cookies" -c "$out/cookies" --data-urlencode name=bench-viewer --data-urlencode "password=$password" \
  --data-urlencode "csrf=$csrf" "$petlog_url/login"
session=$(awk '$6 == "petlog_session" { print $7 }' "$out/cookies")
[ -n "$session" ] || { echo "the viewer could not sign in" >&2; exit 70; }
cookie="Cookie: petlog_session=$session"
page=$(curl -fsS -H "$cookie" "$petlog_url/pets/$PET")
grep -qF "$name" <<<"$page" || { echo "/pets/$PET is not the pet's page" >&2; exit 70; }

# datasette on its copy: a canned query (metadata.json) of the same pet's 50 latest weights, shown as its HTML page.
cat > "$out/metadata.json" <<JSON
{"databases": {"shelter": {"queries": {"pet_weights": {
  "title": "A pet's 50 latest weights",
  "sql": "SELECT datetime(r.at + r.utc_offset, 'unixepoch') AS measured, w.grams / 1000.0 AS kg, w.body_condition AS bcs, r.note FROM record r JOIN weight w ON w.record_id = r.id WHERE r.pet_id = :pet AND r.kind = 'weight' ORDER BY r.at DESC LIMIT 50"
}}}}}
JSON
datasette_port=$(free_port)
"$venv/bin/datasette" serve "$out/shelter.sqlite" -m "$out/metadata.json" -h 127.0.0.1 -p "$datasette_port" > "$out/datasette.log" 2>&1 &
datasette_pid=$!; pids+=("$datasette_pid")
datasette_url=http://127.0.0.1:$datasette_port
wait_for "$datasette_url/-/versions.json"
rows=$(curl -fsS "$datasette_url/shelter/pet_weights.json?pet=$PET&_shape=array" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
[ "$rows" = 50 ] || { echo "datasette's canned query gave $rows rows, not 50" >&2; exit 70; }

# --- wrk ID URL SECONDS [HEADER]: one run of 16 connections (one wrk thread), its summary appended to runs.jsonl ---
run() {
  local id=$1 url=$2 secs=$3 header=${4:-X-Bench: 1}
  echo ">> $id ($secs s)" >&2
  local line
  line=$(wrk -t1 -c16 -d"${secs}s" --timeout 10s -H "$header" -s "$root/bench/web.lua" "$url" | tail -1)
  printf '{"id": "%s", "load": %s, "run": %s}\n' "$id" "$(cut -d' ' -f1 /proc/loadavg)" "$line" >> "$out/runs.jsonl"
}
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$petlog_pid/status"; }

loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%FT%TZ)
# Warm-up (not counted): each page once for a few seconds.
wrk -t1 -c16 -d3s -H "$cookie" "$petlog_url/pets/$PET" >/dev/null
wrk -t1 -c16 -d3s "$datasette_url/shelter/pet_weights?pet=$PET" >/dev/null
for ((r = 1; r <= ROUNDS; r++)); do   # back to back, in turn, so both see the same machine
  if wanted web/pet; then
    run web/pet/petlog "$petlog_url/pets/$PET" "$SECONDS_EACH" "$cookie"
    run web/pet/datasette "$datasette_url/shelter/pet_weights?pet=$PET" "$SECONDS_EACH"
  fi
  wanted web/home && run web/home/petlog "$petlog_url/" "$SECONDS_EACH" "$cookie"
  wanted web/chart && run web/chart/petlog "$petlog_url/pets/$PET/weight.svg?since=1y" "$SECONDS_EACH" "$cookie"
done

# The memory run: every pet's page and chart and home in turn until WEB_SOAK requests, petlog's RSS read from /proc
# every half second and after each 5-second wrk run (with the requests so far).
if wanted web/soak; then
  paths="/"
  for id in $(sqlite3 "$out/petlog.sqlite" "SELECT id FROM pet WHERE archived_on IS NULL ORDER BY id"); do
    paths+=" /pets/$id /pets/$id/weight.svg?since=1y /pets/$id/weight.svg?since=1y&theme=dark"
  done
  ( while kill -0 "$petlog_pid" 2>/dev/null; do echo "$(date +%s.%N) $(rss_kib)"; sleep 0.5; done ) > "$out/rss-samples.txt" &
  sampler=$!
  done_requests=0 soak_seconds=0
  echo "0 $(rss_kib)" > "$out/rss-by-requests.txt"
  while [ "$done_requests" -lt "$SOAK" ] && [ "$soak_seconds" -lt "${WEB_SOAK_MAX_SECONDS:-600}" ]; do
    WRK_PATHS=$paths run web/soak/petlog "$petlog_url/" 5 "$cookie"
    n=$(tail -1 "$out/runs.jsonl" | python3 -c 'import json, sys; print(json.load(sys.stdin)["run"]["requests"])')
    done_requests=$((done_requests + n)) soak_seconds=$((soak_seconds + 5))
    echo "$done_requests $(rss_kib)" >> "$out/rss-by-requests.txt"
  done
  kill "$sampler" 2>/dev/null || true
fi
peak_kib=$(awk '/^VmHWM/ { print $2 }' "/proc/$petlog_pid/status")
loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)
page=$(curl -fsS -H "$cookie" "$petlog_url/pets/$PET")
grep -qF "$name" <<<"$page" || { echo "the session ended during the run" >&2; exit 70; }

python3 - "$out" "$started" "$loadavg_start" "$loadavg_end" "$peak_kib" "$pets" "$PET" "$("$venv/bin/datasette" --version)" "$(wrk --version 2>&1 | head -1 | sed "s/ \[.*//")" "$FILTER" <<'PY'
import json, os, sys
out, started, load0, load1, peak, pets, pet, ds, wrk, filt = sys.argv[1:]
runs = [json.loads(l) for l in open(f"{out}/runs.jsonl")] if os.path.exists(f"{out}/runs.jsonl") else []
ran = {r["id"].rsplit("/", 1)[0] for r in runs}
soaked = "web/soak" in ran
by_req = [tuple(map(int, l.split())) for l in open(f"{out}/rss-by-requests.txt")] if soaked else []
old = json.load(open(f"{out}/results-web.json")) if filt and os.path.exists(f"{out}/results-web.json") else None
if old:   # a filtered run keeps the last run's other rows
    runs = [r for r in old["runs"] if r["id"].rsplit("/", 1)[0] not in ran] + runs
    by_req = by_req if soaked else old.get("rss_by_requests", [])
json.dump({"started": started, "load_start": load0, "load_end": load1, "peak_rss_kib": int(peak), "pets": int(pets), "pet": int(pet),
           "datasette": ds, "wrk": wrk, "runs": runs, "rss_by_requests": by_req}, open(f"{out}/results-web.json", "w"), indent=1)
PY
echo "wrote $out/results-web.json" >&2
# Alone (not from bench/run.sh): docs/benchmarks.md rewritten with these rows beside the kit's last table.
if [ -z "${WEB_FROM_RUN:-}" ] && [ -f "$kit/results-peers.md" ]; then
  python3 "$root/bench/write_results.py" "$kit/results-peers.md" "$root/docs/benchmarks.md" && echo "wrote docs/benchmarks.md" >&2
fi
