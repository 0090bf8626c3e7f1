#include "agent/campaign/json_fields.h"

namespace agent::json_fields {
using base::Error;
using base::Status;
using nlohmann::json;

namespace {

// The field `name` into `out` when present and `is_type`, else an Error
// saying it is not `what`. Absent (or null, when `null_is_absent`) leaves `out`.
template <class T, class Out>
Status read_as(const json& j, const char* name, Out& out, bool (json::*is_type)() const noexcept, const char* what,
               bool null_is_absent = false) {
  auto it = j.find(name);
  if (it == j.end() || (null_is_absent && it->is_null())) return {};
  if (!((*it).*is_type)()) return Error{std::string(name) + " is not " + what};
  out = it->get<T>();
  return {};
}

}  // namespace

Status read(const json& j, const char* name, std::string& out) {
  return read_as<std::string>(j, name, out, &json::is_string, "a string");
}
Status read(const json& j, const char* name, bool& out) {
  return read_as<bool>(j, name, out, &json::is_boolean, "true or false");
}
Status read(const json& j, const char* name, int& out) {
  return read_as<int>(j, name, out, &json::is_number_integer, "an integer");
}
Status read(const json& j, const char* name, int64_t& out) {
  return read_as<int64_t>(j, name, out, &json::is_number_integer, "an integer");
}
Status read(const json& j, const char* name, double& out) {
  return read_as<double>(j, name, out, &json::is_number, "a number");
}
Status read(const json& j, const char* name, std::optional<double>& out) {
  return read_as<double>(j, name, out, &json::is_number, "a number or null", true);
}
Status read(const json& j, const char* name, std::optional<int>& out) {
  return read_as<int>(j, name, out, &json::is_number_integer, "an integer", true);
}

}  // namespace agent::json_fields
