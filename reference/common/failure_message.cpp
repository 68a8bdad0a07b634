// ozref::failure_message (include/ozref/error.hpp).
#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace ozref {

std::string failure_message(std::exception_ptr failure) {
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

}  // namespace ozref
