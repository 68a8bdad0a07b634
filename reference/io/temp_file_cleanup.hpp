// Temporary files that an interrupted run must not leave behind. write_file_atomically registers
// each temporary file from its creation until it is renamed or removed; once the executable called
// install_temp_file_cleanup(), SIGINT, SIGTERM and SIGHUP remove every registered file and then end
// the process by the same signal, as if no handler had been installed.
#pragma once
#include <string>

namespace ozref {

// Installs the handlers for the signals whose disposition is still the default one (an ignored
// signal stays ignored; a harness's own handler stays). The library never calls it itself.
void install_temp_file_cleanup();

// Creates file `name` in the folder of handle `folder` (O_EXCL, mode 0666 less the umask) and
// registers it by its `path`, as one step that a signal cannot split; returns the descriptor, or
// -1 with errno set (nothing registered).
int create_registered_temp_file(int folder, const std::string& name, const std::string& path);
// Removes the registration (after the file was renamed or removed).
void unregister_temp_file(const std::string& path);

}  // namespace ozref
