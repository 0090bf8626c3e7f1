// What refinery reads of a problem's Python reference (reference.py, written
// as KernelBench structures a problem; scripts/check-python-references.py
// checks each against its spec): the names Model's constructor takes (each a
// dim of the spec's sizes, by that name) and WEIGHTS, the parameter of Model
// each weight of the spec goes to. A Python candidate's ModelNew is built and
// bound with them (eval/worker/python_loader.h). Read as text: refinery never
// runs Python.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace eval {

struct PythonReference {
  std::vector<std::string> init;                             // Model.__init__'s parameters after self
  std::vector<std::pair<std::string, std::string>> weights;  // WEIGHTS: spec weight -> Model's parameter
};

// `where` names the file in errors.
base::Result<PythonReference> parse_python_reference(const std::string& text, const std::string& where);

}  // namespace eval
