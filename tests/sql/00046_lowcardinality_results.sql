-- A LowCardinality column selected as it is keeps its type in the result
-- (TSVWithNamesAndTypes, JSON meta, Native), as in ClickHouse, and
-- toTypeName names it, and so does a GROUP BY on it; what functions
-- compute from it and UNIONs with other types are plain.
-- differential: skip LowCardinality needs allow_experimental_low_cardinality_type in 18.16
DROP TABLE IF EXISTS lcr;
CREATE TABLE lcr (k UInt32, c LowCardinality(String), n LowCardinality(Nullable(String))) ENGINE = MergeTree ORDER BY k;
INSERT INTO lcr VALUES (1, 'a', NULL), (2, 'b', 'x'), (3, 'a', 'y');
SELECT c, n FROM lcr ORDER BY k FORMAT TSVWithNamesAndTypes;
SELECT * FROM lcr WHERE c = 'a' ORDER BY c, k FORMAT TSVWithNamesAndTypes;
SELECT DISTINCT c FROM lcr ORDER BY c FORMAT TSVWithNamesAndTypes;
SELECT c FROM lcr UNION ALL SELECT c FROM lcr ORDER BY c LIMIT 2 FORMAT TSVWithNamesAndTypes; -- ORDER BY and LIMIT belong to the second SELECT
SELECT * FROM (SELECT c FROM lcr UNION ALL SELECT 'z') ORDER BY c FORMAT TSVWithNamesAndTypes;
SELECT upper(c) AS u, length(n) AS l FROM lcr ORDER BY k FORMAT TSVWithNamesAndTypes;
SELECT c, count() FROM lcr GROUP BY c ORDER BY c FORMAT TSVWithNamesAndTypes;
SELECT n, count() FROM lcr GROUP BY n ORDER BY n FORMAT TSVWithNamesAndTypes;
SELECT toTypeName(c), toTypeName(n), toTypeName(upper(c)) FROM lcr LIMIT 1;
SELECT toTypeName(c) FROM (SELECT c FROM lcr) LIMIT 1;
DROP TABLE lcr;
