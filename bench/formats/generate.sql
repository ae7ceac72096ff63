-- bench/formats/generate.sql: the benchmark's events/log rows, generated
-- by ClickHouse 18.16 from numbers({rows}) (run.sh replaces {rows}), into
-- the table src (n UInt64, then the columns of the benchmark's table).
-- Every value is a function of the row number, so each run has the same
-- rows. Rows are in time order (one day from 2024-01-01 00:00:00 UTC, with
-- up to 4 s of jitter), as a log shipper sends them:
--   service      16 names, skewed (api, search, orders and gateway most)
--   host         <service>-0 .. <service>-23
--   level        DEBUG 10%, INFO 60%, WARN 20%, ERROR 10%
--   trace_id     random 64-bit
--   user_id      9-digit, skewed towards low ids (about 70,000 distinct)
--   duration_ms  log-uniform from 0.135 to 2981, three decimals
--   status       the HTTP status of access-log lines, NULL otherwise (~70%)
--   message      by level: access-log lines, logins with quoted names,
--                upstream resets, Java stack traces of 2-15 frames (newlines
--                and tabs), Windows paths (backslashes), cache lines with a
--                tail of 0-39 dots; 20 to ~1,000 bytes, ~150 on average.
INSERT INTO src
SELECT n, ts, service, host, level, trace_id, user_id, duration_ms, status,
    multiIf(
        kind = 0, concat(method, ' ', path, ' ', toString(assumeNotNull(status)), ' ',
                         toString(duration_ms), 'ms bytes=', toString(h3 % 200000),
                         ' ua="', agent, '"'),
        kind = 1, concat('user "', user, '" logged in from 10.', toString(h3 % 256), '.',
                         toString(intDiv(h3, 256) % 256), '.', toString(intDiv(h3, 65536) % 256),
                         ' session=', lower(hex(h4))),
        kind = 2, concat('upstream ', service, '-', toString(h3 % 12),
                         ':8080 connection reset by peer; retry ', toString(h3 % 5),
                         '/5 after ', toString(duration_ms), ' ms'),
        kind = 3, concat('java.lang.IllegalStateException: order ', toString(user_id),
                         ' is in state \'',
                         arrayElement(['NEW', 'PAID', 'SHIPPED', 'CANCELLED'],
                                      toUInt32(h3 % 4) + 1),
                         '\'',
                         arrayStringConcat(arrayMap(i -> concat('\n\tat com.example.', service,
                             '.Handler', toString(i), '.handle(Handler', toString(i), '.java:',
                             toString((h4 + i * 7919) % 900 + 10), ')'),
                             range(toUInt32(h3 % 14) + 2)), '')),
        kind = 4, concat('wrote ', toString(h3 % 5000), ' rows to C:\\data\\', service,
                         '\\part-', toString(h4 % 100000), '.tmp in ', toString(duration_ms),
                         ' ms'),
        concat('cache ', arrayElement(['hit', 'miss', 'evict'], toUInt32(h3 % 3) + 1), ' key=',
               service, ':', toString(user_id), ':', lower(hex(h4 % 4294967296)),
               substring('........................................', 1, h3 % 40)))
      AS message
FROM (
    SELECT number AS n,
        cityHash64(number, 1) AS h1, cityHash64(number, 2) AS h2,
        cityHash64(number, 3) AS h3, cityHash64(number, 4) AS h4,
        toDateTime(1704067200 + intDiv(number * 86400, {rows}) + (h1 % 5)) AS ts,
        arrayElement(['api', 'api', 'api', 'web', 'web', 'auth', 'billing', 'search', 'search',
                      'orders', 'orders', 'orders', 'inventory', 'notifier', 'gateway',
                      'gateway'], toUInt32(h1 % 16) + 1) AS service,
        concat(service, '-', toString(intDiv(h1, 16) % 24)) AS host,
        arrayElement(['DEBUG', 'INFO', 'INFO', 'INFO', 'INFO', 'INFO', 'INFO', 'WARN', 'WARN',
                      'ERROR'], toUInt32(h2 % 10) + 1) AS level,
        h4 AS trace_id,
        100000000 + toUInt64(pow(toFloat64(h2 % 1000000) / 1000000, 3) * 100000) AS user_id,
        round(exp(toFloat64(intDiv(h2, 1000000) % 10000) / 1000 - 2), 3) AS duration_ms,
        multiIf(level = 'ERROR', 3, level = 'WARN', toUInt32(intDiv(h3, 7) % 3) + 1,
                level = 'DEBUG', 5, toUInt32(intDiv(h3, 7) % 2) * 4) AS kind,
        if(kind = 0, toNullable(toUInt16(arrayElement([200, 200, 200, 200, 200, 200, 201, 204,
                                                       301, 304, 400, 404, 404, 500, 503],
                                                      toUInt32(intDiv(h4, 3) % 15) + 1))),
           NULL) AS status,
        arrayElement(['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'], toUInt32(h3 % 6) + 1)
            AS method,
        concat('/api/v1/', arrayElement(['users', 'orders', 'items', 'carts', 'search'],
                                        toUInt32(intDiv(h3, 6) % 5) + 1),
               '/', toString(user_id), if(h3 % 3 = 0, concat('?page=', toString(h4 % 50)), ''))
            AS path,
        arrayElement(['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36', 'curl/7.88.1',
                      'okhttp/4.9.3', 'python-requests/2.31.0'], toUInt32(intDiv(h4, 5) % 4) + 1)
            AS agent,
        arrayElement(['alice', 'bob', 'carol', 'dave', 'eve', 'mallory'], toUInt32(h3 % 6) + 1)
            AS user
    FROM numbers({rows})
)
