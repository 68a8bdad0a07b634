// ozref::failure_message (include/ozref/error.hpp).
#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/printable_text.hpp"

namespace ozref {

namespace {

std::string message_of(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::bad_alloc&) {
    return "out of memory: the inputs or options need more memory than this machine could give";
  } catch (const std::filesystem::filesystem_error& e) {
    return (e.path1().empty() ? "" : e.path1().string() + ": ") + e.code().message();
  } catch (const nlohmann::json::exception& e) {
    return std::string("JSON: ") + e.what();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unexpected failure (not a std::exception)";
  }
}

}  // namespace

// Printable: a message may quote names and values read from a file.
std::string failure_message(std::exception_ptr failure) { return printable_text(message_of(failure)); }

}  // namespace ozref
