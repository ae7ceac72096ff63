-- VALUES into Array columns: an array literal is read by the column's own
-- text parser (its numbers keep their text, so 0.1 into Array(Decimal) is
-- exact), anything else is evaluated and cast, LowCardinality elements
-- included.
-- differential: skip LowCardinality needs allow_experimental_low_cardinality_type in 18.16
DROP TABLE IF EXISTS vc;
CREATE TABLE vc (a Array(Decimal(9, 2)), l Array(LowCardinality(String)), n Array(Nullable(Decimal(18, 4))), c LowCardinality(String)) ENGINE = MergeTree ORDER BY tuple();
INSERT INTO vc VALUES ([1.25, 0.1, 123456.78], ['x', 'y'], [NULL, 0.0001], 'z'), ([], [], [], '');
INSERT INTO vc VALUES ([toDecimal32(3.5, 2)], arrayMap(x -> toString(x), [1, 2]), [1 / 4], concat('a', 'b'));
INSERT INTO vc VALUES ([1, -2.50], ['a', 'b' || 'c'], [-0.5], 'q');
SELECT * FROM vc ORDER BY c;
SELECT sum(arraySum(a)), arraySort(groupArray(length(l))) FROM vc;
INSERT INTO vc VALUES (['x'], [], [], ''); -- { serverError CANNOT_PARSE_TEXT }
SELECT count() FROM vc;
DROP TABLE vc;
