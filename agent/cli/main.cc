// refinery: the orchestrator. Parses the command line and dispatches; the
// logic lives in the libraries the tests link.
#include "agent/cli/commands.h"
#include "base/redact.h"

int main(int argc, char** argv) {
  // Nothing refinery starts (a compiler, above all) may read API keys from /proc/<pid>/environ.
  base::hide_environment_block();
  return agent::run_cli(argc, argv);
}
