-- wrk script for bench/server: one request kind per run, chosen by SLATE_MODE.
--   SLATE_MODE   list | get | patch | mixed (get, list and patch in 8:1:1)
--   SLATE_TOKEN  the bearer token
--   SLATE_IDS    a file of task ids, one a line (get, patch, mixed)
--   SLATE_LIST   the list id for list pages
-- done() prints one line "WRK_JSON {...}" with the counts and latency percentiles (µs).
local mode = os.getenv("SLATE_MODE") or "get"
local token = os.getenv("SLATE_TOKEN") or ""
local list = os.getenv("SLATE_LIST") or ""
local ids = {}
local counter = 0

local function load_ids()
  local path = os.getenv("SLATE_IDS")
  if not path then return end
  for line in io.lines(path) do
    if #line > 0 then ids[#ids + 1] = line end
  end
end

function setup(thread)
  thread:set("thread_seed", math.random(1, 1000000))
end

function init(args)
  load_ids()
  math.randomseed(os.time() + (thread_seed or 0))
  wrk.headers["Authorization"] = "Bearer " .. token
  wrk.headers["Accept"] = "application/json"
end

local function list_page()
  return wrk.format("GET", "/api/v1/tasks?list=" .. list .. "&limit=50")
end

local function get_one()
  return wrk.format("GET", "/api/v1/tasks/" .. ids[math.random(#ids)])
end

local function patch_one()
  counter = counter + 1
  -- Alternate true/false per thread; random ids, so about half the requests change a task.
  local body = (counter % 2 == 0) and '{"isCompleted": true}' or '{"isCompleted": false}'
  return wrk.format("PATCH", "/api/v1/tasks/" .. ids[math.random(#ids)],
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
end

function request()
  if mode == "list" then return list_page() end
  if mode == "patch" then return patch_one() end
  if mode == "mixed" then
    local r = math.random(10)
    if r == 1 then return list_page() end
    if r == 2 then return patch_one() end
    return get_one()
  end
  return get_one()
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, "errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, "latency_us": {"p50": %d, "p90": %d, "p99": %d, "max": %d, "mean": %.1f}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
