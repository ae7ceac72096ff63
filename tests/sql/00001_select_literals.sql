-- Literals and their types: integers, floats, strings, NULL, arrays, tuples.
SELECT 1;
SELECT 1, 2, 3;
SELECT 0, -1, 255, 256, 65535, 65536, 4294967295, 4294967296;
SELECT toTypeName(0), toTypeName(255), toTypeName(256), toTypeName(65536), toTypeName(4294967296);
SELECT toTypeName(-1), toTypeName(-129), toTypeName(-32769), toTypeName(-2147483649);
SELECT 18446744073709551615, toTypeName(18446744073709551615);
SELECT 9223372036854775807, -9223372036854775807;
SELECT 1.5, -0.25, 1e3, 1.5e-3, toTypeName(1.5);
SELECT 0.1 + 0.2;
SELECT 'hello', '', 'it''s', 'back\\slash', 'tab\there';
SELECT toTypeName('x'), length('');
SELECT NULL, toTypeName(NULL);
SELECT [1, 2, 3], [], ['a', 'b'], [[1], [2, 3]];
SELECT toTypeName([1, 2]), toTypeName(['a']), toTypeName([1, NULL]);
SELECT (1, 'a'), toTypeName((1, 'a', 2.5)); -- { muscles todo: tuples (the Tuple type) are not supported yet }
SELECT 0x10, 0xff;
SELECT 1 AS x, x + 1 AS y, y * 2;
SELECT 'a' AS s, concat(s, 'b');
SELECT -(-5), - 5, -(1 + 2);
SELECT * FROM system.one;
SELECT dummy FROM system.one;
SELECT 1 FROM system.one WHERE 0;
