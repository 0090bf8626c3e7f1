// The functions an ELF shared library defines, read from its file: what
// tells the runner which kernels are a candidate's own. nvcc gives every
// __global__ function a host stub with the kernel's mangled name, so a
// kernel compiled from the candidate's source is a function its library
// defines, and a library's kernel (PyTorch's, cuBLAS's) is not.
//
// Reads through pread, so the descriptor's offset is left alone. Any
// thread; no state.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"

namespace base {

// The names (as in the file: mangled) of the functions defined in the 64-bit
// little-endian ELF file open on `fd`, from .symtab and .dynsym, each once,
// sorted. An Error names what is malformed.
Result<std::vector<std::string>> elf_defined_functions(int fd);

}  // namespace base
