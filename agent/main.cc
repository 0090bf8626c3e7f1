// refinery: the orchestrator. Parses the command line and dispatches; the
// logic lives in the libraries the tests link.
#include "agent/commands.h"

int main(int argc, char** argv) { return agent::run_cli(argc, argv); }
