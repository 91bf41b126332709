"""The web rows of docs/benchmarks.md (issue 44), from bench/web.sh's results-web.json: their lines in the targets
table and the table of every wrk run. Used by write_results.py; nothing when web.sh has not run."""
import json, os

MiB = 1024


def load(path):
    return json.load(open(path)) if os.path.exists(path) else None


def _total(runs, rid):
    """requests/s over every run of the row (all requests ÷ all seconds) and its worst p99."""
    rs = [r["run"] for r in runs if r["id"] == rid]
    if not rs:
        return None
    return sum(r["requests"] for r in rs) / sum(r["seconds"] for r in rs), max(r["p99_ms"] for r in rs), rs


def flatness(by_requests):
    """RSS (KiB) over the memory run: the first sample after 10k requests, the last, and the least-squares slope
    in KiB per 10k requests over the samples from there."""
    pts = [(n, k) for n, k in by_requests if n >= 10_000]
    if len(pts) < 2:
        return None
    xs, ys = [n for n, _ in pts], [k for _, k in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return pts[0], pts[-1], slope * 10_000


def targets(web):
    """The targets table's lines: | group | what | numbers | target | met/missed |."""
    if not web:
        return []
    g, out = "serve under wrk, 16 connections", []
    pet, ds, home = (_total(web["runs"], i) for i in ("web/pet/petlog", "web/pet/datasette", "web/home/petlog"))
    if pet and ds:
        r = pet[0] / ds[0]
        out.append(f"| {g} | petlog's pet page ÷ datasette's canned query page (pet {web['pet']}), requests/s | "
                   f"{pet[0]:.0f} / {ds[0]:.0f} req/s = **{r:.2f}×** | ratio ≥ 3 | {'met' if r >= 3 else 'missed'} |")
    if pet:
        out.append(f"| {g} | the pet page's p99 (worst run) | {pet[1]:.1f} ms | ≤ 100 ms | {'met' if pet[1] <= 100 else 'missed'} |")
    if home:
        out.append(f"| {g} | the home page of {web['pets']} pets, p99 (worst run) | {home[1]:.1f} ms ({home[0]:.0f} req/s) | ≤ 150 ms | "
                   f"{'met' if home[1] <= 150 else 'missed'} |")
    peak = web["peak_rss_kib"] / MiB
    out.append(f"| {g} | petlog serve's peak RSS after the load | {peak:.1f} MiB | < 128 MiB | {'met' if peak < 128 else 'missed'} |")
    f = flatness(web.get("rss_by_requests") or [])
    if f:
        (n0, k0), (n1, k1), slope = f
        flat = k1 - k0 < 4 * MiB and slope < 512
        out.append(f"| {g} | RSS over the memory run ({n1:,} requests: every pet's page and charts, home) | "
                   f"{k0 / MiB:.1f} MiB at {n0 // 1000}k → {k1 / MiB:.1f} MiB; {slope:+.0f} KiB per 10k requests | "
                   f"growth < 4 MiB and < 512 KiB per 10k | {'met' if flat else 'missed'} |")
    return out


def table(web):
    """Every wrk run of the last web run, in order."""
    if not web:
        return []
    lines = ["", "## The web run", "",
             f"Written by `bench/web.sh` ({web['started']}): `petlog serve` (release build, its request lines to a file) and "
             f"{web['datasette']} (`datasette serve FILE -m metadata.json`, its defaults) on two copies of shelter-all.sqlite, "
             f"each run {web['wrk']} `-t1 -c16`, petlog and datasette in turn; load average {web['load_start']} at the start, "
             f"{web['load_end']} at the end (2 cores). petlog's requests carry a viewer's session cookie.", "",
             "| row | load | requests | requests/s | p50 ms | p90 ms | p99 ms | max ms | errors |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in web["runs"]:
        x = r["run"]
        if r["id"] == "web/soak/petlog":
            continue
        lines.append(f"| {r['id']} | {r['load']} | {x['requests']} | {x['rps']:.0f} | {x['p50_ms']:.1f} | {x['p90_ms']:.1f} | "
                     f"{x['p99_ms']:.1f} | {x['max_ms']:.1f} | {x['socket_errors'] + x['bad_status']} |")
    soak = [r["run"] for r in web["runs"] if r["id"] == "web/soak/petlog"]
    if soak:
        n, s = sum(x["requests"] for x in soak), sum(x["seconds"] for x in soak)
        lines.append(f"| web/soak/petlog ({len(soak)} runs) | | {n} | {n / s:.0f} | | | {max(x['p99_ms'] for x in soak):.1f} | "
                     f"{max(x['max_ms'] for x in soak):.1f} | {sum(x['socket_errors'] + x['bad_status'] for x in soak)} |")
        by = web.get("rss_by_requests") or []
        if by:
            step = max(1, len(by) // 8)
            shown = by[::step] + ([by[-1]] if (len(by) - 1) % step else [])
            lines += ["", "RSS of petlog serve during the memory run (requests so far → MiB): " +
                      ", ".join(f"{n // 1000}k → {k / MiB:.1f}" for n, k in shown) + "."]
    return lines
