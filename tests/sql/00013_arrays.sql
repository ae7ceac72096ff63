-- Arrays: literals, element access, has/indexOf/length, arrayJoin, lambdas.
SELECT [1, 2, 3], array(1, 2, 3), array('a'), emptyArrayUInt8(), range(4), range(0);
SELECT range(1, 4), range(0, 10, 3); -- { differential skip: range(start, end[, step]) is newer than 18.16 }
SELECT [10, 20, 30][1], [10, 20, 30][3], [10, 20, 30][-1], [10, 20, 30][4], [10, 20, 30][-4], ['a', 'b'][5];
SELECT arrayElement([1, 2], 2), [[1, 2], [3]][2][1];
SELECT length([1, 2, 3]), length([]), empty([]), notEmpty([1]), toTypeName([]);
SELECT has([1, 2, 3], 2), has([1, 2, 3], 5), has(['a', 'b'], 'b'), has([1, NULL], NULL);
SELECT has([], 1); -- { differential skip: 18.16 refuses has() on an empty array literal }
SELECT indexOf([5, 6, 7], 7), indexOf([5, 6, 7], 8), indexOf(['x', 'y'], 'x'), indexOf([1, NULL, 3], NULL);
SELECT hasAll([1, 2, 3], [1, 3]), hasAny([1, 2], [3, 4]), countEqual([1, 2, 1], 1);
SELECT arrayConcat([1], [2, 3], []), arrayPushBack([1], 2), arrayPushFront([1], 0), arraySlice([1, 2, 3, 4], 2, 2);
SELECT arraySort([3, 1, 2]), arrayReverseSort([3, 1, 2]), arrayReverse([1, 2, 3]), arrayDistinct([1, 2, 1, 3]), arrayUniq([1, 2, 1]);
SELECT arraySum([1, 2, 3]), arrayMin([3, 1, 2]), arrayMax([3, 1, 2]), arrayAvg([1, 2]); -- { differential skip: arrayMin/arrayMax/arrayAvg are newer than 18.16 }
SELECT arrayMap(x -> x * 2, [1, 2, 3]), arrayMap(x -> concat(x, '!'), ['a', 'b']), arrayMap((x, y) -> x + y, [1, 2], [10, 20]);
SELECT arrayFilter(x -> x % 2 = 0, [1, 2, 3, 4]), arrayFilter(x -> x != '', ['a', '', 'b']), arrayFilter(x -> 0, [1]);
SELECT arrayExists(x -> x > 2, [1, 2, 3]), arrayAll(x -> x > 0, [1, 2]), arrayCount(x -> x > 1, [1, 2, 3]), arraySum(x -> x * x, [1, 2, 3]);
SELECT arrayFirst(x -> x > 1, [1, 2, 3]), arrayFirstIndex(x -> x > 1, [1, 2, 3]), arrayCumSum([1, 2, 3]);
SELECT arrayEnumerate(['a', 'b', 'c']), arrayStringConcat(['a', 'b', 'c']), arrayStringConcat(['a', 'b', 'c'], ', ');
SELECT arrayStringConcat([], '-'); -- { differential skip: 18.16 arrayStringConcat takes only Array(String) }
SELECT arrayJoin([1, 2, 3]) AS x ORDER BY x;
SELECT arrayJoin(['a', 'b']) AS s, 1 AS one ORDER BY s;
SELECT number, arrayJoin(range(number)) AS r FROM numbers(4) ORDER BY number, r;
SELECT arrayJoin(emptyArrayUInt8());
SELECT x, count() FROM (SELECT arrayJoin([1, 1, 2, 3, 3, 3]) AS x) GROUP BY x ORDER BY x;
SELECT number, [number, number * 2] AS a, a[2], length(a) FROM numbers(3) ORDER BY number;
SELECT arrayMap(x -> arrayMap(y -> y + x, [1, 2]), [10, 20]);
SELECT toTypeName(arrayMap(x -> x * 2, [1, 2])), toTypeName([1, 2.5]), toTypeName([toNullable(1), 2]);
SELECT [1, 2] = [1, 2], [1, 2] < [1, 3], [] = [];
SELECT [1, 'a']; -- { serverError NO_COMMON_TYPE }
SELECT has(1, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayMap(x -> x, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayJoin(1); -- { serverError TYPE_MISMATCH }
