#include "eval/build/python_bundle.h"

#include <nlohmann/json.hpp>

namespace eval {
namespace {

constexpr std::string_view kMagic = "refinery-python-bundle-v1\n";

}  // namespace

std::string write_bundle(const std::vector<BundleFile>& files) {
  nlohmann::json header = {{"files", nlohmann::json::array()}};
  for (const auto& f : files)
    header["files"].push_back({{"name", f.name}, {"kind", f.kind}, {"bytes", f.bytes.size()}});
  std::string out(kMagic);
  out += header.dump() + "\n";
  for (const auto& f : files) out += f.bytes;
  return out;
}

base::Result<std::vector<BundleFile>> read_bundle(const std::string& data) {
  if (data.compare(0, kMagic.size(), kMagic) != 0) return base::Error{"not a Python candidate's bundle"};
  const size_t end = data.find('\n', kMagic.size());
  if (end == std::string::npos) return base::Error{"the bundle's header is cut off"};
  auto header = nlohmann::json::parse(data.substr(kMagic.size(), end - kMagic.size()), nullptr, false);
  if (!header.is_object() || !header.contains("files") || !header["files"].is_array())
    return base::Error{"the bundle's header is malformed"};
  std::vector<BundleFile> files;
  size_t at = end + 1;
  for (const auto& f : header["files"]) {
    if (!f.is_object() || !f.value("name", nlohmann::json()).is_string() ||
        !f.value("kind", nlohmann::json()).is_string() || !f.value("bytes", nlohmann::json()).is_number_unsigned())
      return base::Error{"a file of the bundle's header is malformed"};
    const auto bytes = f["bytes"].get<uint64_t>();
    if (bytes > data.size() - at) return base::Error{"the bundle is shorter than its header says"};
    files.push_back({f["name"].get<std::string>(), f["kind"].get<std::string>(), data.substr(at, bytes)});
    at += bytes;
  }
  if (at != data.size()) return base::Error{"the bundle is longer than its header says"};
  return files;
}

}  // namespace eval
