-- SETTINGS clause, SET, system.settings.
SELECT number FROM numbers(5) ORDER BY number SETTINGS max_threads = 1;
SELECT count() FROM numbers(100) SETTINGS max_block_size = 10;
SELECT number FROM numbers(3) ORDER BY number SETTINGS max_threads = 2, max_block_size = 1;
SELECT name, changed FROM system.settings WHERE name = 'max_block_size';
SELECT name FROM system.settings WHERE name IN ('max_threads', 'max_block_size', 'max_memory_usage') ORDER BY name;
SELECT count() > 10 FROM system.settings;
SELECT toTypeName(value), toTypeName(changed) FROM system.settings WHERE name = 'max_threads';
SELECT value FROM system.settings WHERE name = 'max_block_size' SETTINGS max_block_size = 1234;
-- Without a session_id, SET has no session to change: THERE_IS_NO_SESSION (as in ClickHouse).
SET max_threads = 1; -- { serverError THERE_IS_NO_SESSION }
SET max_block_size = 4096, max_threads = 2; -- { serverError THERE_IS_NO_SESSION }
SELECT 1 SETTINGS nosuch_setting = 1; -- { serverError UNKNOWN_SETTING }
