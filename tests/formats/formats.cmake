# tests/formats/formats.cmake: the output-format differential test, included
# from tests/CMakeLists.txt.
#   formats_differential  the same tables and SELECTs on ClickHouse 18.16
#                         (started by the test on loopback) and muscles, in
#                         every output format, bodies compared byte for byte
#                         (differential_formats.py); skipped (exit 77)
#                         without clickhouse-server installed
# Debian's python3 (standard library only); reuses tests/sql/servers.py.
if(NOT DEFINED MUSCLES_PYTHON)
  set(MUSCLES_PYTHON /usr/bin/python3 CACHE FILEPATH "Python for the integration and SQL tests")
endif()

add_test(NAME formats_differential
         COMMAND ${MUSCLES_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/differential_formats.py)
set_tests_properties(formats_differential PROPERTIES
  ENVIRONMENT "MUSCLES_BIN=$<TARGET_FILE:muscles>"
  SKIP_RETURN_CODE 77
  TIMEOUT 900)
