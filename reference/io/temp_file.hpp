// The names of ozref's temporary files (io/atomic_file.hpp) and folders (a trace being dumped,
// trace/trace.hpp), and the removal of those a killed process left behind. A temporary is named
// `.ozref-HOST-PID-N.KIND`: HOST 8 hex digits of a hash of this machine's host name, PID the
// process that made it, N distinct per attempt, KIND `tmp` (a file) or `dump` (a folder). A
// process killed by SIGKILL (or a crash) cannot remove its temporaries; the next write into the
// same folder removes every temporary of this form made on this machine by a process that no
// longer runs. One made on another machine (a shared file system) is never touched.
#pragma once
#include <string>
#include <string_view>

namespace ozref {

class Folder;

// A new temporary's name for this process; `kind` is "tmp" or "dump".
std::string temp_file_name(unsigned attempt, std::string_view kind);
// Removes the temporaries of dead processes of this machine from `folder` (folders whole).
void remove_stale_temp_files(const Folder& folder);

}  // namespace ozref
