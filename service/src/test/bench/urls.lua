-- wrk script: cycles through presigned URLs (urls.txt); with WRK_METHOD=PUT sends a distinct
-- 20 KB body per request (the request number in front of fixed filler), so content never dedups.
-- WRK_THREADS must equal wrk's -t so that the threads share the URLs out between them.
local method = os.getenv("WRK_METHOD") or "GET"
local stride = tonumber(os.getenv("WRK_THREADS") or "2")
local file = os.getenv("WRK_URLS") or "urls.txt"
local urls = {}
for line in io.lines(file) do urls[#urls + 1] = line end
local filler = string.rep("cairn-bench-", 1707):sub(1, 20480 - 16)
local counter = 0
local id = 0
local threads = 1

function setup(thread)
  thread:set("id", id)
  id = id + 1
end

local formatted = {}

-- GETs are formatted once, as wrk does for a plain URL, so that the client's work stays as small
-- as in the runs without a script.
function init(args)
  counter = 0
  if method ~= "PUT" then
    for i, url in ipairs(urls) do formatted[i] = wrk.format("GET", url) end
  end
end

function request()
  counter = counter + 1
  local n = (counter * stride + id) % #urls + 1
  if method == "PUT" then
    local body = string.format("%016d", counter * stride + id) .. filler
    return wrk.format("PUT", urls[n], nil, body)
  end
  return formatted[n]
end
