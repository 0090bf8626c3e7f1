#include "base/elf_symbols.h"

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace base {
namespace {

// Reads `bytes` at `offset` into `out`, all or nothing.
Status read_at(int fd, uint64_t offset, uint64_t bytes, uint64_t file_bytes, void* out, const char* what) {
  if (offset > file_bytes || bytes > file_bytes - offset)
    return Error{std::string("the ELF file's ") + what + " lies outside the file"};
  auto* p = static_cast<char*>(out);
  for (uint64_t done = 0; done < bytes;) {
    ssize_t n = pread(fd, p + done, bytes - done, static_cast<off_t>(offset + done));
    if (n <= 0)
      return Error{std::string("reading the ELF file's ") + what + ": " +
                   (n < 0 ? std::strerror(errno) : "short read")};
    done += static_cast<uint64_t>(n);
  }
  return {};
}

}  // namespace

Result<std::vector<std::string>> elf_defined_functions(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return Error{std::string("fstat: ") + std::strerror(errno)};
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  Elf64_Ehdr eh{};
  TRY(read_at(fd, 0, sizeof eh, size, &eh, "header"));
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return Error{"not an ELF file"};
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return Error{"not a 64-bit little-endian ELF file"};
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum > 65000)
    return Error{"the ELF file has no usable section table"};
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  TRY(read_at(fd, eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr), size, sections.data(), "section table"));
  std::vector<std::string> names;
  for (const auto& s : sections) {
    if (s.sh_type != SHT_SYMTAB && s.sh_type != SHT_DYNSYM) continue;
    if (s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sections.size())
      return Error{"the ELF file's symbol table is malformed"};
    const Elf64_Shdr& strtab = sections[s.sh_link];
    std::string strings(strtab.sh_size, '\0');
    TRY(read_at(fd, strtab.sh_offset, strtab.sh_size, size, strings.data(), "string table"));
    std::vector<Elf64_Sym> symbols(s.sh_size / sizeof(Elf64_Sym));
    TRY(read_at(fd, s.sh_offset, symbols.size() * sizeof(Elf64_Sym), size, symbols.data(), "symbol table"));
    for (const auto& sym : symbols) {
      if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF || sym.st_name >= strings.size())
        continue;
      const char* name = strings.data() + sym.st_name;
      names.emplace_back(name, strnlen(name, strings.size() - sym.st_name));
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace base
