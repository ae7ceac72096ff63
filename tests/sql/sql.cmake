# tests/sql/sql.cmake: the SQL corpus, included from tests/CMakeLists.txt.
#   sql               every tests/sql/NNNNN_name.sql against the built muscles,
#                     output compared with NNNNN_name.reference (run.py)
#   sql_differential  the same corpus against ClickHouse 18.16 (started by the
#                     test on loopback) and muscles, outputs compared
#                     (differential.py); skipped (exit 77) without
#                     clickhouse-server installed
# Both use Debian's python3 (standard library only) like the integration suite.
if(NOT DEFINED MUSCLES_PYTHON)
  set(MUSCLES_PYTHON /usr/bin/python3 CACHE FILEPATH "Python for the integration and SQL tests")
endif()

set(MUSCLES_SQL_ENV "MUSCLES_BIN=$<TARGET_FILE:muscles>;MUSCLES_SOURCE_DIR=${PROJECT_SOURCE_DIR}")

add_test(NAME sql
         COMMAND ${MUSCLES_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run.py -j 2)
set_tests_properties(sql PROPERTIES ENVIRONMENT "${MUSCLES_SQL_ENV}" TIMEOUT 900)

add_test(NAME sql_differential
         COMMAND ${MUSCLES_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/differential.py -j 2)
set_tests_properties(sql_differential PROPERTIES
  ENVIRONMENT "${MUSCLES_SQL_ENV}"
  SKIP_RETURN_CODE 77
  TIMEOUT 1200)
