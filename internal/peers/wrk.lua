-- httpvs: count responses outside 2xx, and print wrk's summary as one
-- JSON line (times in microseconds). Each wrk thread runs its own Lua
-- state: setup keeps them so that done can add up their counts.
local threads = {}

setup = function(thread)
  table.insert(threads, thread)
end

non2xx = 0

response = function(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end

done = function(summary, latency, requests)
  local e, n = summary.errors, 0
  for _, t in ipairs(threads) do
    n = n + t:get("non2xx")
  end
  io.write(string.format(
    'HTTPVS-WRK {"duration_us":%d,"requests":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"non2xx":%d},' ..
    '"latency_us":{"min":%d,"max":%d,"mean":%.3f,"stdev":%.3f,"p50":%d,"p90":%d,"p99":%d,"p999":%d}}\n',
    summary.duration, summary.requests, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout, n,
    latency.min, latency.max, latency.mean, latency.stdev,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9)))
end
