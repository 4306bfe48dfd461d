-- wrk script for bench_tables.py: the live round through the pit API, as bench_tables.py's
-- Python client plays it. Each wrk thread holds one connection and one table: it
-- opens a session, then plays rounds as four commands (open with 6 bets from 3 seats, no more
-- bets, outcome, settle), each with its own Idempotency-Key. Run by bench_tables.py:
--   wrk -t N -c N -d S -s bench/live_round.lua http://127.0.0.1:PORT -- TOKEN CASINO FIRST
-- where FIRST is the number of the first table (thread i plays table r<FIRST + i>).

local next_thread = 0
local threads = {}

function setup(thread)
   thread:set("index", next_thread)
   next_thread = next_thread + 1
   table.insert(threads, thread)
end

-- failures and first_error are globals: done() reads them with thread:get().
local token, casino, first_table, step, session, round_id, sent

function init(args)
   token, casino, first_table = args[1], args[2], tonumber(args[3])
   step, sent, failures = "session", 0, 0
   math.randomseed(index + 1)
end

local function key()
   sent = sent + 1
   return string.format("wrk-r%d-%d", first_table + index, sent) -- unique in the bench database
end

local function post(path, body)
   return wrk.format("POST", "/api/v1/pit" .. path, {
      ["Authorization"] = "Token " .. token,
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = key(),
   }, body)
end

local function bets()
   local n = math.random(1, 33)
   return string.format(
      '{"bets": [' ..
      '{"seat": 1, "player": "P-b001", "type": "straight", "numbers": [%d], "amount": "5"},' ..
      '{"seat": 1, "player": "P-b001", "type": "red", "amount": "20"},' ..
      '{"seat": 2, "player": "P-b002", "type": "split", "numbers": [%d, %d], "amount": "10"},' ..
      '{"seat": 2, "player": "P-b002", "type": "dozen", "dozen": %d, "amount": "15"},' ..
      '{"seat": 3, "player": "P-b003", "type": "column", "column": %d, "amount": "10"},' ..
      '{"seat": 3, "player": "P-b003", "type": "even", "amount": "25"}]}',
      math.random(0, 36), n, n + 3, math.random(1, 3), math.random(1, 3))
end

function request()
   if step == "session" then
      return post(string.format("/tables/%s/r%d/sessions/", casino, first_table + index),
                  '{"opening": {"100.00": 100}}')
   elseif step == "open" then
      return post(string.format("/sessions/%s/rounds/open/", session), bets())
   elseif step == "close" then
      return post(string.format("/rounds/%s/close-betting/", round_id), "{}")
   elseif step == "outcome" then
      return post(string.format("/rounds/%s/outcome/", round_id),
                  string.format('{"outcome": {"number": %d}}', math.random(0, 36)))
   else
      return post(string.format("/rounds/%s/settle/", round_id), "{}")
   end
end

local following = {open = "close", close = "outcome", outcome = "settle", settle = "open"}

function response(status, headers, body)
   if status >= 300 then
      failures = failures + 1
      if first_error == nil then
         first_error = string.format("%d %s: %s", status, step, body)
      end
      if step ~= "session" then
         step = "open" -- start a new round rather than repeat a refused command
      end
      return
   end
   if step == "session" then
      session = body:match('"session_id"%s*:%s*"([^"]+)"')
      step = "open"
   elseif step == "open" then
      round_id = body:match('"round_id"%s*:%s*"([^"]+)"')
      step = "close"
   else
      step = following[step]
   end
end

function done(summary, latency, requests)
   local failed, message = 0, nil
   for _, thread in ipairs(threads) do
      failed = failed + (thread:get("failures") or 0)
      message = message or thread:get("first_error")
   end
   io.write(string.format("WRK requests=%d seconds=%.3f p50_us=%d p99_us=%d refused=%d "
                          .. "socket_errors=%d\n",
                          summary.requests, summary.duration / 1e6,
                          latency:percentile(50), latency:percentile(99), failed,
                          summary.errors.connect + summary.errors.read + summary.errors.write
                          + summary.errors.timeout))
   if message then
      io.write("WRK first refusal: " .. message .. "\n")
   end
end
