#include <catch2/catch.hpp>

#include "screen/facts.hpp"
#include "screen_fixtures.hpp"

namespace model = jgrid::model;
using namespace jgrid::screen;
using namespace jgrid::screen::testing;

TEST_CASE("screen::find_framework knows the ROCm and CUDA-only hints", "[screen]") {
  REQUIRE(find_framework("pytorch-rocm"));
  CHECK(find_framework("pytorch-rocm")->side == Side::amd);
  CHECK(find_framework("LLAMA.CPP-ROCM")->side == Side::amd);
  REQUIRE(find_framework("vllm-cuda"));
  CHECK(find_framework("vllm-cuda")->rocm_alternative == "vllm-rocm");
  CHECK(find_framework("triton-cuda")->side == Side::nvidia);
  CHECK_FALSE(find_framework("pytorch"));
  CHECK_FALSE(find_framework(""));
}

TEST_CASE("screen::job_declarations lists declared stacks in field order", "[screen]") {
  model::JobSpec spec;
  spec.gpu_vendor = "nvidia";
  spec.runtime = "rocm";
  spec.framework = "onnx-rocm";
  spec.labels = {{"amd.com/gpu", "1"}, {"io.junglegrid.runtime", "rocm"}, {"team", "ml"}};
  auto all = job_declarations(spec);
  REQUIRE(all.size() == 5);
  CHECK(all[0].field == "gpu_vendor");
  CHECK(all[0].side == Side::nvidia);
  CHECK(all[1].text == "runtime rocm");
  CHECK(all[2].field == "framework");
  CHECK(all[3].text == "label amd.com/gpu");
  CHECK(all[4].side == Side::amd);
  CHECK(job_declarations(model::JobSpec{}).empty());
}

TEST_CASE("screen::detect_intent: explicit ROCm intent from each signal", "[screen]") {
  auto amd_from = [](auto edit) {
    model::JobSpec spec = undeclared_request();
    ImageMetadata image;
    edit(spec, image);
    return detect_intent(spec, image);
  };
  std::vector<std::function<void(model::JobSpec&, ImageMetadata&)>> signals = {
      [](auto& s, auto&) { s.gpu_vendor = "AMD"; },
      [](auto& s, auto&) { s.runtime = "ROCm"; },
      [](auto& s, auto&) { s.framework = "vllm-rocm"; },
      [](auto& s, auto&) { s.labels["io.junglegrid.runtime"] = "rocm"; },
      [](auto& s, auto&) { s.labels["AMD.com/gpu"] = "1"; },
      [](auto&, auto& i) { i = rocm_catalog_entry(); },
      [](auto&, auto& i) { i.labels["org.opencontainers.image.vendor"] = "amd"; },
      [](auto&, auto& i) { i.env["ROCM_PATH"] = "/opt/rocm"; },
  };
  for (std::size_t i = 0; i < signals.size(); ++i) {
    INFO("signal " << i);
    Intent intent = amd_from(signals[i]);
    CHECK(intent.explicit_rocm);
    CHECK_FALSE(intent.explicit_nvidia);
    CHECK(intent.vendor == "amd");
    CHECK(intent.runtime == "rocm");
    CHECK(intent.confidence == "high");
    CHECK_FALSE(intent.reasons.empty());
  }
}

TEST_CASE("screen::detect_intent: NVIDIA intent beats the image's ROCm labels", "[screen]") {
  model::JobSpec spec = nvidia_request("ghcr.io/acme/app:latest");
  Intent intent = detect_intent(spec, rocm_catalog_entry());
  CHECK(intent.explicit_nvidia);
  CHECK(intent.explicit_rocm);
  CHECK(intent.vendor == "nvidia");
  CHECK(intent.runtime == "cuda");
}

TEST_CASE("screen::detect_intent: contradictory declarations leave the vendor open", "[screen]") {
  model::JobSpec spec = undeclared_request();
  spec.gpu_vendor = "amd";
  spec.framework = "vllm-cuda";
  Intent intent = detect_intent(spec, {});
  CHECK(intent.explicit_rocm);
  CHECK(intent.explicit_nvidia);
  CHECK(intent.vendor.empty());
  CHECK(intent.confidence == "low");
}

TEST_CASE("screen::detect_intent: no declaration infers from the image and command", "[screen]") {
  Intent cuda = detect_intent(undeclared_request("nvcr.io/nvidia/pytorch:24.01-py3"), {});
  CHECK(cuda.unknown_cuda_heavy);
  CHECK_FALSE(cuda.explicit_nvidia);
  CHECK(cuda.vendor == "nvidia");
  CHECK(cuda.confidence == "medium");

  Intent rocm = detect_intent(undeclared_request("rocm/pytorch:latest"), {});
  CHECK_FALSE(rocm.explicit_rocm);
  CHECK_FALSE(rocm.unknown_cuda_heavy);
  CHECK(rocm.vendor == "amd");
  CHECK(rocm.confidence == "medium");

  // AMD only with ROCm evidence: nothing says ROCm -> NVIDIA capacity only.
  Intent unknown = detect_intent(undeclared_request(), {});
  CHECK(unknown.unknown_stack);
  CHECK(unknown.vendor == "nvidia");
  CHECK(unknown.runtime == "cuda");
  CHECK_FALSE(unknown.unknown_cuda_heavy);
  CHECK(unknown.confidence == "low");
  CHECK(unknown.image_source == "name only");
  CHECK_FALSE(rocm.unknown_stack);
  CHECK_FALSE(cuda.unknown_stack);
}

TEST_CASE("screen::detect_intent: a fleet may let unknown stacks use any vendor", "[screen]") {
  Intent any = detect_intent(undeclared_request(), {}, ScreenOptions{true});
  CHECK_FALSE(any.unknown_stack);
  CHECK(any.vendor.empty());
  CHECK(any.runtime.empty());
  // The option changes nothing for CUDA-looking or ROCm-named images.
  CHECK(detect_intent(undeclared_request("nvcr.io/nvidia/pytorch:24.01-py3"), {}, ScreenOptions{true}).vendor ==
        "nvidia");
  CHECK(detect_intent(undeclared_request("rocm/pytorch:latest"), {}, ScreenOptions{true}).vendor == "amd");
}

TEST_CASE("screen::detect_intent: ROCm image metadata is ROCm evidence, whatever its source", "[screen]") {
  ImageMetadata labelled{{{"io.junglegrid.runtime", "rocm"}}, {}, "sha256:1", true, "registry"};
  Intent intent = detect_intent(undeclared_request("ghcr.io/acme/app:1.0"), labelled);
  CHECK(intent.explicit_rocm);
  CHECK_FALSE(intent.unknown_stack);
  CHECK(intent.vendor == "amd");
  CHECK(intent.image_source == "registry");
  ImageMetadata plain{{}, {{"PATH", "/usr/bin"}}, "sha256:2", true, "local"};
  Intent unknown = detect_intent(undeclared_request("ghcr.io/acme/app:1.0"), plain);
  CHECK(unknown.unknown_stack);
  CHECK(unknown.image_source == "local");
  CHECK(unknown.reasons.back().find("nothing about the image (local) says ROCm") != std::string::npos);
}

TEST_CASE("screen::detect_intent: vendor any and runtime auto declare nothing", "[screen]") {
  model::JobSpec spec = undeclared_request("ghcr.io/acme/app:cu124");
  spec.gpu_vendor = "any";
  spec.runtime = "auto";
  Intent intent = detect_intent(spec, {});
  CHECK_FALSE(intent.explicit_rocm);
  CHECK_FALSE(intent.explicit_nvidia);
  CHECK(intent.unknown_cuda_heavy);
}
