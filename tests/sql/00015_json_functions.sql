-- differential: skip JSONExtract* functions are newer than ClickHouse 18.16
-- JSON functions: JSONExtract*, JSONHas, JSONLength, JSONType.
SELECT JSONExtractString('{"a": "hello", "b": 1}', 'a');
SELECT JSONExtractInt('{"a": "hello", "b": -12}', 'b'), JSONExtractUInt('{"n": 42}', 'n'), JSONExtractFloat('{"f": 1.5}', 'f');
SELECT JSONExtractBool('{"t": true, "f": false}', 't'), JSONExtractBool('{"t": true, "f": false}', 'f');
SELECT JSONExtractString('{"a": {"b": "deep"}}', 'a', 'b'), JSONExtractInt('{"arr": [10, 20, 30]}', 'arr', 2), JSONExtractInt('{"arr": [10, 20, 30]}', 'arr', -1);
SELECT JSONExtractString('{"a": 1}', 'missing'), JSONExtractInt('{"a": "x"}', 'a'), JSONExtractInt('not json', 'a');
SELECT JSONExtractRaw('{"a": [1, 2, {"b": null}]}', 'a'), JSONExtractRaw('{"a": "s"}', 'a');
SELECT JSONHas('{"a": 1}', 'a'), JSONHas('{"a": 1}', 'b'), JSONLength('{"a": 1, "b": 2}'), JSONLength('[1, 2, 3]');
SELECT JSONType('{"a": 1}'), JSONType('{"a": 1}', 'a'), JSONType('[1]');
SELECT JSONExtract('{"a": [1, 2]}', 'a', 'Array(UInt8)'), JSONExtract('{"a": "x"}', 'a', 'Nullable(String)');
SELECT JSONExtractString('{"s": "esc\\"aped\\n"}', 's');
SELECT JSONExtractKeys('{"a": 1, "b": 2}');
SELECT number, JSONExtractUInt(concat('{"n": ', toString(number), '}'), 'n') FROM numbers(3) ORDER BY number;
SELECT JSONExtractString(1, 'a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
