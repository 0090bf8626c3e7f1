#include "agent/report/search_tree.h"

#include <algorithm>
#include <map>
#include <utility>

#include "base/text.h"

namespace agent {
namespace {

using Node = std::pair<int, int>;  // (sample, turn)

std::string name(const Node& n) {
  return "s" + std::to_string(n.first) + "/t" + std::to_string(n.second);
}

std::string verdict(const Attempt& a) {
  std::string v = to_string(a.status);
  if (a.correct() && a.speedup) v += " " + base::format_number(*a.speedup) + "x";
  if (a.sol_fraction) v += ", " + base::format_number(100 * *a.sol_fraction) + "% of speed of light";
  if (a.unstable) v += ", unstable";
  if (!a.quarantine.empty()) v += ", quarantined";
  if (a.library_only) v += ", library only";
  return v;
}

struct Arm {
  std::map<Node, const Attempt*> nodes;
  std::map<Node, std::vector<Node>> children;  // by parent; roots under (-1, 0)
};

void draw(const Arm& arm, const Node& n, const std::string& indent, bool last, std::string& out) {
  out += indent + (last ? "└─ " : "├─ ") + name(n) + "  " + verdict(*arm.nodes.at(n)) + "\n";
  auto it = arm.children.find(n);
  if (it == arm.children.end()) return;
  for (size_t i = 0; i < it->second.size(); ++i)
    draw(arm, it->second[i], indent + (last ? "   " : "│  "), i + 1 == it->second.size(), out);
}

}  // namespace

std::string render_search_tree(const std::vector<Attempt>& attempts, const std::string& problem) {
  std::vector<std::string> order;
  std::map<std::string, Arm> arms;
  for (const auto& a : attempts) {
    if (a.key.problem != problem) continue;
    const std::string label = a.key.model + "/" + a.key.strategy;
    if (!arms.contains(label)) order.push_back(label);
    arms[label].nodes[{a.key.sample, a.key.turn}] = &a;
  }
  std::string out;
  for (const auto& label : order) {
    Arm& arm = arms.at(label);
    for (const auto& [node, a] : arm.nodes) {
      // A chain's turn descends from the turn before it; a search's node names its parent.
      Node parent{-1, 0};
      if (a->key.parent)
        parent = {a->key.parent->sample, a->key.parent->turn};
      else if (a->key.turn > 1 && arm.nodes.contains({a->key.sample, a->key.turn - 1}))
        parent = {a->key.sample, a->key.turn - 1};
      if (parent.first >= 0 && !arm.nodes.contains(parent)) parent = {-1, 0};  // its parent is not recorded
      arm.children[parent].push_back(node);
    }
    for (auto& [parent, kids] : arm.children)
      std::sort(kids.begin(), kids.end(), [](const Node& x, const Node& y) {
        return x.second != y.second ? x.second < y.second : x.first < y.first;
      });
    out +=
        (out.empty() ? "" : "\n") + label + " at " + problem + ": " + std::to_string(arm.nodes.size()) + " attempts\n";
    const auto& roots = arm.children[{-1, 0}];
    for (size_t i = 0; i < roots.size(); ++i) draw(arm, roots[i], "", i + 1 == roots.size(), out);
  }
  return out;
}

}  // namespace agent
