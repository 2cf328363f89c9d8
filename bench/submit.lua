-- wrk script: POST the ROCm example as fast as the connections allow.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"workload_type":"inference","image":"ghcr.io/acme/pytorch-rocm:latest","gpu_vendor":"amd",' ..
           '"runtime":"rocm","framework":"pytorch-rocm","command":["python","infer.py"],' ..
           '"expected_artifacts":["/workspace/artifacts/result.json"],"sim":{"duration_s":1}}'
local accepted, other = 0, 0
response = function(status, headers, body)
  if status == 202 then accepted = accepted + 1 else other = other + 1 end
end
