-- wrk script for bench/server: one request kind per run, chosen by SLATE_MODE.
--   SLATE_MODE   list | get | patch | mixed (get, list and patch in 8:1:1) | patch-if-match
--   SLATE_TOKEN  the bearer token
--   SLATE_IDS    a file of task ids, one a line (get, patch, mixed)
--   SLATE_LIST   the list id for list pages
--   SLATE_ETAGS  patch-if-match: a file of "id etag" lines (the task's ETag when it was read);
--                thread i of SLATE_THREADS takes lines i, i + n, …, so no two threads (and, with
--                a file of its own per wrk, no two wrk processes) write the same task
-- done() prints one line "WRK_JSON {...}" with the counts and latency percentiles (µs), and in
-- patch-if-match a line "WRK_IF_MATCH {...}" with the answers by status.
local mode = os.getenv("SLATE_MODE") or "get"
local token = os.getenv("SLATE_TOKEN") or ""
local list = os.getenv("SLATE_LIST") or ""
local ids = {}
local counter = 0
local threads = {}

-- patch-if-match: this thread's tasks, each one's last ETag, and the ones in flight (a
-- connection waits for its answer before its next request, so a task is never written by
-- two of this thread's connections at once and its ETag is the current one).
local owned, etags, busy = {}, {}, {}
ok, stale, other = 0, 0, 0

local function load_etags(index, count)
  local path = os.getenv("SLATE_ETAGS")
  if not path then return end
  local line_number = 0
  for line in io.lines(path) do
    local id, etag = line:match("^(%S+)%s+(%S+)$")
    if id then
      if line_number % count == index then
        owned[#owned + 1] = id
        etags[id] = etag
      end
      line_number = line_number + 1
    end
  end
end

local function load_ids()
  local path = os.getenv("SLATE_IDS")
  if not path then return end
  for line in io.lines(path) do
    if #line > 0 then ids[#ids + 1] = line end
  end
end

function setup(thread)
  thread:set("thread_seed", math.random(1, 1000000))
  thread:set("thread_index", #threads)
  threads[#threads + 1] = thread
end

function init(args)
  load_ids()
  if mode == "patch-if-match" then
    load_etags(thread_index or 0, tonumber(os.getenv("SLATE_THREADS") or "1"))
    -- Only this mode reads answers: response() costs wrk a body copy per request.
    response = if_match_response
  end
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

-- Completion alternates true/false per thread on random ids, so it changes about half the
-- tasks it is sent to; the tag changes every one. Every request is a durable write, as the
-- line measures (an edit that changes nothing writes nothing, since 2026-12-07).
local function toggle_body()
  local done = (counter % 2 == 0) and "true" or "false"
  return '{"isCompleted": ' .. done .. ', "tags": ["b' .. counter .. '"]}'
end

local function patch_one()
  counter = counter + 1
  local body = toggle_body()
  return wrk.format("PATCH", "/api/v1/tasks/" .. ids[math.random(#ids)],
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
end

local function patch_if_match()
  local id
  for _ = 1, 8 do
    id = owned[math.random(#owned)]
    if not busy[id] then break end
  end
  busy[id] = true
  counter = counter + 1
  local body = toggle_body()
  return wrk.format("PATCH", "/api/v1/tasks/" .. id,
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token, ["If-Match"] = etags[id] }, body)
end

-- The task's id is in the answer (the task, or a 412's current version) and its ETag in a header.
function if_match_response(status, headers, body)
  local id = body and body:match('"id"%s*:%s*"([%x%-]+)"')
  if id then
    busy[id] = nil
    local etag = headers["ETag"] or headers["Etag"] or headers["etag"]
    if etag then etags[id] = etag end
  end
  if status == 200 then ok = ok + 1 elseif status == 412 then stale = stale + 1 else other = other + 1 end
end

function request()
  if mode == "patch-if-match" then return patch_if_match() end
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
  if mode == "patch-if-match" then
    local answered = { ok = 0, stale = 0, other = 0 }
    for _, thread in ipairs(threads) do
      for key in pairs(answered) do answered[key] = answered[key] + (thread:get(key) or 0) end
    end
    io.write(string.format('WRK_IF_MATCH {"ok": %d, "stale_412": %d, "other": %d}\n', answered.ok, answered.stale, answered.other))
  end
end
