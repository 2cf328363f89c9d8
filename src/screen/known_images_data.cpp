#include "screen/known_images.hpp"

namespace jgrid::screen {

// One entry per image family whose default build is CUDA. Sources: each entry
// cites the project's own page (install docs, README, Dockerfile, release
// notes) showing its default image is a CUDA build, and where the project (or
// AMD) publishes the ROCm build. rocm_image/rocm_source are empty when no
// prebuilt ROCm image of that project could be confirmed.
//
// Order matters: find_known_cuda_image() returns the first family whose
// pattern matches, so the specific NGC families come before the nvcr.io/nvidia/*
// catch-all. A reference whose name or tag carries a ROCm token (rocm,
// rocm630, ...) is taken as ROCm before this table is consulted, which is why
// e.g. docker.io/ollama/ollama covers every tag although ollama/ollama:rocm
// exists.
const std::vector<KnownImageFamily>& known_image_families() {
  static const std::vector<KnownImageFamily> k_families = {
      // vLLM's official OpenAI-compatible server image is run with
      // `--runtime nvidia --gpus all` (CPU builds live in a separate public.ecr.aws
      // repository). Since 2026-01 the project publishes its ROCm build as
      // vllm/vllm-openai-rocm; AMD's older rocm/vllm and rocm/vllm-dev are marked
      // deprecated in favour of it (both still carry a rocm token).
      {
          "vLLM",
          {"docker.io/vllm/vllm-openai"},
          "https://docs.vllm.ai/en/stable/deployment/docker/",
          "vllm/vllm-openai-rocm",
          "https://github.com/vllm-project/vllm/blob/main/docs/getting_started/installation/gpu.rocm.inc.md",
      },
      // SGLang: "SGLang images ship a CUDA 13 environment" (the CUDA 12 builds
      // were the -cu12/-cu129 tags, older ones -cu124 etc.). The ROCm builds are
      // tags of the same repository (<version>-rocm<NNN>-mi30x|mi35x); AMD also
      // publishes rocm/sgl-dev.
      // Unconfirmed: -xeon CPU tags of lmsysorg/sglang (the CPU docs only show a
      // locally built image), so no tag exclusion is attempted.
      {
          "SGLang",
          {"docker.io/lmsysorg/sglang"},
          "https://raw.githubusercontent.com/sgl-project/sglang/7760d5264ac16b85392aefb1bf5c13ce38d9632e/docs/docs/"
          "get-started/install.mdx",
          "lmsysorg/sglang:v0.5.5.post2-rocm700-mi30x",
          "https://docs.sglang.io/platforms/amd_gpu.html",
      },
      // TGI's README runs `--gpus all ...:3.3.5` and tells AMD users to use the
      // `-rocm` tag instead. Known gap: the same repository also publishes
      // non-CUDA tags (-intel-xpu, -intel-cpu; see installation_intel) that a
      // '*'-only glob cannot exclude, so they match this entry too.
      {
          "Text Generation Inference",
          {"ghcr.io/huggingface/text-generation-inference", "!ghcr.io/huggingface/text-generation-inference:*intel*"},
          "https://github.com/huggingface/text-generation-inference/blob/main/README.md",
          "ghcr.io/huggingface/text-generation-inference:3.3.5-rocm",
          "https://huggingface.co/docs/text-generation-inference/installation_amd",
      },
      // TEI: `latest`/`<version>` are the Ampere-80 CUDA build, turing-, 86-,
      // 89-, hopper- and cuda- tags are CUDA too; cpu-<version> is the CPU build
      // and is deliberately not matched. ROCm support is experimental and only as
      // a source build inside rocm/pytorch (docs/amd_gpu): no prebuilt ROCm image.
      {
          "Text Embeddings Inference",
          {"ghcr.io/huggingface/text-embeddings-inference:latest",
           "ghcr.io/huggingface/text-embeddings-inference:1.*",
           "ghcr.io/huggingface/text-embeddings-inference:turing-*",
           "ghcr.io/huggingface/text-embeddings-inference:86-*",
           "ghcr.io/huggingface/text-embeddings-inference:89-*",
           "ghcr.io/huggingface/text-embeddings-inference:hopper-*",
           "ghcr.io/huggingface/text-embeddings-inference:cuda-*"},
          "https://github.com/huggingface/text-embeddings-inference/blob/main/README.md",
          "",
          "",
      },
      // Ollama: the default image bundles the CUDA runners (it also falls back
      // to CPU); NVIDIA users run it with --gpus=all, AMD users use the :rocm tag
      // (versioned as <version>-rocm).
      {
          "Ollama",
          {"docker.io/ollama/ollama"},
          "https://github.com/ollama/ollama/blob/main/docs/docker.md",
          "ollama/ollama:rocm",
          "https://github.com/ollama/ollama/blob/main/docs/docker.md",
      },
      // llama.cpp: the plain full/light/server tags are CPU builds; -cuda
      // (CUDA 12), -cuda13, -cuda12-bNNNN are CUDA; -rocm is ROCm; -musa, -intel
      // (SYCL), -vulkan, -openvino are other backends and are not matched. The
      // images moved from ghcr.io/ggerganov/ to ghcr.io/ggml-org/.
      {
          "llama.cpp",
          {"ghcr.io/ggml-org/llama.cpp:*cuda*", "ghcr.io/ggerganov/llama.cpp:*cuda*"},
          "https://github.com/ggml-org/llama.cpp/blob/master/docs/docker.md",
          "ghcr.io/ggml-org/llama.cpp:server-rocm",
          "https://github.com/ggml-org/llama.cpp/blob/master/docs/docker.md",
      },
      // PyTorch's README: `docker run --gpus all ... pytorch/pytorch:latest`;
      // every published tag is a CUDA runtime/devel build (also mirrored on
      // ghcr.io, incl. the nightly repository).
      {
          "PyTorch",
          {"docker.io/pytorch/pytorch", "ghcr.io/pytorch/pytorch", "ghcr.io/pytorch/pytorch-nightly"},
          "https://github.com/pytorch/pytorch/blob/main/README.md#using-pre-built-images",
          "rocm/pytorch",
          "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.0/how-to/3rd-party/pytorch-install.html",
      },
      // TensorFlow: `latest`/`<version>` are CPU builds ("latest: the latest
      // release of TensorFlow CPU binary image. Default."); only the -gpu variants
      // are CUDA.
      {
          "TensorFlow",
          {"docker.io/tensorflow/tensorflow:*gpu*"},
          "https://github.com/tensorflow/docs/blob/master/site/en/install/docker.md",
          "rocm/tensorflow",
          "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.2/install/3rd-party/tensorflow-install.html",
      },
      // NGC PyTorch (nvcr.io/nvidia/pytorch:<yy.mm>-py3): each release is built
      // on a CUDA release ("Release 25.12 is based on CUDA 13.1.0").
      {
          "NGC PyTorch",
          {"nvcr.io/nvidia/pytorch"},
          "https://docs.nvidia.com/deeplearning/frameworks/pytorch-release-notes/rel-25-12.html",
          "rocm/pytorch",
          "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.0/how-to/3rd-party/pytorch-install.html",
      },
      // NGC TensorFlow (nvcr.io/nvidia/tensorflow:<yy.mm>-tf2-py3): "Release
      // 23.01 is based on CUDA 12.0.1".
      {
          "NGC TensorFlow",
          {"nvcr.io/nvidia/tensorflow"},
          "https://docs.nvidia.com/deeplearning/frameworks/tensorflow-release-notes/rel-23-01.html",
          "rocm/tensorflow",
          "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.2/install/3rd-party/tensorflow-install.html",
      },
      // JAX has no CUDA image of Google's own; the common ones are NVIDIA's:
      // JAX-Toolbox (ghcr.io/nvidia/jax:<flavour>[-YYYY-MM-DD], "JAX on NVIDIA
      // GPUs"; ghcr.io/nvidia/t5x is from the same project) and the NGC JAX
      // container (nvcr.io/nvidia/jax:<yy.mm>-py3). AMD publishes
      // rocm/jax-community (and, for older releases, rocm/jax).
      {
          "JAX",
          {"nvcr.io/nvidia/jax", "ghcr.io/nvidia/jax", "ghcr.io/nvidia/t5x"},
          "https://github.com/NVIDIA/JAX-Toolbox",
          "rocm/jax-community",
          "https://github.com/ROCm/jax/releases",
      },
      // Triton Inference Server is distributed as an NGC container that needs
      // the NVIDIA container runtime. No ROCm build of Triton Inference Server
      // could be confirmed.
      {
          "Triton Inference Server",
          {"nvcr.io/nvidia/tritonserver"},
          "https://docs.nvidia.com/deeplearning/triton-inference-server/archives/triton_inference_server_230/"
          "user-guide/docs/install.html",
          "",
          "",
      },
      // NeMo Framework container (nvcr.io/nvidia/nemo:<yy.mm>). No ROCm build of
      // NeMo could be confirmed.
      {
          "NeMo",
          {"nvcr.io/nvidia/nemo"},
          "https://docs.nvidia.com/nemo-framework/user-guide/latest/installation.html",
          "",
          "",
      },
      // TensorRT-LLM release/devel containers (nvcr.io/nvidia/tensorrt-llm/
      // release:<x.y.z>), run with --gpus all; TensorRT is NVIDIA-only, so there
      // is no ROCm build.
      {
          "TensorRT-LLM",
          {"nvcr.io/nvidia/tensorrt-llm/*"},
          "https://nvidia.github.io/TensorRT-LLM/latest/installation/installation-guide.html",
          "",
          "",
      },
      // NVIDIA NIM microservices (nvcr.io/nim/<publisher>/<model>:<version>)
      // need an NVIDIA GPU with CUDA compute capability > 7.0; no ROCm build.
      {
          "NVIDIA NIM",
          {"nvcr.io/nim/*"},
          "https://docs.nvidia.com/nim/large-language-models/latest/getting-started.html",
          "",
          "",
      },
      // Catch-all for the rest of NGC (tensorrt, cuda, NGC's vllm/sglang builds,
      // ...): "a GPU-optimized container registry ... optimized for NVIDIA
      // hardware". Must stay after the specific NGC families above. No single
      // ROCm counterpart.
      {
          "NVIDIA NGC",
          {"nvcr.io/nvidia/*"},
          "https://docs.nvidia.com/brev/guides/inference-deployment/ngc-developer-guide",
          "",
          "",
      },
      // DeepSpeed's image (deepspeed/deepspeed, recommended by the project's
      // README as `docker pull deepspeed/deepspeed:latest`) is built from
      // docker/Dockerfile, `FROM nvidia/cuda:...-devel`. AMD publishes
      // rocm/deepspeed (tags such as rocm6.1_ubuntu20.04_py3.9_pytorch_2.1.2).
      {
          "DeepSpeed",
          {"docker.io/deepspeed/deepspeed"},
          "https://github.com/deepspeedai/DeepSpeed/blob/master/docker/Dockerfile",
          "rocm/deepspeed",
          "https://hub.docker.com/r/rocm/deepspeed",
      },
      // Hugging Face Transformers CI images pushed to Docker Hub under the
      // docker/<name> directory names; the -gpu ones are `FROM nvidia/cuda`.
      // Exact names only: transformers-pytorch-amd-gpu and
      // transformers-pytorch-deepspeed-amd-gpu are the ROCm builds (FROM
      // rocm/...) although their names carry no rocm token, so no glob may
      // cover them.
      {
          "Hugging Face Transformers",
          {"docker.io/huggingface/transformers-pytorch-gpu", "docker.io/huggingface/transformers-all-latest-gpu",
           "docker.io/huggingface/transformers-all-latest-gpu-push-ci",
           "docker.io/huggingface/transformers-pytorch-deepspeed-latest-gpu",
           "docker.io/huggingface/transformers-pytorch-deepspeed-latest-gpu-push-ci",
           "docker.io/huggingface/transformers-quantization-latest-gpu"},
          "https://github.com/huggingface/transformers/blob/main/docker/transformers-pytorch-gpu/Dockerfile",
          "huggingface/transformers-pytorch-amd-gpu",
          "https://github.com/huggingface/transformers/blob/main/docker/transformers-pytorch-amd-gpu/Dockerfile",
      },
      // Accelerate: huggingface/accelerate:{gpu,cpu}-{nightly,release-X}; the
      // gpu-* tags (incl. gpu-deepspeed-*) are "compiled off of the nvidia/cuda
      // image", cpu-* are not matched. The deprecated huggingface/accelerate-gpu
      // repository holds the same build. No ROCm image could be confirmed.
      {
          "Hugging Face Accelerate",
          {"docker.io/huggingface/accelerate:gpu*", "docker.io/huggingface/accelerate-gpu"},
          "https://github.com/huggingface/accelerate/blob/main/docker/README.md",
          "",
          "",
      },
      // Jupyter Docker Stacks (quay.io/jupyter): the default tags are CPU; the
      // CUDA variants are the cuda12- prefixed pytorch-notebook tags and the
      // cuda- prefixed tensorflow-notebook tags (also behind an x86_64- prefix).
      // No ROCm variant is published.
      {
          "Jupyter Docker Stacks",
          {"quay.io/jupyter/pytorch-notebook:*cuda*", "quay.io/jupyter/tensorflow-notebook:*cuda*"},
          "https://github.com/jupyter/docker-stacks/blob/main/docs/using/selecting.md",
          "",
          "",
      },
      // GPU-Jupyter (cschranz/gpu-jupyter:v1.x_cuda-NN.N_ubuntu-NN.NN[...]):
      // docker-stacks rebuilt on the nvidia/cuda base image; NVIDIA only.
      {
          "GPU-Jupyter",
          {"docker.io/cschranz/gpu-jupyter"},
          "https://github.com/iot-salzburg/gpu-jupyter/blob/master/README.md",
          "",
          "",
      },
      // ComfyUI by YanWenKun: cuNNN-* tags (cu121, cu126-slim, cu128-megapak,
      // cu130-slim, ...) and the latest/megapak aliases (of cu121 /
      // cu121-megapak), comfy3d-* (torch+cu124) and nightly are CUDA builds run
      // with --gpus all; rocm, rocm6, rocm7 are ROCm; xpu and cpu are not CUDA
      // and are not matched.
      {
          "ComfyUI (yanwk/comfyui-boot)",
          {"docker.io/yanwk/comfyui-boot:cu*", "docker.io/yanwk/comfyui-boot:latest",
           "docker.io/yanwk/comfyui-boot:megapak", "docker.io/yanwk/comfyui-boot:comfy3d-*",
           "docker.io/yanwk/comfyui-boot:nightly"},
          "https://github.com/YanWenKun/ComfyUI-Docker",
          "yanwk/comfyui-boot:rocm6",
          "https://github.com/YanWenKun/ComfyUI-Docker",
      },
      // ComfyUI by AI-Dock: ":latest points to :latest-cuda"; CUDA tags carry
      // -cuda-, ROCm tags -rocm-, CPU tags neither (so they are not matched).
      {
          "ComfyUI (ai-dock)",
          {"ghcr.io/ai-dock/comfyui:latest", "ghcr.io/ai-dock/comfyui:*cuda*"},
          "https://github.com/ai-dock/comfyui/blob/main/README.md",
          "ghcr.io/ai-dock/comfyui:latest-rocm",
          "https://github.com/ai-dock/comfyui/blob/main/README.md",
      },
  };
  return k_families;
}

}  // namespace jgrid::screen
