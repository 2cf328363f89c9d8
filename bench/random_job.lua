-- GET /v1/jobs/{id} of a random id from a file of ids, one per line.
-- Usage: wrk … -s bench/random_job.lua URL -- IDS_FILE
local ids = {}

function init(args)
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  math.randomseed(os.time() + tonumber(tostring(ids):match("0x(%x+)") or "0", 16) % 100000)
end

function request()
  return wrk.format("GET", "/v1/jobs/" .. ids[math.random(#ids)])
end
