// PUT <upload_url> (docs/api.md, "Job inputs"). The bytes go to a
// temporary file next to the blob (owner-only), hashed as they arrive and
// synced; the engine renames it into place and records it only when the
// whole body arrived within the limit: never held in memory, durable before
// the row that names its sha256.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "api/params.hpp"
#include "api/signing.hpp"
#include "jgrid/model/layout.hpp"
#include "jgrid/util/clock.hpp"
#include "jgrid/util/crypto.hpp"
#include "jgrid/util/ids.hpp"

namespace jgrid::api {
namespace {

namespace fs = std::filesystem;

// Past the limit the rest of the body is read and dropped (keeps the
// connection usable), up to this much; beyond it reading stops.
constexpr std::int64_t k_max_drain = 64LL << 20;

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

std::FILE* create_private(const fs::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return nullptr;
  std::FILE* file = ::fdopen(fd, "wb");
  if (!file) ::close(fd);
  return file;
}

struct Received {
  std::int64_t size = 0;
  std::string sha256;
};

Status authorise(const Context& ctx, const Call& call, const model::JobInput& input) {
  std::string token = bearer_token(call);
  if (!token.empty() && !input.token.empty() && util::constant_time_equal(token, input.token)) return Ok{};
  auto signed_ok = verify_signature(ctx.options.signing_secret, upload_subject(input.id), call,
                                    util::wall_now_ms() / 1000);
  if (signed_ok || !token.empty() || call.param("sig")) return signed_ok;
  return make_error("FORBIDDEN", "upload of " + input.id + " needs its signed URL or Authorization: Bearer <token>");
}

// Refuses an upload that would leave less than the reserve free in the
// data dir (the declared length counts; a chunked body counts as 0 here and
// is stopped by the disk itself).
Status check_free_space(const Context& ctx, std::int64_t declared) {
  std::error_code error;
  auto space = fs::space(ctx.options.data_dir, error);
  if (error) return Ok{};
  std::int64_t needed = std::max<std::int64_t>(declared, 0) + ctx.options.min_free_disk_bytes;
  auto available = static_cast<std::int64_t>(space.available);
  if (available >= needed) return Ok{};
  return make_error("INSUFFICIENT_STORAGE",
                    "not enough free disk space for this upload: needs " + std::to_string(needed) +
                        " bytes (upload " + std::to_string(std::max<std::int64_t>(declared, 0)) +
                        " + reserve " + std::to_string(ctx.options.min_free_disk_bytes) + " of --min-free-disk), " +
                        std::to_string(available) + " bytes free in the data dir",
                    Json{{"needed_bytes", needed}, {"free_bytes", available}});
}

Error too_large(std::int64_t limit) {
  return make_error("PAYLOAD_TOO_LARGE", "upload larger than the limit of " + std::to_string(limit) + " bytes",
                    Json{{"limit_bytes", limit}});
}

// Streams the body into `temp`. Errors: PAYLOAD_TOO_LARGE, IO_ERROR,
// INVALID_REQUEST (the body stopped early).
Result<Received> receive(const Call& call, const fs::path& temp, std::int64_t limit) {
  std::unique_ptr<std::FILE, FileCloser> file(create_private(temp));
  if (!file) return make_error("IO_ERROR", "cannot create " + temp.string());
  util::Sha256 hash;
  Received received;
  bool write_failed = false;
  bool complete = call.read_body([&](const char* data, std::size_t size) {
    received.size += static_cast<std::int64_t>(size);
    if (received.size > limit) return received.size <= limit + k_max_drain;
    hash.update({data, size});
    write_failed = write_failed || std::fwrite(data, 1, size, file.get()) != size;
    return !write_failed;
  });
  if (received.size > limit) return too_large(limit);
  if (write_failed || std::fflush(file.get()) != 0 || ::fsync(::fileno(file.get())) != 0)
    return make_error("IO_ERROR", "cannot write " + temp.string());
  if (!complete) return invalid_request("upload body ended before its declared length");
  received.sha256 = hash.hex_digest();
  return received;
}

// The bytes in a synced temporary file beside the blob; the engine moves it into place (record_upload).
Result<model::JobInput> store_blob(const Context& ctx, const Call& call, const std::string& input_id) {
  fs::path blob = model::input_blob_path(ctx.options.data_dir, input_id);
  std::error_code error;
  fs::create_directories(blob.parent_path(), error);
  fs::path temp = blob.string() + ".part-" + util::random_hex(6);
  auto received = receive(call, temp, ctx.options.max_upload_bytes);
  if (!received) {
    fs::remove(temp, error);
    return received.error();
  }
  return ctx.engine.record_upload(input_id, temp, received->size, received->sha256);
}


}  // namespace

Result<Reply> upload_input(const Context& ctx, const Call& call) {
  auto input = ctx.store.get_input(call.capture(0));
  // No API key here: the URL's signature or the input's token names the input.
  if (!input) return not_found("job input", call.capture(0));
  if (auto allowed = authorise(ctx, call, *input); !allowed) return allowed.error();
  // Refused before any byte is read; the engine checks again when it records them.
  if (auto open = ctx.engine.check_upload_slot(*input); !open) return open.error();
  if (call.content_length > ctx.options.max_upload_bytes) return too_large(ctx.options.max_upload_bytes);
  if (auto space = check_free_space(ctx, call.content_length); !space) return space.error();
  auto recorded = store_blob(ctx, call, input->id);
  if (!recorded) return recorded.error();
  return Reply::of(Json{{"input_id", recorded->id},
                        {"status", recorded->status},
                        {"ready", recorded->status == "ready"},
                        {"size_bytes", recorded->size_bytes ? Json(*recorded->size_bytes) : Json(nullptr)},
                        {"sha256", recorded->sha256}});
}

}  // namespace jgrid::api
