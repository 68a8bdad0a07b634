// Writes a whole file or nothing: the bytes go to a temporary file beside the target, which is
// renamed over it only once everything was written. A failure leaves no half-written file.
#pragma once
#include <string>
#include <string_view>

namespace ozref {

void write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace ozref
