// refinery's subcommands. Each takes its arguments (after the subcommand's
// name) and returns the process exit code: 0 when it did its job, 1 when it
// could not (a broken problem, a worker that cannot start), 2 for usage
// errors. main() dispatches through the table in cli.cc.
#pragma once

#include <string>
#include <vector>

namespace agent {

int cmd_accept(const std::vector<std::string>& args);
int cmd_audit(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);
int cmd_export(const std::vector<std::string>& args);
int cmd_doctor(const std::vector<std::string>& args);
int cmd_eval(const std::vector<std::string>& args);
int cmd_problems(const std::vector<std::string>& args);
int cmd_report(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_slurm(const std::vector<std::string>& args);

// Dispatches argv[1] through the subcommand table.
int run_cli(int argc, char** argv);

}  // namespace agent
