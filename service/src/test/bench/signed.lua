-- wrk script: cycles through header-signed GETs (sign_headers.py: path, Authorization,
-- X-Amz-Date, X-Amz-Content-Sha256, tab-separated). WRK_THREADS must equal wrk's -t.
local stride = tonumber(os.getenv("WRK_THREADS") or "2")
local file = os.getenv("WRK_SIGNED") or "signed.txt"
local requests = {}
local lines = {}
for line in io.lines(file) do lines[#lines + 1] = line end
local counter = 0
local id = 0

function setup(thread)
  thread:set("id", id)
  id = id + 1
end

-- Formatted here, not at load: wrk sets its host and port before init.
function init(args)
  local host = wrk.host .. ":" .. wrk.port
  for _, line in ipairs(lines) do
    local path, auth, date, sha = line:match("^([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)$")
    requests[#requests + 1] = wrk.format("GET", path, {["Host"] = host, ["Authorization"] = auth,
        ["X-Amz-Date"] = date, ["X-Amz-Content-Sha256"] = sha})
  end
end

function request()
  counter = counter + 1
  return requests[(counter * stride + id) % #requests + 1]
end
