#include "eval/problems/python_reference.h"

#include <regex>

#include "base/text.h"

namespace eval {

base::Result<PythonReference> parse_python_reference(const std::string& text, const std::string& where) {
  PythonReference out;
  const size_t cls = text.find("\nclass Model(");
  if (cls == std::string::npos) return base::Error{where + ": no class Model"};
  const size_t init = text.find("def __init__(", cls);
  if (init == std::string::npos) return base::Error{where + ": class Model has no __init__"};
  const size_t open = init + std::string("def __init__(").size();
  const size_t close = text.find(')', open);
  if (close == std::string::npos) return base::Error{where + ": Model.__init__'s parameters are not closed"};
  bool first = true;
  for (std::string param : base::split(text.substr(open, close - open), ',')) {
    param = base::trim(param.substr(0, param.find_first_of(":=")));
    if (param.empty()) continue;
    if (first && param == "self") {
      first = false;
      continue;
    }
    first = false;
    if (param[0] == '*') return base::Error{where + ": Model.__init__ takes " + param + "; give each dim by name"};
    out.init.push_back(param);
  }
  const size_t weights = text.find("\nWEIGHTS = {");
  if (weights != std::string::npos) {
    const size_t end = text.find('}', weights);
    if (end == std::string::npos) return base::Error{where + ": WEIGHTS is not closed"};
    const std::string body = text.substr(weights, end - weights);
    static const std::regex pair(R"re("([^"]+)"\s*:\s*"([^"]+)")re");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), pair); it != std::sregex_iterator(); ++it)
      out.weights.emplace_back((*it)[1].str(), (*it)[2].str());
  }
  return out;
}

}  // namespace eval
