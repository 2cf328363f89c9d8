#pragma once
// Reading what a container engine prints (pure), and the messages of its
// failures. The engine calls themselves are in container_engine.cpp.
#include <optional>
#include <string>
#include <vector>

#include "exec/container_process.hpp"
#include "jgrid/exec/container_executor.hpp"

namespace jgrid::exec {

// `image inspect` output (a JSON array of one object; podman's or docker's
// shape). nullopt when it is not that.
std::optional<InspectedImage> parse_image_inspect(const std::string& json_text, const std::string& reference);

// Lines "<name>\t<state>\t<job id>" as printed by container_state_format.
std::vector<JobContainer> parse_container_states(const std::string& text);
// The `container inspect --format` template that prints those lines.
std::string container_state_format();

// "podman" for "/usr/bin/podman".
std::string engine_kind(const std::string& engine);

// "podman run failed for job_…: exit 125: <last stderr line>".
std::string engine_failure(const std::string& engine, const std::string& verb, const std::string& job_id,
                           const CommandResult& result);

// True when SELinux is enforcing on this host.
bool selinux_enforcing();

}  // namespace jgrid::exec
