-- What Grafana's ClickHouse data source sends beyond the other files: the
-- clickhouse-go HTTP hello's functions, toJSONString, sub-second
-- toStartOfInterval ($__timeInterval_ms), ORDER BY a tuple (the logs query
-- builder) and the limit / offset settings (the data source's row limit).
-- tests/clients/grafana_test.py runs the data source's requests end to end.
-- differential: skip displayName, revision, DateTime64, Map, toJSONString, sub-second intervals and the limit/offset settings are newer than 18.16
SELECT toTypeName(displayName()), displayName() != '';
SELECT toTypeName(revision()), revision() >= 54454;
SELECT toJSONString(map('a', 1, 'b', 2)), toJSONString([1, 2]), toJSONString('a/b'), toJSONString(toUInt64(5)), toJSONString(NULL);
SELECT toJSONString(map('k', [toNullable(1), NULL])), toJSONString(nan), toJSONString(toDate('2024-05-01'));
SELECT toJSONString(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT toStartOfInterval(toDateTime64('2024-05-06 07:08:09.777', 3, 'UTC'), INTERVAL 500 millisecond) AS t, toTypeName(t);
SELECT toStartOfInterval(toDateTime64('2024-05-06 07:08:09.777777', 6, 'UTC'), INTERVAL 2 millisecond);
SELECT toStartOfInterval(toDateTime64('2024-05-06 07:08:09.7', 1, 'UTC'), INTERVAL 10 microsecond) AS t, toTypeName(t);
SELECT toStartOfInterval(toDateTime('2024-05-06 07:08:09', 'UTC'), INTERVAL 5 millisecond); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT number FROM numbers(6) ORDER BY (number % 2, number) DESC;
SELECT number AS n, number % 3 AS m FROM numbers(6) ORDER BY (m, n) DESC;
SELECT number FROM numbers(10) ORDER BY number SETTINGS limit = 3;
SELECT number FROM numbers(10) ORDER BY number LIMIT 5 SETTINGS limit = 3, offset = 1;
SELECT number FROM numbers(10) ORDER BY number LIMIT 2 OFFSET 3 SETTINGS offset = 4;
SELECT number FROM numbers(10) ORDER BY number SETTINGS offset = 8;
SELECT number FROM numbers(3) ORDER BY number SETTINGS limit = 0;
CREATE TABLE logs (ts DateTime('UTC'), ts64 DateTime64(3, 'UTC'), level String, value Float64, attrs Map(String, String)) ENGINE = MergeTree ORDER BY ts;
INSERT INTO logs VALUES ('2024-05-01 10:00:05', '2024-05-01 10:00:05.250', 'error', 1.5, {'region':'eu'}), ('2024-05-01 10:00:05', '2024-05-01 10:00:05.750', 'Warning', 2, {}), ('2024-05-01 10:01:10', '2024-05-01 10:01:10.000', 'information', 0.25, {'region':'us','host':'a'}), ('2024-05-01 10:02:00', '2024-05-01 10:02:00.125', 'ERROR', -1, {'host':'b'});
SELECT ts64 as "timestamp", level FROM "logs" WHERE ( ts >= toDateTime(1714557600) AND ts <= toDateTime(1714557720) ) ORDER BY (ts, timestamp) DESC LIMIT 1000;
SELECT toStartOfInterval(toDateTime(ts), INTERVAL 60 second) as "time", sum(value) as total, count(*) FROM "logs" WHERE ( time >= toDateTime(1714557600) AND time <= toDateTime(1714557660) ) GROUP BY time ORDER BY time ASC LIMIT 1000;
SELECT toStartOfInterval("ts64", INTERVAL 1 MINUTE) as "time", sum(multiSearchAny(toString("level"), ['error','err','eror','ERROR','ERR','EROR','Error','Err','Eror'])) as error, sum(multiSearchAny(toString("level"), ['warn','warning','WARN','WARNING','Warn','Warning'])) as warn, sum(multiSearchAny(toString("level"), ['info','information','informational','INFO','INFORMATION','INFORMATIONAL','Info','Information','Informational'])) as info FROM "logs" GROUP BY time ORDER BY time ASC;
SELECT toStartOfInterval(toDateTime64(ts64, 3), INTERVAL 500 millisecond) AS t, count() FROM logs WHERE ts64 >= fromUnixTimestamp64Milli(1714557605500) AND ts64 <= fromUnixTimestamp64Milli(1714557730000) GROUP BY t ORDER BY t;
SELECT toUnixTimestamp64Milli(ts64), toJSONString(attrs), mapKeys(attrs) FROM logs ORDER BY ts64;
