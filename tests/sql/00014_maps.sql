-- differential: skip Map type and map functions are newer than ClickHouse 18.16
-- Maps: map(), element access, mapKeys/mapValues, Map columns.
SELECT map('a', 1, 'b', 2);
SELECT map('a', 1, 'b', 2)['b'], map('a', 1)['z'], map(1, 'x')[1];
SELECT toTypeName(map('a', 1)), toTypeName(map(1, 'x', 2, 'y'));
SELECT mapKeys(map('a', 1, 'b', 2)), mapValues(map('a', 1, 'b', 2));
SELECT map(), mapContains(map('a', 1), 'a'), mapContains(map('a', 1), 'z');
CREATE TABLE m (k UInt32, attrs Map(String, UInt64)) ENGINE = MergeTree ORDER BY k;
INSERT INTO m VALUES (1, {'x': 1, 'y': 2}), (2, {}), (3, {'x': 30});
SELECT k, attrs FROM m ORDER BY k;
SELECT k, attrs['x'], attrs['y'] FROM m ORDER BY k;
SELECT k, mapKeys(attrs), mapValues(attrs) FROM m ORDER BY k;
SELECT sum(attrs['x']) FROM m;
SELECT k FROM m WHERE attrs['y'] = 2;
SELECT k, arraySort(mapKeys(attrs)) FROM m WHERE length(mapKeys(attrs)) > 0 ORDER BY k;
INSERT INTO m FORMAT TabSeparated
4	{'z':7}
;
SELECT attrs FROM m WHERE k = 4;
SELECT map('a', 1, 'b'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT mapKeys(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
