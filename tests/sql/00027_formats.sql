-- Output formats: TabSeparated (escaping), WithNames, WithNamesAndTypes, CSV, JSONEachRow.
SELECT 1 AS a, 'x' AS b FORMAT TabSeparated;
SELECT number AS n, toString(number) AS s FROM numbers(3) ORDER BY n FORMAT TabSeparatedWithNames;
SELECT number AS n, toString(number) AS s, toDate('2020-01-01') AS d FROM numbers(2) ORDER BY n FORMAT TabSeparatedWithNamesAndTypes;
SELECT 1 AS a FORMAT TSV;
SELECT 1 AS a FORMAT TSVWithNames;
SELECT 'tab\there' AS s, 'new\nline' AS t, 'back\\slash' AS u, 'quote\'s' AS q, 'cr\rx' AS r FORMAT TabSeparated;
SELECT [1, 2] AS a, ['x', 'y\'z'] AS b, (1, 'a') AS t, NULL AS n, [NULL, 1] AS an FORMAT TabSeparated; -- { muscles todo: tuples (the Tuple type) are not supported yet }
SELECT 1.5 AS f, -0.0 AS nz, 1e100 AS big, 1 / 3 AS third, nan AS x, -inf AS y FORMAT TabSeparated;
SELECT number AS n, toString(number) AS s FROM numbers(2) ORDER BY n FORMAT CSV;
SELECT 'a,b' AS s, 'say "hi"' AS q, '' AS e, NULL AS n, 1.5 AS f, toDate('2020-01-01') AS d FORMAT CSV;
SELECT [1, 2] AS a, ['x', 'y'] AS b, 'line\nbreak' AS c FORMAT CSV;
SELECT number AS n FROM numbers(2) ORDER BY n FORMAT CSVWithNames;
SELECT number AS n, toString(number) AS s FROM numbers(2) ORDER BY n FORMAT JSONEachRow;
SELECT toUInt8(1) AS u8, toInt32(-2) AS i32, toUInt64(3) AS u64, toInt64(-4) AS i64, 1.5 AS f, 'str' AS s FORMAT JSONEachRow;
SELECT 'a"b' AS q, 'back\\slash' AS b, 'new\nline' AS n, 'slash/' AS sl, 'tab\t' AS t FORMAT JSONEachRow;
SELECT NULL AS n, [1, 2] AS a, ['x'] AS sa, toDate('2020-01-02') AS d, toDateTime('2020-01-02 03:04:05', 'UTC') AS dt FORMAT JSONEachRow;
SELECT nan AS x, inf AS y, -inf AS z FORMAT JSONEachRow;
SELECT 'é日本' AS u FORMAT JSONEachRow;
SELECT number AS n FROM numbers(3) WHERE 0 FORMAT TabSeparatedWithNames;
SELECT number AS n FROM numbers(3) WHERE 0 FORMAT JSONEachRow;
SELECT number AS n FROM numbers(3) WHERE 0 FORMAT CSV;
SELECT 1 + 1, 'x', number FROM numbers(1) FORMAT TabSeparatedWithNames;
SELECT toNullable(1) AS a, toFixedString('ab', 3) AS b, [toNullable('x')] AS c FORMAT TabSeparatedWithNamesAndTypes;
SELECT 1 FORMAT NoSuchFormat; -- { serverError UNKNOWN_FORMAT }
