// Readers of one field of a JSON record each, for the run folder's codecs
// (attempt.h, response.h): an absent field leaves `out` as it is (older
// records lack newer fields), a field of the wrong type is an Error naming it
// (a damaged line is reported, never half-read). Pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"

namespace agent::json_fields {

base::Status read(const nlohmann::json& j, const char* name, std::string& out);
base::Status read(const nlohmann::json& j, const char* name, bool& out);
base::Status read(const nlohmann::json& j, const char* name, int& out);
base::Status read(const nlohmann::json& j, const char* name, int64_t& out);
base::Status read(const nlohmann::json& j, const char* name, double& out);
// Null reads as absent.
base::Status read(const nlohmann::json& j, const char* name, std::optional<double>& out);
base::Status read(const nlohmann::json& j, const char* name, std::optional<int>& out);

}  // namespace agent::json_fields
