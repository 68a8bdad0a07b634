// Text from files (a manifest's names, a path, a JSON value) as a terminal may show it: control
// characters (C0, DEL, C1) and bytes that are not valid UTF-8 become visible escapes (\x1b,
// \u009b), so that a message cannot move the cursor, recolour or retitle the user's terminal, or
// forge a line. Valid UTF-8 text is kept as it is.
#pragma once
#include <string>
#include <string_view>

namespace ozref {

std::string printable_text(std::string_view text);

}  // namespace ozref
