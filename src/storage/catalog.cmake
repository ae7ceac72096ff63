# mu_catalog: the durable catalog of databases and tables (catalog.json under
# the data dir; format in docs/formats/catalog.md). Included from
# src/storage/CMakeLists.txt; uses types (column type checks), io (every
# durable write) and base, plus jansson for the JSON document.
add_library(mu_catalog STATIC catalog.c catalog_def.c catalog_snapshot.c catalog_json.c)
target_link_libraries(mu_catalog PUBLIC mu_types mu_io mu_base PkgConfig::DEP_JANSSON
                      Threads::Threads)
