-- wrk's script for bench/web.sh: the run's summary as one JSON line on stdout (requests, seconds, requests/s,
-- latency percentiles in ms, socket errors, answers other than 2xx/3xx). WRK_PATHS (environment, paths separated
-- by spaces): asked in turn (from a random one); without it, the URL's path only.
local paths = {}
for p in (os.getenv("WRK_PATHS") or ""):gmatch("%S+") do paths[#paths + 1] = p end
if #paths > 0 then
  local n = math.random(#paths)
  request = function()
    n = n % #paths + 1
    return wrk.format(nil, paths[n])
  end
end

done = function(summary, latency, requests)
  local e, s = summary.errors, summary.duration / 1e6
  io.write(string.format('{"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.3f, "p90_ms": %.3f, "p99_ms": %.3f, ' ..
    '"max_ms": %.3f, "socket_errors": %d, "bad_status": %d}\n', summary.requests, s, summary.requests / s,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.connect + e.read + e.write + e.timeout, e.status))
end
