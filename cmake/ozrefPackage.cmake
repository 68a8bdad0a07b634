# The installed package: the public headers (include/ozref), the libraries ozref_core and
# ozref_device as the exported targets ozref::core and ozref::device, ozrefConfig.cmake, and the
# ozref command. tests/package builds an external project against it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY include/ozref DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
install(TARGETS ozref_core ozref_device EXPORT ozrefTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(TARGETS ozref RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

set(OZREF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ozref)
install(EXPORT ozrefTargets NAMESPACE ozref:: DESTINATION ${OZREF_CMAKE_DIR} COMPONENT development)
# Whether ozref::device holds the GPU code (else it reports that no GPU can be used).
if(OZREF_CUDA AND CMAKE_CUDA_COMPILER)
  set(OZREF_PACKAGE_WITH_CUDA ON)
else()
  set(OZREF_PACKAGE_WITH_CUDA OFF)
endif()
configure_package_config_file(cmake/ozrefConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/ozrefConfig.cmake
                              INSTALL_DESTINATION ${OZREF_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ozrefConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ozrefConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/ozrefConfigVersion.cmake
        DESTINATION ${OZREF_CMAKE_DIR} COMPONENT development)
