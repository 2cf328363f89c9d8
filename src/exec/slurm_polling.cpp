#include "exec/slurm_polling.hpp"

namespace jgrid::exec {

SteadyTime next_squeue_at(SteadyTime last, std::size_t runs_not_started, const SlurmOptions& options) {
  if (last == SteadyTime{}) return last;
  return last + (runs_not_started > 0 ? options.poll : options.started_poll);
}

bool squeue_rows_fresh(SteadyTime read_at, SteadyTime now, const SlurmOptions& options) {
  return read_at != SteadyTime{} && now >= read_at && now - read_at < 2 * options.poll;
}

}  // namespace jgrid::exec
