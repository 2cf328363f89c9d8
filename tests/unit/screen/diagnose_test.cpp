#include "jgrid/screen/diagnose.hpp"

#include <catch2/catch.hpp>
#include <set>


using jgrid::screen::diagnose;
using jgrid::screen::diagnosis_codes;
using jgrid::screen::FailureFacts;
using jgrid::screen::OutputScan;

namespace {

struct DiagnoseCase {
  const char* expected;  // "" = no diagnosis
  const char* stream;
  const char* line;
  const char* source;
};

const DiagnoseCase k_diagnose_cases[] = {
#include "diagnose_cases.inc"
};

FailureFacts amd_exit_1() {
  FailureFacts facts;
  facts.exit_code = 1;
  facts.gpu_model = "MI300X";
  facts.gpu_arch = "gfx942";
  facts.runtime_version = "6.2";
  facts.vram_gb = 192;
  return facts;
}

std::string code_of(const std::vector<std::pair<std::string, std::string>>& lines, const FailureFacts& facts) {
  OutputScan scan;
  std::int64_t number = 0;
  for (const auto& [stream, text] : lines) scan.line(stream, ++number, text);
  auto diagnosis = diagnose(scan, facts);
  return diagnosis ? diagnosis->code : "";
}

}  // namespace

TEST_CASE("screen::diagnose reads each real error line, and no near-miss, as its code", "[screen][diagnose]") {
  std::set<std::string> covered;
  for (const auto& c : k_diagnose_cases) {
    INFO(c.line << "\n  source: " << c.source);
    CHECK(code_of({{c.stream, c.line}}, amd_exit_1()) == c.expected);
    bool real = std::string(c.source).rfind("https://github.com/", 0) == 0;
    if (real && *c.expected) covered.insert(c.expected);
  }
  // Every output code rests on real lines from public threads (TIMEOUT and OOM_KILLED come from the exit).
  for (const auto& code : diagnosis_codes())
    if (code != "TIMEOUT" && code != "OOM_KILLED") CHECK(covered.count(code) == 1);
}

TEST_CASE("screen::diagnose keeps the evidence line with its stream and number", "[screen][diagnose]") {
  OutputScan scan;
  scan.line("stdout", 7, "loading model");
  scan.line("stderr", 8, "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 3.31 GiB.");
  scan.line("stderr", 9, "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 9 GiB.");
  FailureFacts facts = amd_exit_1();
  facts.roomier_gpus = {"MI325X (256 GB)"};
  auto diagnosis = diagnose(scan, facts);
  REQUIRE(diagnosis);
  CHECK(diagnosis->code == "HIP_OUT_OF_MEMORY");
  REQUIRE(diagnosis->evidence);
  CHECK(diagnosis->evidence->stream == "stderr");
  CHECK(diagnosis->evidence->line == 8);  // the first such line
  CHECK(diagnosis->message.find("MI300X (gfx942) with 192 GB") != std::string::npos);
  CHECK(diagnosis->fix.find("MI325X (256 GB)") != std::string::npos);
}

TEST_CASE("screen::diagnose weighs codes in order: a permission problem explains no device", "[screen][diagnose]") {
  CHECK(code_of({{"stderr", "RuntimeError: No HIP GPUs are available"},
                 {"stdout", "Unable to open /dev/kfd read-write: Permission denied"}},
                amd_exit_1()) == "GPU_DEVICE_PERMISSION");
  CHECK(code_of({{"stderr", "rocBLAS error: Could not initialize Tensile host: No devices found"}}, amd_exit_1()) ==
        "NO_GPU_VISIBLE");
}

TEST_CASE("screen::diagnose names the arch and what HSA_OVERRIDE_GFX_VERSION can do", "[screen][diagnose]") {
  OutputScan scan;
  scan.line("stderr", 1, "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek "
                         "for GPU arch : gfx1201");
  FailureFacts facts;
  facts.exit_code = 134;
  auto named = diagnose(scan, facts);  // the node's arch unknown: the line's is used
  REQUIRE(named);
  CHECK(named->fix.find("rebuild the image for gfx1201") != std::string::npos);
  CHECK(named->fix.find("HSA_OVERRIDE_GFX_VERSION") != std::string::npos);
  auto node = diagnose(scan, amd_exit_1());
  CHECK(node->fix.find("rebuild the image for gfx942") != std::string::npos);
}

TEST_CASE("screen::diagnose reads the exit: timeout, 137, and nothing on a plain non-zero exit", "[screen][diagnose]") {
  OutputScan scan;
  scan.line("stderr", 1, "Traceback (most recent call last):");
  FailureFacts facts = amd_exit_1();
  CHECK_FALSE(diagnose(scan, facts));
  facts.exit_code = 137;
  CHECK(diagnose(scan, facts)->code == "OOM_KILLED");
  CHECK_FALSE(diagnose(scan, facts)->evidence);
  facts.timed_out = true;
  facts.timeout_s = 60;
  auto timeout = diagnose(scan, facts);
  CHECK(timeout->code == "TIMEOUT");
  CHECK(timeout->message.find("60 s") != std::string::npos);
}

TEST_CASE("screen::diagnose reads output patterns on AMD nodes only", "[screen][diagnose]") {
  FailureFacts facts = amd_exit_1();
  facts.amd_node = false;
  CHECK(code_of({{"stderr", "RuntimeError: Found no NVIDIA driver on your system."}}, facts).empty());
}

TEST_CASE("screen::OutputScan searches the start of a very long line only", "[screen][diagnose]") {
  std::string progress(70000, '#');
  CHECK(code_of({{"stderr", progress + "hipErrorNoDevice"}}, amd_exit_1()).empty());
  CHECK(code_of({{"stderr", "hipErrorNoDevice" + progress}}, amd_exit_1()) == "NO_GPU_VISIBLE");
}
