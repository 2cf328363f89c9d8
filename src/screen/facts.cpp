#include "screen/facts.hpp"

namespace jgrid::screen {

Facts gather_facts(const model::JobSpec& spec, const ImageMetadata& image, const ScreenOptions& options) {
  Facts facts{spec, image, options, parse_image_ref(spec.image), join_command(spec.command)};
  facts.cuda_name = image_cuda_name(facts.ref);
  facts.rocm_name = image_rocm_name(facts.ref);
  facts.cuda_metadata = image_cuda_metadata(image);
  facts.rocm_metadata = image_rocm_metadata(image);
  facts.nvidia_tool = command_nvidia_tool(facts.command);
  facts.cuda_wheels = command_cuda_wheels(facts.command);
  facts.nvidia_path = nvidia_path(facts.command, spec.environment);
  facts.env_nvidia = env_nvidia(spec.environment);
  facts.declarations = job_declarations(spec);
  facts.intent = derive_intent(facts);
  facts.intent.image_source = metadata_source(image);
  return facts;
}

const Evidence* cuda_heavy_evidence(const Facts& facts) {
  for (const Evidence* evidence :
       {&facts.cuda_name, &facts.cuda_metadata, &facts.nvidia_tool, &facts.cuda_wheels, &facts.nvidia_path})
    if (*evidence) return evidence;
  return nullptr;
}

}  // namespace jgrid::screen
